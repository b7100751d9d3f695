"""Steps ``join-helpers``, ``passing-helpers`` and ``fewer-helper-calls``: the suite's own
assertion helpers among the candidates, and their scores.

Why: the models know JUnit's assertions, not a suite's ``assertOptionDetected(options, "a")``;
such calls are scored by the file's habit (:mod:`oracular.candidates.helpers`), not ranked. A
helper is the oracle of a test that does not throw, so its habit's share weighs as much as the
classifier leaves to assertions (``join-helpers``). A call that passed when run needs no guessing
at its arguments: it gets its helper's whole share (``passing-helpers``: joptsimple's
``assertOptionDetected(options, "file")`` came fifth, after the literals the test parses,
``"--file"``...). And a helper's calls after its few best-scored ones are weighed down
(``fewer-helper-calls``): its other argument choices, often all passing (``verify(a, b, ...)``
and ``verify(b, a, ...)``), filled the first five places and hid the other oracles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from oracular.candidates.grammar import Candidate
from oracular.candidates.helpers import MAX_CALLS_PER_HELPER
from oracular.candidates.observed import HOLDS, Verdict
from oracular.java.assertions import ASSERT_EQUALS
from oracular.java.types import accepts
from oracular.ranking.scored import Ranked, RankingContext, Scored


def credit_passing_helpers(
    verdicts: Sequence[Verdict | None], scores: Sequence[float], shares: Sequence[float | None]
) -> list[float]:
    """``scores`` with each helper call that passed when run given its helper's whole share
    (``shares``, ``None`` for other candidates)."""
    return [
        max(score, share) if share is not None and v is not None and v.status == HOLDS else score
        for v, score, share in zip(verdicts, scores, shares, strict=True)
    ]


def lower_later_helper_calls(
    candidates: Sequence[Candidate], scores: Sequence[float], shown: int, weight: float
) -> list[float]:
    """``scores`` with each helper's calls after its ``shown`` best-scored ones weighed by ``weight``."""
    result = list(scores)
    by_helper: dict[str, list[int]] = {}
    for i, candidate in enumerate(candidates):
        if candidate.kind == "helper":
            by_helper.setdefault(candidate.assertion, []).append(i)
    for calls in by_helper.values():
        for i in sorted(calls, key=lambda i: -scores[i])[shown:]:
            result[i] *= weight
    return result


class JoinHelpers:
    name: ClassVar[str] = "join-helpers"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        throws = ranked.exception_probability
        joined = tuple(
            Scored(h.candidate, h.score * (1 - throws), h.score * (1 - throws), share=h.share)
            for h in context.helpers
            if h.compares is None
        )
        return replace(ranked, items=ranked.items + joined)


class EqualityHelpers:
    """Step ``equality-helpers`` (observed mode): the suite's equality helper written for each
    holding ``assertEquals`` on a target of the type it compares, judged as that assertion, at its
    habit's share: jackson's tests write ``assertToken(JsonToken.START_ARRAY, p.nextToken())``,
    a call no prefix value can be given before the code runs (its first argument is what
    ``nextToken()`` returns, its second the action itself)."""

    name: ClassVar[str] = "equality-helpers"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        offers = [h for h in context.helpers if h.compares is not None]
        if not offers or not context.observed:
            return ranked
        throws = ranked.exception_probability
        holding = sorted(
            (s for s in ranked.items if s.holds and s.candidate.assertion == ASSERT_EQUALS
             and s.candidate.kind == "assertion"),
            key=lambda s: -s.score,
        )  # fmt: skip
        added: list[Scored] = []
        for offer in offers:
            calls: dict[tuple[str, ...], Scored] = {}
            for scored in holding:
                assertion = scored.candidate
                target, expected = assertion.target, assertion.expected
                if target is None or expected is None or not accepts(offer.compares or "", target.type or ""):
                    continue
                arguments = (expected.text, target.expression)
                if arguments not in calls and len(calls) < MAX_CALLS_PER_HELPER:
                    call = replace(offer.candidate, target=target, expected=expected, arguments=arguments)
                    score = offer.share * (1 - throws) * context.weights.call_decay ** len(calls)
                    calls[arguments] = Scored(call, score, score, verdict=scored.verdict, share=offer.share)
            added += calls.values()
        return replace(ranked, items=ranked.items + tuple(added))


class PassingHelpers:
    name: ClassVar[str] = "passing-helpers"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        if not context.observed:
            return ranked
        shares = [s.share for s in ranked.items]
        return ranked.with_scores(credit_passing_helpers(ranked.verdicts, ranked.scores, shares))


class FewerHelperCalls:
    name: ClassVar[str] = "fewer-helper-calls"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        weights = context.weights
        scores = lower_later_helper_calls(
            ranked.candidates, ranked.scores, weights.shown_calls, weights.later_calls
        )
        return ranked.with_scores(scores)
