"""Running one job per item on this process, a local process pool, or a Ray cluster.

Batch ``suggest`` and ``corpus mine`` have the same shape: many independent items (files,
packages), each worth seconds, and a worker that is expensive to start (a model to load, a JVM, an
index) but cheap to reuse. So a job is described by a *worker factory*: each process (or Ray
actor) builds one worker and feeds it item after item; results come back as items finish.

- ``jobs == 1`` and no Ray: the worker runs in this process (no start-up, easiest to debug);
- ``jobs > 1``: a spawn-started process pool (fork would copy torch's threads' state);
- Ray (``--ray ADDRESS`` or ``RAY_ADDRESS``): one actor per CPU of the cluster (or ``jobs``),
  each holding its worker. ``pip install 'oracular[ray]'`` installs it; the items and results
  must be picklable, and every node must see the same files at the same paths.

A failing item never stops the others: its exception comes back in place of its result.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing.util import Finalize
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")
T_contra = TypeVar("T_contra", contravariant=True)
R_co = TypeVar("R_co", covariant=True)

RAY_ENV = "RAY_ADDRESS"


class Worker(Protocol[T_contra, R_co]):
    def __call__(self, item: T_contra) -> R_co: ...

    def close(self) -> None: ...


Outcome = tuple[T, R | BaseException]


class RayUnavailable(RuntimeError):
    """Ray was asked for but is not installed, or its cluster cannot be reached."""


def ray_address(option: str | None) -> str | None:
    """The Ray cluster to use: ``--ray ADDRESS``, else ``$RAY_ADDRESS``, else ``None`` (no Ray)."""
    return option or os.environ.get(RAY_ENV) or None


def run_all(
    factory: Callable[[], Worker[T, R]], items: Iterable[T], jobs: int = 1, ray: str | None = None
) -> Iterator[Outcome[T, R]]:
    """``(item, result or exception)`` for every item, in the order they finish."""
    items = list(items)
    if not items:
        return iter(())
    if ray is not None:
        return _on_ray(factory, items, jobs, ray)
    if jobs <= 1:
        return _here(factory, items)
    return _in_pool(factory, items, jobs)


def _here(factory: Callable[[], Worker[T, R]], items: list[T]) -> Iterator[Outcome[T, R]]:
    worker = factory()
    try:
        for item in items:
            yield item, _attempt(worker, item)
    finally:
        worker.close()


def _attempt(worker: Worker[T, R], item: T) -> R | BaseException:
    try:
        return worker(item)
    except Exception as exc:  # one bad item must never stop the batch
        return exc


# -- a local process pool ----------------------------------------------------------------------
_worker: Worker[Any, Any] | None = None
"""This pool process's worker (see :func:`_start`)."""


def _start(factory: Callable[[], Worker[Any, Any]]) -> None:
    global _worker
    _worker = factory()
    # atexit does not run in pool processes; multiprocessing's finalizers do.
    Finalize(None, _worker.close, exitpriority=10)


def _call(item: Any) -> Any:
    assert _worker is not None
    return _worker(item)


def _in_pool(factory: Callable[[], Worker[T, R]], items: list[T], jobs: int) -> Iterator[Outcome[T, R]]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(items)), mp_context=context, initializer=_start, initargs=(factory,)
    ) as pool:
        futures = {pool.submit(_call, item): item for item in items}
        for future in as_completed(futures):
            item = futures[future]
            try:
                yield item, future.result()
            except Exception as exc:
                yield item, exc


# -- Ray ---------------------------------------------------------------------------------------
class Hosted(Generic[T, R]):
    """A worker inside a Ray actor: errors come back as values, as from the other back-ends."""

    def __init__(self, factory: Callable[[], Worker[T, R]]) -> None:
        self.worker = factory()

    def run(self, item: T) -> Outcome[T, R]:
        return item, _attempt(self.worker, item)

    def close(self) -> None:
        self.worker.close()


def connect(address: str) -> Any:
    """The ``ray`` module, connected to ``address`` unless this process already is (a test's
    ``ray.init(num_cpus=2)``, a driver script's own)."""
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable("Ray is not installed: pip install 'oracular[ray]'") from exc
    if not ray.is_initialized():
        try:
            ray.init(address=address, log_to_driver=False)
        except Exception as exc:  # no cluster there, a version mismatch...: one line for the user
            raise RayUnavailable(f"cannot start or join Ray at {address!r}: {exc}") from exc
    return ray


def _on_ray(
    factory: Callable[[], Worker[T, R]], items: list[T], jobs: int, address: str
) -> Iterator[Outcome[T, R]]:
    ray = connect(address)
    from ray.util import ActorPool

    size = jobs if jobs > 1 else int(ray.cluster_resources().get("CPU", 1))
    actor = ray.remote(num_cpus=1)(Hosted)
    actors = [actor.remote(factory) for _ in range(max(1, min(size, len(items))))]
    try:
        yield from ActorPool(actors).map_unordered(lambda a, item: a.run.remote(item), items)
    finally:
        ray.get([a.close.remote() for a in actors])
        for a in actors:
            ray.kill(a)
