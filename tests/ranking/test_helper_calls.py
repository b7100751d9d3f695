"""Steps ``join-helpers``, ``passing-helpers`` and ``fewer-helper-calls``: the suite's own helpers' calls
among the candidates, and their scores."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.helpers import HelperOffer
from oracular.candidates.observed import FAILS, HOLDS, TestObservation, Verdict
from oracular.candidates.values import Value
from oracular.java.targets import Target
from oracular.ranking.scored import Ranked, RankingContext, Scored
from oracular.ranking.steps.helper_calls import (
    EqualityHelpers,
    credit_passing_helpers,
    lower_later_helper_calls,
)
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


def test_an_equality_helper_is_written_for_each_holding_assertequals_on_its_type() -> None:
    """jackson's ``assertToken(JsonToken.START_ARRAY, p.nextToken())``: the observed value and the
    action, judged as the ``assertEquals`` it stands for; never for one that fails or another type."""
    token = Target("p.nextToken()", "JsonToken", "action")
    text = Target("p.getText()", "String", "observer")
    holds, fails = Verdict(HOLDS, "START_ARRAY"), Verdict(FAILS, "was START_ARRAY")

    def equals(target: Target, value: str, source: str = "observed") -> Candidate:
        return Candidate("assertion", "assertEquals", target, Value(value, target.type or "", source))

    items = (
        Scored(equals(token, "JsonToken.START_ARRAY"), 0.5, 0.5, holds),
        Scored(equals(token, "JsonToken.END_ARRAY", "constant"), 0.2, 0.2, fails),
        Scored(equals(text, '"["'), 0.3, 0.3, Verdict(HOLDS, "[")),
    )
    offer = HelperOffer(Candidate("helper", "assertToken"), 0.8, 0.8, compares="JsonToken")
    context = RankingContext(None, WEIGHTS, observation=TestObservation(), helpers=(offer,))  # type: ignore[arg-type]
    ranked = EqualityHelpers()(Ranked(items, 0.1), context)
    (added,) = ranked.items[3:]
    assert added.candidate.call == "assertToken(JsonToken.START_ARRAY, p.nextToken())"
    assert added.verdict == holds and added.share == 0.8 and added.score == pytest.approx(0.8 * 0.9)
    static = replace(context, observation=None)
    assert EqualityHelpers()(Ranked(items, 0.1), static).items == items  # nothing ran: no value to write
