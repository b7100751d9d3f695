"""Running the code in the editor: each test's values observed, its oracles re-ranked with them,
and each offered oracle compiled and run on the current code.

When checks may run (``checkOracles``, workspace trust and the transport decide:
:func:`~oracular.lsp.execution_policy.may_run_user_code`), each published analysis whose
oracle-free tests exist goes through three steps in the background: its tests' prefixes are run
and their targets read (:class:`~oracular.execution.observe.ValueObserver`, on the check thread),
the engine ranks again with those values (:meth:`~oracular.engine.OracleEngine.rerank`, on the
analysis thread, which owns the engines), and the oracles now offered are checked as inserted
(:class:`~oracular.execution.oracle_checks.OracleChecker`, one javac and one JUnit run, on the check
thread). Neither the event loop nor the analysis thread ever waits for a JVM. The result belongs
to that analysis, that is, to one document version. Features read it from here and never wait for
it: until it arrives they show the static ranking with ``checking…``. A newer analysis of the
document cancels the work (the helper stops it); a result for a version the editor has left is
dropped. When one arrives, the client is asked to refresh its inlay hints.

Each of the three steps keeps its per-test results (:class:`~oracular.incremental.KeptResults`,
keyed by the test's method key in the analysed version, the file's facts and what else the step
reads: the run's classpath and the project's code, the observed values, the oracles checked), so
after an edit in one test only that test is run, ranked and checked again: on commons-csv's
1,588-line ``CSVPrinterTest`` (24 oracle-free tests) one version's observation, ranking and check
took 5.1 s before, 0.7 s now (in process, 2026-12-02).

:func:`ordered` is what the features show: the observed ranking once it arrived, each candidate
with its summary (``holds now (observed)``, ``fails now: was 1 — possible bug``), those that do
not compile moved to the end and renumbered. They stay listed: nothing that fails is hidden.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

from lsprotocol import types

from oracular.candidates.observed import NOT_OBSERVED
from oracular.candidates.render import TextEdit
from oracular.engine import FileReport, OracleEngine, RankingCancelled, Suggestion, TestReport
from oracular.execution.classpath import ClasspathSettings
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import (
    CheckCancelled,
    CheckResult,
    CheckSettings,
    CheckStatus,
    FileCheck,
    OracleChecker,
    demote_uncompilable,
    format_check,
)
from oracular.execution.sandbox import SandboxSettings, availability, sandboxed
from oracular.incremental import KeptResults
from oracular.java.workspace import is_test_path
from oracular.lsp.documents import Analysis, internal_error
from oracular.lsp.settings import ServerSettings

PENDING = format_check(None)
"""``checking…``: the check of this version has not arrived yet."""
MAX_MISSING_SHOWN = 5

Log = Callable[[str, types.MessageType], None]
T = TypeVar("T")


@dataclass(frozen=True)
class Checked:
    suggestion: Suggestion
    """Renumbered when candidates that do not compile were moved to the end."""
    summary: str | None
    """``holds now``, ``fails now: was 1 — possible bug``, ``checking…``; ``None``: nothing to show."""


@dataclass(frozen=True)
class RunState:
    """One analysis's run as the features see it: pending until ``check`` arrives."""

    check: FileCheck | None = None
    report: FileReport | None = None
    """The ranking with the observed values, for the same document version (with ``check``)."""

    def test(self, test: TestReport) -> TestReport:
        """``test`` as ranked with the observed values, once they arrived."""
        if self.report is None:
            return test
        return next((t for t in self.report.tests if t.test.node.id == test.test.node.id), test)


def shown(state: RunState | None, test: TestReport) -> TestReport:
    """The test as the features show it: ranked with the observed values once they arrived (which
    may answer a test the static ranking abstained on)."""
    return state.test(test) if state is not None else test


def summary(suggestion: Suggestion, result: CheckResult | None) -> str | None:
    """What running showed: the check as inserted (marked when the value was observed), else what
    the observation alone says."""
    if result is None:
        return suggestion.observed_summary()
    text = format_check(result)
    if result.status is CheckStatus.HOLDS and suggestion.observed_holds:
        text += " (observed)"
    return text


def ordered(state: RunState | None, test: TestReport) -> list[Checked]:
    """``test``'s suggestions as shown: with what running showed, uncompilable ones last.

    ``state`` is ``None`` when checks are off or this analysis is not checked.
    """
    if state is None or (state.check is not None and state.check.error is not None):
        return [Checked(s, None) for s in test.suggestions]
    if state.check is None:  # pending; once observed, what the observation says meanwhile
        observed = state.report is not None
        return [
            Checked(s, (s.observed_summary() if observed else None) or PENDING)
            for s in state.test(test).suggestions
        ]
    test = state.test(test)
    results = [state.check.result_for(test, s) for s in test.suggestions]
    return [Checked(s, summary(s, r)) for s, r in demote_uncompilable(test.suggestions, results)]


def top_edits(report: FileReport, state: RunState | None) -> list[TextEdit]:
    """:meth:`FileReport.top_edits`, taking each test's first candidate as :func:`ordered` lists them."""
    if state is None or (state.check is None and state.report is None):
        return report.top_edits()
    tests = [
        dataclasses.replace(state.test(t), suggestions=[c.suggestion for c in ordered(state, t)])
        for t in report.tests
    ]
    return dataclasses.replace(report, tests=tests).top_edits()


def note(state: RunState | None) -> str | None:
    """One short line for the hover: pending, why nothing was checked, or the classpath used."""
    if state is None:
        return None
    check = state.check
    if check is None and state.report is not None:
        return "Values observed on the current code; checking these oracles as inserted…"
    if check is None:
        return "Checking these oracles on the current code…"
    if check.error is not None:
        return f"Not checked: {check.error}"
    text = "Checked on the current code"
    if check.classpath is not None:  # without the notes (why Maven failed...): those go to the log
        text += f", {dataclasses.replace(check.classpath, notes=()).describe()}"
    if check.missing_imports:
        shown = check.missing_imports[:MAX_MISSING_SHOWN]
        more = len(check.missing_imports) - len(shown)
        text += (
            "; imports nothing on it provides: " + ", ".join(shown) + (f" and {more} more" if more else "")
        )
    return text + "."


def check_settings(settings: ServerSettings, workspace_root: Path | None) -> CheckSettings:
    """The checker's settings; relative paths are the workspace's."""

    def absolute(entries: tuple[str, ...]) -> tuple[str, ...]:
        paths = [Path(os.path.expanduser(e)) for e in entries]
        return tuple(str(workspace_root / p if workspace_root and not p.is_absolute() else p) for p in paths)

    return CheckSettings(
        classpath=ClasspathSettings(absolute(settings.classpath), absolute(settings.output_folders)),
        sandbox=SandboxSettings(settings.sandbox),
        quick_jit=True,
    )


class _Entry:
    """The run of one analysis: submitted, then cancelled, failed or arrived."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.cancelled = threading.Event()
        self.state: RunState | None = None
        self.task: asyncio.Task[None] | None = None


OnAnalysisThread = Callable[[Callable[[], T]], Awaitable[T]]
"""Runs a function on the analysis thread (the one that owns the engines), awaiting its result."""
KillsOf = Callable[[str, int], dict[int, dict[tuple[str, str], int]]]
"""For a document version, per test (1-based line): the assertions a pseudo-testing run found to
kill surviving mutants, and how many (:attr:`~oracular.candidates.observed.TestObservation.kills`)."""


class CodeRuns:
    """The runs of the open documents: one checker (its helper JVMs) and one thread per server."""

    def __init__(
        self,
        current: Callable[[str], Analysis | None],
        on_checked: Callable[[Analysis], None],
        log: Log,
        engine_of: Callable[[Analysis], OracleEngine | None],
        on_analysis_thread: OnAnalysisThread,
        kills_of: KillsOf = lambda uri, version: {},
    ) -> None:
        self._current = current
        self._kills_of = kills_of
        self._on_checked = on_checked
        self._log = log
        self._engine_of = engine_of
        self._on_analysis_thread = on_analysis_thread
        self._settings: CheckSettings | None = None
        self._checker: OracleChecker | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oracular-check")
        """Everything that waits for a JVM or a build tool: observations, checks, warming up, closing."""
        self._entries: dict[str, _Entry] = {}
        self._warmed: set[Path] = set()
        self._logged_classpaths: dict[Path, str] = {}
        """Per build root, the classpath last logged: logged once, and again when it changes."""
        self._logged_errors: set[str] = set()
        self._kept_observations = KeptResults()
        """The observations of tests, kept for the versions after theirs (used on the check thread)."""
        self._kept_checks = KeptResults()
        """The checks of tests' offered oracles, likewise (used on the check thread)."""
        self._kept_reports: dict[str, KeptResults] = {}
        """Per open document, its tests' rankings with their observed values (used on the
        analysis thread; one document's each, as they hold its parse trees)."""

    def configure(self, settings: ServerSettings, workspace_root: Path | None, allowed: bool) -> bool:
        """Apply the settings, checks running only if ``allowed`` (:func:`may_run_user_code`);
        ``True`` if the checks changed (every document needs checking again)."""
        wanted = check_settings(settings, workspace_root) if allowed else None
        if wanted == self._settings:
            return False
        self._settings = wanted
        self.cancel_all()
        old, self._checker = self._checker, OracleChecker(wanted) if wanted is not None else None
        if old is not None:
            self._executor.submit(old.close)  # once the check it may be running has stopped
        self._warmed.clear()
        self._logged_classpaths.clear()
        self._logged_errors.clear()
        return True

    @property
    def checker(self) -> OracleChecker | None:
        """The checker, when user code may run (``None``: it may not)."""
        return self._checker

    def state(self, analysis: Analysis) -> RunState | None:
        """The check of exactly this analysis; ``None`` if it is not checked. Never waits."""
        entry = self._entries.get(analysis.uri)
        if entry is None or entry.analysis is not analysis:
            return None
        return entry.state or RunState()

    def warm(self, path: Path | None) -> None:
        """Start the helper JVM of a test file's module while the file is being analysed."""
        checker = self._checker
        if checker is None or path is None or not is_test_path(path) or path.parent in self._warmed:
            return
        self._warmed.add(path.parent)
        self._executor.submit(_warm, checker, path)

    def analysed(self, analysis: Analysis) -> None:
        """Run a just-published analysis in the background, superseding the document's last run.

        A provisional one (nothing ranked yet: a first look, or the model loading) is not run: its
        complete analysis follows and runs instead."""
        if analysis.provisional:
            return
        self.discard(analysis.uri)
        if self._checker is None or analysis.report is None or not analysis.tests:
            return
        entry = _Entry(analysis)
        self._entries[analysis.uri] = entry
        entry.task = asyncio.ensure_future(self._run(entry, self._checker))

    async def _run(self, entry: _Entry, checker: OracleChecker) -> None:
        analysis = entry.analysis
        name = f"{analysis.uri.rsplit('/', 1)[-1]} (version {analysis.version})"
        try:
            state = await self._observe_and_check(entry, checker, name)
        except (CheckCancelled, RankingCancelled, asyncio.CancelledError):
            self._log(f"Oracular: the check of {name} was cancelled", types.MessageType.Log)
            return
        except Exception as exc:  # a checker bug must cost one check, not the server
            state = RunState(FileCheck(error=internal_error(exc)))
        if self._deliver(entry, state, name):
            assert state.check is not None
            self._report(state.check, name, state.report)

    def _deliver(self, entry: _Entry, state: RunState, name: str) -> bool:
        """Show ``state`` if its analysis is still the document's current one; else drop it."""
        analysis = entry.analysis
        if self._entries.get(analysis.uri) is not entry or self._current(analysis.uri) is not analysis:
            self._log(f"Oracular: dropped the check of {name}: no longer current", types.MessageType.Log)
            return False
        entry.state = state
        self._on_checked(analysis)
        return True

    async def _observe_and_check(self, entry: _Entry, checker: OracleChecker, name: str) -> RunState:
        """Observe (check thread), rank again (analysis thread), check as inserted (check thread).

        The ranking with the observed values is shown as soon as it is there; the check, which
        costs another compilation and run, refines it when it arrives.
        """
        report = entry.analysis.report
        engine = self._engine_of(entry.analysis)
        assert report is not None
        cancelled = entry.cancelled.is_set
        loop = asyncio.get_running_loop()
        observed = report
        if engine is not None:
            plans = await self._on_analysis_thread(lambda: engine.plans(report))
            observe = partial(ValueObserver(checker).observe, kept=self._kept_observations)
            observation = await loop.run_in_executor(
                self._executor, observe, report.analysis.source, plans, cancelled
            )
            if cancelled():
                raise CheckCancelled
            kills = self._kills_of(entry.analysis.uri, entry.analysis.version)
            for line, test in observation.tests.items():
                test.kills = kills.get(line, {})
            reports = self._kept_reports.setdefault(entry.analysis.uri, KeptResults())
            observed = await self._on_analysis_thread(
                lambda: engine.rerank(report, observation, cancelled, reports)
            )
            if not self._deliver(entry, RunState(None, observed), name):
                raise CheckCancelled
        if not any(t.suggestions for t in observed.tests):
            return RunState(FileCheck(), observed)
        check_kept = partial(checker.check, kept=self._kept_checks)
        check = await loop.run_in_executor(self._executor, check_kept, observed, cancelled)
        return RunState(check, observed)

    def _report(self, check: FileCheck, name: str, observed: FileReport | None) -> None:
        """A line per check; the classpath once per build root (again if it changes); errors and
        how the code is contained once (the sandbox was probed on the check thread: no wait here)."""
        if self._settings is not None and (mode := self._settings.sandbox.mode) != "off":
            contained = availability(mode)
            if contained not in self._logged_errors:
                self._logged_errors.add(contained)
                severity = types.MessageType.Info if sandboxed(mode) else types.MessageType.Warning
                self._log(f"Oracular: {contained}", severity)
        for why in observed.notes if observed is not None else []:
            if why.startswith(NOT_OBSERVED) and why not in self._logged_errors:
                self._logged_errors.add(why)
                self._log(f"Oracular: {why}", types.MessageType.Warning)
        if check.error is not None:
            if check.error not in self._logged_errors:
                self._logged_errors.add(check.error)
                self._log(f"Oracular: oracles not checked: {check.error}", types.MessageType.Warning)
            return
        if check.classpath is not None:
            root, described = check.classpath.root, check.classpath.describe()
            if self._logged_classpaths.get(root) != described:
                self._logged_classpaths[root] = described
                self._log(
                    f"Oracular: checking oracles in {root} with the {described}", types.MessageType.Info
                )
        counts = Counter(str(r.status) for r in check.results.values())
        counts_text = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        cached = ", cached" if check.cached else ""
        seen = sum(t.observed for t in observed.tests) if observed is not None else 0
        self._log(
            f"Oracular: checked {name}: {seen} tests observed; {counts_text or 'nothing'} "
            f"({check.elapsed_s:.2f} s{cached})",
            types.MessageType.Log,
        )

    def discard(self, uri: str) -> None:
        """Cancel and forget ``uri``'s check (a running one is stopped; its result is dropped)."""
        entry = self._entries.pop(uri, None)
        if entry is not None:
            entry.cancelled.set()
            if entry.task is not None:
                entry.task.cancel()

    def closed(self, uri: str) -> None:
        """``uri`` was closed: its check stops, its kept rankings go (observations and checks,
        which hold no parse tree, stay for a reopen)."""
        self.discard(uri)
        self._kept_reports.pop(uri, None)

    def cancel_all(self) -> None:
        for uri in list(self._entries):
            self.discard(uri)

    async def close(self) -> None:
        """At shutdown: stop every check and helper JVM."""
        self.cancel_all()
        checker, self._checker, self._settings = self._checker, None, None
        if checker is not None:
            # Not on the check thread, which may still be stopping a cancelled check.
            await asyncio.get_running_loop().run_in_executor(None, checker.close)
        self._executor.shutdown(wait=False, cancel_futures=True)


def _warm(checker: OracleChecker, path: Path) -> None:
    # A failure here (no JDK, a build tool that errs) is the first check's to report.
    with contextlib.suppress(Exception):
        checker.warm(path)
