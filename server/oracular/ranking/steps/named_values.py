"""Step ``named-values``: an observed literal's score handed to the holding named value it equals
(observed mode only).

Both oracles hold and check the same thing; the name is how the developer wrote it (on the
realistic dev tests, ``TEST_MESSAGE``, ``ROWS``, ``expected`` lost to the literal they hold).
Scores are swapped, not raised, so that the template's total and every other order stay.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import HOLDS, NAMED_SOURCES, ObservedValue, TestObservation, Verdict, number
from oracular.candidates.values import Value
from oracular.ranking.scored import Ranked, RankingContext

_EXPECTED_NAME = re.compile(r"expect", re.IGNORECASE)


def _is_small_integer(observed: ObservedValue) -> bool:
    value = number(observed.payload) if observed.kind == "literal" else None
    return value is not None and value == int(value) and abs(value) < 10


def prefers_name(value: Value, observed: ObservedValue, prepared: set[str]) -> bool:
    """Whether a developer would write ``value``'s name rather than the literal it equals.

    A constant, or a local the prefix initialised with a literal and never wrote again (an
    ``expected`` of its own making), names what the test meant: ``assertEquals(TEST_MESSAGE,
    e.getMessage())``. A small integer (``0``, ``2``) equals an unrelated name by coincidence
    too often to trust, unless the name says it is the expectation.
    """
    if value.source not in NAMED_SOURCES:
        return False
    if _EXPECTED_NAME.search(value.text):
        return True
    if value.source == "variable" and value.text not in prepared:
        return False
    return not _is_small_integer(observed)


def swap_to_named_values(
    candidates: Sequence[Candidate],
    verdicts: Sequence[Verdict | None],
    scores: Sequence[float],
    observation: TestObservation,
    prepared: set[str],
) -> list[float]:
    """``scores`` with each observed literal's score swapped with the best-scored holding named
    value that would replace it (``prepared``: the locals the prefix only initialised)."""
    literal = {
        (c.assertion, c.target.expression): i
        for i, c in enumerate(candidates)
        if c.target is not None and c.expected is not None and c.expected.source == "observed"
    }
    best: dict[int, int] = {}
    """Observed literal's index -> the best-scored holding named value that would replace it."""
    for i, candidate in enumerate(candidates):
        verdict_i = verdicts[i]
        if candidate.target is None or candidate.expected is None or verdict_i is None:
            continue
        j = literal.get((candidate.assertion, candidate.target.expression))
        observed = observation.values.get(candidate.target.expression)
        if j is None or observed is None or verdict_i.status != HOLDS:
            continue
        better = j not in best or scores[i] > scores[best[j]]
        if better and prefers_name(candidate.expected, observed, prepared):
            best[j] = i
    result = list(scores)
    for j, i in best.items():
        if result[i] < result[j]:
            result[i], result[j] = result[j], result[i]
    return result


class NamedValues:
    name: ClassVar[str] = "named-values"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        observation = context.observation
        if observation is None:
            return ranked
        prepared = context.prefix.history.restated
        scores = swap_to_named_values(
            ranked.candidates, ranked.verdicts, ranked.scores, observation, prepared
        )
        return ranked.with_scores(scores)
