"""The mutant phase: which inserted oracles catch a fault that the correct code does not have?

Mutants of the focal classes (:mod:`oracular.mutation.operators`) are sampled (seeded); per
mutant only the mutated file is recompiled, and the variants that held on the correct code run
against it, one warm helper JVM per core. A kind kills a mutant when any test's variant of that
kind fails (or times out) on it. **Oracle-attributable kills** are the mutants a kind kills that
the bare prefixes do not: what the oracle itself adds.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from oracular.evaluation.bug_finding.records import (
    BARE,
    CHECKED,
    ProjectResult,
    TestFile,
    Usable,
    rank_kind,
    test_key,
    variant_key,
)
from oracular.evaluation.bug_finding.workers import Harness
from oracular.execution.jvm import JvmWorker, TestOutcome, TestRef
from oracular.java.source import load_source
from oracular.mutation.operators import Mutant, mutants_for
from oracular.mutation.runs import KILLING

EXAMPLES = 5
"""Mutants only an inserted oracle killed, shown in the report."""


@dataclass(frozen=True)
class _TestRun:
    """A usable variant, as run against a mutant."""

    kind: str
    test: tuple[str, int]
    """The test file's id and the test's index: a test's variants share its prefix."""
    limit_s: float


@dataclass
class MutantPhase:
    """Runs the usable variants against sampled mutants and counts what each kind kills."""

    harness: Harness
    usable: Usable
    operators: Sequence[str]
    max_mutants: int
    seed: int
    first_ranker: str
    """Its top-1 row (else the checked row) gives the report's examples."""

    def run(self, files: Sequence[TestFile], result: ProjectResult) -> None:
        """Fills ``result``'s kills (per kind, per operator; per test in its details) and the
        mutant counts."""
        sampled = self._sample(files, result)
        outcomes = self.harness.parallel(sampled, self._killing, "mutants")
        by_operator: dict[str, Counter[str]] = {kind: Counter() for kind in result.rows}
        by_test: dict[str, dict[str, list[str]]] = {}
        for mutant, killed in zip(sampled, outcomes, strict=True):
            if killed is None:
                result.counts["mutants_stillborn"] += 1
                continue
            result.counts["mutants_run"] += 1
            for kind in {kind for kind, _ in killed}:
                result.rows[kind].killed.add(mutant.id)
                by_operator[kind][mutant.operator] += 1
            for kind, (file_id, index) in killed:
                by_test.setdefault(test_key(file_id, index), {}).setdefault(kind, []).append(mutant.id)
        for detail in result.details:  # what each test's variants caught, to compare them test by test
            for kind, variant in detail["variants"].items():
                variant["kills"] = sorted(by_test.get(detail["key"], {}).get(kind, []))
        self._attribute(sampled, result)
        result.killed_by_operator = by_operator

    def _sample(self, files: Sequence[TestFile], result: ProjectResult) -> list[Mutant]:
        """Mutants of the focal classes that some usable variant tests, sampled and in file order."""
        classes_by_file: dict[Path, set[str]] = {}
        for test_file in files:
            for selected in test_file.tests:
                classes_by_file.setdefault(selected.focal_path, set()).add(selected.focal_class)
        mutants: list[Mutant] = []
        for path, classes in sorted(classes_by_file.items()):
            if str(path) in self.usable:
                mutants += mutants_for(load_source(path, lenient=True), path, classes, self.operators)
        result.mutants_by_operator = Counter(m.operator for m in mutants)
        rng = random.Random(self.seed)
        sampled = mutants if len(mutants) <= self.max_mutants else rng.sample(mutants, self.max_mutants)
        sampled.sort(key=lambda m: (str(m.path), m.start))
        result.sampled_by_operator = Counter(m.operator for m in sampled)
        result.counts["mutants_sampled"] = len(sampled)
        return sampled

    def _attribute(self, sampled: Sequence[Mutant], result: ProjectResult) -> None:
        """Each kind's kills beyond the bare prefixes', and a few mutants only an oracle killed."""
        killed_bare = result.rows[BARE].killed
        only_oracle: list[Mutant] = []
        for kind, row in result.rows.items():
            extra = row.killed - killed_bare if kind != BARE else set()
            row.attributable = len(extra)
            if kind in (rank_kind(self.first_ranker), CHECKED) and not only_oracle:
                only_oracle = [m for m in sampled if m.id in extra]
        result.examples = [m.description for m in only_oracle[:EXAMPLES]]

    def _killing(self, worker: JvmWorker, mutant: Mutant) -> set[tuple[str, tuple[str, int]]] | None:
        """The variants (kind, test) that kill ``mutant``; ``None`` when it does not compile (stillborn)."""
        classes = self._compile(worker, mutant)
        if classes is None:
            return None
        users = self.usable.get(str(mutant.path), [])
        files = {id(tf): tf for tf, _, _ in users}
        context = self.harness.context()
        classpath = [classes, *(tf.out_dir for tf in files.values() if tf.out_dir is not None)]
        classpath += [*context.classpath, *context.runtime_extra]
        runs: dict[tuple[str, str], _TestRun] = {}
        for test_file, selected, kind in users:
            assert test_file.scratch is not None and test_file.final is not None
            key = variant_key(selected.index, kind)
            method = test_file.scratch.methods.get(key)
            if method is None:
                continue
            elapsed = test_file.final.results[key].elapsed_ms / 1000
            limit = max(2.0, 5 * elapsed + 1.0)
            runs[(method.class_name, method.name)] = _TestRun(kind, (test_file.id, selected.index), limit)
        return _kills(worker, classpath, runs)

    def _compile(self, worker: JvmWorker, mutant: Mutant) -> Path | None:
        """The mutated file compiled alone against the build; the class folder, ``None`` if it fails."""
        classpath = self.harness.classpath
        slot = self.harness.work / "eval" / "mutants" / f"w{id(worker)}"
        src_root = next((r for r in classpath.layout.main_roots if mutant.path.is_relative_to(r)), None)
        if src_root is None:
            return None
        src = slot / "src" / mutant.path.relative_to(src_root)
        out = slot / "classes"
        shutil.rmtree(slot, ignore_errors=True)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_bytes(mutant.apply(mutant.path.read_bytes()))
        build = self.harness.build
        compiled = worker.compile([src], out, [build.classes, *build.dependencies(classpath)])
        return out if compiled.ok else None


def _kills(
    worker: JvmWorker, classpath: Sequence[Path], runs: dict[tuple[str, str], _TestRun]
) -> set[tuple[str, tuple[str, int]]]:
    """The variants (kind, test) that do not pass. The bare prefixes run first: when a prefix hangs
    or crashes, so would the test's other variants, which count as killing without a run."""
    bare = {ref: run for ref, run in runs.items() if run.kind == BARE}
    others = {ref: run for ref, run in runs.items() if run.kind != BARE}
    killed: set[tuple[str, tuple[str, int]]] = set()
    hung: set[tuple[str, int]] = set()
    first = worker.run(classpath, [TestRef(c, m, run.limit_s) for (c, m), run in bare.items()])
    for ref, run in bare.items():
        status = first.outcomes.get(ref, TestOutcome("notrun")).status
        if status in KILLING:
            killed.add((run.kind, run.test))
            if status != "failed":
                hung.add(run.test)
    killed |= {(run.kind, run.test) for run in others.values() if run.test in hung}
    todo = {ref: run for ref, run in others.items() if run.test not in hung}
    second = worker.run(classpath, [TestRef(c, m, run.limit_s) for (c, m), run in todo.items()])
    for ref, run in todo.items():
        if second.outcomes.get(ref, TestOutcome("notrun")).status in KILLING:
            killed.add((run.kind, run.test))
    return killed
