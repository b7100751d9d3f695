"""Pseudo-tested methods of a test class: extreme mutants of what its tests call, run against them.

Descartes' question (the Reneri paper, ``../shared/seeds``): when a method's whole body becomes
``return <default>;`` (or nothing), does any test that executes it fail? Per test file: the tests
as written run once on the code (those that fail are left out: they cannot tell a mutant apart);
then, per method the tests call (:mod:`oracular.mutation.calls`), each extreme mutant is compiled
alone (:mod:`oracular.mutation.runs`) and the tests that call the method run against it. Then,
for the mutants that survive, which tests really run them (:mod:`oracular.mutation.infection`),
why they survive (:mod:`oracular.mutation.reneri`), and the oracle that would kill them.

Everything runs in the scratch space of the checks, in the sandboxed helper JVM, each test
time-bounded, the whole cancellable between steps. A run is remembered by what it depends on (the
test file's text, the project's fingerprint, the helper, the settings): asked again unchanged, the
answer comes from the cache.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from oracular.cache import write_atomically
from oracular.engine import OracleEngine
from oracular.engine.analysis import FileAnalysis
from oracular.execution.jvm import CheckCancelled, HelperFailed
from oracular.execution.oracle_checks import Bench, OracleChecker
from oracular.execution.runner import prune
from oracular.java.source import SourceError, SourceText
from oracular.mutation.calls import CalledMethod, called_methods, method_node, tests_by_name
from oracular.mutation.infection import probe_survivors
from oracular.mutation.operators import extreme_mutants
from oracular.mutation.records import ClassResult, MethodResult, MutantResult
from oracular.mutation.reneri import explain
from oracular.mutation.runs import KILLING, ClassBench, test_key

CACHE_VERSION = "1"
MAX_CACHED = 2000
"""Past this many remembered runs, the oldest half is deleted."""
Progress = Callable[[str, int, int], None]
"""``(what, done, total)``: the editor's progress report and the CLI's bar."""
TESTS = "tests"


@dataclass(frozen=True)
class PseudoTestSettings:
    timeout_s: float = 5.0
    """Per test run (original, mutant or probe)."""
    causes: bool = True
    """Also tell why each surviving mutant survived, and look for oracles that kill it."""


class PseudoTester:
    """Runs the extreme mutants of the methods a test class calls, with the checker's helper JVMs."""

    def __init__(
        self, engine: OracleEngine, checker: OracleChecker, settings: PseudoTestSettings | None = None
    ) -> None:
        self.engine = engine
        self.checker = checker
        self.settings = settings or PseudoTestSettings()

    def run(
        self,
        source: SourceText,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> ClassResult:
        """The verdict of every main-source method ``source``'s tests call (raises
        :class:`~oracular.execution.jvm.CheckCancelled` when cancelled)."""
        start = time.monotonic()
        result = ClassResult(source.path or Path("<unsaved>"))
        try:
            self._run(source, result, progress or (lambda *_: None), cancelled)
        except (HelperFailed, TimeoutError) as exc:
            result.error = f"the JVM running the tests failed: {exc}"
        result.elapsed_s = time.monotonic() - start
        return result

    def _run(self, source: SourceText, result: ClassResult, progress: Progress, cancelled) -> None:
        analysis = self.engine.analyse(source)
        calls = called_methods(self.engine.index, analysis).tests
        if not calls:
            result.error = "its tests call no method of the main sources"
            return
        bench = self.checker.bench(source)
        if isinstance(bench, str):
            result.error = bench
            return
        cache = self.checker.cache_dir / "pseudo-tested" / f"{self._key(source, bench)}.pickle"
        if self.checker.settings.use_cache and _load(cache, result):
            return
        digest = hashlib.sha256(str(source.path).encode()).hexdigest()[:16]
        runs = ClassBench(
            bench, self.checker.cache_dir / "scratch" / "pseudo" / digest, self.settings.timeout_s, cancelled
        )
        self._mutate(analysis, calls, runs, result, progress)
        if self.checker.settings.use_cache and result.error is None:
            write_atomically(cache, pickle.dumps((CACHE_VERSION, result)))
            prune(cache.parent, MAX_CACHED)

    def _key(self, source: SourceText, bench: Bench) -> str:
        """Everything the answer depends on: the test file's text, the project's sources, classes and
        jars (the context's fingerprint: names, sizes, times), the helper and the settings."""
        parts = [CACHE_VERSION, _code_version(), str(source.path), source.text, bench.context.fingerprint,
                 str(bench.worker.toolchain.helper), bench.worker.environment, repr(self.settings),
                 *map(str, bench.context.classpath)]  # fmt: skip
        return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]

    def _mutate(
        self,
        analysis: FileAnalysis,
        calls: dict[CalledMethod, list[str]],
        runs: ClassBench,
        result: ClassResult,
        progress: Progress,
    ) -> None:
        passing = self._baseline(analysis, calls, runs, result)
        if passing is None:
            return
        work = [(m, tests) for m, tests in calls.items()]
        for done, (method, tests) in enumerate(work):
            progress(method.label, done, len(work))
            result.methods.append(self._method(method, tests, passing, runs, result))
        progress("which tests run the survivors", len(work), len(work))
        infected = probe_survivors(runs, result.methods)
        if self.settings.causes:
            progress("why mutants survive", len(work), len(work))
            result.oracles_tried = explain(self.engine, analysis, runs, result.methods, infected)

    def _baseline(
        self,
        analysis: FileAnalysis,
        calls: dict[CalledMethod, list[str]],
        runs: ClassBench,
        result: ClassResult,
    ) -> set[str] | None:
        """The calling tests that pass on the code as it is; ``None`` (and the error) if none runs."""
        wanted = {t for tests in calls.values() for t in tests}
        statuses = tests_by_name(analysis, wanted)
        build = runs.tests_as_written(
            analysis.source, list(statuses.values()), (s.test for s in analysis.statuses)
        )
        compiled = runs.compile(TESTS, build)
        if compiled.class_error is not None:
            result.error = f"the test class does not compile here: {compiled.class_error}"
            return None
        outcome = runs.run(TESTS, [test_key(name) for name in statuses])
        passing = {n for n in statuses if (o := outcome.results.get(test_key(n))) and o.status == "passed"}
        result.failing_tests = [n for n in statuses if n not in passing]
        if not passing:
            result.error = "none of its tests passes on the code as it is"
            return None
        return passing

    def _method(
        self, method: CalledMethod, tests: list[str], passing: set[str], runs: ClassBench, result: ClassResult
    ) -> MethodResult:
        found = MethodResult(method, tests)
        try:
            focal = runs.focal(method.path)
        except SourceError:
            return found
        node = method_node(focal, method)
        executing = [t for t in tests if t in passing]
        for mutant in extreme_mutants(focal, node) if node is not None else []:
            record = MutantResult(mutant, executing)
            found.mutants.append(record)
            if not executing:
                continue
            overlay = runs.mutant_overlay(mutant)
            if overlay is None:
                record.stillborn = True
                continue
            outcome = runs.run(TESTS, [test_key(t) for t in executing], overlay)
            record.killed_by = [t for t in executing if outcome.results[test_key(t)].status in KILLING]
            result.mutants_run += 1
        return found


@functools.cache
def _code_version() -> str:
    """This package's own sources, hashed: a run remembered by another version of the analysis is
    not this version's answer."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _load(cache: Path, into: ClassResult) -> bool:
    """A remembered run of the same inputs, copied into ``into``; ``False`` if there is none."""
    try:
        version, found = pickle.loads(cache.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError):
        return False
    if version != CACHE_VERSION or not isinstance(found, ClassResult):
        return False
    into.methods, into.failing_tests, into.mutants_run = found.methods, found.failing_tests, found.mutants_run
    into.oracles_tried = found.oracles_tried
    into.cached = True
    return True


__all__ = ["CheckCancelled", "PseudoTestSettings", "PseudoTester"]
