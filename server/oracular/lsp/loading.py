"""What the editor shows before the neural model has loaded.

Importing torch and loading the weights takes seconds after the server starts, while finding the
tests without an oracle and the quality findings takes milliseconds. So the diagnostics do not
wait for the model: a version analysed while it loads gets its ``missing-oracle`` diagnostics and
findings at once, with no ranked oracle yet ("oracles are ranked once the model has loaded"), and
the open documents are analysed again as soon as the load is done (:func:`when_loaded`). The
ranker is never switched half-way: nothing is ranked until the model can rank.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from oracular.engine import FileReport, OracleEngine
from oracular.ranking.problem import OracleProblem, Ranker, Ranking

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


async def when_loaded(ranker: Ranker, then: Callable[[], None]) -> None:
    """Call ``then`` once ``ranker``'s model is loaded (or has given up), if it was loading."""
    if ranker.loading:
        await asyncio.get_running_loop().run_in_executor(None, ranker.wait)
        then()
