"""Where the phases run: warm helper JVMs, shared by threads, next to the project's build.

Why a pool of JVMs: starting a JVM per scratch class or mutant would cost more than running its
tests, so ``jobs`` helpers stay warm and each thread borrows one for a task.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from oracular.evaluation.build import Build
from oracular.execution.classpath import Classpath
from oracular.execution.jvm import JvmWorker
from oracular.execution.runner import CompileContext
from oracular.execution.toolchain import find_toolchain


class WorkerPool:
    """``jobs`` warm helper JVMs, one per thread at a time."""

    def __init__(self, jobs: int, cwd: Path, work: Path, resources: Sequence[Path] = ()) -> None:
        """``work``: the project's scratch folder, the only one the helpers write (the sandbox)."""
        toolchain = find_toolchain()
        self.workers = [
            JvmWorker(toolchain, cwd, heap="768m", resources=resources, writable=(work,)) for _ in range(jobs)
        ]
        self._free: queue.Queue[JvmWorker] = queue.Queue()
        for worker in self.workers:
            self._free.put(worker)

    @contextmanager
    def worker(self) -> Iterator[JvmWorker]:
        worker = self._free.get()
        try:
            yield worker
        finally:
            self._free.put(worker)

    def close(self) -> None:
        for worker in self.workers:
            worker.close()


@dataclass
class Harness:
    """What the correct-code and mutant phases run with: the project built, and the helpers."""

    classpath: Classpath
    build: Build
    pool: WorkerPool
    jobs: int
    work: Path
    """This project's scratch folder."""
    progress: bool

    def context(self) -> CompileContext:
        """Scratch classes compile and run against the built tests and main classes."""
        return CompileContext(
            classpath=(self.build.test_classes, self.build.classes, *self.build.dependencies(self.classpath)),
            runtime_extra=self.classpath.layout.resource_dirs,
            encoding=self.classpath.layout.encoding,
        )

    def parallel(self, items: Sequence[Any], task: Callable[[JvmWorker, Any], Any], desc: str) -> list[Any]:
        """``task(worker, item)`` for every item, on the pool's helpers; results in ``items``' order."""
        pool = self.pool
        results: list[Any] = [None] * len(items)

        def run(i: int) -> tuple[int, Any]:
            with pool.worker() as worker:
                return i, task(worker, items[i])

        with (
            ThreadPoolExecutor(max_workers=self.jobs) as executor,
            tqdm(
                total=len(items),
                desc=desc,
                unit="mutant" if desc.endswith("mutants") else "file",
                disable=not self.progress,
            ) as bar,  # fmt: skip
        ):
            futures = [executor.submit(run, i) for i in range(len(items))]
            for future in as_completed(futures):
                i, value = future.result()
                results[i] = value
                bar.update()
        return results
