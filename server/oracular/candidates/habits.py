"""Weighing up the assertions that read what the file's other tests read (:mod:`oracular.java.neighbours`).

Why: the ranker scores one test's templates from that test alone, while the tests around it show
how this unit is checked. The assertions whose target reads a member path the other tests assert
on have their weight against the others multiplied by :data:`ALIKE_WEIGHT`, then all are scaled
so that the best assertion's score stays what it was: the file's habits reorder a test's
oracles, they do not make the engine surer of the test (a ranker's scores need not be
probabilities: the baseline's are not), so abstention thresholds keep their meaning.

Only where the prefix ends with an action whose effect must be read (``parser.parse(args);``),
not where it ends by computing a value (``int n = s.size();``), which is what such tests assert:
on the realistic dev tests, the file's habits helped the first kind (observed top-1 29.6% ->
32.0% on the 8-project subset, 8.6% -> 10.1% on the other 12) and not the second (38.6% ->
38.8%, 19.4% -> 19.0%; top-5 46.6% -> 44.9%).
"""

from __future__ import annotations

from collections.abc import Sequence

from oracular.candidates.grammar import Candidate
from oracular.java.neighbours import FAMILIES, FirstCheck, member_path, read_path
from oracular.java.prefix import PrefixAnalysis

ALIKE_WEIGHT = 10.0
FIRST_WEIGHT = 30.0
"""How much more the first-check habit's assertions weigh: at 10, opencsv's ``NumberTest`` (its
tests open with ``assertNotNull(beans)``) still ranked ``assertEquals(2, beans.size())`` first in
five tests; at 30 the 8 dev projects' observed top-1 gained 6 tests and lost none."""


def weigh_alike(
    candidates: Sequence[Candidate], scores: Sequence[float], asserted: frozenset[str], prefix: PrefixAnalysis
) -> list[float]:
    """``scores`` with the assertions on an ``asserted`` member path weighed up (see the module doc)."""
    if prefix.computes_value:
        return list(scores)
    assertions = [c.kind == "assertion" and c.target is not None for c in candidates]
    alike = [
        is_assertion and member_path(c.target.expression) in asserted  # type: ignore[union-attr]
        for c, is_assertion in zip(candidates, assertions, strict=True)
    ]
    return _weighed(scores, assertions, alike, ALIKE_WEIGHT)


def weigh_first(
    candidates: Sequence[Candidate], scores: Sequence[float], habit: FirstCheck | None
) -> list[float]:
    """``scores`` with the assertions of the file's first-check habit weighed up
    (:attr:`oracular.engine.FileAnalysis.first_habit`): where most of the file's tests open their
    checks with one read, an oracle-free test beside them most likely would too (13 of joptsimple's
    16 ``AbbreviationMapTest`` tests first assert ``abbreviations.contains(...)``, and the ranker
    preferred the ``get(...)`` they assert next). Whatever the prefix ends with: the habit is of
    the first check, which the weights of :func:`weigh_alike` do not know."""
    if habit is None:
        return list(scores)
    assertions = [c.kind == "assertion" and c.target is not None for c in candidates]
    alike = [
        is_assertion and FAMILIES.get(c.assertion) == habit[0] and read_path(c.target.expression) == habit[1]  # type: ignore[union-attr]
        for c, is_assertion in zip(candidates, assertions, strict=True)
    ]
    return _weighed(scores, assertions, alike, FIRST_WEIGHT)


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
