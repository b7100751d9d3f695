"""``oracular eval --mutants``: do inserted oracles catch real faults without failing on correct code?

The protocol, per dev project (one that compiles with Debian's jars):

1. Build the main and test sources with javac (:mod:`oracular.evaluation.build`).
2. Cut every developer test before its first oracle (:mod:`oracular.corpus.devtests`) and keep
   those whose focal method is in the main sources; sample ``max_tests`` of them (seeded).
3. Ask the engine for its top-1 oracle on the oracle-free copy of each file, once per ranker,
   and once more with the prefixes' values observed, as the editor and ``suggest`` do by default.
4. Compile a scratch copy of each test file with, per test, the variants compared: the bare
   prefix ("never throws"), the developer's oracle, each ranker's top-1, and the recorded-value
   regression oracle (observed in a first run). Run them on the correct code: compile rate and
   false-positive rate (an oracle that fails on correct code is a false alarm). Variants that
   fail in either of the two correct-code runs are not used further.
5. Generate mutants of the focal classes (:mod:`oracular.evaluation.mutants`), sample
   ``max_mutants`` (seeded), recompile only the mutated file per mutant, and run the relevant
   tests' variants on it, one warm helper JVM per core. A mutant is killed by a variant kind if
   any test's variant of that kind fails (or times out) on it. **Oracle-attributable kills** are
   the mutants a kind kills that the bare prefixes do not: what the oracle itself adds.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import random
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from oracular.candidates.observed import FileObservation
from oracular.candidates.style import junit4_supports_assert_throws
from oracular.corpus.devtests import DevTest, cut_file, expected_edit, find_status, oracle_free_copy
from oracular.corpus.fetch import MARKER_NAME
from oracular.engine import EngineSettings, FileAnalysis, OracleEngine, Suggestion
from oracular.evaluation.build import Build, build_project
from oracular.evaluation.mutants import OPERATORS, Mutant, mutants_for
from oracular.evaluation.regression import regression_body
from oracular.execution.checks import BUG_SCORE, CheckSettings, OracleChecker, module_root
from oracular.execution.classpath import Classpath, ClasspathSettings, discover
from oracular.execution.jvm import JvmWorker, TestOutcome, TestRef, cache_root, find_toolchain
from oracular.execution.observe import ValueObserver, observe_statement
from oracular.execution.runner import CompileContext, ScratchOutcome, ScratchRunner
from oracular.execution.scratch import (
    ScratchBuilder,
    ScratchClass,
    Variant,
    binary_class_name,
    body_edit,
    byte_edit,
)
from oracular.java.source import SourceError, SourceText, load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import Ranker

logger = logging.getLogger("oracular.eval")

DEFAULT_PROJECTS = ("commons-csv", "joptsimple", "java-diff-utils", "commons-io")
"""Dev projects whose main sources compile with no jar at all and whose tests need little beyond
JUnit, Hamcrest, AssertJ and Mockito from Debian (see docs/execution.md)."""
KILLING = frozenset({"failed", "timeout", "crashed", "notrun"})
BARE, DEV, REGRESSION, OBSERVE, CHECKED = "bare", "dev", "regression", "observe", "checked"
OBSERVED = "observed"
"""The ``tops`` label of the first ranker's top-1 when the prefixes' values were observed."""
CHECK_TOP_K = 5
"""The checked row picks the first of this many candidates that holds on the correct code."""


@dataclass
class Row:
    """One compared oracle source: how it does on correct code and on mutants."""

    label: str
    tests: int = 0
    """Tests for which this source produced an oracle."""
    compiled: int = 0
    failing: int = 0
    """Compiled, but failed on the correct code (false positives)."""
    usable: int = 0
    """Passed on the correct code in both runs: these run against the mutants."""
    killed: set[str] = field(default_factory=set)
    attributable: int = 0
    failing_confident: int = 0
    """False positives a check would have called "possible bug" (score >= BUG_SCORE)."""
    stored_kills: int = 0
    """The kill count of a row read back from JSON (mutant ids are not stored there)."""

    @property
    def compile_rate(self) -> float:
        return self.compiled / self.tests if self.tests else 0.0

    @property
    def fp_rate(self) -> float:
        return self.failing / self.compiled if self.compiled else 0.0

    @property
    def killed_count(self) -> int:
        return len(self.killed) if self.killed else self.stored_kills

    @classmethod
    def from_json(cls, data: dict) -> Row:
        row = cls(data["label"], data["tests"], data["compiled"], data["failing"], data["usable"])
        row.attributable, row.failing_confident = data["attributable"], data["failing_confident"]
        row.stored_kills = data["killed"]
        return row

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "tests": self.tests,
            "compiled": self.compiled,
            "failing": self.failing,
            "usable": self.usable,
            "killed": self.killed_count,
            "attributable": self.attributable,
            "failing_confident": self.failing_confident,
        }


@dataclass
class ProjectResult:
    name: str
    version: str
    root: Path
    classpath: str
    rankers: list[str]
    ranker_note: str
    build: dict[str, Any] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    timings: dict[str, float] = field(default_factory=dict)
    rows: dict[str, Row] = field(default_factory=dict)
    mutants_by_operator: Counter[str] = field(default_factory=Counter)
    sampled_by_operator: Counter[str] = field(default_factory=Counter)
    killed_by_operator: dict[str, Counter[str]] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)
    """A few mutants only an inserted oracle killed, for the report."""
    details: list[dict[str, Any]] = field(default_factory=list)
    """Per evaluated test: each variant's oracle and what it did on the correct code (for audit)."""
    jobs: int = 1

    @classmethod
    def from_json(cls, data: dict) -> ProjectResult:
        """A result read back from ``--json`` output (to re-render the report without re-running)."""
        result = cls(
            data["name"], data["version"], Path(data["root"]), data["classpath"], data["rankers"],
            data["ranker_note"], data["build"], Counter(data["counts"]), data["timings"],
        )  # fmt: skip
        result.rows = {k: Row.from_json(v) for k, v in data["rows"].items()}
        result.mutants_by_operator = Counter(data["mutants_by_operator"])
        result.sampled_by_operator = Counter(data["sampled_by_operator"])
        result.killed_by_operator = {k: Counter(v) for k, v in data["killed_by_operator"].items()}
        result.examples, result.jobs, result.details = data["examples"], data["jobs"], data.get("details", [])
        return result

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "version": self.version,
            "root": str(self.root),
            "classpath": self.classpath,
            "rankers": self.rankers,
            "ranker_note": self.ranker_note,
            "build": self.build,
            "counts": dict(self.counts),
            "timings": self.timings,
            "rows": {k: r.to_json() for k, r in self.rows.items()},
            "mutants_by_operator": dict(self.mutants_by_operator),
            "sampled_by_operator": dict(self.sampled_by_operator),
            "killed_by_operator": {k: dict(v) for k, v in self.killed_by_operator.items()},
            "examples": self.examples,
            "jobs": self.jobs,
            "details": self.details,
        }


# -- per test file ----------------------------------------------------------------------------
@dataclass
class Selected:
    """A cut developer test, with what each ranker suggests for it."""

    cut: DevTest
    index: int
    tops: dict[str, Suggestion | None]
    focal_path: Path
    focal_class: str
    """Binary name of the top-level class holding the focal method."""
    target: str | None
    """The expression the regression oracle records (the first ranker's target, else the first)."""
    candidates: list[Suggestion] = field(default_factory=list)
    """The first ranker's top-K, for the checked row (the first of them that holds)."""
    checked: Suggestion | None = None


@dataclass
class TestFile:
    path: Path
    copy: SourceText
    """The file with the selected tests cut before their oracle."""
    analysis: FileAnalysis
    tests: list[Selected] = field(default_factory=list)
    offered: set[str] = field(default_factory=set)
    """Variant keys of the final scratch class (before any was left out for not compiling)."""
    scratch: ScratchClass | None = None
    out_dir: Path | None = None
    first: ScratchOutcome | None = None
    final: ScratchOutcome | None = None

    @property
    def id(self) -> str:
        return hashlib.sha1(str(self.path).encode()).hexdigest()[:12]


def _key(index: int, kind: str) -> str:
    return f"{index}:{kind}"


def _rank_kind(label: str) -> str:
    return f"rank:{label}"


def default_rankers() -> tuple[list[tuple[str, Ranker]], str]:
    """The engine's ranker and the baseline; one row when the engine ranks with the baseline."""
    from oracular.models.ranker import default_ranker

    ranker = default_ranker()
    reason = ranker.fallback_reason
    if isinstance(ranker, BaselineRanker) or reason:
        note = reason or "ORACULAR_RANKER=baseline: the baseline heuristic ranks"
        return [("baseline", BaselineRanker())], note
    return [("neural", ranker), ("baseline", BaselineRanker())], "neural model and baseline heuristic"


class WorkerPool:
    """``jobs`` warm helper JVMs, one per thread at a time."""

    def __init__(self, jobs: int, cwd: Path, resources: Sequence[Path] = ()) -> None:
        toolchain = find_toolchain()
        self.workers = [JvmWorker(toolchain, cwd, heap="768m", resources=resources) for _ in range(jobs)]
        self._free: queue.Queue[JvmWorker] = queue.Queue()
        for worker in self.workers:
            self._free.put(worker)

    @contextmanager
    def worker(self) -> Iterator[JvmWorker]:
        worker = self._free.get()
        try:
            yield worker
        finally:
            self._free.put(worker)

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


def _prefix_without_target_call(prefix: Sequence[str], target: str | None) -> list[str]:
    """A prefix ending in ``target;`` drops it when the oracle evaluates ``target`` itself."""
    statements = list(prefix)
    if target is not None and statements and statements[-1].strip() == f"{target};":
        statements.pop()
    return statements


class ProjectEvaluation:
    """One project's evaluation, step by step (see the module docstring); :meth:`run` does it all."""

    def __init__(
        self,
        root: Path,
        rankers: list[tuple[str, Ranker]],
        ranker_note: str,
        max_tests: int,
        max_mutants: int,
        jobs: int,
        seed: int,
        progress: bool,
        work_dir: Path,
        operators: Sequence[str] = OPERATORS,
        observe: bool = True,
    ) -> None:
        self.root = root.resolve()
        self.observe = observe
        """Add the row of the engine's top-1 with observed values (the editor's default)."""
        self.observer: ValueObserver | None = None
        self.operators = tuple(operators)
        self.rankers = rankers
        self.max_tests = max_tests
        self.max_mutants = max_mutants
        self.jobs = jobs
        self.seed = seed
        self.progress = progress
        self.work = work_dir / hashlib.sha1(str(self.root).encode()).hexdigest()[:12]
        marker = self.root / MARKER_NAME
        version = ""
        if marker.exists():
            version = json.loads(marker.read_text(encoding="utf-8")).get("version", "")
        self.result = ProjectResult(
            self.root.name, version, self.root, "", [label for label, _ in rankers], ranker_note, jobs=jobs
        )
        self.files: list[TestFile] = []
        self.usable: dict[str, list[tuple[TestFile, Selected, str]]] = {}
        """Focal file -> the (test file, test, variant kind) that pass on the correct code."""
        self.classpath: Classpath | None = None
        self.build: Build | None = None
        self.pool: WorkerPool | None = None

    # -- helpers ---------------------------------------------------------------------------
    def _timed(self, name: str, start: float) -> None:
        self.result.timings[name] = round(time.monotonic() - start, 1)

    def _context(self) -> CompileContext:
        assert self.build is not None and self.classpath is not None
        return CompileContext(
            classpath=(self.build.test_classes, self.build.classes, *self.classpath.dependencies),
            runtime_extra=self.classpath.layout.resource_dirs,
        )

    def _parallel(self, items: Sequence[Any], task: Callable[[JvmWorker, Any], Any], desc: str) -> list[Any]:
        assert self.pool is not None
        pool = self.pool
        results: list[Any] = [None] * len(items)

        def run(i: int) -> tuple[int, Any]:
            with pool.worker() as worker:
                return i, task(worker, items[i])

        with (
            ThreadPoolExecutor(max_workers=self.jobs) as executor,
            tqdm(
                total=len(items),
                desc=desc,
                unit="mutant" if desc.endswith("mutants") else "file",
                disable=not self.progress,
            ) as bar,  # fmt: skip
        ):
            futures = [executor.submit(run, i) for i in range(len(items))]
            for future in as_completed(futures):
                i, value = future.result()
                results[i] = value
                bar.update()
        return results

    # -- steps -----------------------------------------------------------------------------
    def run(self) -> ProjectResult:
        total = time.monotonic()
        shutil.rmtree(self.work / "eval", ignore_errors=True)
        start = time.monotonic()
        self.classpath = discover(self.root, ClasspathSettings())
        self.result.classpath = self.classpath.describe()
        self._timed("classpath_s", start)
        cwd = self._cwd()
        self.pool = WorkerPool(self.jobs, cwd, self.classpath.layout.resource_dirs)
        checker = OracleChecker(CheckSettings()) if self.observe else None
        self.observer = ValueObserver(checker) if checker is not None else None
        try:
            start = time.monotonic()
            with self.pool.worker() as worker:
                self.build = build_project(worker, self.classpath, self.work)
            self.result.build = {
                "main_files": len(self.build.main_files),
                "main_dropped": len(self.build.main_dropped),
                "test_files": len(self.build.test_files),
                "test_dropped": len(self.build.test_dropped),
            }
            self._timed("build_s", start)
            start = time.monotonic()
            self._select_tests()
            self._timed("engine_s", start)
            start = time.monotonic()
            self._correct_code()
            self._timed("correct_code_s", start)
            start = time.monotonic()
            self._mutants()
            self._timed("mutants_s", start)
        finally:
            self.pool.close()
            if checker is not None:
                checker.close()
        self._timed("total_s", total)
        return self.result

    def _cwd(self) -> Path:
        assert self.classpath is not None
        roots = Counter(module_root(r) for r in self.classpath.layout.test_roots)
        return roots.most_common(1)[0][0] if roots else self.root

    def _select_tests(self) -> None:
        assert self.build is not None and self.classpath is not None
        index = WorkspaceIndex([self.root])
        index.refresh()
        engines = {}
        for i, (label, ranker) in enumerate(self.rankers):  # the first ranker's top-K feeds the checked row
            settings = EngineSettings(top_k=CHECK_TOP_K if i == 0 else 1, abstain_below=0.0)
            engines[label] = OracleEngine(index, ranker, settings, self.root)
        first = next(iter(engines.values()))
        main_files = {p.resolve() for p in self.build.main_files}
        candidates: list[tuple[TestFile, Selected]] = []
        for path in self.build.test_files:
            try:
                source = load_source(path, lenient=True)
            except SourceError:
                continue
            analysis = first.analyse(source)
            cuts = cut_file(first, analysis)
            self.result.counts["tests"] += len(analysis.statuses)
            self.result.counts["tests_cut"] += len(cuts)
            if not cuts:
                continue
            copy = oracle_free_copy(source, analysis, cuts)
            copy_analysis = first.analyse(copy)
            assert_throws = junit4_supports_assert_throws(self.root, copy.text)
            test_file = TestFile(path, copy, copy_analysis)
            observed = self._observe(first, copy_analysis, cuts)
            for i, cut in enumerate(cuts):
                status = find_status(copy_analysis, cut)
                if status is None or not status.oracle_free:
                    self.result.counts["cut_not_oracle_free"] += 1
                    continue
                tops: dict[str, Suggestion | None] = {}
                if (observation := observed.tests.get(status.test.line + 1)) is not None:
                    report, _renderer = first.suggest_test(copy_analysis, status, assert_throws,
                                                           observation=observation)  # fmt: skip
                    tops[OBSERVED] = report.suggestions[0] if report.suggestions else None
                    self.result.counts["tests_observed"] += observation.ran
                focal = None
                target = None
                ranked: list[Suggestion] = []
                for label, engine in engines.items():
                    report, _renderer = engine.suggest_test(copy_analysis, status, assert_throws)
                    tops[label] = report.suggestions[0] if report.suggestions else None
                    ranked = ranked or list(report.suggestions)
                    if focal is None:
                        focal = report.focal
                    top = tops[label]
                    if target is None and top is not None and top.candidate.target is not None:
                        target = top.candidate.target.expression
                if (
                    focal is None
                    or focal.cls.path is None
                    or Path(focal.cls.path).resolve() not in main_files
                ):
                    self.result.counts["focal_not_in_main"] += 1
                    continue
                if target is None:
                    prefix = first.prefix_for(copy_analysis, status)
                    target = prefix.targets[0].expression if prefix is not None and prefix.targets else None
                top_class = focal.cls.qualified_name.removeprefix(f"{focal.cls.package}.").split(".")[0]
                selected = Selected(
                    cut, i, tops, Path(focal.cls.path).resolve(),
                    binary_class_name(focal.cls.package, top_class), target, ranked,
                )  # fmt: skip
                candidates.append((test_file, selected))
        self.result.counts["tests_eligible"] = len(candidates)
        rng = random.Random(self.seed)
        chosen = candidates if len(candidates) <= self.max_tests else rng.sample(candidates, self.max_tests)
        by_file: dict[Path, TestFile] = {}
        for test_file, selected in chosen:
            by_file.setdefault(test_file.path, test_file).tests.append(selected)
        self.files = sorted(by_file.values(), key=lambda f: str(f.path))
        for test_file in self.files:
            test_file.tests.sort(key=lambda s: s.index)
        self.result.counts["tests_selected"] = len(chosen)
        self.result.counts["test_files_selected"] = len(self.files)

    def _observe(
        self, engine: OracleEngine, analysis: FileAnalysis, cuts: Sequence[DevTest]
    ) -> FileObservation:
        """The cut tests' prefixes run as the editor runs them (:mod:`oracular.execution.observe`)."""
        if self.observer is None:
            return FileObservation()
        statuses = [s for cut in cuts if (s := find_status(analysis, cut)) is not None and s.oracle_free]
        prefixes = {s.test.line: engine.prefix_for(analysis, s) for s in statuses}
        return engine.observe(self.observer, analysis, statuses, prefixes)

    # -- correct code ----------------------------------------------------------------------
    def _builder(self, test_file: TestFile, phase: str) -> Callable[[frozenset[str]], ScratchClass]:
        copy = test_file.copy
        analysis_statuses = {(s.test.class_name, s.test.name): s for s in test_file.analysis.statuses}
        imports: list[str] = []
        plans = []
        for selected in test_file.tests:
            status = analysis_statuses[selected.cut.key]
            test = status.test
            variants = [Variant(_key(selected.index, BARE))]
            dev_edits = [body_edit(test, selected.cut.dev, copy)]
            if selected.cut.dev_expected:
                edit = expected_edit(test, selected.cut.dev_expected)
                if edit is not None:
                    dev_edits.append(edit)
            variants.append(Variant(_key(selected.index, DEV), tuple(dev_edits)))
            for label, top in selected.tops.items():
                if top is None:
                    continue
                variants.append(
                    Variant(
                        _key(selected.index, _rank_kind(label)),
                        (byte_edit(copy, top.rendered.statement_edit),),
                    )
                )
                imports += sorted(line.text() for line in top.rendered.imports)
            if phase == "first":
                for candidate in selected.candidates[1:]:
                    key = _key(selected.index, f"cand:{candidate.rank}")
                    variants.append(Variant(key, (byte_edit(copy, candidate.rendered.statement_edit),)))
                    imports += sorted(line.text() for line in candidate.rendered.imports)
            elif (checked := self._first_holding(test_file, selected)) is not None:
                selected.checked = checked
                variants.append(
                    Variant(
                        _key(selected.index, CHECKED), (byte_edit(copy, checked.rendered.statement_edit),)
                    )
                )
                imports += sorted(line.text() for line in checked.rendered.imports)
            prefix = _prefix_without_target_call(selected.cut.prefix, selected.target)
            if phase == "first" and selected.target is not None:
                body = [*prefix, observe_statement(str(selected.index), selected.target)]
                variants.append(Variant(_key(selected.index, OBSERVE), (body_edit(test, body, copy),)))
            if phase == "final":
                body = self._regression(test_file, selected, prefix)
                if body is not None:
                    variants.append(Variant(_key(selected.index, REGRESSION), (body_edit(test, body, copy),)))
            plans.append((test, variants))
        builder = ScratchBuilder(copy)
        for test, variants in plans:
            builder.replace(test, variants)
            if phase == "final":
                test_file.offered |= {v.key for v in variants}
        builder.drop_other_tests(analysis_statuses[k].test for k in analysis_statuses)
        builder.add_imports(imports)
        return builder.build

    def _first_holding(self, test_file: TestFile, selected: Selected) -> Suggestion | None:
        """What a user picking the best-ranked "holds now" candidate gets (the check as a filter)."""
        first = test_file.first
        if first is None:
            return None
        label = self.rankers[0][0]
        for candidate in selected.candidates:
            kind = _rank_kind(label) if candidate.rank == 1 else f"cand:{candidate.rank}"
            result = first.results.get(_key(selected.index, kind))
            if result is not None and result.status == "passed":
                return candidate
        return None

    def _regression(self, test_file: TestFile, selected: Selected, prefix: list[str]) -> list[str] | None:
        first = test_file.first
        if first is None:
            return None
        observed = first.results.get(_key(selected.index, OBSERVE))
        if observed is None:
            return None
        observation = first.observations.get(str(selected.index))
        return regression_body(selected.cut.flavour, prefix, selected.target, observed, observation)

    def _run_phase(self, worker: JvmWorker, test_file: TestFile, phase: str) -> None:
        runner = ScratchRunner(worker, self.work / "eval", use_cache=False)
        context = self._context()
        out = self.work / "eval" / test_file.id / phase / "classes"
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

    def _correct_code(self) -> None:
        self._parallel(self.files, lambda w, f: self._run_phase(w, f, "first"), "correct code (observe)")
        self._parallel(self.files, lambda w, f: self._run_phase(w, f, "final"), "correct code (oracles)")
        first_label = self.rankers[0][0]
        observed = [_rank_kind(OBSERVED)] if self.observer is not None else []
        kinds = [BARE, DEV, *(_rank_kind(label) for label, _ in self.rankers), *observed, CHECKED, REGRESSION]
        labels = {
            BARE: "never throws (bare prefix)",
            DEV: "developer's oracle",
            REGRESSION: "regression oracle (recorded value)",
            CHECKED: f"Oracular, first of top-{CHECK_TOP_K} that holds now ({first_label} ranker, checked)",
            **{_rank_kind(label): f"Oracular top-1 ({label} ranker)" for label, _ in self.rankers},
            _rank_kind(OBSERVED): f"Oracular top-1 ({first_label} ranker, observed values)",
        }
        self.result.rows = {kind: Row(labels[kind]) for kind in kinds}
        for test_file in self.files:
            final, first = test_file.final, test_file.first
            assert final is not None and first is not None
            for selected in test_file.tests:
                self.result.details.append(self._detail(test_file, selected, kinds))
                for kind in kinds:
                    key = _key(selected.index, kind)
                    if key not in test_file.offered:
                        continue
                    row = self.result.rows[kind]
                    row.tests += 1
                    result = final.results.get(key)
                    if result is None:  # did not compile (alone, or the whole scratch class)
                        continue
                    row.compiled += 1
                    earlier = first.results.get(key)
                    stable = result.status == "passed" and (earlier is None or earlier.status == "passed")
                    if not stable:
                        row.failing += 1
                        top = (
                            selected.tops.get(kind.removeprefix("rank:"))
                            if kind.startswith("rank:")
                            else None
                        )
                        if top is not None and top.score >= BUG_SCORE:
                            row.failing_confident += 1
                        continue
                    row.usable += 1
                    self.usable.setdefault(str(selected.focal_path), []).append((test_file, selected, kind))

    def _detail(self, test_file: TestFile, selected: Selected, kinds: list[str]) -> dict[str, Any]:
        final = test_file.final
        assert final is not None
        variants = {}
        for kind in kinds:
            key = _key(selected.index, kind)
            if key not in test_file.offered:
                continue
            result = final.results.get(key)
            if key in final.compile_errors:
                status, why = "does-not-compile", final.compile_errors[key]
            elif result is None:
                status, why = "not-run", final.class_error or final.crashed or ""
            else:
                status, why = (
                    result.status,
                    f"{result.exception}: {result.message}" if result.exception else "",
                )
            oracle = selected.cut.oracle if kind == DEV else None
            if kind.startswith("rank:"):
                top = selected.tops.get(kind.removeprefix("rank:"))
                oracle = top.oracle if top is not None else None
            elif kind == CHECKED and selected.checked is not None:
                oracle = f"#{selected.checked.rank}: {selected.checked.oracle}"
            variants[kind] = {"oracle": oracle, "status": status, "why": why[:300]}
        return {
            "file": str(test_file.path.relative_to(self.root)),
            "test": f"{selected.cut.class_name}.{selected.cut.name}",
            "kind": selected.cut.kind,
            "prefix_last": selected.cut.prefix[-1] if selected.cut.prefix else "",
            "focal": selected.focal_class,
            "variants": variants,
        }

    # -- mutants ---------------------------------------------------------------------------
    def _mutants(self) -> None:
        classes_by_file: dict[Path, set[str]] = {}
        for test_file in self.files:
            for selected in test_file.tests:
                classes_by_file.setdefault(selected.focal_path, set()).add(selected.focal_class)
        mutants: list[Mutant] = []
        for path, classes in sorted(classes_by_file.items()):
            if str(path) not in self.usable:
                continue
            source = load_source(path, lenient=True)
            mutants += mutants_for(source, path, classes, self.operators)
        self.result.mutants_by_operator = Counter(m.operator for m in mutants)
        rng = random.Random(self.seed)
        sampled = mutants if len(mutants) <= self.max_mutants else rng.sample(mutants, self.max_mutants)
        sampled.sort(key=lambda m: (str(m.path), m.start))
        self.result.sampled_by_operator = Counter(m.operator for m in sampled)
        self.result.counts["mutants_sampled"] = len(sampled)
        outcomes = self._parallel(sampled, self._run_mutant, "mutants")
        rows = self.result.rows
        killed_bare = rows[BARE].killed
        by_operator: dict[str, Counter[str]] = {kind: Counter() for kind in rows}
        for mutant, killed in zip(sampled, outcomes, strict=True):
            if killed is None:
                self.result.counts["mutants_stillborn"] += 1
                continue
            self.result.counts["mutants_run"] += 1
            for kind in killed:
                rows[kind].killed.add(mutant.id)
                by_operator[kind][mutant.operator] += 1
        only_oracle: list[Mutant] = []
        for kind, row in rows.items():
            extra = row.killed - killed_bare if kind != BARE else set()
            row.attributable = len(extra)
            if kind in (_rank_kind(self.rankers[0][0]), CHECKED) and not only_oracle:
                only_oracle = [m for m in sampled if m.id in extra]
        self.result.killed_by_operator = {kind: counter for kind, counter in by_operator.items()}
        self.result.examples = [m.description for m in only_oracle[:5]]

    def _run_mutant(self, worker: JvmWorker, mutant: Mutant) -> set[str] | None:
        """Kinds that kill ``mutant``; ``None`` when it does not compile (stillborn)."""
        assert self.build is not None and self.classpath is not None
        slot = self.work / "eval" / "mutants" / f"w{id(worker)}"
        src_root = next((r for r in self.classpath.layout.main_roots if mutant.path.is_relative_to(r)), None)
        if src_root is None:
            return None
        src = slot / "src" / mutant.path.relative_to(src_root)
        out = slot / "classes"
        shutil.rmtree(slot, ignore_errors=True)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_bytes(mutant.apply(mutant.path.read_bytes()))
        compiled = worker.compile([src], out, [self.build.classes, *self.classpath.dependencies])
        if not compiled.ok:
            return None
        users = self.usable.get(str(mutant.path), [])
        files = {id(tf): tf for tf, _, _ in users}
        context = self._context()
        classpath = [out, *(tf.out_dir for tf in files.values() if tf.out_dir is not None)]
        classpath += [*context.classpath, *context.runtime_extra]
        refs: dict[tuple[str, str], tuple[str, int, str, float]] = {}
        for test_file, selected, kind in users:
            assert test_file.scratch is not None and test_file.final is not None
            key = _key(selected.index, kind)
            method = test_file.scratch.methods.get(key)
            if method is None:
                continue
            elapsed = test_file.final.results[key].elapsed_ms / 1000
            refs[(method.class_name, method.name)] = (
                kind,
                selected.index,
                test_file.id,
                max(2.0, 5 * elapsed + 1.0),
            )
        bare = {k: v for k, v in refs.items() if v[0] == BARE}
        others = {k: v for k, v in refs.items() if v[0] != BARE}
        killed: set[str] = set()
        hung: set[tuple[str, int]] = set()
        first = worker.run(classpath, [TestRef(c, m, v[3]) for (c, m), v in bare.items()])
        for ref, (kind, index, file_id, _limit) in bare.items():
            outcome = first.outcomes.get(ref, TestOutcome("notrun"))
            if outcome.status in KILLING:
                killed.add(kind)
                if outcome.status != "failed":
                    hung.add((file_id, index))  # its variants run the same prefix: they would hang too
        todo = {k: v for k, v in others.items() if (v[2], v[1]) not in hung}
        for kind, index, file_id, _limit in others.values():
            if (file_id, index) in hung:
                killed.add(kind)
        second = worker.run(classpath, [TestRef(c, m, v[3]) for (c, m), v in todo.items()])
        for ref, (kind, _index, _file, _limit) in todo.items():
            if second.outcomes.get(ref, TestOutcome("notrun")).status in KILLING:
                killed.add(kind)
        return killed


def evaluate_project(
    root: Path,
    *,
    rankers: list[tuple[str, Ranker]] | None = None,
    max_tests: int = 200,
    max_mutants: int = 500,
    jobs: int = 2,
    seed: int = 13,
    progress: bool = True,
    work_dir: Path | None = None,
    operators: Sequence[str] = OPERATORS,
) -> ProjectResult:
    """The bug-finding evaluation of one project (see the module docstring)."""
    note = "as given"
    if rankers is None:
        rankers, note = default_rankers()
    work = work_dir or cache_root() / "eval"
    evaluation = ProjectEvaluation(
        root, rankers, note, max_tests, max_mutants, jobs, seed, progress, work, operators
    )
    return evaluation.run()


# -- report --------------------------------------------------------------------------------
def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def summary(results: Sequence[ProjectResult]) -> list[str]:
    """One table over all projects: per oracle, compile rate / false positives / attributable kills."""
    kinds: list[str] = []
    for r in results:
        kinds += [k for k in r.rows if k not in kinds]
    header = "| oracle | " + " | ".join(f"{r.name}" for r in results) + " |"
    lines = [
        "Each cell: compile rate / false-positive rate on correct code / oracle-attributable kills "
        "(share of the mutants run). Tests with an oracle of that kind in brackets.",
        "",
        header,
        "| --- |" + " --- |" * len(results),
    ]
    for kind in kinds:
        label = next(r.rows[kind].label for r in results if kind in r.rows)
        cells = []
        for r in results:
            row = r.rows.get(kind)
            if row is None:
                cells.append("n/a")
                continue
            run = r.counts.get("mutants_run", 0)
            kills = "—" if kind == BARE else _pct(row.attributable, run)
            cells.append(
                f"{_pct(row.compiled, row.tests)} / {_pct(row.failing, row.compiled)} / {kills} ({row.tests})"
            )
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def markdown(results: Sequence[ProjectResult]) -> str:
    """The evaluation report (``docs/execution.md``): a summary, then one section per project."""
    lines = ["# Bug-finding evaluation (`oracular eval --mutants`)", ""]
    if len(results) > 1:
        lines += ["## Summary", "", *summary(results), ""]
    for r in results:
        run = r.counts.get("mutants_run", 0)
        bare = r.rows.get(BARE)
        b, c, t = r.build, r.counts, r.timings
        lines += [
            f"## {r.name} {r.version}".rstrip(),
            "",
            f"- ranker(s): {', '.join(r.rankers)} ({r.ranker_note})",
            f"- {r.classpath}",
            f"- build: {b.get('main_files', 0)} main files compiled ({b.get('main_dropped', 0)} left out), "
            f"{b.get('test_files', 0)} test files ({b.get('test_dropped', 0)} left out)",
            f"- tests: {c.get('tests', 0)} in compiled test files, {c.get('tests_cut', 0)} cut before an "
            f"oracle, {c.get('tests_eligible', 0)} with a focal method in the main sources, "
            f"{c.get('tests_selected', 0)} evaluated (in {c.get('test_files_selected', 0)} files)",
            f"- mutants: {sum(r.mutants_by_operator.values())} generated in the focal classes, "
            f"{c.get('mutants_sampled', 0)} sampled, {c.get('mutants_stillborn', 0)} stillborn "
            f"(do not compile), {run} run; killed by the bare prefixes: {bare.killed_count if bare else 0}",
            f"- time: {t.get('total_s', 0):.0f} s on {r.jobs} helper JVM(s) "
            f"(build {t.get('build_s', 0):.0f} s, engine {t.get('engine_s', 0):.0f} s, "
            f"correct code {t.get('correct_code_s', 0):.0f} s, mutants {t.get('mutants_s', 0):.0f} s)",
            "",
            "| oracle | tests | compile rate | false positives (fail on correct code) | mutants killed "
            "| oracle-attributable kills |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for kind, row in r.rows.items():
            attributable = "—" if kind == BARE else f"{row.attributable} ({_pct(row.attributable, run)})"
            killed = f"{row.killed_count} ({_pct(row.killed_count, run)})"
            lines.append(
                f"| {row.label} | {row.tests} | {_pct(row.compiled, row.tests)} | "
                f"{_pct(row.failing, row.compiled)} ({row.failing}) | {killed} | {attributable} |"
            )
        ranked = [row for kind, row in r.rows.items() if kind.startswith("rank:")]
        for row in ranked:
            if row.failing:
                lines += [
                    "",
                    f"{row.label}: {row.failing_confident} of its {row.failing} false positives scored at "
                    f'least {BUG_SCORE} (a check would have called them "possible bug").',
                ]
        if r.examples:
            lines += ["", "Mutants only an inserted oracle killed (first five):", ""]
            lines += [f"- `{e}`" for e in r.examples]
        operators = [op for op in OPERATORS if r.sampled_by_operator.get(op)]
        if not operators:
            lines.append("")
            continue
        lines += ["", "Mutants killed per operator (sampled):", ""]
        lines.append("| oracle | " + " | ".join(operators) + " |")
        lines.append("| --- |" + " ---: |" * len(operators))
        lines.append("| sampled | " + " | ".join(str(r.sampled_by_operator[op]) for op in operators) + " |")
        for kind, row in r.rows.items():
            counter = r.killed_by_operator.get(kind, Counter())
            lines.append(f"| {row.label} | " + " | ".join(str(counter.get(op, 0)) for op in operators) + " |")
        lines.append("")
    return "\n".join(lines)
