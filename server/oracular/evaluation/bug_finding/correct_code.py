"""The correct-code phase: does each inserted oracle compile and hold on the code as it is?

Each selected test file gets a scratch class with, per test, one method per compared oracle
source (a *variant*), run twice on the correct code:

- ``first``: the bare prefix, the developer's oracle, each ranker's top-1 and the first
  ranker's top-K candidates (which of them hold feeds the checked row), plus the prefix with its
  target's value observed (what the regression oracle records);
- ``final``: the same oracles with the checked one (the first of the top-K that held) and the
  regression oracle built from the recorded value.

A variant that fails in either run is a false positive (an oracle that fails on correct code is
a false alarm) and is not run against the mutants: only the *usable* ones are.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from oracular.corpus.devtests import DevTest, expected_edit
from oracular.engine import Suggestion
from oracular.evaluation.bug_finding.records import (
    BARE,
    CHECK_TOP_K,
    CHECKED,
    DEV,
    OBSERVE,
    OBSERVED,
    REGRESSION,
    ProjectResult,
    Row,
    Selected,
    TestFile,
    Usable,
    rank_kind,
    test_key,
    variant_key,
)
from oracular.evaluation.bug_finding.workers import Harness
from oracular.evaluation.realistic import answer_keys, suggestion_key
from oracular.evaluation.regression import regression_body
from oracular.execution.jvm import JvmWorker
from oracular.execution.observe import observe_statement
from oracular.execution.oracle_checks import BUG_SCORE
from oracular.execution.runner import ScratchOutcome, ScratchRunner
from oracular.execution.scratch import ByteEdit, ScratchBuilder, ScratchClass, Variant, body_edit, byte_edit
from oracular.java.junit import TestMethod
from oracular.java.source import SourceText

logger = logging.getLogger("oracular.eval")

Phase = Literal["first", "final"]


def oracle_rows(ranker_labels: Sequence[str], observed: bool) -> dict[str, Row]:
    """An empty row per compared oracle source, in the report's order."""
    first = ranker_labels[0]
    labels = {
        BARE: "never throws (bare prefix)",
        DEV: "developer's oracle",
        **{rank_kind(label): f"Oracular top-1 ({label} ranker)" for label in ranker_labels},
        **({rank_kind(OBSERVED): f"Oracular top-1 ({first} ranker, observed values)"} if observed else {}),
        CHECKED: f"Oracular, first of top-{CHECK_TOP_K} that holds now ({first} ranker, checked)",
        REGRESSION: "regression oracle (recorded value)",
    }
    return {kind: Row(label) for kind, label in labels.items()}


@dataclass
class CorrectCodePhase:
    """Runs the selected tests' variants on the correct code and counts them per kind."""

    harness: Harness
    root: Path
    ranker_labels: Sequence[str]
    observed: bool
    """Whether the selection observed the prefixes' values (the observed-values row)."""

    def run(self, files: Sequence[TestFile], result: ProjectResult) -> Usable:
        """Fills ``result``'s rows (and its per-test details); returns the usable variants."""
        self.harness.parallel(files, lambda w, f: self._run(w, f, "first"), "correct code (observe)")
        self.harness.parallel(files, lambda w, f: self._run(w, f, "final"), "correct code (oracles)")
        result.rows = oracle_rows(self.ranker_labels, self.observed)
        kinds = list(result.rows)
        usable: Usable = {}
        for test_file in files:
            for selected in test_file.tests:
                result.details.append(self._detail(test_file, selected, kinds))
                for kind in kinds:
                    if _holds(test_file, selected, kind, result.rows[kind]):
                        usable.setdefault(str(selected.focal_path), []).append((test_file, selected, kind))
        return usable

    def _run(self, worker: JvmWorker, test_file: TestFile, phase: Phase) -> None:
        work = self.harness.work / "eval"
        runner = ScratchRunner(worker, work, use_cache=False)
        context = self.harness.context()
        out = work / test_file.id / phase / "classes"
        scratch, outcome = runner.compile(self._builder(test_file, phase), context, out)
        if outcome.class_error is not None:  # every variant of the file counts as not compiling
            logger.warning(
                "%s: the scratch copy does not compile: %s", test_file.path.name, outcome.class_error
            )
        if outcome.class_error is None and scratch.methods:
            runner.run_compiled(scratch, outcome, out, context, timeout_s=30.0)
        if phase == "first":
            test_file.first = outcome
        else:
            test_file.final, test_file.scratch, test_file.out_dir = outcome, scratch, out

    def _builder(self, test_file: TestFile, phase: Phase) -> Callable[[frozenset[str]], ScratchClass]:
        """The scratch class of ``phase`` (the runner builds it again without the variants that did
        not compile)."""
        statuses = {(s.test.class_name, s.test.name): s for s in test_file.analysis.statuses}
        builder = ScratchBuilder(test_file.copy)
        imports: list[str] = []
        for selected in test_file.tests:
            test = statuses[selected.cut.key].test
            variants = self._variants(test_file, selected, test, phase, imports)
            builder.replace(test, variants)
            if phase == "final":
                test_file.offered |= {v.key for v in variants}
        builder.drop_other_tests(status.test for status in statuses.values())
        builder.add_imports(imports)
        return builder.build

    def _variants(
        self, test_file: TestFile, selected: Selected, test: TestMethod, phase: Phase, imports: list[str]
    ) -> list[Variant]:
        """One test's variants in ``phase``; the imports their oracles need go to ``imports``."""
        copy, index = test_file.copy, selected.index

        def inserted(kind: str, suggestion: Suggestion) -> Variant:
            imports.extend(sorted(line.text() for line in suggestion.rendered.imports))
            return Variant(variant_key(index, kind), (byte_edit(copy, suggestion.rendered.statement_edit),))

        variants = [
            Variant(variant_key(index, BARE)),
            Variant(variant_key(index, DEV), _developer_edits(test, selected.cut, copy)),
            *(inserted(rank_kind(label), top) for label, top in selected.tops.items() if top is not None),
        ]
        if phase == "first":
            variants += [inserted(_candidate_kind(c.rank), c) for c in selected.candidates[1:]]
        elif (checked := self._first_holding(test_file, selected)) is not None:
            selected.checked = checked
            variants.append(inserted(CHECKED, checked))
        prefix = _prefix_without_target_call(selected.cut.prefix, selected.target)
        if phase == "first" and selected.target is not None:
            body = [*prefix, observe_statement(str(index), selected.target)]
            variants.append(Variant(variant_key(index, OBSERVE), (body_edit(test, body, copy),)))
        if phase == "final" and (body := _regression(test_file, selected, prefix)) is not None:
            variants.append(Variant(variant_key(index, REGRESSION), (body_edit(test, body, copy),)))
        return variants

    def _first_holding(self, test_file: TestFile, selected: Selected) -> Suggestion | None:
        """What a user picking the best-ranked "holds now" candidate gets (the check as a filter)."""
        first = test_file.first
        if first is None:
            return None
        for candidate in selected.candidates:
            kind = (
                rank_kind(self.ranker_labels[0]) if candidate.rank == 1 else _candidate_kind(candidate.rank)
            )
            result = first.results.get(variant_key(selected.index, kind))
            if result is not None and result.status == "passed":
                return candidate
        return None

    def _detail(self, test_file: TestFile, selected: Selected, kinds: Sequence[str]) -> dict[str, Any]:
        """Each variant's oracle and what it did in the final run, for an audit of the figures."""
        final = test_file.final
        assert final is not None
        variants = {}
        for kind in kinds:
            key = variant_key(selected.index, kind)
            if key in test_file.offered:
                status, why = _final_status(final, key)
                variants[kind] = {"oracle": _oracle(selected, kind), "status": status, "why": why[:300]}
                top = selected.top_of(kind)
                if top is not None:  # a ranker's top-1: the developer's oracle, as eval --realistic judges?
                    variants[kind]["developers"] = suggestion_key(top) in answer_keys(selected.cut)
        return {
            "key": test_key(test_file.id, selected.index),
            "file": str(test_file.path.relative_to(self.root)),
            "test": f"{selected.cut.class_name}.{selected.cut.name}",
            "kind": selected.cut.kind,
            "prefix_last": selected.cut.prefix[-1] if selected.cut.prefix else "",
            "focal": selected.focal_class,
            "variants": variants,
        }


def _candidate_kind(rank: int) -> str:
    """The first ranker's candidate at ``rank`` (> 1), tried in the first run only: the checked row
    takes the best-ranked one that held."""
    return f"cand:{rank}"


def _developer_edits(test: TestMethod, cut: DevTest, copy: SourceText) -> tuple[ByteEdit, ...]:
    """The developer's oracle back after the prefix (and a JUnit 4 ``expected`` back on ``@Test``)."""
    edits = [body_edit(test, cut.dev, copy)]
    if cut.dev_expected and (edit := expected_edit(test, cut.dev_expected)) is not None:
        edits.append(edit)
    return tuple(edits)


def _prefix_without_target_call(prefix: Sequence[str], target: str | None) -> list[str]:
    """A prefix ending in ``target;`` drops it when the oracle evaluates ``target`` itself."""
    statements = list(prefix)
    if target is not None and statements and statements[-1].strip() == f"{target};":
        statements.pop()
    return statements


def _regression(test_file: TestFile, selected: Selected, prefix: list[str]) -> list[str] | None:
    """The recorded-value oracle, from the value the first run observed (``None``: none was)."""
    first = test_file.first
    if first is None:
        return None
    observed = first.results.get(variant_key(selected.index, OBSERVE))
    if observed is None:
        return None
    observation = first.observations.get(str(selected.index))
    return regression_body(selected.cut.flavour, prefix, selected.target, observed, observation)


def _holds(test_file: TestFile, selected: Selected, kind: str, row: Row) -> bool:
    """Counts the test's variant of ``kind`` in ``row``; whether it passed on the correct code in
    both runs (a variant offered but left out for not compiling counts as a test only)."""
    final, first = test_file.final, test_file.first
    assert final is not None and first is not None
    key = variant_key(selected.index, kind)
    if key not in test_file.offered:
        return False
    row.tests += 1
    result = final.results.get(key)
    if result is None:  # did not compile (alone, or the whole scratch class)
        return False
    row.compiled += 1
    earlier = first.results.get(key)
    if result.status == "passed" and (earlier is None or earlier.status == "passed"):
        row.usable += 1
        return True
    row.failing += 1
    top = selected.top_of(kind)
    if top is not None and top.score >= BUG_SCORE:
        row.failing_confident += 1
    return False


def _final_status(final: ScratchOutcome, key: str) -> tuple[str, str]:
    """The variant's status in the final run, and why (an error, an exception)."""
    result = final.results.get(key)
    if key in final.compile_errors:
        return "does-not-compile", final.compile_errors[key]
    if result is None:
        return "not-run", final.class_error or final.crashed or ""
    return result.status, f"{result.exception}: {result.message}" if result.exception else ""


def _oracle(selected: Selected, kind: str) -> str | None:
    """The oracle the test's variant of ``kind`` inserts, as the audit shows it."""
    if kind == DEV:
        return selected.cut.oracle
    if kind == CHECKED:
        checked = selected.checked
        return f"#{checked.rank}: {checked.oracle}" if checked is not None else None
    top = selected.top_of(kind)
    return top.oracle if top is not None else None
