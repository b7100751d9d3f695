"""The ranking problem handed to any ranker, and its answer.

One type for every ranker (the documented baseline now, the neural stages later) so the
engine, the CLI, the server and the evaluation never care which one is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from oracular.candidates.grammar import Candidate
from oracular.java.prefix import FocalMethod, PrefixAnalysis


@dataclass
class OracleProblem:
    test_name: str
    prefix: PrefixAnalysis
    candidates: list[Candidate]

    @property
    def focal(self) -> FocalMethod | None:
        return self.prefix.focal


@dataclass
class Ranking:
    exception_probability: float
    exception_type: str
    scores: list[float]
    """One score in [0, 1] per candidate, aligned with ``OracleProblem.candidates``."""


class Ranker(Protocol):
    name: str

    @property
    def abstain_below(self) -> float:
        """The ranker's own "no confident oracle" threshold on the top score, used unless the
        user sets one: scores of different rankers are not on the same scale."""
        ...

    def rank(self, problem: OracleProblem) -> Ranking: ...
