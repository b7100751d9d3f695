"""Steps ``asserted-alike`` and ``first-check``: the file's habits raise the assertions they name.

Why: the ranker scores one test's templates from that test alone, while the tests around it show
how this unit is checked. An assertion whose target reads a member path the other tests assert on
has its weight against the other assertions multiplied (:attr:`RankingWeights.asserted_alike`),
then all are scaled so that the best assertion's score stays what it was: the file's habits
reorder a test's oracles, they do not make the engine surer of the test (a ranker's scores need not
be probabilities: the baseline's are not), so abstention thresholds keep their meaning.

``asserted-alike`` applies only where the prefix ends with an action whose effect must be read
(``parser.parse(args);``), not where it ends by computing a value (``int n = s.size();``), which
is what such tests assert: on the realistic dev tests, the file's habits helped the first kind
(observed top-1 29.6% -> 32.0% on the 8-project subset, 8.6% -> 10.1% on the other 12) and not the
second (38.6% -> 38.8%, 19.4% -> 19.0%; top-5 46.6% -> 44.9%). Nor where the ranker already
weighed them (a model whose prior was fitted with those features).

``first-check`` raises the assertions of the file's first-check habit
(:attr:`oracular.engine.FileAnalysis.first_habit`): where most of the file's tests open their checks
with one read, an oracle-free test beside them most likely would too (13 of joptsimple's 16
``AbbreviationMapTest`` tests first assert ``abbreviations.contains(...)``, and the ranker preferred
the ``get(...)`` they assert next), whatever the prefix ends with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from oracular.candidates.grammar import Candidate
from oracular.java.assertions import FAMILIES
from oracular.java.neighbours import FirstCheck, member_path, read_path
from oracular.java.prefix import PrefixAnalysis
from oracular.ranking.scored import Ranked, RankingContext


def raise_asserted_alike(
    candidates: Sequence[Candidate],
    scores: Sequence[float],
    asserted: frozenset[str],
    prefix: PrefixAnalysis,
    weight: float,
) -> list[float]:
    """``scores`` with the assertions on an ``asserted`` member path weighed up by ``weight``."""
    if prefix.computes_value:
        return list(scores)
    assertions = [c.kind == "assertion" and c.target is not None for c in candidates]
    alike = [
        is_assertion and member_path(c.target.expression) in asserted  # type: ignore[union-attr]
        for c, is_assertion in zip(candidates, assertions, strict=True)
    ]
    return _weighed(scores, assertions, alike, weight)


def raise_first_check(
    candidates: Sequence[Candidate], scores: Sequence[float], habit: FirstCheck | None, weight: float
) -> list[float]:
    """``scores`` with the assertions of the file's first-check ``habit`` weighed up by ``weight``."""
    if habit is None:
        return list(scores)
    assertions = [c.kind == "assertion" and c.target is not None for c in candidates]
    alike = [
        is_assertion and FAMILIES.get(c.assertion) == habit[0] and read_path(c.target.expression) == habit[1]  # type: ignore[union-attr]
        for c, is_assertion in zip(candidates, assertions, strict=True)
    ]
    return _weighed(scores, assertions, alike, weight)


def _weighed(
    scores: Sequence[float], assertions: list[bool], alike: list[bool], weight: float
) -> list[float]:
    """The ``alike`` assertions' weight against the other assertions' multiplied by ``weight``, then
    all assertions scaled so that the best one's score stays what it was (see the module doc)."""
    if not any(alike) or all(alike[i] for i, a in enumerate(assertions) if a):
        return list(scores)
    raised = [s * weight if a else s for s, a in zip(scores, alike, strict=True)]
    best = max(s for s, a in zip(scores, assertions, strict=True) if a)
    new_best = max(s for s, a in zip(raised, assertions, strict=True) if a)
    if new_best <= 0:
        return list(scores)
    return [r * best / new_best if a else s for r, s, a in zip(raised, scores, assertions, strict=True)]


class AssertedAlike:
    name: ClassVar[str] = "asserted-alike"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        if context.ranker_weighed_habits:
            return ranked
        weight = context.weights.asserted_alike
        scores = raise_asserted_alike(
            ranked.candidates, ranked.scores, context.asserted, context.prefix, weight
        )
        return ranked.with_scores(scores)


class FirstCheckHabit:
    name: ClassVar[str] = "first-check"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        weight = context.weights.first_check
        return ranked.with_scores(
            raise_first_check(ranked.candidates, ranked.scores, context.first_habit, weight)
        )
