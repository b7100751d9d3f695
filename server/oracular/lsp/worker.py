"""The analysis thread, and the scheduling of analyses per document version.

Engine work (parsing, ranking, refreshing an index) runs on one dedicated thread, never on the
event loop, so the editor's requests are answered while a large file is ranked. One thread, because
tree-sitter parsers and the workspace index are not thread-safe and ranking is CPU-bound Python
that a second thread would not speed up on two cores. Only a new index, which no analysis reads
until it is built, is built elsewhere (:class:`~oracular.lsp.engines.Engines`): indexing one
build root must not hold up the diagnostics of another's documents.

Jobs are keyed by document and version. A new version supersedes the previous job: its debounce
wait ends, a ranking in progress is told to stop between tests, and whoever waits on it gets
``None``. So a stale version never produces a result late.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

T = TypeVar("T")
logger = logging.getLogger(__name__)


class Job(Generic[T]):
    """One scheduled analysis of one document version."""

    def __init__(self, key: str, version: int, delay: float) -> None:
        self.key = key
        self.version = version
        self.delay = delay
        self.cancelled = threading.Event()
        """Set when superseded; the thread polls it (``OracleEngine.suggest(cancelled=...)``)."""
        self._start_now = asyncio.Event()
        self._result: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
        self._task: asyncio.Task[None] | None = None

    async def result(self) -> T | None:
        """The job's result, starting it now if it is still being debounced.

        ``None`` when the job was superseded or failed. Cancelling the caller (a client's
        ``$/cancelRequest``) does not cancel the job, which others may be waiting for.
        """
        self._start_now.set()
        return await asyncio.shield(self._result)


class Worker:
    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="oracular-worker")
        self._jobs: dict[str, Job[Any]] = {}

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the analysis thread, after the work queued before it."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    def schedule(
        self, key: str, version: int, delay: float, compute: Callable[[Job[T]], Awaitable[T | None]]
    ) -> Job[T]:
        """Supersede ``key``'s pending job with ``compute`` for ``version``, after ``delay`` seconds."""
        self.cancel(key)
        job: Job[T] = Job(key, version, delay)
        self._jobs[key] = job
        job._task = asyncio.create_task(self._drive(job, compute))
        return job

    def pending(self, key: str) -> Job[Any] | None:
        return self._jobs.get(key)

    def cancel(self, key: str) -> None:
        job = self._jobs.pop(key, None)
        if job is not None:
            job.cancelled.set()
            # Answer the waiters here: a task cancelled before it ever ran never reaches its
            # ``finally``, and they would wait forever.
            if not job._result.done():
                job._result.set_result(None)
            if job._task is not None:
                job._task.cancel()

    async def _drive(self, job: Job[T], compute: Callable[[Job[T]], Awaitable[T | None]]) -> None:
        value: T | None = None
        try:
            if job.delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(job._start_now.wait(), job.delay)
            value = await compute(job)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("analysis of %s (version %s) failed", job.key, job.version)
        finally:
            if not job._result.done():
                job._result.set_result(value)
            if self._jobs.get(job.key) is job:
                del self._jobs[job.key]

    def shutdown(self) -> None:
        for key in list(self._jobs):
            self.cancel(key)
        self._executor.shutdown(wait=False, cancel_futures=True)
