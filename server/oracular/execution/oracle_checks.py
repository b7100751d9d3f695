"""Execution checks: does the current code satisfy each suggested oracle?

Why: a neural (or heuristic) oracle that is never run is a guess, and a guess that fails on
the current code is either a bug in the code or a wrong guess. So each oracle-free test's top-K
candidates are compiled into a scratch copy of its class (one generated method each, next to
the bare test as a control) and run once; each candidate is then classified:

- ``holds``: the current code satisfies it;
- ``fails``: it does not, with what was observed ("was 1", "nothing thrown", "threw X") and a
  verdict: ``possible bug`` when it is the ranker's most confident failing expectation
  (:func:`~oracular.candidates.strength.is_possible_bug`), ``likely wrong guess`` otherwise
  (``docs/execution.md`` measures how often an oracle fails on correct code, the prior this
  verdict leans on);
- ``does-not-compile``: javac rejects it (the first error is kept);
- ``unchecked``: no verdict is possible, with the reason: the test throws before the oracle,
  the test class does not compile here (a missing jar: see the classpath report), a time limit,
  a crash. Nothing that fails is ever hidden: only candidates that do not compile may be
  demoted (:func:`demote_uncompilable`), and they stay listed.

:class:`OracleChecker` does this for a whole :class:`~oracular.engine.FileReport` in one javac
and one JVM run, in the background if asked (:meth:`OracleChecker.submit`), cancellably, with
results cached by content hash. :func:`format_check` is the one-line text editors show.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from oracular.candidates.strength import expectations_failing, is_possible_bug
from oracular.engine import FileReport, Suggestion, TestReport
from oracular.execution.classpath import Classpath, ClasspathSettings, discover, missing_imports
from oracular.execution.jvm import CheckCancelled, HelperFailed, JvmWorker, TestOutcome
from oracular.execution.loaded_by_name import loaded_by_name
from oracular.execution.runner import (
    LINKAGE_ERRORS,
    CompileContext,
    ScratchOutcome,
    ScratchRunner,
    tree_fingerprint,
)
from oracular.execution.sandbox import SandboxRefused, SandboxSettings
from oracular.execution.scratch import ScratchBuilder, Variant, byte_edit
from oracular.execution.toolchain import ToolchainMissing, cache_root, find_toolchain
from oracular.incremental import KeptResults, MemoKey, MethodKey
from oracular.java.assertions import ASSERT_FALSE, ASSERT_NOT_NULL, ASSERT_TRUE
from oracular.java.junit import Flavour
from oracular.java.source import SourceText
from oracular.java.types import written_name
from oracular.java.workspace import PROJECT_MARKERS, project_root
from oracular.ranking.weights import RankingWeights

BUG_SCORE = RankingWeights().possible_bug
ASSERTION_ERRORS = frozenset(
    {
        "java.lang.AssertionError",
        "org.opentest4j.AssertionFailedError",
        "org.opentest4j.MultipleFailuresError",
        "junit.framework.AssertionFailedError",
        "junit.framework.ComparisonFailure",
        "org.junit.ComparisonFailure",
        "org.junit.internal.ArrayComparisonFailure",
        "org.assertj.core.error.AssertJMultipleFailuresError",
        "org.junit.jupiter.api.AssertionFailedError",
    }
)
_BUT_WAS = (
    re.compile(r"but was:?\s*<(.*)>\s*$", re.DOTALL),
    re.compile(r"but: was\s+(.*?)\s*$", re.DOTALL),
    re.compile(r"but was:\s*(.*?)\s*$", re.DOTALL),
)
_UNEXPECTED_TYPE = re.compile(r"[Uu]nexpected exception type thrown.*but was:?\s*<([\w.$]+)>", re.DOTALL)
MAX_SHOWN = 48


class CheckStatus(StrEnum):
    HOLDS = "holds"
    FAILS = "fails"
    NO_COMPILE = "does-not-compile"
    UNCHECKED = "unchecked"


class Verdict(StrEnum):
    POSSIBLE_BUG = "possible bug"
    WRONG_GUESS = "likely wrong guess"


@dataclass(frozen=True)
class CheckResult:
    status: CheckStatus
    observed: str | None = None
    """For ``fails``: ``was 1``, ``nothing thrown``, ``threw IllegalStateException``."""
    verdict: Verdict | None = None
    detail: str = ""
    """The assertion message, the compiler error, or why the candidate is unchecked."""
    elapsed_ms: float | None = None

    def to_json(self) -> dict:
        return {
            "status": str(self.status),
            "observed": self.observed,
            "verdict": str(self.verdict) if self.verdict else None,
            "detail": self.detail,
            "summary": format_check(self),
        }


def _shorten(text: str, limit: int = MAX_SHOWN) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_check(result: CheckResult | None) -> str:
    """One line for a code action title or a hover: ``fails now: was 1 — possible bug``.

    ``None`` (not checked yet) reads ``checking…`` so an editor can show the pending state.
    """
    if result is None:
        return "checking…"
    if result.status is CheckStatus.HOLDS:
        return "holds now"
    if result.status is CheckStatus.FAILS:
        observed = f": {_shorten(result.observed)}" if result.observed else ""
        verdict = f" — {result.verdict}" if result.verdict else ""
        return f"fails now{observed}{verdict}"
    if result.status is CheckStatus.NO_COMPILE:
        return f"does not compile: {_shorten(result.detail)}"
    return f"not checked: {_shorten(result.detail, 64)}"


def observed_value(suggestion_kind: str, assertion: str, outcome: TestOutcome) -> str:
    """What the failing oracle saw, as a short phrase."""
    message = outcome.message if outcome.message not in ("", "null") else ""
    if outcome.exception not in ASSERTION_ERRORS:
        return f"threw {written_name(outcome.exception)}"
    if suggestion_kind == "exception":
        match = _UNEXPECTED_TYPE.search(message)
        if match:
            return f"threw {written_name(match.group(1))}"
        return "nothing thrown"
    if outcome.actual is not None:
        return f"was {outcome.actual}"
    for pattern in _BUT_WAS:
        match = pattern.search(message)
        if match:
            return f"was {match.group(1)}"
    implied = {ASSERT_TRUE: "false", ASSERT_FALSE: "true", ASSERT_NOT_NULL: "null"}
    if assertion in implied:
        return f"was {implied[assertion]}"
    return _shorten(message) if message else "assertion failed"


def classify(
    suggestions: Sequence[Suggestion],
    outcome: ScratchOutcome,
    keys: Sequence[str],
    bare_key: str,
    bug_score: float = BUG_SCORE,
) -> list[CheckResult]:
    """One result per suggestion (same order), from the scratch outcome of its test."""
    bare = outcome.results.get(bare_key)
    bare_error = outcome.compile_errors.get(bare_key)
    results: list[CheckResult] = []
    for suggestion, key in zip(suggestions, keys, strict=True):
        results.append(_classify_one(suggestion, key, outcome, bare, bare_error))
    scores = [s.score for s in suggestions]
    failing = expectations_failing(
        [s.candidate for s in suggestions], [r.status is CheckStatus.FAILS for r in results]
    )
    final = []
    for i, result in enumerate(results):
        if result.status is CheckStatus.FAILS:
            bug = is_possible_bug(i, scores, failing, bug_score)
            result = dataclasses.replace(result, verdict=Verdict.POSSIBLE_BUG if bug else Verdict.WRONG_GUESS)
        final.append(result)
    return final


def _classify_one(
    suggestion: Suggestion,
    key: str,
    outcome: ScratchOutcome,
    bare: TestOutcome | None,
    bare_error: str | None,
) -> CheckResult:
    if key in outcome.compile_errors:
        if bare_error is not None:
            return CheckResult(
                CheckStatus.UNCHECKED, detail=f"the test itself does not compile here: {bare_error}"
            )
        return CheckResult(CheckStatus.NO_COMPILE, detail=outcome.compile_errors[key])
    if outcome.class_error is not None:
        return CheckResult(
            CheckStatus.UNCHECKED, detail=f"the test class does not compile here: {outcome.class_error}"
        )
    result = outcome.results.get(key)
    if result is None:
        return CheckResult(CheckStatus.UNCHECKED, detail=outcome.crashed or "not run")
    elapsed = result.elapsed_ms
    if result.status == "passed":
        return CheckResult(CheckStatus.HOLDS, elapsed_ms=elapsed)
    if result.status == "timeout":
        return CheckResult(
            CheckStatus.UNCHECKED, detail="the test ran past its time limit", elapsed_ms=elapsed
        )
    if result.status in ("skipped", "aborted"):
        why = f" ({_shorten(result.message)})" if result.message and result.message != "null" else ""
        return CheckResult(CheckStatus.UNCHECKED, detail=f"the test was {result.status}{why}")
    if result.status != "failed":
        return CheckResult(CheckStatus.UNCHECKED, detail=f"{result.status}: {result.message or 'not run'}")
    if result.exception in LINKAGE_ERRORS:  # the project's classes, not the oracle, failed here
        return CheckResult(
            CheckStatus.UNCHECKED,
            detail=f"the code could not be loaded here: {written_name(result.exception)}: {result.message}",
            elapsed_ms=elapsed,
        )
    if (
        bare is not None
        and bare.status == "failed"
        and suggestion.kind != "exception"
        and bare.exception == result.exception
    ):  # the bare test throws the same: the oracle is never reached
        return CheckResult(
            CheckStatus.UNCHECKED,
            detail=f"the test throws {written_name(bare.exception)} before the oracle",
            elapsed_ms=elapsed,
        )
    observed = observed_value(suggestion.kind, suggestion.candidate.assertion, result)
    detail = (
        f"{written_name(result.exception)}: {result.message}"
        if result.message
        else written_name(result.exception)
    )
    return CheckResult(CheckStatus.FAILS, observed=observed, detail=detail.strip(), elapsed_ms=elapsed)


def demote_uncompilable(
    suggestions: Sequence[Suggestion], results: Sequence[CheckResult | None]
) -> list[tuple[Suggestion, CheckResult | None]]:
    """Candidates that do not compile move to the end, renumbered; every candidate stays."""
    pairs = list(zip(suggestions, results, strict=True))
    ordered = [p for p in pairs if p[1] is None or p[1].status is not CheckStatus.NO_COMPILE]
    ordered += [p for p in pairs if p[1] is not None and p[1].status is CheckStatus.NO_COMPILE]
    return [(dataclasses.replace(s, rank=i), r) for i, (s, r) in enumerate(ordered, start=1)]


# -- checking a file ---------------------------------------------------------------------------
QUICK_JIT = ("-XX:TieredStopAtLevel=1",)


@dataclass(frozen=True)
class CheckSettings:
    timeout_s: float = 5.0
    """Per generated test method."""
    classpath: ClasspathSettings = field(default_factory=ClasspathSettings)
    use_cache: bool = True
    bug_score: float = BUG_SCORE
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    quick_jit: bool = False
    """The helper compiles Java with the client JIT only (``-XX:TieredStopAtLevel=1``): for the
    editor, whose helper mostly runs javac on small classes, one version after another. On the
    2-core machine the example's observation took 0.55-0.59 s instead of 0.93-1.05 s on the second
    version and 0.28-0.30 s instead of 0.47-0.66 s on the fifth: the server compiler's threads no
    longer compete with the edits for the cores. Batch runs keep the full JIT: a test that computes
    runs slower on client-compiled code, nearer its time limit."""


@dataclass
class FileCheck:
    """Check results of one file's suggestions, keyed by (test line, rank)."""

    results: dict[tuple[int, int], CheckResult] = field(default_factory=dict)
    classpath: Classpath | None = None
    missing_imports: list[str] = field(default_factory=list)
    error: str | None = None
    """Why nothing was checked (no JDK, unsaved file without a project...)."""
    elapsed_s: float = 0.0
    compile_s: float = 0.0
    run_s: float = 0.0
    cached: bool = False

    def result_for(self, test: TestReport, suggestion: Suggestion) -> CheckResult | None:
        return self.results.get((test.line, suggestion.rank))

    def to_json(self) -> dict:
        return {
            "error": self.error,
            "classpath": self.classpath.to_json() if self.classpath else None,
            "classpathSummary": self.classpath.describe() if self.classpath else None,
            "missingImports": self.missing_imports,
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
            "run_s": round(self.run_s, 3),
            "cached": self.cached,
        }


@dataclass(frozen=True)
class Bench:
    """What one run over a file needs: its classpath, a warm helper JVM, how to compile."""

    classpath: Classpath
    worker: JvmWorker
    context: CompileContext


def module_root(path: Path) -> Path:
    """The nearest folder above ``path`` with a build file: where its tests expect to run."""
    start = path if path.is_dir() else path.parent
    for directory in (start.resolve(), *start.resolve().parents):
        if any((directory / marker).exists() for marker in PROJECT_MARKERS):
            return directory
    return project_root(path)


def _scratch_for(
    report: FileReport, tests: Sequence[TestReport]
) -> tuple[ScratchBuilder, dict[int, list[str]]]:
    """The scratch copy of ``report``'s file: per test (TestNG's left out: not run), the bare test
    as the control (``t<i>:bare``) and one method per suggestion (``t<i>:<rank>``); the keys by
    test index."""
    source = report.analysis.source
    builder = ScratchBuilder(source)
    keys: dict[int, list[str]] = {}
    imports: list[str] = []
    for index, test in enumerate(tests):
        if test.test.flavour is Flavour.TESTNG:
            continue
        variants = [Variant(f"t{index}:bare")]
        keys[index] = []
        for suggestion in test.suggestions:
            key = f"t{index}:{suggestion.rank}"
            keys[index].append(key)
            variants.append(Variant(key, (byte_edit(source, suggestion.rendered.statement_edit),)))
            imports += [line.text() for line in sorted(suggestion.rendered.imports, key=lambda i: i.name)]
        builder.replace(test.test, variants)
    builder.drop_other_tests(s.test for s in report.analysis.statuses)
    builder.add_imports(imports)
    return builder, keys


@dataclass(frozen=True)
class CheckKey(MemoKey):
    """A test's check: on the run's context (:meth:`ScratchRunner.context_key`), the verdicts'
    threshold and the suggestions checked (:func:`_checked_shape`)."""

    context: str
    bug_score: float
    suggestions: tuple


def _checked_shape(test: TestReport, own: MethodKey | None) -> tuple:
    """What a check reads of ``test``'s suggestions: each one's rank, kind, score, statement (its
    place counted from the method's first line: the same in every version that moved it) and
    imports."""
    since = own[1] if own is not None else 0
    shape = []
    for s in test.suggestions:
        edit = s.rendered.statement_edit
        place = (edit.start[0] - since, edit.start[1], edit.end[0] - since, edit.end[1])
        imports = tuple(sorted((i.name, i.is_static) for i in s.rendered.imports))
        shape.append((s.rank, s.kind, s.score, place, edit.new_text, imports))
    return tuple(shape)


class OracleChecker:
    """Runs the checks; owns one warm helper JVM per module (tests' working directory)."""

    def __init__(self, settings: CheckSettings | None = None, cache_dir: Path | None = None) -> None:
        self.settings = settings or CheckSettings()
        self.cache_dir = cache_dir or cache_root()
        self._workers: dict[tuple[Path, tuple[Path, ...]], JvmWorker] = {}
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    def worker_for(self, cwd: Path, resources: Sequence[Path] = ()) -> JvmWorker:
        key = (cwd, tuple(resources))
        with self._lock:
            worker = self._workers.get(key)
            if worker is None:
                worker = JvmWorker(
                    find_toolchain(self.cache_dir), cwd, resources=resources,
                    writable=(self.cache_dir / "scratch", self.cache_dir / "deps"),
                    sandbox=self.settings.sandbox,
                    jvm_options=QUICK_JIT if self.settings.quick_jit else (),
                )  # fmt: skip
                self._workers[key] = worker
            return worker

    def runs_key(self, path: Path | None) -> str:
        """What a file's checks run with, as text: what remembered runs of it must match. The
        classpath (a jar installed since changes what compiles), with the packaged build of the
        project's version, though it is taken only where the sources alone fail: a run that
        failed to compile before it was installed would otherwise be remembered as failed after
        (jackson-core and ini4j, not observed at all on 2026-12-02 until the runs were made
        again). So do the sources filled from the build's templates, kept outside the workspace
        (:mod:`oracular.execution.source_templates`), by the text filled. And the helper's own
        (:attr:`JvmWorker.environment`: its working directory, options, sandbox and what the
        working directory's mirror shows), as the checker's own results are keyed: a tree that
        gains ``target/test-classes`` would otherwise reuse runs made without it."""
        if path is None:
            return ""
        classpath = discover(project_root(path), self.settings.classpath)
        filled = classpath.layout.filled
        entries = (*classpath.entries, *classpath.layout.resource_dirs, *classpath.packaged, *filled)
        digest = [hashlib.sha256(b"\0".join(f.read_bytes() for f in filled)).hexdigest()] if filled else []
        try:
            helper = self.worker_for(module_root(path), classpath.layout.resource_dirs).environment
        except (ToolchainMissing, SandboxRefused) as exc:  # nothing will run: the run says why
            helper = f"no helper: {exc}"
        return os.pathsep.join([*(str(entry) for entry in entries), *digest, helper])

    def warm(self, path: Path) -> None:
        """Start the helper JVM for ``path``'s module now, so the first check is not a cold one."""
        classpath = discover(project_root(path), self.settings.classpath)
        self.worker_for(module_root(path), classpath.layout.resource_dirs).ping()

    def close(self) -> None:
        with self._lock:
            workers, self._workers = list(self._workers.values()), {}
        for worker in workers:
            worker.close()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def submit(self, report: FileReport, cancelled: Callable[[], bool] | None = None) -> Future[FileCheck]:
        """:meth:`check` on a background thread (one at a time: a JVM per module is enough)."""
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oracular-check")
            executor = self._executor
        return executor.submit(self.check, report, cancelled)

    def context_for(self, classpath: Classpath) -> CompileContext:
        root_key = hashlib.sha256(str(classpath.root).encode()).hexdigest()[:16]
        lay = classpath.layout
        code = tree_fingerprint([*lay.source_roots, *lay.output_dirs, *classpath.entries])
        fingerprint = code + tree_fingerprint(lay.resource_dirs, suffixes=())
        return CompileContext(
            classpath=classpath.entries,
            sourcepath=lay.source_roots,
            deps_dir=self.cache_dir / "deps" / root_key,
            runtime_extra=lay.resource_dirs,
            fingerprint=fingerprint,
            encoding=lay.encoding,
            packaged=classpath.packaged,
            loaded_by_name=loaded_by_name(lay.main_roots, lay.source_roots, code),
        )

    def bench(self, source: SourceText) -> Bench | str:
        """The classpath, helper JVM and compile context for a run over ``source``, or why none."""
        if source.path is None:
            return "the file has no path, so its project (and classpath) is unknown"
        classpath = discover(project_root(source.path), self.settings.classpath)
        try:
            worker = self.worker_for(module_root(source.path), classpath.layout.resource_dirs)
        except (ToolchainMissing, SandboxRefused) as exc:
            return str(exc)
        return Bench(classpath, worker, self.context_for(classpath))

    def check(
        self,
        report: FileReport,
        cancelled: Callable[[], bool] | None = None,
        kept: KeptResults | None = None,
    ) -> FileCheck:
        """Check every suggestion of ``report`` (raises :class:`CheckCancelled` when cancelled).

        With ``kept`` (the editor's), a test whose method, file, suggestions and run context are
        those of a check kept there is not run again: after an edit, the edited tests alone are.
        """
        start = time.monotonic()
        check = FileCheck()
        source = report.analysis.source
        tests = [t for t in report.tests if t.suggestions]
        if not tests:
            return check
        bench = self.bench(source)
        if isinstance(bench, str):
            check.error = bench
            if source.path is not None:
                check.classpath = discover(project_root(source.path), self.settings.classpath)
            return check
        check.classpath = classpath = bench.classpath
        toolchain_worker, context = bench.worker, bench.context
        check.missing_imports = missing_imports(report.analysis.decls.imports, classpath)

        runner = ScratchRunner(toolchain_worker, self.cache_dir, self.settings.use_cache)
        kinds: dict[int, CheckKey] = {}
        if kept is not None:
            context_key = runner.context_key(context, self.settings.timeout_s, {})
            for test in tests:
                shape = _checked_shape(test, report.analysis.method_key(test.test))
                kinds[test.line] = CheckKey(context_key, self.settings.bug_score, shape)
            tests = self._reuse(report, tests, kinds, kept, check)
        if tests and self._run(report, tests, runner, context, cancelled, check) and kept is not None:
            for test in tests:
                results = [check.results[(test.line, s.rank)] for s in test.suggestions]
                if all(r.status is not CheckStatus.UNCHECKED for r in results):  # none transient
                    kept.put(kinds[test.line], report.analysis.method_key(test.test), results)
        check.elapsed_s = time.monotonic() - start
        return check

    @staticmethod
    def _reuse(
        report: FileReport,
        tests: list[TestReport],
        kinds: dict[int, CheckKey],
        kept: KeptResults,
        into: FileCheck,
    ) -> list[TestReport]:
        """The kept results of ``tests`` into ``into``; the tests that have none."""
        todo = []
        for test in tests:
            reuse = kept.get(kinds[test.line], report.analysis.method_key(test.test))
            if reuse is None:
                todo.append(test)
                continue
            for suggestion, result in zip(test.suggestions, reuse.value, strict=True):
                into.results[(test.line, suggestion.rank)] = result
        return todo

    def _run(
        self,
        report: FileReport,
        tests: list[TestReport],
        runner: ScratchRunner,
        context: CompileContext,
        cancelled: Callable[[], bool] | None,
        into: FileCheck,
    ) -> bool:
        """Compile and run ``tests``' suggestions into ``into``; ``False``: the JVM failed (said there)."""
        builder, keys = _scratch_for(report, tests)
        try:
            outcome = runner.run(builder.build, context, self.settings.timeout_s, cancelled=cancelled)
            if outcome.stale and context.deps_dir is not None:
                # Classes compiled on demand by an earlier check no longer match their sources'
                # neighbours (a method was removed): rebuild them, once, rather than report it.
                runner.reset_deps(context)
                outcome = runner.run(builder.build, context, self.settings.timeout_s, cancelled=cancelled)
        except (HelperFailed, TimeoutError) as exc:
            into.error = f"the checking JVM failed: {exc}"
            return False
        into.cached = outcome.cached
        into.compile_s, into.run_s = outcome.compile_s, outcome.run_s
        for index, test in enumerate(tests):
            if index not in keys:
                for s in test.suggestions:
                    into.results[(test.line, s.rank)] = CheckResult(
                        CheckStatus.UNCHECKED, detail="TestNG tests are not run"
                    )
                continue
            results = classify(
                test.suggestions, outcome, keys[index], f"t{index}:bare", self.settings.bug_score
            )
            for s, r in zip(test.suggestions, results, strict=True):
                into.results[(test.line, s.rank)] = r
        return True


__all__ = [
    "BUG_SCORE",
    "CheckCancelled",
    "CheckResult",
    "CheckSettings",
    "CheckStatus",
    "FileCheck",
    "OracleChecker",
    "Verdict",
    "classify",
    "demote_uncompilable",
    "format_check",
]
