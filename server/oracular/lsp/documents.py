"""Engines per build root, and the analysis of each open document version.

An :class:`Analysis` is the engine's :class:`~oracular.engine.FileReport` for one
``(uri, version)``, with the oracle-quality findings of the same version. Every feature reads
it from here: diagnostics and inlay hints from the cache only, code actions and hover waiting
for the current version when they must. Results for a
version the editor has moved past are dropped, never cached or published.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from lsprotocol import types

from oracular.engine import FileReport, OracleEngine, RankingCancelled, TestReport
from oracular.incremental import MethodMemo
from oracular.java import syntax
from oracular.java.junit import file_flavour
from oracular.java.reparse import Reparser
from oracular.java.source import SourceError, parse_text, validate_text
from oracular.java.workspace import is_test_path
from oracular.lsp import convert
from oracular.lsp.convert import Point
from oracular.lsp.ranker import first_look, provisional_engine, unranked
from oracular.lsp.worker import Job, Worker
from oracular.quality.finding import Finding
from oracular.quality.runner import QualitySettings, check_file

if TYPE_CHECKING:
    from oracular.lsp.engines import Engines

logger = logging.getLogger(__name__)

MAX_ERROR_CHARS = 200
RANKED_WAIT_S = 10.0
"""How long a request made while the model loads waits for the ranked analysis (:meth:`Documents.ranked`)."""


@dataclass(frozen=True)
class OpenDocument:
    """What the analysis needs of an editor buffer, read on the event loop."""

    uri: str
    version: int
    text: str
    path: Path | None
    """``None`` for documents that are not files (``untitled:``)."""


Span = tuple[Point, Point]


class TestSpans(NamedTuple):
    """Where one oracle-free test lies, in LSP coordinates."""

    report: TestReport
    method: Span
    name: Span
    last_statement_end: Point | None
    """Where its inlay hint goes; ``None`` when the body has no statement."""


@dataclass
class Analysis:
    uri: str
    version: int
    report: FileReport | None
    """``None`` when the server stays silent: not a test file, or not analysable (see ``problem``)."""
    problem: str | None = None
    findings: list[Finding] = field(default_factory=list)
    """The enabled quality checks' findings, fixes included, in document order."""
    provisional: bool = False
    """Nothing ranked yet, a complete analysis of this version follows: made while the model was
    loading, or the first look at a newly opened file (:mod:`oracular.lsp.ranker`)."""
    first_look: bool = False
    """The oracle-free tests of a newly opened file, before they are ranked and checked (the
    complete analysis is under way: tens to hundreds of milliseconds)."""

    @property
    def tests(self) -> list[TestReport]:
        """The oracle-free tests, in source order."""
        return self.report.tests if self.report is not None else []

    @cached_property
    def spans(self) -> list[TestSpans]:
        """Each test's spans, computed once per version: editors ask about positions (hover, code
        actions, inlay hints) far more often than documents change."""
        if self.report is None:
            return []
        position = self.report.analysis.source.position
        result = []
        for t in self.tests:
            method, name, body = t.test.node, t.test.name_node, t.test.body
            statements = syntax.statements(body) if body is not None else []
            result.append(
                TestSpans(
                    t,
                    (position(method.start_byte), position(method.end_byte)),
                    (position(name.start_byte), position(name.end_byte)),
                    position(statements[-1].end_byte) if statements else None,
                )
            )
        return result

    def name_range(self, test: TestReport) -> types.Range:
        name = next(s.name for s in self.spans if s.report is test)
        return convert.lsp_range(*name)

    def tests_in(self, selection: types.Range) -> list[TestReport]:
        """Oracle-free tests whose method overlaps ``selection`` (a cursor inside one, or its name)."""
        wanted = (convert.point(selection.start), convert.point(selection.end))
        return [s.report for s in self.spans if convert.overlaps(s.method, wanted)]

    def test_named_at(self, pos: types.Position) -> TestReport | None:
        where = convert.point(pos)
        return next((s.report for s in self.spans if convert.contains(s.name, where)), None)

    def findings_in(self, selection: types.Range) -> list[Finding]:
        """Findings whose range overlaps ``selection``."""
        wanted = (convert.point(selection.start), convert.point(selection.end))
        return [f for f in self.findings if convert.overlaps((f.start, f.end), wanted)]

    def find(self, method: str, line: int) -> TestReport | None:
        """The test called ``method`` whose name is on 1-based ``line``."""
        return next((t for t in self.tests if t.test.name == method and t.line == line), None)


def internal_error(exc: BaseException) -> str:
    """A one-line description of an unexpected error for the user's log, short and without the
    exception's arguments: a ``repr`` can hold a whole document (``UnicodeEncodeError`` does)."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 1] + "…"
    return f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")


def activates(path: Path | None, report: FileReport) -> bool:
    """Test files: under a test source root (or named like a test), or importing a test framework."""
    return (path is not None and is_test_path(path)) or file_flavour(
        report.analysis.decls.imports
    ) is not None


CLOSED_KEPT = 4
"""Closed documents whose history is kept: a file closed and opened again (switching between a
few tabs, a peek, a quick look at another test) is analysed as an edit is, its unchanged methods'
results reused (``bench/lsp_bench.py``'s warm opens). A few files' trees and results, no more."""


@dataclass
class History:
    """What one open document's earlier versions leave to the next: its parse tree, re-parsed
    incrementally, and the results of its unchanged methods (:mod:`oracular.incremental`)."""

    reparser: Reparser = field(default_factory=Reparser)
    memo: MethodMemo = field(default_factory=MethodMemo)
    analysed: bool = False
    """A version was analysed (its tests shown): later ones need no first look."""


def analyse(
    engine: OracleEngine,
    document: OpenDocument,
    quality: QualitySettings,
    cancelled: Callable[[], bool],
    history: History | None = None,
    early: Callable[[Analysis], None] | None = None,
) -> Analysis | None:
    """The engine's report and quality findings for one document version (on the worker thread).

    ``None`` if cancelled. Both are computed in one go and published together: publishing the
    findings later would make their squiggles blink out after every edit. With the document's
    ``history``, only the methods that changed are analysed again. A document analysed for the
    first time has nothing to reuse: ``early`` is handed its oracle-free tests first, unranked
    (:func:`first_look`), when it has any.
    """
    name = str(document.path or document.uri)
    try:
        validate_text(document.text, name)
    except SourceError as exc:
        return Analysis(document.uri, document.version, None, str(exc))
    if history is None:
        source, memo = parse_text(document.text, document.path), None
    else:
        source, memo = history.reparser.parse(document.text, document.path), history.memo
    provisional = engine.ranker.loading
    if provisional:
        engine = provisional_engine(engine)
    elif early is not None and not (history is not None and history.analysed):
        first = first_look(engine, source)
        if first.tests and activates(document.path, first):
            early(Analysis(document.uri, document.version, first, provisional=True, first_look=True))
    try:
        report = engine.suggest(source, cancelled=cancelled, memo=memo)
        if not activates(document.path, report):
            return Analysis(document.uri, document.version, None)
        findings = check_file(engine, report.analysis, quality, cancelled=cancelled, memo=memo)
    except RankingCancelled:
        return None
    if history is not None:
        history.memo.finish()
        history.analysed = True
    if provisional:
        report = unranked(report)
    return Analysis(document.uri, document.version, report, findings=findings, provisional=provisional)


class Documents:
    """The current analysis of each open document, computed on the worker, cached per version."""

    def __init__(
        self,
        worker: Worker,
        engines: Engines,
        open_document: Callable[[str], OpenDocument | None],
        on_analysis: Callable[[Analysis], None],
        quality: Callable[[], QualitySettings] = QualitySettings,
    ) -> None:
        self._worker = worker
        self._engines = engines
        self._open_document = open_document
        self._quality = quality
        self._on_analysis = on_analysis
        self._cache: dict[str, Analysis] = {}
        self._history: dict[str, History] = {}
        """Per open document; used on the analysis thread only."""
        self._closed: OrderedDict[str, History] = OrderedDict()
        """The histories of the last :data:`CLOSED_KEPT` closed documents, newest last."""
        self._waiting: dict[str, list[tuple[int, asyncio.Future[Analysis | None]]]] = {}
        """Per document: requests waiting for a ranked analysis of a version (:meth:`ranked`)."""

    def cached(self, uri: str) -> Analysis | None:
        """The analysis of the document's current version, if ready. Never waits."""
        document = self._open_document(uri)
        analysis = self._cache.get(uri)
        if document is None or analysis is None or analysis.version != document.version:
            return None
        return analysis

    def all_cached(self) -> list[Analysis]:
        return [a for uri in list(self._cache) if (a := self.cached(uri)) is not None]

    async def current(self, uri: str) -> Analysis | None:
        """The analysis of the current version, computed now if needed; ``None`` if superseded."""
        if (analysis := self.cached(uri)) is not None:
            return analysis
        document = self._open_document(uri)
        if document is None:
            return None
        job = self._worker.pending(uri)
        if job is None or job.version != document.version:
            job = self._schedule(document, 0.0)
        return await job.result()

    def schedule(self, uri: str, delay: float) -> None:
        """Analyse the document's current version after ``delay`` seconds of quiet."""
        if (document := self._open_document(uri)) is not None:
            self._schedule(document, delay)

    def _schedule(self, document: OpenDocument, delay: float) -> Job[Analysis]:
        return self._worker.schedule(
            document.uri, document.version, delay, lambda job: self._compute(job, document)
        )

    async def _compute(self, job: Job[Analysis], document: OpenDocument) -> Analysis | None:
        try:
            quality = self._quality()
            engine = await self._engines.for_path(document.path)
            history = self._history.get(document.uri) or self._closed.pop(document.uri, None) or History()
            self._history[document.uri] = history
            early = partial(asyncio.get_running_loop().call_soon_threadsafe, self._first_look)
            analysis = await self._worker.run(
                analyse, engine, document, quality, job.cancelled.is_set, history, early
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an engine bug must cost one document version, not the server
            logger.exception("analysis of %s (version %s) failed", document.uri, document.version)
            problem = f"{document.path or document.uri}: {internal_error(exc)}"
            analysis = Analysis(document.uri, document.version, None, problem)
        current = self._open_document(document.uri)
        if analysis is None or current is None or current.version != document.version:
            return None
        self._cache[document.uri] = analysis
        self._on_analysis(analysis)
        self._wake(analysis)
        return analysis

    def _first_look(self, analysis: Analysis) -> None:
        """Publish a first look at a version (on the event loop) unless the editor has moved on
        or the complete analysis is already there."""
        current = self._open_document(analysis.uri)
        cached = self._cache.get(analysis.uri)
        if (
            current is None
            or current.version != analysis.version
            or (cached is not None and cached.version == analysis.version)
        ):
            return
        self._cache[analysis.uri] = analysis
        self._on_analysis(analysis)

    async def shown(self, uri: str) -> Analysis | None:
        """:meth:`current`, past a first look: what a hover or a listing shows is ranked."""
        analysis = await self.current(uri)
        if analysis is not None and analysis.first_look:
            return await self.ranked(analysis)
        return analysis

    async def ranked(self, analysis: Analysis, timeout_s: float = RANKED_WAIT_S) -> Analysis | None:
        """``analysis``, or where it was made while the model loaded (nothing ranked yet), the
        ranked analysis of the same version, waited for at most ``timeout_s`` (then ``analysis``);
        ``None`` once a newer version superseded it. A client's cancel ends the wait.

        Why: a quick fix asked for right after a fresh start found no oracle and showed an empty
        lightbulb; a client shows "checking for quick fixes" while the request is pending instead."""
        if not analysis.provisional:
            return analysis
        future: asyncio.Future[Analysis | None] = asyncio.get_running_loop().create_future()
        waiting = self._waiting.setdefault(analysis.uri, [])
        waiting.append((analysis.version, future))
        try:
            return await asyncio.wait_for(future, timeout_s)
        except TimeoutError:
            return analysis
        finally:
            if (analysis.version, future) in waiting:
                waiting.remove((analysis.version, future))

    def _wake(self, analysis: Analysis) -> None:
        """Answer the requests waiting for a ranked ``analysis.uri`` that ``analysis`` settles."""
        if analysis.provisional:
            return
        for version, future in list(self._waiting.get(analysis.uri, [])):
            if version <= analysis.version and not future.done():
                future.set_result(analysis if version == analysis.version else None)

    def close(self, uri: str) -> None:
        self._worker.cancel(uri)
        self._cache.pop(uri, None)
        history = self._history.pop(uri, None)
        if history is not None:
            self._closed[uri] = history
            while len(self._closed) > CLOSED_KEPT:
                self._closed.popitem(last=False)
        for _, future in self._waiting.pop(uri, []):
            if not future.done():
                future.set_result(None)
