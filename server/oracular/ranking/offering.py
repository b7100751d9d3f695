"""The offering: which of a test's ranked candidates are offered, in which order.

After the score steps (:mod:`oracular.ranking.pipeline`), each candidate is flagged by what it is
worth as an oracle (:mod:`oracular.candidates.strength`: it cannot fail, another holding oracle
implies it, it renders a whole object, it fails now as an expectation), and the offered order is
:func:`~oracular.candidates.strength.offer_order`'s tiers: the best holding oracle first, a possible
bug second, the other holding ones, the unjudged, the wrong guesses, the vacuous last. Those that
cannot hold are never offered (but were ranked: the candidate set is the one the models were
trained on), and the not-null check of what the first oracle asserts on keeps the last place shown
(:func:`~oracular.candidates.strength.not_null_in_sight`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from oracular.candidates.observed import FAILS
from oracular.candidates.strength import (
    cannot_fail,
    cannot_hold,
    expectations_failing,
    implied,
    is_possible_bug,
    not_null_in_sight,
    offer_order,
    renders_whole_object,
)
from oracular.ranking.scored import Ranked, RankingContext, Scored


def flagged(ranked: Ranked, context: RankingContext) -> Ranked:
    """``ranked`` with every candidate's offering flags set."""
    prefix, candidates, verdicts = context.prefix, ranked.candidates, ranked.verdicts
    scores = ranked.scores
    vacuous = [cannot_fail(c, prefix) for c in candidates]
    weaker = implied(candidates, verdicts, vacuous, context.first_habit)
    failing = expectations_failing(candidates, [v is not None and v.status == "fails" for v in verdicts])
    bug_score = context.weights.possible_bug
    items = tuple(
        replace(
            s,
            vacuous=vacuous[i],
            weaker=weaker[i],
            renders_whole=renders_whole_object(s.candidate, prefix),
            failing=failing[i],
            possible_bug=is_possible_bug(i, scores, failing, bug_score),
        )
        for i, s in enumerate(ranked.items)
    )
    return replace(ranked, items=items)


def offer(ranked: Ranked, context: RankingContext, top_k: int, tiers: bool = True) -> list[Scored]:
    """The first ``top_k`` candidates offered, in order, flagged; ``tiers=False``: by score, but
    never one that cannot fail, or fails on the code as it runs, first (:func:`never_vacuous_first`)."""
    ranked = flagged(ranked, context)
    items = ranked.items
    if not tiers:
        order = sorted(range(len(items)), key=lambda i: -items[i].score)
        order = [i for i in order if not cannot_hold(items[i].candidate, context.prefix)]
        vacuous, failing = (
            [s.vacuous for s in items],
            [s.verdict is not None and s.verdict.status == FAILS for s in items],
        )
        return [items[i] for i in never_vacuous_first(order, vacuous, failing)][:top_k]
    order = offer_order(
        ranked.scores,
        ranked.verdicts,
        [s.vacuous for s in items],
        context.weights.possible_bug,
        [s.weaker for s in items],
        renderings=[s.renders_whole for s in items],
        failing=[s.failing for s in items],
    )
    order = [i for i in order if not cannot_hold(items[i].candidate, context.prefix)]
    weaker, vacuous = [s.weaker for s in items], [s.vacuous for s in items]
    order = not_null_in_sight(order, ranked.candidates, weaker, vacuous, top_k)[:top_k]
    return [items[i] for i in order]


def never_vacuous_first(order: list[int], vacuous: Sequence[bool], failing: Sequence[bool]) -> list[int]:
    """``order``, but where its first oracle cannot fail, or fails on the code as it runs
    (``failing``), the first that can fail and does not fail in its place; the order as it is
    where there is none (the engine then abstains). Why, where a learned ranker's probabilities
    order the rest (they weigh the other tiers): the first is the answer, and an oracle that
    cannot fail is none, however likely the developer was to write it. Out of fold on 2,147
    observed train tests (2026-12-06): top-1 38.4 -> 38.6%, exception F1 level at 0.91; moving up
    the first that can fail whether or not it fails put more ``assertThrows`` that do not throw
    first (F1 0.89). Nor is an oracle that fails on the developer's code their oracle: the engine
    never answers with one (:func:`oracular.engine.answers.decide_abstention`), and one that holds
    is a value observed where the failing one is a guess (an ``assertThrows`` of a type the run
    did not throw, of a call that returned). Only the first moves: the failing one stays among
    the others, where a possible bug is shown."""
    if not order or not (vacuous[order[0]] or failing[order[0]]):
        return order
    first = next((i for i in order if not vacuous[i] and not failing[i]), None)
    return order if first is None else [first, *(i for i in order if i != first)]
