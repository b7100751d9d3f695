"""Step ``mutant-kills``: among the oracles that hold, those that kill surviving mutants first.

Where a pseudo-testing run of the same document version found that an assertion of an observed
value kills extreme mutants the test lets survive (:mod:`oracular.mutation.reneri`: verified, it
holds on the code and fails on each), that assertion is the stronger oracle of two that both
hold. Its score gains :attr:`~oracular.ranking.weights.RankingWeights.mutant_kill` per mutant.
Candidates that fail, or were not observed, are left alone: a kill says nothing of them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from oracular.ranking.scored import Ranked, RankingContext, Scored


def kills_of(scored: Scored, kills: dict[tuple[str, str], int]) -> int:
    candidate = scored.candidate
    if candidate.kind != "assertion" or candidate.target is None or candidate.expected is None:
        return 0
    return kills.get((candidate.target.expression, candidate.expected.text), 0)


class MutantKills:
    name: ClassVar[str] = "mutant-kills"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        observation = context.observation
        if observation is None or not observation.kills:
            return ranked
        weight = context.weights.mutant_kill
        items = tuple(
            replace(s, score=s.score + weight * kills_of(s, observation.kills)) if s.holds else s
            for s in ranked.items
        )
        return replace(ranked, items=items)
