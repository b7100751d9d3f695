"""Step ``guard-named``: a certain guard verdict's named type is the first exception oracle in
static mode; the exceptions trade scores among themselves, nothing else moves."""

from __future__ import annotations

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import TestObservation
from oracular.engine import OracleEngine
from oracular.java.guard_calls import GuardVerdict
from oracular.ranking.scored import Ranked, RankingContext
from oracular.ranking.steps.guard_named import GuardNamedFirst

from ..java.test_targets import analysed

CANDIDATES = (
    Candidate("exception", "assertThrows", exception="IllegalArgumentException"),
    Candidate("assertion", "assertEquals"),
    Candidate("exception", "assertThrows", exception="java.lang.NullPointerException"),
)
SCORES = [0.7, 0.2, 0.1]


def ranked_with(engine: OracleEngine, verdict: GuardVerdict | None, observed: bool = False) -> list[float]:
    prefix = analysed(engine, "int x = 1;")
    prefix.guard_verdict = verdict
    observation = TestObservation(completed=True) if observed else None
    context = RankingContext(prefix, observation=observation)
    return GuardNamedFirst()(Ranked.of(CANDIDATES, SCORES, 0.8), context).scores


def test_the_named_type_takes_the_best_exception_score(engine: OracleEngine) -> None:
    verdict = GuardVerdict("NullPointerException", (), certain=True)
    assert ranked_with(engine, verdict) == [0.1, 0.2, 0.7]


def test_the_habit_is_the_named_type(engine: OracleEngine) -> None:
    verdict = GuardVerdict("NullPointerException", (), certain=True, habit="IllegalArgumentException")
    assert ranked_with(engine, verdict) == SCORES


@pytest.mark.parametrize(
    ("verdict", "observed"),
    [
        (None, False),
        (GuardVerdict("NullPointerException", (), certain=False), False),
        (GuardVerdict("NullPointerException", (), certain=True), True),  # a run says what is thrown
        (GuardVerdict("IllegalStateException", (), certain=True), False),  # not a candidate
    ],
)
def test_otherwise_nothing_moves(engine: OracleEngine, verdict: GuardVerdict | None, observed: bool) -> None:
    assert ranked_with(engine, verdict, observed) == SCORES
