"""The scheduling contract the server relies on, without a server: per-key jobs that a newer
version supersedes (cancelled, waiters get ``None``), debouncing that a waiter can cut short,
and work that runs on the one analysis thread.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

from oracular.lsp.worker import Job, Worker

pytestmark = pytest.mark.asyncio


@pytest.fixture
def worker() -> Iterator[Worker]:
    w = Worker()
    yield w
    w.shutdown()


async def test_work_runs_on_one_thread_off_the_loop(worker: Worker) -> None:
    threads = {await worker.run(lambda: threading.current_thread().name) for _ in range(5)}
    assert len(threads) == 1 and threads != {threading.current_thread().name}


async def test_a_newer_version_supersedes_the_pending_job(worker: Worker) -> None:
    ran: list[int] = []

    async def compute(job: Job[int]) -> int:
        ran.append(job.version)
        return job.version

    old = worker.schedule("doc", 1, 0.05, compute)
    new = worker.schedule("doc", 2, 0.05, compute)
    assert old.cancelled.is_set() and not new.cancelled.is_set()
    assert await old.result() is None
    assert await new.result() == 2
    assert ran == [2]
    assert worker.pending("doc") is None


async def test_a_waiter_cuts_the_debounce_short(worker: Worker) -> None:
    async def compute(job: Job[str]) -> str:
        return "done"

    job = worker.schedule("doc", 1, 30.0, compute)
    start = time.perf_counter()
    assert await job.result() == "done"
    assert time.perf_counter() - start < 5


async def test_a_running_job_is_told_to_stop(worker: Worker) -> None:
    started = asyncio.Event()
    stopped: list[bool] = []

    def rank(job: Job[bool]) -> bool:
        deadline = time.monotonic() + 10
        while not job.cancelled.is_set() and time.monotonic() < deadline:
            time.sleep(0.001)
        stopped.append(job.cancelled.is_set())
        return True

    async def compute(job: Job[bool]) -> bool:
        started.set()
        return await worker.run(rank, job)

    job = worker.schedule("doc", 1, 0.0, compute)
    await started.wait()
    worker.cancel("doc")
    assert await job.result() is None
    await worker.run(lambda: None)  # the thread is free again once the job noticed
    assert stopped == [True]


async def test_cancelling_a_waiter_does_not_cancel_the_job(worker: Worker) -> None:
    release = asyncio.Event()

    async def compute(job: Job[int]) -> int:
        await release.wait()
        return 7

    job = worker.schedule("doc", 1, 0.0, compute)
    waiter = asyncio.ensure_future(job.result())
    await asyncio.sleep(0.01)
    waiter.cancel()
    release.set()
    assert await job.result() == 7


async def test_a_failing_job_yields_none(worker: Worker) -> None:
    async def compute(job: Job[int]) -> int:
        raise RuntimeError("engine bug")

    assert await worker.schedule("doc", 1, 0.0, compute).result() is None
