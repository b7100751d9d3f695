"""The server's engines: one per build root, indexed on first use, sharing one ranker and one
settings, and the heap settled after an index is built or refreshed."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from oracular.engine import EngineSettings, OracleEngine
from oracular.java.workspace import RefreshStats, WorkspaceIndex, has_build_marker, project_root
from oracular.lsp.ranker import LoadedRanker, load_ranker
from oracular.lsp.worker import Worker

MAX_INDEXING = 4
"""Indexes built at once: one per build root opened, until this many are under way."""


ProgressReport = Callable[[str], None]


ProgressFactory = Callable[[str], AbstractAsyncContextManager[ProgressReport]]


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
        index = WorkspaceIndex([root] if root is not None else [], recursive=recursive, stored=True)
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
