"""A learned ranker over the candidates' features: one linear model per mode, softmax over a
test's candidates, fitted on the train split (:mod:`oracular.training.learned_ranker`).

Why it replaces the hand-set steps where a model has one: each step (:mod:`oracular.ranking.steps`)
adds one signal with a weight chosen on the tune projects' failures; here all of them, the neural
score among them (:mod:`oracular.ranking.features`), are weighed by a model fitted on projects no
rule was built on, with folds grouped by project. Its top-1 probability is also when to answer:
the threshold per mode is chosen on the same folds for a stated precision (and, for the tests
whose prefix ran, a share of them to answer).

A *null* utility, "none of these", takes the share of the tests whose oracle no candidate renders,
so that the top-1 probability says how often the top-1 is right: without it (the softmax over the
candidates alone) train's out-of-fold top-1 probability averaged 0.54 where 23% were right.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oracular.ranking.features import FEATURES

MODES = ("static", "observed")
MIN_TESTS = 500
"""A mode with fewer training tests gets no model (:mod:`oracular.training.learned_ranker`): the
engine keeps the hand-set steps there. 65 observed tests (the first train projects observed) chose
a threshold of 1.0, never answering."""


@dataclass(frozen=True)
class LinearModel:
    """A weight per feature: a candidate's utility is their dot product."""

    weights: tuple[float, ...]
    null: float | None = None
    """The utility of "none of these" (a model fitted without it leaves it out of the softmax)."""

    def utilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        return [sum(w * x for w, x in zip(self.weights, row, strict=True)) for row in rows]


@dataclass(frozen=True)
class LearnedRanker:
    features: tuple[str, ...]
    models: Mapping[str, LinearModel]
    """By mode: ``static`` (nothing ran) and ``observed``; a mode without one (too few training
    tests of it) keeps the hand-set steps (:meth:`covers`)."""
    thresholds: Mapping[str, float]
    """The top-1 probability below which the engine abstains, by mode."""
    metadata: Mapping[str, Any]

    def covers(self, observed: bool) -> bool:
        """Whether it was fitted for this mode."""
        return ("observed" if observed else "static") in self.models

    def probabilities(self, rows: Sequence[Sequence[float]], observed: bool) -> list[float]:
        """The softmax over one test's candidates (and the null, whose share is not listed): how
        likely each is the developer's oracle."""
        if not rows:
            return []
        model = self.models["observed" if observed else "static"]
        utilities = model.utilities(rows)
        top = max(utilities) if model.null is None else max(*utilities, model.null)
        exps = [math.exp(u - top) for u in utilities]
        total = sum(exps) + (0.0 if model.null is None else math.exp(model.null - top))
        return [e / total for e in exps]

    def threshold(self, observed: bool) -> float:
        return self.thresholds["observed" if observed else "static"]

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> LearnedRanker:
        """A model saved with the network, its weights read by feature name: a feature this
        version computes and the model was fitted without weighs nothing (the model ranks as it
        did when fitted), and one the model weighs but this version does not compute is refused
        (its utilities would be wrong)."""
        fitted_on = tuple(data["features"])
        unknown = sorted(set(fitted_on) - set(FEATURES))
        if unknown:
            raise ValueError(
                f"the learned ranker weighs features this version does not compute: {', '.join(unknown)}"
            )
        fitted = [mode for mode in MODES if mode in data["models"]]
        nulls = data.get("nulls", {})
        models = {m: LinearModel(_by_name(fitted_on, data["models"][m]), nulls.get(m)) for m in fitted}
        thresholds = {mode: float(data["thresholds"][mode]) for mode in fitted}
        return cls(FEATURES, models, thresholds, dict(data.get("metadata", {})))

    def to_config(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "models": {mode: list(model.weights) for mode, model in self.models.items()},
            "nulls": {mode: model.null for mode, model in self.models.items() if model.null is not None},
            "thresholds": dict(self.thresholds),
            "metadata": dict(self.metadata),
        }


def _by_name(names: Sequence[str], weights: Sequence[float]) -> tuple[float, ...]:
    """``weights`` (one per name of ``names``) in :data:`FEATURES`' order, 0 where not named."""
    if len(names) != len(weights):
        raise ValueError(f"the learned ranker has {len(weights)} weights for {len(names)} features")
    named = dict(zip(names, map(float, weights), strict=True))
    return tuple(named.get(name, 0.0) for name in FEATURES)
