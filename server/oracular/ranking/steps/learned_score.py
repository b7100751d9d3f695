"""Step ``learned``: the learned ranker's probabilities in place of the hand-set steps' scores.

Where the model has a learned ranker (:mod:`oracular.ranking.learned`), the pipeline is
``join-helpers``, ``judge``, then this: every candidate's features (the ranker's score among them,
:mod:`oracular.ranking.features`) weighed by the model of the test's mode, a softmax over the
test's candidates. The offering then orders by these probabilities (the strength tiers are
features too), never one that cannot fail, or fails on the code as it runs, first, and the
top-1's is the answer confidence.
"""

from __future__ import annotations

from typing import ClassVar

from oracular.ranking.features import candidate_features
from oracular.ranking.learned import LearnedRanker
from oracular.ranking.offering import flagged
from oracular.ranking.scored import Ranked, RankingContext


class LearnedScore:
    name: ClassVar[str] = "learned"

    def __init__(self, model: LearnedRanker) -> None:
        self.model = model

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        judged = flagged(ranked, context)
        rows = candidate_features(judged, context)
        return judged.with_scores(self.model.probabilities(rows, context.observed))
