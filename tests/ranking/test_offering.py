"""The offering: flags set from what each candidate is worth, the tiers' order, those that cannot
hold left out, and the possible bug flagged once."""

from __future__ import annotations

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, Verdict
from oracular.candidates.values import Value
from oracular.engine import OracleEngine
from oracular.ranking.offering import offer
from oracular.ranking.scored import Ranked, RankingContext, Scored

from ..conftest import target
from ..java.test_targets import analysed


def test_the_offered_candidates_are_flagged_and_ordered_by_tier(engine: OracleEngine) -> None:
    prefix = analysed(engine, "Stack<Integer> s = new Stack<>(); s.push(1); int n = s.size();")
    n, s = target("n", "int"), target("s", "Stack<Integer>")
    equals = Candidate("assertion", "assertEquals", n, Value("1", "int", "observed"))
    wrong = Candidate("assertion", "assertEquals", n, Value("2", "int", "literal"))
    not_null = Candidate("assertion", "assertNotNull", s)  # s = new Stack<>(): cannot fail
    null = Candidate("assertion", "assertNull", s)  # cannot hold: never offered
    holds, fails = Verdict(HOLDS, "1"), Verdict(FAILS, "1")
    items = (
        Scored(wrong, 0.6, verdict=fails),
        Scored(equals, 0.3, verdict=holds),
        Scored(not_null, 0.9, verdict=holds),
        Scored(null, 0.8),
    )
    offered = offer(Ranked(items, 0.1), RankingContext(prefix), top_k=5)
    assert [o.candidate for o in offered] == [equals, wrong, not_null]
    assert [(o.possible_bug, o.vacuous, o.failing) for o in offered] == [
        (False, False, False),
        (True, False, True),  # the ranker's most confident expectation fails: shown second
        (False, True, False),
    ]
    assert [o.candidate for o in offer(Ranked(items, 0.1), RankingContext(prefix), top_k=1)] == [equals]


def test_by_score_an_oracle_that_cannot_fail_is_never_first_however_likely(engine: OracleEngine) -> None:
    prefix = analysed(engine, 'String expecting = "ab"; String result = "a" + "b";')
    ab = Value('"ab"', "String", "observed")
    restated = Candidate("assertion", "assertEquals", target("expecting", "String"), ab)  # its own literal
    checked = Candidate("assertion", "assertEquals", target("result", "String"), ab)
    holds = Verdict(HOLDS, '"ab"')
    a = Value('"a"', "String", "literal")
    wrong = Candidate("assertion", "assertEquals", target("result", "String"), a)
    items = (
        Scored(restated, 0.6, verdict=holds),
        Scored(wrong, 0.5, verdict=Verdict(FAILS, '"ab"')),
        Scored(checked, 0.3, verdict=holds),
    )
    offered = offer(Ranked(items, 0.1), RankingContext(prefix), top_k=5, tiers=False)
    # the first that can fail and holds moves up; the one that cannot is still shown, by its score
    assert [(o.candidate, o.vacuous) for o in offered] == [(checked, False), (restated, True), (wrong, False)]
    # where every other one fails, the order stays (the engine abstains: no oracle that can fail holds)
    offered = offer(Ranked(items[:2], 0.1), RankingContext(prefix), top_k=5, tiers=False)
    assert [o.candidate for o in offered] == [restated, wrong]


def test_by_score_an_oracle_that_fails_on_the_code_gives_way_to_one_that_holds(engine: OracleEngine) -> None:
    """An ``assertThrows`` of a type the run did not throw, however likely, is not first where a
    read of the prefix holds: the failing one is shown second, and alone it keeps its place."""
    prefix = analysed(engine, "Stack<Integer> s = new Stack<>(); s.push(1); int n = s.size();")
    n = target("n", "int")
    throws = Candidate("exception", "assertThrows", exception="IllegalArgumentException")
    equals = Candidate("assertion", "assertEquals", n, Value("1", "int", "observed"))
    guess = Candidate("assertion", "assertEquals", n, Value("2", "int", "literal"))
    items = (
        Scored(throws, 0.6, verdict=Verdict(FAILS, "returned")),
        Scored(guess, 0.2, verdict=Verdict(FAILS, "1")),
        Scored(equals, 0.1, verdict=Verdict(HOLDS, "1")),
    )
    offered = offer(Ranked(items, 0.9), RankingContext(prefix), top_k=5, tiers=False)
    assert [o.candidate for o in offered] == [equals, throws, guess]
    offered = offer(Ranked(items[:2], 0.9), RankingContext(prefix), top_k=5, tiers=False)
    assert [o.candidate for o in offered] == [throws, guess]
