"""The ranking problem handed to any ranker, and its answer.

One type for every ranker (the baseline heuristic, the neural model, the editor's stand-in while
the model loads) so the engine, the CLI, the server and the evaluation never care which one ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from oracular.candidates.grammar import Candidate
from oracular.java.prefix import FocalMethod, PrefixAnalysis
from oracular.ranking.confidence import AnswerView, plain_confidence
from oracular.ranking.learned import LearnedRanker
from oracular.ranking.weights import RankingWeights


@dataclass
class OracleProblem:
    test_name: str
    prefix: PrefixAnalysis
    candidates: list[Candidate]
    asserted: frozenset[str] = frozenset()
    """What the file's other tests assert on (member paths, :mod:`oracular.java.neighbours`)."""

    @property
    def focal(self) -> FocalMethod | None:
        return self.prefix.focal


@dataclass
class Ranking:
    exception_probability: float
    exception_type: str
    scores: list[float]
    """One score in [0, 1] per candidate, aligned with ``OracleProblem.candidates``."""
    habits: bool = False
    """The scores already weigh what the file's other tests assert on (a model whose template
    prior was fitted with those features): the engine must not weigh it again."""


class Ranker(Protocol):
    """What the engine ranks with; the engine takes one from its caller and never builds a model.

    Rankers with nothing to load (the baseline) inherit the defaults: they are never loading,
    never fall back, and preloading them does nothing.
    """

    name: str

    @property
    def abstain_below(self) -> float:
        """The ranker's own "no confident oracle" threshold on :meth:`answer_confidence`, used
        unless the user sets one: confidences of different rankers are not on the same scale."""
        ...

    def abstain_below_for(self, view: AnswerView) -> float:
        """The threshold one answer is compared with: a fitted model may keep one per mode (values
        observed or not); others have :attr:`abstain_below` for all."""
        return self.abstain_below

    def answer_confidence(self, view: AnswerView) -> float:
        """How sure the ranker is that the view's top-1 is the developer's oracle (what
        :attr:`abstain_below` is compared with); without a fitted model, the top-1's score, or 1
        when it holds now (:func:`~oracular.ranking.confidence.plain_confidence`)."""
        return plain_confidence(view)

    def rank(self, problem: OracleProblem) -> Ranking: ...

    @property
    def ranking_weights(self) -> RankingWeights | None:
        """The ranking pipeline's weights fitted with the ranker's model, if its model has them."""
        return None

    @property
    def learned_ranker(self) -> LearnedRanker | None:
        """The learned ranker fitted with the ranker's model (:mod:`oracular.ranking.learned`), if any."""
        return None

    @property
    def fallback_reason(self) -> str | None:
        """Why a heuristic ranks in place of the model the user expects, for them to read."""
        return None

    @property
    def loading(self) -> bool:
        """Whether a model is still loading (and has not given up): ranking now would wait."""
        return False

    def preload(self) -> None:
        """Start loading in the background, so that the load overlaps the caller's own work."""

    def wait(self) -> None:
        """Block until loaded (or given up); afterwards :attr:`loading` is false."""
