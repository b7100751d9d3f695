"""Step ``guard-verdict``: a certain guard verdict makes the exception oracles come first in static
mode."""

from __future__ import annotations

import pytest

from oracular.candidates.grammar import Candidate
from oracular.java.guard_calls import GuardVerdict
from oracular.ranking.steps.guard_verdict import trust_guard_verdict
from oracular.ranking.weights import RankingWeights

CANDIDATES = [
    Candidate("assertion", "assertEquals"),
    Candidate("exception", "assertThrows", exception="OutOfRangeException"),
    Candidate("assertion", "assertTrue"),
    Candidate("exception", "assertThrows", exception="IllegalArgumentException"),
]
SCORES = [0.6, 0.03, 0.35, 0.02]  # the classifier said 0.05
SURELY = RankingWeights().surely_throws


def surely_throws(
    candidates: list[Candidate], scores: list[float], probability: float, verdict: GuardVerdict | None
) -> tuple[list[float], float]:
    return trust_guard_verdict(candidates, scores, probability, verdict, SURELY)


def test_a_certain_verdict_puts_the_exceptions_first_in_their_own_order() -> None:
    verdict = GuardVerdict("OutOfRangeException", ("IllegalArgumentException",), certain=True)
    scores, probability = surely_throws(CANDIDATES, SCORES, 0.05, verdict)
    assert probability == SURELY
    assert sorted(range(4), key=lambda i: -scores[i]) == [1, 3, 0, 2]
    assert sum(scores) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "verdict",
    [None, GuardVerdict("OutOfRangeException", (), certain=False)],
)
def test_no_or_an_uncertain_verdict_changes_nothing(verdict: GuardVerdict | None) -> None:
    assert surely_throws(CANDIDATES, SCORES, 0.05, verdict) == (SCORES, 0.05)


def test_a_classifier_surer_than_the_verdict_stands() -> None:
    verdict = GuardVerdict("OutOfRangeException", (), certain=True)
    assert surely_throws(CANDIDATES, SCORES, 0.99, verdict) == (SCORES, 0.99)
    assert surely_throws(CANDIDATES[::2], SCORES[::2], 0.05, verdict) == (SCORES[::2], 0.05)  # none to offer
