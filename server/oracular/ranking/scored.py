"""What the ranking pipeline carries: one record per candidate, and what every step may read.

Why records: the engine used to carry eight index-aligned lists (candidates, scores, shares,
verdicts, and the offering's flags) through a dozen functions; a list left out of one filter or
one append misaligned the others silently. A :class:`Scored` is one candidate with everything the
steps and the offering know of it; a :class:`Ranked` is the test's list of them with the exception
probability the classifier gave (which a step may revise).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from oracular.candidates.grammar import Candidate
from oracular.candidates.helpers import HelperOffer
from oracular.candidates.observed import TestObservation, Verdict
from oracular.java.neighbours import FirstCheck
from oracular.java.prefix import PrefixAnalysis
from oracular.ranking.weights import RankingWeights


@dataclass(frozen=True)
class Scored:
    """One candidate oracle as ranked: its score and what is known of it."""

    candidate: Candidate
    score: float
    ranker_score: float = 0.0
    """What the ranker (or a helper's habit) said before any step: a learned ranker's first feature."""
    verdict: Verdict | None = None
    """What the observed run says of it: ``holds`` or ``fails`` (with the value seen)."""
    share: float | None = None
    """A helper call's habit share (what it scores once it passed); ``None`` for the others."""
    vacuous: bool = False
    """It cannot fail (``assertNotNull`` on a ``new`` object...): offered last."""
    weaker: bool = False
    """It holds, but another holding oracle implies it."""
    renders_whole: bool = False
    """An assertion on a workspace object's whole ``toString()``."""
    failing: bool = False
    """It fails now and is an expectation of the ranker's (a possible bug, if confident)."""
    possible_bug: bool = False
    """It is the ranker's most confident failing expectation, and confident enough."""

    @property
    def holds(self) -> bool:
        return self.verdict is not None and self.verdict.status == "holds"


@dataclass(frozen=True)
class Ranked:
    """A test's candidates, scored, and the probability that its prefix throws."""

    items: tuple[Scored, ...]
    exception_probability: float

    @classmethod
    def of(cls, candidates: Sequence[Candidate], scores: Sequence[float], probability: float) -> Ranked:
        return cls(tuple(Scored(c, s, s) for c, s in zip(candidates, scores, strict=True)), probability)

    @property
    def candidates(self) -> list[Candidate]:
        return [s.candidate for s in self.items]

    @property
    def scores(self) -> list[float]:
        return [s.score for s in self.items]

    @property
    def verdicts(self) -> list[Verdict | None]:
        return [s.verdict for s in self.items]

    def with_scores(self, scores: Sequence[float]) -> Ranked:
        """The same candidates with new scores (one per candidate, in order)."""
        items = tuple(replace(s, score=new) for s, new in zip(self.items, scores, strict=True))
        return replace(self, items=items)


@dataclass(frozen=True)
class RankingContext:
    """What the steps read besides the candidates: the test, its file's habits, the observation."""

    prefix: PrefixAnalysis
    weights: RankingWeights = field(default_factory=RankingWeights)
    asserted: frozenset[str] = frozenset()
    """The member paths the file's other tests assert on (:mod:`oracular.java.neighbours`)."""
    first_habit: FirstCheck | None = None
    """What most of the file's tests check first (:attr:`~oracular.engine.FileAnalysis.first_habit`)."""
    expected_exceptions: tuple[str, ...] = ()
    """The exception types the file's tests expect, the most often first."""
    observation: TestObservation | None = None
    """The prefix's run, when it ran; ``None`` in static mode."""
    helpers: tuple[HelperOffer, ...] = ()
    """The suite's own assertion helpers' calls, scored by the file's habit (never by the ranker)."""
    ranker_weighed_habits: bool = False
    """The ranker's scores already weigh what the other tests assert on (its prior was fitted so)."""

    @property
    def observed(self) -> bool:
        return self.observation is not None
