"""Step ``guard-verdict``: where the code's opening guards say the prefix surely throws, the
exception oracles come first (static mode only: a run says what happens).

Why: in static mode the classifier reads the test's text, not the code's guards; for commons-math3's
``LogitTest`` (``f.value(lo - 1)`` on a ``Logit(lo, hi)``) it gave the exception a low probability
and no exception oracle was among those offered, though the guard verdict (:mod:`oracular.java.
guard_calls`) had found ``if (x < lo || x > hi) throw new OutOfRangeException(...)`` surely trips
with nothing before it that could throw. Such a certain verdict is taken as the probability
:attr:`~oracular.ranking.weights.RankingWeights.surely_throws` that the prefix throws: the
exception candidates' scores share it, the assertions' the rest, each group in the ranker's order.
An uncertain verdict changes nothing: the classifier's probability stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from oracular.candidates.grammar import Candidate
from oracular.java.guard_calls import GuardVerdict
from oracular.ranking.scored import Ranked, RankingContext


def trust_guard_verdict(
    candidates: Sequence[Candidate],
    scores: Sequence[float],
    probability: float,
    verdict: GuardVerdict | None,
    surely: float,
) -> tuple[list[float], float]:
    """``scores`` and the exception probability, re-weighted as if the classifier had said
    ``surely`` where ``verdict`` is certain and said less."""
    exceptions = [c.kind == "exception" for c in candidates]
    if verdict is None or not verdict.certain or probability >= surely or not any(exceptions):
        return list(scores), probability
    up = surely / max(probability, 1e-6)
    down = (1 - surely) / max(1 - probability, 1e-6)
    return [s * (up if e else down) for s, e in zip(scores, exceptions, strict=True)], surely


class GuardVerdictStep:
    name: ClassVar[str] = "guard-verdict"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        if context.observed:
            return ranked
        scores, probability = trust_guard_verdict(
            ranked.candidates,
            ranked.scores,
            ranked.exception_probability,
            context.prefix.guard_verdict,
            context.weights.surely_throws,
        )
        return replace(ranked.with_scores(scores), exception_probability=probability)
