"""``oracular eval --mutants``: do inserted oracles catch real faults without failing on correct code?

The protocol, per dev project (one that compiles with Debian's jars):

1. Build the main and test sources with javac (:mod:`oracular.evaluation.build`).
2. Cut every developer test before its first oracle (:mod:`oracular.corpus.devtests`) and keep
   those whose focal method is in the main sources; sample ``max_tests`` of them (seeded).
3. Ask the engine for its top-1 oracle on the oracle-free copy of each file, once per ranker,
   and once more with the prefixes' values observed, as the editor and ``suggest`` do by default
   (steps 2 and 3: :mod:`.selection`).
4. Compile a scratch copy of each test file with, per test, the variants compared: the bare
   prefix ("never throws"), the developer's oracle, each ranker's top-1, and the recorded-value
   regression oracle (observed in a first run). Run them on the correct code: compile rate and
   false-positive rate (an oracle that fails on correct code is a false alarm). Variants that
   fail in either of the two correct-code runs are not used further (:mod:`.correct_code`).
5. Generate mutants of the focal classes (:mod:`oracular.mutation.operators`), sample
   ``max_mutants`` (seeded), recompile only the mutated file per mutant, and run the relevant
   tests' variants on it, one warm helper JVM per core. A mutant is killed by a variant kind if
   any test's variant of that kind fails (or times out) on it. **Oracle-attributable kills** are
   the mutants a kind kills that the bare prefixes do not: what the oracle itself adds
   (:mod:`.mutant_runs`).

:class:`ProjectEvaluation` runs the steps in order on helper JVMs (:mod:`.workers`); the phases
hand each other :mod:`.records`, and :mod:`.report` renders the results.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from oracular.corpus.fetch import MARKER_NAME
from oracular.evaluation.bug_finding.correct_code import CorrectCodePhase
from oracular.evaluation.bug_finding.mutant_runs import MutantPhase
from oracular.evaluation.bug_finding.records import BARE, CHECKED, DEV, REGRESSION, ProjectResult
from oracular.evaluation.bug_finding.report import markdown, summary
from oracular.evaluation.bug_finding.selection import select_tests
from oracular.evaluation.bug_finding.workers import Harness, WorkerPool
from oracular.evaluation.build import build_project
from oracular.execution.classpath import Classpath, ClasspathSettings, discover
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import CheckSettings, OracleChecker, module_root
from oracular.execution.toolchain import cache_root
from oracular.mutation.operators import OPERATORS
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import Ranker

__all__ = [
    "BARE",
    "CHECKED",
    "DEFAULT_PROJECTS",
    "DEV",
    "REGRESSION",
    "ProjectEvaluation",
    "ProjectResult",
    "default_rankers",
    "evaluate_project",
    "markdown",
    "summary",
]

DEFAULT_PROJECTS = ("commons-csv", "joptsimple", "java-diff-utils", "commons-io")
"""Dev projects whose main sources compile with no jar at all and whose tests need little beyond
JUnit, Hamcrest, AssertJ and Mockito from Debian (see docs/execution.md)."""


def default_rankers() -> tuple[list[tuple[str, Ranker]], str]:
    """The engine's ranker and the baseline; one row when the engine ranks with the baseline."""
    from oracular.models.ranker import default_ranker

    ranker = default_ranker()
    reason = ranker.fallback_reason
    if isinstance(ranker, BaselineRanker) or reason:
        note = reason or "ORACULAR_RANKER=baseline: the baseline heuristic ranks"
        return [("baseline", BaselineRanker())], note
    return [("neural", ranker), ("baseline", BaselineRanker())], "neural model and baseline heuristic"


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
        self.operators = tuple(operators)
        self.rankers = rankers
        self.max_tests = max_tests
        self.max_mutants = max_mutants
        self.jobs = jobs
        self.seed = seed
        self.progress = progress
        self.work = work_dir / hashlib.sha1(str(self.root).encode()).hexdigest()[:12]
        labels = [label for label, _ in rankers]
        self.result = ProjectResult(
            self.root.name, _version(self.root), self.root, "", labels, ranker_note, jobs=jobs
        )

    def run(self) -> ProjectResult:
        with self._timed("total_s"):
            shutil.rmtree(self.work / "eval", ignore_errors=True)
            with self._timed("classpath_s"):
                classpath = discover(self.root, ClasspathSettings())
                self.result.classpath = classpath.describe()
            pool = WorkerPool(
                self.jobs, _test_cwd(self.root, classpath), self.work, classpath.layout.resource_dirs
            )
            checker = OracleChecker(CheckSettings()) if self.observe else None
            try:
                self._steps(classpath, pool, ValueObserver(checker) if checker is not None else None)
            finally:
                pool.close()
                if checker is not None:
                    checker.close()
        return self.result

    def _steps(self, classpath: Classpath, pool: WorkerPool, observer: ValueObserver | None) -> None:
        with self._timed("build_s"):
            with pool.worker() as worker:
                build = build_project(worker, classpath, self.work)
            self.result.build = {
                "main_files": len(build.main_files),
                "main_dropped": len(build.main_dropped),
                "test_files": len(build.test_files),
                "test_dropped": len(build.test_dropped),
            }
        with self._timed("engine_s"):
            files = select_tests(
                self.root,
                self.rankers,
                observer,
                build,
                self.max_tests,
                self.seed,
                self.result.counts,
                self.progress,
            )
        harness = Harness(classpath, build, pool, self.jobs, self.work, self.progress)
        labels = [label for label, _ in self.rankers]
        with self._timed("correct_code_s"):
            correct_code = CorrectCodePhase(harness, self.root, labels, observer is not None)
            usable = correct_code.run(files, self.result)
        with self._timed("mutants_s"):
            mutants = MutantPhase(harness, usable, self.operators, self.max_mutants, self.seed, labels[0])
            mutants.run(files, self.result)

    @contextmanager
    def _timed(self, name: str) -> Iterator[None]:
        """Records the block's seconds in the result's timings (when it completes)."""
        start = time.monotonic()
        yield
        self.result.timings[name] = round(time.monotonic() - start, 1)


def _version(root: Path) -> str:
    """The fetched package's version, from the marker the corpus fetch leaves ("" elsewhere)."""
    marker = root / MARKER_NAME
    if not marker.exists():
        return ""
    return json.loads(marker.read_text(encoding="utf-8")).get("version", "")


def _test_cwd(root: Path, classpath: Classpath) -> Path:
    """Where the helper JVMs run tests: the module holding most test roots, as a build tool would
    (tests open files relative to it)."""
    roots = Counter(module_root(r) for r in classpath.layout.test_roots)
    return roots.most_common(1)[0][0] if roots else root


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
