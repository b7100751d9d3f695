"""Step ``judge``: in observed mode every candidate is told to hold or fail; in static mode, none."""

from __future__ import annotations

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, ObservedValue, TestObservation
from oracular.candidates.values import Value
from oracular.engine import OracleEngine
from oracular.ranking.scored import Ranked, RankingContext
from oracular.ranking.steps.judge import Judge

from ..conftest import target
from ..java.test_targets import analysed


def test_each_candidate_is_judged_by_the_run_and_none_without_one(engine: OracleEngine) -> None:
    prefix = analysed(engine, "int x = 1 + 1;")
    size = target("x", "int")
    candidates = [
        Candidate("assertion", "assertEquals", size, Value("2", "int", "literal")),
        Candidate("assertion", "assertEquals", size, Value("3", "int", "literal")),
        Candidate("assertion", "assertEquals", target("y", "int"), Value("3", "int", "literal")),
    ]
    ranked = Ranked.of(candidates, [0.5, 0.3, 0.2], 0.1)
    observation = TestObservation(values={"x": ObservedValue("literal", "int", "2")}, completed=True)
    judged = Judge()(ranked, RankingContext(prefix, observation=observation))
    assert [v.status if v else None for v in judged.verdicts] == [HOLDS, FAILS, None]
    assert judged.scores == ranked.scores  # a verdict moves no score
    assert Judge()(ranked, RankingContext(prefix)) is ranked
