"""Step ``judge``: every candidate told to hold or fail from the observed run (observed mode only).

Not a score change: the verdicts are what the observed-value steps after it and the offering read
(:func:`oracular.candidates.observed.verdict`: an observed value compared with each expectation).
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from oracular.candidates.observed import verdict
from oracular.ranking.scored import Ranked, RankingContext


class Judge:
    name: ClassVar[str] = "judge"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        observation = context.observation
        if observation is None:
            return ranked
        items = tuple(replace(s, verdict=verdict(s.candidate, observation)) for s in ranked.items)
        return replace(ranked, items=items)
