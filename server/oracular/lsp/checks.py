"""Execution checks in the editor: each ranked oracle compiled and run on the current code.

When checks may run (``checkOracles``, workspace trust and the transport decide:
:func:`~oracular.lsp.execution_policy.may_run_user_code`), each published analysis whose
oracle-free tests have suggestions is checked by :class:`~oracular.execution.checks.OracleChecker`
(one javac and one JUnit run of a scratch copy, in a warm helper JVM) on a thread of its own, so
neither the event loop nor the analysis thread ever waits for a JVM. The result belongs to that
analysis, that is, to one document version. Features read it from here and never wait for it: until
it arrives they show ``checking…``. A newer analysis of the document cancels the check (the helper
stops it); a check that finishes for a version the editor has left is dropped. When one arrives,
the client is asked to refresh its inlay hints.

:func:`ordered` is what the features show: each candidate with its ``format_check`` summary,
those that do not compile moved to the end and renumbered. They stay listed: nothing that fails
is hidden.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from oracular.candidates.render import TextEdit
from oracular.engine import FileReport, Suggestion, TestReport
from oracular.execution.checks import (
    CheckCancelled,
    CheckSettings,
    FileCheck,
    OracleChecker,
    demote_uncompilable,
    format_check,
)
from oracular.execution.classpath import ClasspathSettings
from oracular.java.workspace import is_test_path
from oracular.lsp.documents import Analysis, internal_error
from oracular.lsp.settings import ServerSettings

PENDING = format_check(None)
"""``checking…``: the check of this version has not arrived yet."""
MAX_MISSING_SHOWN = 5

Log = Callable[[str, types.MessageType], None]


@dataclass(frozen=True)
class Checked:
    suggestion: Suggestion
    """Renumbered when candidates that do not compile were moved to the end."""
    summary: str | None
    """``holds now``, ``fails now: was 1 — possible bug``, ``checking…``; ``None``: nothing to show."""


@dataclass(frozen=True)
class CheckState:
    """One analysis's check as the features see it: pending until ``check`` arrives."""

    check: FileCheck | None = None


def ordered(state: CheckState | None, test: TestReport) -> list[Checked]:
    """``test``'s suggestions as shown: with their check summaries, uncompilable ones last.

    ``state`` is ``None`` when checks are off or this analysis is not checked.
    """
    if state is None or (state.check is not None and state.check.error is not None):
        return [Checked(s, None) for s in test.suggestions]
    if state.check is None:
        return [Checked(s, PENDING) for s in test.suggestions]
    results = [state.check.result_for(test, s) for s in test.suggestions]
    return [
        Checked(s, format_check(r) if r is not None else None)
        for s, r in demote_uncompilable(test.suggestions, results)
    ]


def top_edits(report: FileReport, state: CheckState | None) -> list[TextEdit]:
    """:meth:`FileReport.top_edits`, taking each test's first candidate as :func:`ordered` lists them."""
    if state is None or state.check is None:
        return report.top_edits()
    tests = [
        dataclasses.replace(t, suggestions=[c.suggestion for c in ordered(state, t)]) for t in report.tests
    ]
    return dataclasses.replace(report, tests=tests).top_edits()


def note(state: CheckState | None) -> str | None:
    """One short line for the hover: pending, why nothing was checked, or the classpath used."""
    if state is None:
        return None
    check = state.check
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
        classpath=ClasspathSettings(absolute(settings.classpath), absolute(settings.output_folders))
    )


class _Entry:
    """The check of one analysis: submitted, then cancelled, failed or arrived."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self.cancelled = threading.Event()
        self.future: Future[FileCheck] | None = None
        self.check: FileCheck | None = None
        self.delivery: asyncio.Task[None] | None = None


class Checks:
    """The checks of the open documents: one checker (its helper JVMs) and one thread per server."""

    def __init__(
        self, current: Callable[[str], Analysis | None], on_checked: Callable[[Analysis], None], log: Log
    ) -> None:
        self._current = current
        self._on_checked = on_checked
        self._log = log
        self._settings: CheckSettings | None = None
        self._checker: OracleChecker | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oracular-check")
        """Everything that waits for a JVM or a build tool: checks, warming up, closing."""
        self._entries: dict[str, _Entry] = {}
        self._warmed: set[Path] = set()
        self._logged_classpaths: dict[Path, str] = {}
        """Per build root, the classpath last logged: logged once, and again when it changes."""
        self._logged_errors: set[str] = set()

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

    def state(self, analysis: Analysis) -> CheckState | None:
        """The check of exactly this analysis; ``None`` if it is not checked. Never waits."""
        entry = self._entries.get(analysis.uri)
        if entry is None or entry.analysis is not analysis:
            return None
        return CheckState(entry.check)

    def warm(self, path: Path | None) -> None:
        """Start the helper JVM of a test file's module while the file is being analysed."""
        checker = self._checker
        if checker is None or path is None or not is_test_path(path) or path.parent in self._warmed:
            return
        self._warmed.add(path.parent)
        self._executor.submit(_warm, checker, path)

    def analysed(self, analysis: Analysis) -> None:
        """Check a just-published analysis in the background, superseding the document's last check."""
        self.discard(analysis.uri)
        if self._checker is None or analysis.report is None or not any(t.suggestions for t in analysis.tests):
            return
        entry = _Entry(analysis)
        self._entries[analysis.uri] = entry
        entry.future = self._executor.submit(self._checker.check, analysis.report, entry.cancelled.is_set)
        entry.delivery = asyncio.ensure_future(self._deliver(entry))

    async def _deliver(self, entry: _Entry) -> None:
        assert entry.future is not None
        analysis = entry.analysis
        name = f"{analysis.uri.rsplit('/', 1)[-1]} (version {analysis.version})"
        try:
            check = await asyncio.wrap_future(entry.future)
        except (CheckCancelled, asyncio.CancelledError):
            self._log(f"Oracular: the check of {name} was cancelled", types.MessageType.Log)
            return
        except Exception as exc:  # a checker bug must cost one check, not the server
            check = FileCheck(error=internal_error(exc))
        if self._entries.get(analysis.uri) is not entry or self._current(analysis.uri) is not analysis:
            self._log(f"Oracular: dropped the check of {name}: no longer current", types.MessageType.Log)
            return
        entry.check = check
        self._report(check, name)
        self._on_checked(analysis)

    def _report(self, check: FileCheck, name: str) -> None:
        """A line per check; the classpath once per build root (again if it changes); errors once."""
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
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        cached = ", cached" if check.cached else ""
        self._log(
            f"Oracular: checked {name}: {summary or 'nothing'} ({check.elapsed_s:.2f} s{cached})",
            types.MessageType.Log,
        )

    def discard(self, uri: str) -> None:
        """Cancel and forget ``uri``'s check (a running one is stopped; its result is dropped)."""
        entry = self._entries.pop(uri, None)
        if entry is not None:
            entry.cancelled.set()
            if entry.future is not None:
                entry.future.cancel()

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
