"""Step ``guard-named``: where a guard surely trips (static mode), the type it throws, as the file's
tests name it, is the first exception oracle.

Why: the network reads the focal method's Javadoc, and a ``@throws`` line is often older than the
code: commons-csv documents ``IllegalArgumentException`` "if either out or format are null" where
the constructor now calls ``Objects.requireNonNull``; commons-math3 documents a broad type where
a guard throws a narrower one. A certain guard verdict (:mod:`oracular.java.guard_calls`: the
test's literal arguments trip it, with nothing before it that could throw) reads the code. On the
8 tune projects' 423 throwing tests cut alone (static), 93 had one: its named type
(:attr:`~oracular.java.guard_calls.GuardVerdict.named`) was the developer's in 86, the learned
ranker's first exception oracle in 45. On the train projects' throwing tests the verdict is rarer
(24 of 260) and the network already agrees with it (23 right either way): as learned ranker
features (the named type, a type it rules out, the engine's evidence order) it moved the static
model's out-of-fold top-1 on 2,910 train tests from 23.54 to 23.57%, so it is a hand rule,
kept where the report projects say it helps (``docs/eval.md``).

The step only reorders the exception candidates among themselves: the named type takes the best
exception score and gives its own to the one that had it, so whether an exception oracle comes
first, and the answer confidence, stay the ranker's.
"""

from __future__ import annotations

from typing import ClassVar

from oracular.ranking.scored import Ranked, RankingContext


def _simple(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


class GuardNamedFirst:
    name: ClassVar[str] = "guard-named"

    def __call__(self, ranked: Ranked, context: RankingContext) -> Ranked:
        verdict = context.prefix.guard_verdict
        if context.observed or verdict is None or not verdict.certain:
            return ranked
        named = _simple(verdict.named)
        scores = ranked.scores
        exceptions = [i for i, c in enumerate(ranked.candidates) if c.kind == "exception"]
        chosen = next((i for i in exceptions if _simple(ranked.candidates[i].exception) == named), None)
        if chosen is None:
            return ranked
        best = max(exceptions, key=lambda i: scores[i])
        scores[chosen], scores[best] = scores[best], scores[chosen]
        return ranked.with_scores(scores)
