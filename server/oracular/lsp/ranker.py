"""The ranker the server's engines share: which one, on which device, and what stands in for it
while it loads.

The shipped neural model when its weights are present (it loads lazily, in the background), else
the documented baseline. The ``device`` setting is resolved here so that a downgrade (``cuda``
asked, no GPU) reaches the user as a message instead of an error.

Importing torch and loading the weights takes seconds after the server starts, while finding the
tests without an oracle and the quality findings takes milliseconds. So the diagnostics do not
wait for the model: a version analysed while it loads gets its ``missing-oracle`` diagnostics and
findings at once, with no ranked oracle yet ("oracles are ranked once the model has loaded"), the
load begins once those first diagnostics are out (:func:`load_after_first`), and the open
documents are analysed again as soon as it is done (:func:`when_loaded`). The
ranker is never switched half-way: nothing is ranked until the model can rank.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from oracular.engine import FileReport, OracleEngine, TestReport
from oracular.java.source import SourceText
from oracular.models.devices import DeviceUnavailable, select_device
from oracular.models.ranker import default_ranker
from oracular.ranking.problem import OracleProblem, Ranker, Ranking


@dataclass(frozen=True)
class LoadedRanker:
    ranker: Ranker
    device: str
    """The device actually used: ``cpu`` or ``cuda``."""
    note: str | None = None
    """Why the requested device could not be used, for the user."""

    def describe(self) -> str:
        return f"{self.ranker.name} ranker on {self.device}"


def resolve_device(requested: str) -> tuple[str, str | None]:
    """``cpu``/``cuda`` for a requested ``auto``/``cpu``/``cuda``, and a note when downgraded.

    The model code (and torch, whose import takes seconds) is imported only when the answer
    depends on it; the choice itself is the models' own :func:`select_device`.
    """
    if requested == "cpu":
        return "cpu", None
    try:
        return select_device(requested), None
    except ImportError as exc:  # a broken install must not stop the server
        return "cpu", f"oracular.device is {requested!r} but torch cannot be imported ({exc}); using cpu"
    except DeviceUnavailable:
        return "cpu", "oracular.device is 'cuda' but torch sees no CUDA GPU; using cpu"


def load_ranker(requested_device: str) -> LoadedRanker:
    """The ranker for ``requested_device`` (slow: call it off the event loop); its model starts
    loading later (:func:`load_after_first`)."""
    device, note = resolve_device(requested_device)
    return LoadedRanker(default_ranker(device), device, note)


START_LOAD_AFTER_S = 1.0
"""How long the model's load waits for the first diagnostics when no document is opened."""


async def load_after_first(first: asyncio.Event, ranker: Ranker, then: Callable[[], None]) -> None:
    """Start loading ``ranker``'s model once ``first`` is set (the server's first analysis is
    out) or after :data:`START_LOAD_AFTER_S`, then call ``then`` (:func:`when_loaded`).

    Why not at once: the load (importing torch, 1.4 to 1.7 s of mostly interpreted work) and the
    first document's index and analysis share the interpreter's lock; begun together, the first
    diagnostics of a fresh server came 0.4 s later than with no model at all
    (``bench/cold_start_bench.py``), and the user waits for those first.
    """
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(first.wait(), START_LOAD_AFTER_S)
    await when_loaded(ranker, then)


WAITING = "oracles are ranked once the model has loaded"


class Unranked(Ranker):
    """Scores nothing: stands in for the model while it loads."""

    name = "loading"
    abstain_below = 1.0

    def rank(self, problem: OracleProblem) -> Ranking:
        return Ranking(0.0, "Exception", [0.0] * len(problem.candidates))


def provisional_engine(engine: OracleEngine) -> OracleEngine:
    """``engine`` with the model's place taken by :class:`Unranked` (same index and settings)."""
    return OracleEngine(
        engine.index, Unranked(), engine.settings, engine.project_root, engine.global_dictionary
    )


def unranked(report: FileReport) -> FileReport:
    """``report`` without suggestions: each oracle-free test says its oracles are still to come."""
    tests = [replace(t, abstained=True, suggestions=[], reason=WAITING) for t in report.tests]
    return replace(report, tests=tests)


PENDING = "its oracles are being ranked"


def first_look(engine: OracleEngine, source: SourceText) -> FileReport:
    """A newly opened document's oracle-free tests, before anything is ranked or checked: its
    first diagnostics (:func:`oracular.lsp.documents.analyse`).

    Why: the first analysis of a file has nothing to reuse; on a 2,000-line file ranking its
    oracle-free tests and walking every test for the quality checks took 340 to 570 ms (p95),
    the file's analysis alone tens of milliseconds (``docs/benchmarks.md``).
    """
    analysis = engine.analyse(source)
    tests = [
        TestReport(s.test, None, 0.0, "Exception", True, [], reason=PENDING) for s in analysis.oracle_free
    ]
    return FileReport(str(source.path or ""), tests, analysis)


async def when_loaded(ranker: Ranker, then: Callable[[], None]) -> None:
    """Call ``then`` once ``ranker``'s model is loaded (or has given up), if it was loading."""
    if ranker.loading:
        await asyncio.get_running_loop().run_in_executor(None, ranker.wait)
        then()
