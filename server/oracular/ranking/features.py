"""What a learned ranker reads of a candidate: the ranker's score and every signal the hand-set
steps use, as numbers.

Why: the ranking steps (:mod:`oracular.ranking.steps`) each add one signal with a weight chosen by
hand on the tune projects. Here those signals are features of one model fitted on the train split
(:mod:`oracular.training.learned_ranker`), the neural score one of them: the weights are then
learned on code nobody tuned a rule on. One function, :func:`candidate_features`, computes them for
training data and at ranking time alike.
"""

from __future__ import annotations

import math

from oracular.candidates.observed import FAILS, HOLDS
from oracular.candidates.strength import cannot_hold
from oracular.java.assertions import FAMILIES
from oracular.java.neighbours import member_path, read_path
from oracular.java.types import simple_exception
from oracular.ranking.scored import Ranked, RankingContext, Scored
from oracular.ranking.steps.named_values import prefers_name

METHODS = ("assertEquals", "assertTrue", "assertFalse", "assertNull", "assertNotNull", "assertArrayEquals",
           "assertThrows")  # fmt: skip
SOURCES = ("observed", "literal", "variable", "constant", "global", "argument")
TARGETS = ("variable", "call", "observer", "action", "field", "chain", "query", "static", "text", "instance",
           "value")  # fmt: skip
FEATURES = (
    "ranker_logit", "ranker_rank", "ranker_share", "exception_probability",
    "is_assertion", "is_exception", "is_helper",
    *(f"method_{m}" for m in METHODS), *(f"source_{s}" for s in SOURCES), *(f"target_{t}" for t in TARGETS),
    "asserted_alike", "first_check", "computes_value", "guard_certain", "guard_type",
    "observed", "holds", "fails", "unjudged", "witnessed", "expected_type", "settled", "changed",
    "named_value", "helper_share", "helper_call", "vacuous", "weaker", "renders_whole", "cannot_hold",
)  # fmt: skip
"""The feature order of a collection's rows; a fitted model's weights are read by name
(:meth:`~oracular.ranking.learned.LearnedRanker.from_config`)."""


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def candidate_features(ranked: Ranked, context: RankingContext) -> list[list[float]]:
    """One row of :data:`FEATURES` per candidate of ``ranked`` (judged and flagged: after the
    steps that join and judge, and the offering's flags)."""
    initial = [s.ranker_score for s in ranked.items]
    best = max(initial, default=0.0) or 1.0
    order = {i: rank for rank, i in enumerate(sorted(range(len(initial)), key=lambda i: -initial[i]))}
    calls: dict[str, int] = {}
    rows = []
    for i, scored in enumerate(ranked.items):
        call = calls.get(scored.candidate.assertion, 0) if scored.candidate.kind == "helper" else 0
        calls[scored.candidate.assertion] = call + 1
        rows.append(_row(scored, initial[i], order[i], best, call, ranked.exception_probability, context))
    return rows


def _row(
    scored: Scored, score: float, rank: int, best: float, call: int, throws: float, context: RankingContext
) -> list[float]:
    candidate, prefix, observation = scored.candidate, context.prefix, context.observation
    target, expected, verdict = candidate.target, candidate.expected, scored.verdict
    exception = candidate.kind == "exception"
    values: dict[str, float] = {
        "ranker_logit": _logit(score), "ranker_rank": 1 / (1 + rank), "ranker_share": score / best,
        "exception_probability": throws, "is_assertion": candidate.kind == "assertion",
        "is_exception": exception, "is_helper": candidate.kind == "helper",
        f"method_{candidate.assertion}": True, f"source_{expected.source if expected else ''}": True,
        f"target_{target.kind if target else ''}": True,
        "asserted_alike": target is not None and member_path(target.expression) in context.asserted,
        "first_check": context.first_habit is not None and target is not None
        and FAMILIES.get(candidate.assertion) == context.first_habit[0]
        and read_path(target.expression) == context.first_habit[1],
        "computes_value": prefix.computes_value, "observed": observation is not None,
        "holds": verdict is not None and verdict.status == HOLDS,
        "fails": verdict is not None and verdict.status == FAILS,
        "unjudged": observation is not None and verdict is None,
        "helper_share": scored.share or 0.0,
        "helper_call": 1 / (1 + call) if candidate.kind == "helper" else 0.0,
        "vacuous": scored.vacuous, "weaker": scored.weaker, "renders_whole": scored.renders_whole,
        "cannot_hold": cannot_hold(candidate, prefix),
    }  # fmt: skip
    guard = prefix.guard_verdict
    if exception and guard is not None and guard.certain:
        values["guard_certain"] = True
        thrown = {simple_exception(guard.thrown), *guard.ancestors}
        values["guard_type"] = simple_exception(candidate.exception) in thrown
    if exception and context.expected_exceptions:
        names = [simple_exception(e) for e in context.expected_exceptions]
        name = simple_exception(candidate.exception)
        values["expected_type"] = 1 / (1 + names.index(name)) if name in names else 0.0
    if observation is not None:
        values["witnessed"] = exception and observation.thrown is not None and values["holds"]
        if target is not None and candidate.kind == "assertion":
            changed = observation.changed(target.expression)
            values["settled"], values["changed"] = changed is False, changed is True
            seen = observation.values.get(target.expression)
            if expected is not None and seen is not None and values["holds"]:
                values["named_value"] = prefers_name(expected, seen, prefix.history.restated)
    return [float(values.get(name, 0.0)) for name in FEATURES]
