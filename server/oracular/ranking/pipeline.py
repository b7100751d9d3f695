"""The ranking pipeline: the ranker's scores, then the named steps, in one visible order.

Why a list of steps (as transformers' ``LogitsProcessorList``): the engine's score adjustments
were a hidden chain of function calls whose order mattered and lived in one method. Here each is a
named object (:mod:`oracular.ranking.steps`), their order is :data:`STEPS`, and any of them can be
left out by name to measure what it does (``oracular eval --realistic --ablate STEP``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from oracular.ranking.learned import LearnedRanker
from oracular.ranking.scored import Ranked, RankingContext
from oracular.ranking.steps.file_habits import AssertedAlike, FirstCheckHabit
from oracular.ranking.steps.guard_verdict import GuardVerdictStep
from oracular.ranking.steps.helper_calls import EqualityHelpers, FewerHelperCalls, JoinHelpers, PassingHelpers
from oracular.ranking.steps.judge import Judge
from oracular.ranking.steps.learned_score import LearnedScore
from oracular.ranking.steps.mutant_kills import MutantKills
from oracular.ranking.steps.named_values import NamedValues
from oracular.ranking.steps.settled_targets import SettledTargets
from oracular.ranking.steps.witnessed_exception import WitnessedException


class Step(Protocol):
    """One adjustment: what the candidates and their scores are after it."""

    name: str

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked: ...


STEPS: tuple[Step, ...] = (
    AssertedAlike(),
    GuardVerdictStep(),
    FirstCheckHabit(),
    JoinHelpers(),
    Judge(),
    EqualityHelpers(),
    WitnessedException(),
    SettledTargets(),
    NamedValues(),
    PassingHelpers(),
    FewerHelperCalls(),
    MutantKills(),
)
STEP_NAMES = tuple(step.name for step in STEPS)


class RankingPipeline:
    """The steps, run in order over a test's ranked candidates."""

    def __init__(self, steps: Sequence[Step] = STEPS) -> None:
        self.steps = tuple(steps)

    @classmethod
    def learned(cls, model: LearnedRanker) -> RankingPipeline:
        """Helpers joined and candidates judged (equality helpers written for the holding
        ``assertEquals``), then the learned ranker in place of the hand-set steps
        (:mod:`oracular.ranking.steps.learned_score`), then the mutants' word where there is one."""
        return cls((JoinHelpers(), Judge(), EqualityHelpers(), LearnedScore(model), MutantKills()))

    @property
    def is_learned(self) -> bool:
        return any(isinstance(step, LearnedScore) for step in self.steps)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.steps)

    def without(self, names: Iterable[str]) -> RankingPipeline:
        """The pipeline less the named steps (an ablation); an unknown name is an error."""
        left_out = set(names)
        unknown = sorted(left_out - set(STEP_NAMES))
        if unknown:
            raise ValueError(f"unknown ranking steps: {', '.join(unknown)} (steps: {', '.join(STEP_NAMES)})")
        return RankingPipeline([s for s in self.steps if s.name not in left_out])

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        for step in self.steps:
            ranked = step(ranked, context)
        return ranked
