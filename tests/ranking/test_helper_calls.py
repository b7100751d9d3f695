"""Steps ``join-helpers``, ``passing-helpers`` and ``fewer-helper-calls``: the suite's own helpers' calls
among the candidates, and their scores."""

from __future__ import annotations

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, Verdict
from oracular.java.targets import Target
from oracular.ranking.steps.helper_calls import credit_passing_helpers, lower_later_helper_calls
from oracular.ranking.weights import RankingWeights

WEIGHTS = RankingWeights()


def test_a_helpers_calls_after_its_two_best_are_weighed_down() -> None:
    calls = [Candidate("helper", "verify", arguments=(a,)) for a in ("a", "b", "c", "d")]
    other = Candidate("helper", "check", arguments=("a",))
    junit = Candidate("assertion", "assertTrue", Target("a.isEmpty()", "boolean", "observer"))
    scores = [0.4, 0.5, 0.3, 0.2, 0.1, 0.05]
    weighed = lower_later_helper_calls(
        [*calls, other, junit], scores, WEIGHTS.shown_calls, WEIGHTS.later_calls
    )
    assert weighed == pytest.approx(
        [0.4, 0.5, 0.3 * WEIGHTS.later_calls, 0.2 * WEIGHTS.later_calls, 0.1, 0.05]
    )


def test_a_helper_call_that_passed_takes_its_helpers_whole_share() -> None:
    holds, fails = Verdict(HOLDS, "the helper's checks pass"), Verdict(FAILS, "the helper's checks fail")
    verdicts = [holds, fails, None, holds]
    scores = [0.3 * 0.9, 0.3 * 0.81, 0.3, 0.2]
    shares = [0.3, 0.3, 0.3, None]  # the last is no helper call
    assert credit_passing_helpers(verdicts, scores, shares) == [0.3, 0.3 * 0.81, 0.3, 0.2]
