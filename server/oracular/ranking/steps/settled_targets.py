"""Step ``settled-targets``: the assertions on targets the action did not change weighed down
(observed mode only).

A test checks what its action did: after ``parser.parseArgument("-str", "foo")`` the bean's
``str``, after ``format.print(in, out)`` the writer's text, not the format it was built with or a
file the set-up made. Running the prefix tells which targets the action changed, which the ranker,
reading text, can only guess. Only weighed (:attr:`~oracular.ranking.weights.RankingWeights.settled`),
not dropped: a test may check that an action left something alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import TestObservation
from oracular.ranking.scored import Ranked, RankingContext


def lower_settled_targets(
    candidates: Sequence[Candidate], scores: Sequence[float], observation: TestObservation, weight: float
) -> list[float]:
    """``scores`` with the assertions on targets the action left as they were multiplied by ``weight``."""
    return [
        score * weight
        if c.kind == "assertion"
        and c.target is not None
        and observation.changed(c.target.expression) is False
        else score
        for c, score in zip(candidates, scores, strict=True)
    ]


class SettledTargets:
    name: ClassVar[str] = "settled-targets"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        observation = context.observation
        if observation is None:
            return ranked
        weight = context.weights.settled
        return ranked.with_scores(
            lower_settled_targets(ranked.candidates, ranked.scores, observation, weight)
        )
