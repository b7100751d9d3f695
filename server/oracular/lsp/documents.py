"""Engines per build root, and the analysis of each open document version.

An :class:`Analysis` is the engine's :class:`~oracular.engine.FileReport` for one
``(uri, version)``, with the oracle-quality findings of the same version. Every feature reads
it from here: diagnostics and inlay hints from the cache only, code actions and hover waiting
for the current version when they must. Results for a
version the editor has moved past are dropped, never cached or published.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from lsprotocol import types

from oracular.engine import EngineSettings, FileReport, OracleEngine, RankingCancelled, TestReport
from oracular.incremental import MethodMemo
from oracular.java import syntax
from oracular.java.junit import file_flavour
from oracular.java.reparse import Reparser
from oracular.java.source import SourceError, check_text, parse_text
from oracular.java.workspace import RefreshStats, WorkspaceIndex, has_build_marker, is_test_path, project_root
from oracular.lsp import convert
from oracular.lsp.convert import Point
from oracular.lsp.loading import provisional_engine, unranked
from oracular.lsp.ranker import LoadedRanker, load_ranker
from oracular.lsp.worker import Job, Worker
from oracular.quality.finding import Finding
from oracular.quality.runner import QualitySettings, check_file

logger = logging.getLogger(__name__)

MAX_ERROR_CHARS = 200
MAX_INDEXING = 4
"""Indexes built at once: one per build root opened, until this many are under way."""
ProgressReport = Callable[[str], None]
ProgressFactory = Callable[[str], AbstractAsyncContextManager[ProgressReport]]


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
    """Analysed while the model was loading: nothing ranked yet (:mod:`oracular.lsp.loading`)."""

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


@dataclass
class History:
    """What one open document's earlier versions leave to the next: its parse tree, re-parsed
    incrementally, and the results of its unchanged methods (:mod:`oracular.incremental`)."""

    reparser: Reparser = field(default_factory=Reparser)
    memo: MethodMemo = field(default_factory=MethodMemo)


def analyse(
    engine: OracleEngine,
    document: OpenDocument,
    quality: QualitySettings,
    cancelled: Callable[[], bool],
    history: History | None = None,
) -> Analysis | None:
    """The engine's report and quality findings for one document version (on the worker thread).

    ``None`` if cancelled. Both are computed in one go and published together: publishing the
    findings later would make their squiggles blink out after every edit. With the document's
    ``history``, only the methods that changed are analysed again.
    """
    name = str(document.path or document.uri)
    try:
        check_text(document.text, name)
    except SourceError as exc:
        return Analysis(document.uri, document.version, None, str(exc))
    if history is None:
        source, memo = parse_text(document.text, document.path), None
    else:
        source, memo = history.reparser.parse(document.text, document.path), history.memo
    provisional = engine.ranker.loading
    if provisional:
        engine = provisional_engine(engine)
    try:
        report = engine.suggest(source, cancelled=cancelled, memo=memo)
        if not activates(document.path, report):
            return Analysis(document.uri, document.version, None)
        findings = check_file(engine, report.analysis, quality, cancelled=cancelled, memo=memo)
    except RankingCancelled:
        return None
    if memo is not None:
        memo.finish()
    if provisional:
        report = unranked(report)
    return Analysis(document.uri, document.version, report, findings=findings, provisional=provisional)


def settle_heap() -> None:
    """Keep what is alive (the indexes above all) out of the cyclic garbage collector.

    An index is large and long-lived, and every full collection walked all of it again: that
    doubled the 95th percentile of an analysis. Collecting first means no garbage is frozen;
    index data has no reference cycles, so what a later refresh drops is still freed by
    reference counting. Run on the analysis thread, so no analysis is half done.
    """
    gc.collect()
    gc.freeze()


def refresh_index(index: WorkspaceIndex) -> RefreshStats:
    """Refresh ``index`` and settle the heap (on the analysis thread: analyses read the index)."""
    stats = index.refresh()
    settle_heap()
    return stats


class Engines:
    """One engine per build root, indexed on first use, all sharing one ranker and one settings.

    Indexing and model loading report ``$/progress``: both can take seconds on a large project.
    """

    def __init__(self, worker: Worker, progress: ProgressFactory) -> None:
        self._worker = worker
        self._progress = progress
        self._settings = EngineSettings()
        self._loaded: asyncio.Future[LoadedRanker] | None = None
        self._engines: dict[Path | None, asyncio.Task[OracleEngine]] = {}
        self._roots: dict[Path, Path] = {}
        self._indexer = ThreadPoolExecutor(max_workers=MAX_INDEXING, thread_name_prefix="oracular-index")
        """New indexes are built here; refreshes, which analyses would see half done, on the worker."""

    def _ranker_future(self) -> asyncio.Future[LoadedRanker]:
        if self._loaded is None:
            self._loaded = asyncio.get_running_loop().create_future()
        return self._loaded

    async def load_ranker(self, device: str) -> LoadedRanker:
        """Load the ranker for ``device`` and switch every engine to it."""
        async with self._progress("Oracular: loading the ranker") as report:
            loaded = await self._worker.run(load_ranker, device)
            report(loaded.describe())
        future = self._ranker_future()
        if future.done():
            self._loaded = future = asyncio.get_running_loop().create_future()
        future.set_result(loaded)
        await self._change_all(lambda engine: setattr(engine, "ranker", loaded.ranker))
        return loaded

    async def configure(self, settings: EngineSettings) -> None:
        self._settings = settings
        await self._change_all(lambda engine: setattr(engine, "settings", settings))

    def _built(self, root: Path | None) -> OracleEngine | None:
        task = self._engines.get(root)
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()

    async def _change_all(self, change: Callable[[OracleEngine], None]) -> None:
        """Change every built engine on the worker thread, so no analysis sees half a change.

        Engines still being built read the new ranker and settings when they are done.
        """
        engines = [engine for root in list(self._engines) if (engine := self._built(root)) is not None]
        await self._worker.run(lambda: [change(engine) for engine in engines])

    def built_for(self, path: Path | None) -> OracleEngine | None:
        """The engine of ``path``'s build root if it is built (never waits, never builds)."""
        return self._built(self.root_of(path))

    def root_of(self, path: Path | None) -> Path | None:
        if path is None:
            return None
        directory = path.parent
        if directory not in self._roots:
            self._roots[directory] = project_root(path)
        return self._roots[directory]

    async def for_path(self, path: Path | None) -> OracleEngine:
        """The engine for the build root around ``path`` (an empty index for non-file documents)."""
        root = self.root_of(path)
        task = self._engines.get(root)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = self._engines[root] = asyncio.ensure_future(self._build(root))  # (re)try
        return await asyncio.shield(task)

    async def _build(self, root: Path | None) -> OracleEngine:
        """Index ``root`` on a thread of its own, so that the other documents' analyses go on.

        A folder with no build file and no ``.git`` is no project: only the Java files directly
        in it are indexed (a loose file in a folder of checkouts once indexed all of them).
        """
        recursive = root is None or has_build_marker(root)
        index = WorkspaceIndex([root] if root is not None else [], recursive=recursive)
        if root is not None:
            scope = "" if recursive else " (no build file or .git: only the files in that folder)"
            async with self._progress(f"Oracular: indexing {root.name or root}{scope}") as report:
                loop = asyncio.get_running_loop()
                stats = await loop.run_in_executor(self._indexer, index.refresh)
                await self._worker.run(settle_heap)
                report(f"{stats.files} Java files")
        loaded = await asyncio.shield(self._ranker_future())
        return OracleEngine(index, loaded.ranker, self._settings, root)

    def close(self) -> None:
        self._indexer.shutdown(wait=False, cancel_futures=True)

    async def refresh(self, path: Path) -> Path | None:
        """Re-read changed files in the index covering ``path`` (after a save); its root, if built."""
        root = self.root_of(path)
        engine = self._built(root)
        if engine is None:
            return None
        await self._worker.run(refresh_index, engine.index)
        return root


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
        """Per open document; read and written on the analysis thread only."""

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
            history = self._history.setdefault(document.uri, History())
            analysis = await self._worker.run(
                analyse, engine, document, quality, job.cancelled.is_set, history
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
        return analysis

    def close(self, uri: str) -> None:
        self._worker.cancel(uri)
        self._cache.pop(uri, None)
        self._history.pop(uri, None)
