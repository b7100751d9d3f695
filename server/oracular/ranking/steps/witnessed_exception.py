"""Step ``witnessed-exception``: the exception oracles that hold on what the running prefix threw
are raised to :attr:`~oracular.ranking.weights.RankingWeights.thrown`, at least (observed mode only).

A developer's test that passes cannot end in a statement that throws unless it expects the
exception, so once the code ran and threw there, the ranker's guess of whether it should throw is
the weaker evidence. Only the score moves (what abstention and users read), not the order among
what holds when the ranker was unsure of each: the observed class comes first, then the
superclasses that catch it too. Letting the ranker order those instead named commons-io's
documented ``IOException`` where its tests catch the thrown ``IOExceptionList`` (the 12 `OTHERS`
projects' exception tests 72.7% -> 68.7% top-1), and gained nothing on the 8 projects (91.1%).

But where the file's tests say which of the holding types they catch (simple names, the most
often expected first), that one comes first: commons-math3's tests expect
``MathIllegalArgumentException`` where the code throws its subclasses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import HOLDS, TestObservation, Verdict
from oracular.ranking.scored import Ranked, RankingContext


def raise_witnessed_exception(
    candidates: Sequence[Candidate],
    verdicts: Sequence[Verdict | None],
    scores: Sequence[float],
    observation: TestObservation,
    expected: Sequence[str],
    thrown: float,
    margin: float,
) -> list[float]:
    """``scores`` with the holding exception oracles raised to ``thrown`` at least, and the
    file's habitual type among them put ``margin`` above the best of them."""
    if observation.thrown is None:
        return list(scores)
    holding = [
        c.kind == "exception" and v is not None and v.status == HOLDS
        for c, v in zip(candidates, verdicts, strict=True)
    ]
    raised = [max(score, thrown) if h else score for h, score in zip(holding, scores, strict=True)]
    types: dict[str, int] = {}
    for i, (c, h) in enumerate(zip(candidates, holding, strict=True)):
        if h:
            types.setdefault((c.exception or "").rsplit(".", 1)[-1], i)
    habit = next((types[t] for t in expected if t in types), None)
    if habit is not None:
        raised[habit] = max(raised[i] for i in types.values()) + margin
    return raised


class WitnessedException:
    name: ClassVar[str] = "witnessed-exception"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        observation = context.observation
        if observation is None:
            return ranked
        weights = context.weights
        scores = raise_witnessed_exception(
            ranked.candidates,
            ranked.verdicts,
            ranked.scores,
            observation,
            context.expected_exceptions,
            weights.thrown,
            weights.habit_margin,
        )
        return ranked.with_scores(scores)
