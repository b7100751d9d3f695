"""How sure the engine is that a test's top-1 is the oracle a developer would write: what decides
whether it answers or says "no confident oracle".

Why more than the top-1's score: the score says how the ranker weighs the top-1 against the other
candidates of *this* test, not how often such an answer is right. What else is known when the
engine answers says more: how close the second candidate is, whether the top-1 held when the
test's prefix ran, whether it is an exception oracle, which assertion it is, where its value came
from. A model fitted on realistic evaluations of dev projects (``oracular train confidence``,
:mod:`oracular.training.confidence`) weighs those into a probability, shipped in the model's
config; a ranker without one answers by the top-1's score, or at once when it holds now.

The engine hands the confidence an :class:`AnswerView` (the first suggestions and the file's
habits, as plain values), which the realistic evaluation also records, so a model can be fitted
and checked on evaluations without running them again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from oracular.java.assertions import (
    ASSERT_ARRAY_EQUALS,
    ASSERT_EQUALS,
    ASSERT_FALSE,
    ASSERT_NOT_NULL,
    ASSERT_NULL,
    ASSERT_SAME,
    ASSERT_THROWS,
    ASSERT_TRUE,
)

VIEW_SIZE = 5
"""Suggestions a view keeps: the offered list's usual length (``topK``)."""


@dataclass(frozen=True)
class Offered:
    """One offered suggestion as the confidence sees it."""

    score: float
    kind: str
    """``assertion``, ``exception`` or ``helper`` (the suite's own, :mod:`oracular.candidates.helpers`)."""
    method: str | None
    """``assertEquals``, ``assertThrows``..., a helper's name."""
    source: str | None
    """Where the expected value came from (``observed``, ``literal``...); ``None``: no value."""
    target: str | None
    """The asserted expression; ``None`` for exception oracles."""
    status: str | None = None
    """What the observed run says: ``holds``, ``fails``, or ``None`` (not run)."""
    habit: bool = False
    """The file's other tests assert on its target's member path (:mod:`oracular.java.neighbours`),
    or expect its exception type."""


@dataclass(frozen=True)
class AnswerView:
    """What the engine knows of one test when it decides whether to answer."""

    observed: bool
    """The test's prefix ran and its values were observed."""
    exception_probability: float
    offered: tuple[Offered, ...] = ()
    """The first :data:`VIEW_SIZE` suggestions, best first."""
    own_helpers: float = 0.0
    """The share of the file's tests with an oracle that check through none of JUnit's
    assertions (:attr:`oracular.engine.FileAnalysis.own_helpers`)."""
    with_oracle: int = 0
    """How many of the file's tests have an oracle: what :attr:`own_helpers` is a share of."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerView:
        known = {f.name for f in fields(Offered)}  # views recorded by other versions may hold more
        offered = tuple(
            Offered(**{k: v for k, v in o.items() if k in known}) for o in data.get("offered", ())
        )
        return cls(
            bool(data["observed"]),
            float(data["exception_probability"]),
            offered,
            float(data.get("own_helpers", 0.0)),
            int(data.get("with_oracle", 0)),
        )


METHODS = (
    ASSERT_EQUALS, ASSERT_THROWS, ASSERT_TRUE, ASSERT_FALSE, ASSERT_NOT_NULL, ASSERT_NULL,
    ASSERT_ARRAY_EQUALS, ASSERT_SAME,
)  # fmt: skip
"""The feature order of the methods the answer confidence counts."""
SOURCES = ("observed", "literal", "variable", "constant", "global")
FEATURES = (
    "top-1 log-odds",
    "second log-odds",
    "margin",
    "top-1 score",
    "values observed",
    "top-1 holds",
    "top-1 fails",
    "exception probability",
    "second on the same target",
    "top-1 target's share of the scores",
    "offered that hold",
    "the file's tests check through their own helpers, shrunk for few tests",
    "top-1 follows the file's habit",
    "offered that follow the file's habit",
    "top-1 is a call of the suite's own helper",
    *(f"method {m}" for m in METHODS),
    *(f"value {s}" for s in SOURCES),
)


HELPER_PRIOR = 2
"""Tests without a helper added to the file's count before taking the share: one helper in a
file of two tests with an oracle says less about its habit than ten in twenty."""


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def features(view: AnswerView) -> list[float]:
    """The confidence's inputs, named by :data:`FEATURES` (a view with an empty offer is all zeros
    but its log-odds, which the engine never asks about: it has nothing to answer)."""
    offered = view.offered
    top = offered[0] if offered else Offered(0.0, "assertion", None, None, None)
    second = offered[1] if len(offered) > 1 else None
    second_score = second.score if second is not None else 0.0
    total = sum(o.score for o in offered)
    same_target = sum(o.score for o in offered if top.target is not None and o.target == top.target)
    return [
        _log_odds(top.score),
        _log_odds(second_score),
        top.score - second_score,
        top.score,
        float(view.observed),
        float(top.status == "holds"),
        float(top.status == "fails"),
        view.exception_probability,
        float(second is not None and top.target is not None and second.target == top.target),
        same_target / total if total > 0 else 0.0,
        sum(o.status == "holds" for o in offered) / len(offered) if offered else 0.0,
        view.own_helpers * view.with_oracle / (view.with_oracle + HELPER_PRIOR),
        float(top.habit),
        sum(o.habit for o in offered) / len(offered) if offered else 0.0,
        float(top.kind == "helper"),
        *(float(top.method == m) for m in METHODS),
        *(float(top.source == s) for s in SOURCES),
    ]


def plain_confidence(view: AnswerView) -> float:
    """Without a fitted model: 1 when the top-1 held on the running code, else its score."""
    if not view.offered:
        return 0.0
    top = view.offered[0]
    return 1.0 if top.status == "holds" else top.score


@dataclass
class AnswerConfidence:
    """A logistic regression over standardised :func:`features`: the probability that the top-1
    is the developer's oracle, and the threshold below which the engine abstains."""

    weights: list[float]
    bias: float
    mean: list[float]
    scale: list[float]
    threshold: float
    """Abstain below this probability (chosen for ``target_precision``) where values were observed."""
    target_precision: float | None = None
    fitted_on: dict[str, Any] = field(default_factory=dict)
    """What it was fitted on (evaluation files, tests): for the model card."""
    names: tuple[str, ...] = FEATURES
    static_threshold: float | None = None
    """Abstain below this where no value was observed (an untrusted workspace, a prefix that did
    not run); ``None``: :attr:`threshold`. Why two: the same probability is not reached as often,
    and not as reliably, without observed values; one threshold for both either answered too
    few observed tests or too many static ones (:mod:`oracular.training.confidence`)."""

    def __post_init__(self) -> None:
        if tuple(self.names) != FEATURES:
            raise ValueError(
                "the model's answer confidence was fitted on other features than this version computes: "
                "fit it again with 'oracular train confidence'"
            )
        if not len(self.weights) == len(self.mean) == len(self.scale) == len(FEATURES):
            raise ValueError(f"the answer confidence needs {len(FEATURES)} weights, means and scales")

    def logit(self, x: Sequence[float]) -> float:
        return self.bias + sum(
            w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.mean, self.scale, strict=True)
        )

    def threshold_for(self, view: AnswerView) -> float:
        return self.threshold if view.observed or self.static_threshold is None else self.static_threshold

    def probability(self, view: AnswerView) -> float:
        if not view.offered:
            return 0.0
        z = self.logit(features(view))
        return 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0

    def to_json(self) -> dict[str, Any]:
        document = asdict(self)
        document["names"] = list(self.names)
        return document

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> AnswerConfidence | None:
        if data is None:
            return None
        return cls(**{**data, "names": tuple(data.get("names", ()))})
