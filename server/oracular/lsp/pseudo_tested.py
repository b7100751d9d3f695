"""Pseudo-tested methods in the editor: a command on a test class, code lenses, killing quick fixes.

``workspace/executeCommand`` ``oracular.pseudoTested [uri]`` runs :mod:`oracular.mutation` on a
test file (the open buffer's text, as the checks do) with ``$/progress``, when user code may run
(the same policy as the checks); it answers the JSON of ``oracular pseudo-tested --json`` and
keeps the result for that document version. Then:

- a **code lens** above each method the tests call, in its main source file: ``pseudo-tested: 0 of
  1 extreme mutants killed (IntStackTest)``; one above each test class offers the run itself;
- a **quick fix** in the test for each verified killing oracle: ``Add oracle: assertEquals(2,
  s.size()); · kills 1 surviving mutant of IntStack.size``, offered only while the document is at
  the version the run was made for (its edit names that version);
- the observed ranking of that version again, where the killing oracles come first among those
  that hold (step ``mutant-kills``).

The run has its own engine (no model: nothing is ranked) and its own thread, so neither the
analysis thread nor the checks wait for it; the client's cancel stops it between runs.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.uris import to_fs_path

from oracular.engine import OracleEngine
from oracular.java.source import SourceError, SourceText, load_source, parse_text, validate_text
from oracular.java.workspace import WorkspaceIndex, project_root
from oracular.lsp.convert import lsp_range, one_line, overlaps, point, workspace_edit

if TYPE_CHECKING:
    from oracular.execution.oracle_checks import OracleChecker
    from oracular.lsp.documents import Analysis
    from oracular.lsp.server import OracularServer
    from oracular.mutation.pseudo_tested import Progress
    from oracular.mutation.records import ClassResult, KillingOracle, MethodResult

PSEUDO_TESTED = "oracular.pseudoTested"
RUN_TITLE = "Oracular: find pseudo-tested methods"


@dataclass(frozen=True)
class Run:
    """One finished run: for which document version, and what it found."""

    uri: str
    version: int | None
    """``None``: the file was not open (read from disk)."""
    result: ClassResult


class PseudoTested:
    """The runs' results by test document, and the thread they run on."""

    def __init__(self, server: OracularServer) -> None:
        self.server = server
        self.runs: dict[str, Run] = {}
        self._engines: dict[Path, OracleEngine] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oracular-pseudo")

    async def run(self, arguments: list[Any]) -> dict[str, Any]:
        if len(arguments) != 1 or not isinstance(arguments[0], str):
            raise JsonRpcInvalidParams(f"{PSEUDO_TESTED} expects [uri], got {arguments!r}")
        uri = arguments[0]
        fs_path = to_fs_path(uri)
        if fs_path is None:
            raise JsonRpcInvalidParams(f"{PSEUDO_TESTED}: {uri} is not a file URI")
        checker = self.server.code_runs.checker
        if checker is None:
            raise JsonRpcInvalidRequest(f"{PSEUDO_TESTED}: {self.server.may_run_reason()}")
        document = self.server.open_document(uri)
        version = document.version if document is not None else None
        text = document.text if document is not None else None
        stop = threading.Event()
        loop = asyncio.get_running_loop()
        async with self.server.progress(f"Oracular: pseudo-tested methods of {Path(fs_path).name}") as report:

            def progress(what: str, done: int, total: int) -> None:
                if not stop.is_set():  # a cancelled run's progress has ended
                    loop.call_soon_threadsafe(report, f"{what} ({done}/{total})")

            job = loop.run_in_executor(
                self._executor, self._run, Path(fs_path), text, checker, progress, stop
            )
            try:
                result = await asyncio.shield(job)
            except asyncio.CancelledError:
                stop.set()  # the client cancelled: the run stops at its next step
                raise
        self.runs[uri] = Run(uri, version, result)
        if self.server.client.code_lens_refresh:
            self.server.workspace_code_lens_refresh(None)
        analysis = self.server.documents.cached(uri)
        if analysis is not None and analysis.version == version:
            self.server.code_runs.analysed(analysis)  # ranked again, the killing oracles first
        return result.to_json()

    def kills(self, uri: str, version: int) -> dict[int, dict[tuple[str, str], int]]:
        """Per test (1-based line), the verified killing oracles of this version's run."""
        run = self.runs.get(uri)
        found: dict[int, dict[tuple[str, str], int]] = {}
        if run is None or run.version != version:
            return found
        for oracle in {id(o): o for m in run.result.methods for o in m.oracles}.values():
            found.setdefault(oracle.test_line, {})[(oracle.target, oracle.expected)] = len(oracle.kills)
        return found

    def _run(
        self, path: Path, text: str | None, checker: OracleChecker, progress: Progress, stop: threading.Event
    ) -> ClassResult:
        """On this feature's thread: mutation is imported on first use (the server starts without it)."""
        from oracular.execution.jvm import CheckCancelled
        from oracular.mutation.pseudo_tested import PseudoTester
        from oracular.mutation.records import ClassResult

        try:
            source = _source(text, path)
        except SourceError as exc:
            raise JsonRpcInvalidParams(str(exc)) from exc
        engine = self._engine(path)
        try:
            return PseudoTester(engine, checker).run(source, progress, stop.is_set)
        except CheckCancelled:
            return ClassResult(path, error="cancelled")

    def _engine(self, path: Path) -> OracleEngine:
        """This feature's engine for ``path``'s project, its index refreshed (on this thread only)."""
        from oracular.ranking.baseline import BaselineRanker

        root = project_root(path)
        engine = self._engines.get(root)
        if engine is None:
            engine = self._engines[root] = OracleEngine(
                WorkspaceIndex([root]), BaselineRanker(), project_root=root
            )
        engine.index.refresh()
        return engine

    # -- what the features show ------------------------------------------------------------
    def lenses(self, uri: str) -> list[types.CodeLens]:
        """Above each method some run judged, in its source file; above each test class, the run.
        The file is parsed only where some run judged one of its methods (to find it where it is
        now); a test file's run lens reads its cached analysis."""
        fs_path = to_fs_path(uri)
        if fs_path is None:
            return []
        path = Path(fs_path).resolve()
        analysis = self.server.documents.cached(uri)
        lenses = [self._run_lens(uri, node) for node in _classes_with_tests(analysis)]
        judged = [
            (r, m) for r in self.runs.values() for m in r.result.methods if m.method.path.resolve() == path
        ]
        source = self._current(uri, path, analysis) if judged else None
        if source is not None:
            lenses += [_verdict_lens(run, method) for run, method in judged if _declared_at(source, method)]
        return sorted(lenses, key=lambda lens: lens.range.start.line)

    def _current(self, uri: str, path: Path, analysis: Analysis | None) -> SourceText | None:
        """The file as the editor has it: the cached analysis's tree, else the buffer or the disk."""
        if analysis is not None and analysis.report is not None:
            return analysis.report.analysis.source
        document = self.server.open_document(uri)
        try:
            return parse_text(document.text, path) if document is not None else load_source(path)
        except SourceError:
            return None

    @staticmethod
    def _run_lens(uri: str, node) -> types.CodeLens:
        line = node.start_point[0]
        command = types.Command(title=RUN_TITLE, command=PSEUDO_TESTED, arguments=[uri])
        return types.CodeLens(range=lsp_range((line, 0), (line, 0)), command=command)

    def actions(self, analysis: Analysis, selection: types.Range) -> list[types.CodeAction]:
        """Killing oracles of the tests in ``selection``, when the run was of this very version."""
        run = self.runs.get(analysis.uri)
        if run is None or run.version != analysis.version or analysis.report is None:
            return []
        file = analysis.report.analysis
        wanted = (point(selection.start), point(selection.end))
        spans = {
            (s.test.name, s.test.line + 1): (file.source.position(s.test.node.start_byte),
                                             file.source.position(s.test.node.end_byte))
            for s in file.statuses
        }  # fmt: skip
        return [
            self._kill_action(analysis, run.result, oracle)
            for oracle in run.result.oracles
            if (span := spans.get((oracle.test, oracle.test_line))) is not None and overlaps(span, wanted)
        ]

    def _kill_action(
        self, analysis: Analysis, result: ClassResult, oracle: KillingOracle
    ) -> types.CodeAction:
        """One action per oracle, however many methods' mutants it kills."""
        kills = len(oracle.kills)
        title = (
            f"Add oracle: {one_line(oracle.statement)} · kills {kills} surviving mutant"
            f"{'s' if kills != 1 else ''} of {', '.join(result.killed_methods(oracle))}"
        )
        edit = workspace_edit(
            analysis.uri, analysis.version, oracle.edits, self.server.client.document_changes
        )
        return types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, edit=edit)

    def closed(self, uri: str) -> None:
        """A closed document's version numbers start again: its run offers no edit any more (its
        code lenses stay, checked against the files as they are)."""
        if (run := self.runs.get(uri)) is not None:
            self.runs[uri] = Run(uri, None, run.result)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _source(text: str | None, path: Path) -> SourceText:
    if text is None:
        return load_source(path)
    validate_text(text, str(path))
    return parse_text(text, path)


def _declared_at(source: SourceText, method: MethodResult) -> bool:
    """The judged method is still where the run found it (the file may have changed since)."""
    from oracular.mutation.calls import method_node

    return method_node(source, method.method) is not None


def _verdict_lens(run: Run, method: MethodResult) -> types.CodeLens:
    line = method.method.line
    test_class = Path(to_fs_path(run.uri) or run.uri).stem
    title = f"{method.describe()} ({test_class})"
    command = types.Command(title=title, command=PSEUDO_TESTED, arguments=[run.uri])
    return types.CodeLens(range=lsp_range((line, 0), (line, 0)), command=command)


def _classes_with_tests(analysis: Analysis | None) -> list:
    """The top-level classes of a test file that hold its tests: the run's lens goes above them."""
    if analysis is None or analysis.report is None:
        return []
    file = analysis.report.analysis
    starts = [s.test.node.start_byte for s in file.statuses]
    return [
        node for node in file.source.root.named_children
        if node.type == "class_declaration" and any(node.start_byte <= b < node.end_byte for b in starts)
    ]  # fmt: skip


def register(server: OracularServer) -> None:
    feature = PseudoTested(server)
    server.pseudo_tested = feature

    @server.command(PSEUDO_TESTED)
    async def pseudo_tested_command(*arguments: Any) -> dict[str, Any]:
        return await feature.run(list(arguments))

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    def code_lens(params: types.CodeLensParams) -> list[types.CodeLens]:
        return feature.lenses(params.text_document.uri)


__all__ = ["PSEUDO_TESTED", "PseudoTested", "register"]
