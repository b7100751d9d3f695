"""The engine's settings: what a user (or an evaluation) may change of how oracles are chosen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from oracular.ranking.weights import RankingWeights

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class EngineSettings:
    top_k: int = 5
    abstain_below: float | None = None
    """Below this answer confidence (:mod:`oracular.ranking.confidence`) the engine says "no
    confident oracle" instead of guessing; ``None``: the ranker's own threshold (the neural
    model's is chosen on dev projects for a stated top-1 precision, see ``models/MODEL_CARD.md``)."""
    assertion_style: str = "auto"
    """One of :data:`~oracular.candidates.style.ASSERTION_STYLES`: ``auto`` (from the file's imports),
    ``junit4`` or ``junit5``."""
    extra_assertion_methods: frozenset[str] = frozenset()
    weights: RankingWeights | None = None
    """The ranking pipeline's weights; ``None``: those saved with the ranker's model, else the
    hand-set defaults (:class:`~oracular.ranking.weights.RankingWeights`)."""
    ranking: str = "auto"
    """``auto``: the model's learned ranker where it has one (:mod:`oracular.ranking.learned`),
    else the hand-set steps; ``hand``: the hand-set steps always (to compare them)."""
    record_features: bool = False
    """Keep each candidate's learned-ranker features on its test's report (:attr:`TestReport.features`):
    the training data of :mod:`oracular.ranking.features`, made by the realistic evaluation."""
    ablate: frozenset[str] = frozenset()
    """Ranking steps left out, by name (:data:`~oracular.ranking.pipeline.STEP_NAMES`), to measure
    what each does (``oracular eval --realistic --ablate STEP``)."""
