"""Fitting the learned ranker (:mod:`oracular.ranking.learned`) on the train split's labelled
candidates, with folds grouped by project.

The data are ``oracular eval --realistic PROJECTS --features FILE`` outputs over *train* projects:
each test cut right before its oracle, every candidate's features and whether it is the developer's
oracle. The model is a conditional logit (a softmax over a test's candidates and "none of these",
one weight vector per mode), fitted by L-BFGS on standardised features with an L2 penalty on the
tests a candidate covers, then the utility of "none" on every test; standardising is folded back
into the weights, so the shipped model reads raw features. Every figure reported is out of fold:
a project's tests are scored by a model fitted without it. The answer threshold per mode is the
lowest out-of-fold top-1 probability at which the answered tests reach the target precision, or,
for a mode asked to answer a share of its tests too (:data:`MIN_ANSWERED`), the one that leaves
the most room to both (:func:`choose_threshold`).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import torch

from oracular.ranking.features import FEATURES
from oracular.ranking.learned import MIN_TESTS, MODES, LearnedRanker, LinearModel
from oracular.ranking.offering import never_vacuous_first

logger = logging.getLogger("oracular.train")
_VACUOUS, _FAILS, _CANNOT_HOLD = (FEATURES.index(f) for f in ("vacuous", "fails", "cannot_hold"))

L2 = 1e-2
FOLDS = 5
TARGET_PRECISION = 0.6
"""The top-1 precision the answer thresholds are chosen for, as for the answer confidence."""
MIN_ANSWERED = {"observed": 0.4}
"""By mode, the share of the tests to answer at that precision (:func:`choose_threshold`); the
static mode has none (its answers are few and must be right)."""


@dataclass
class LabelledTest:
    project: str
    observed: bool
    rows: torch.Tensor
    labels: torch.Tensor
    offered: list[int]
    """The candidates the engine's hand-set pipeline offered, in order (may be empty)."""

    @property
    def mode(self) -> str:
        return "observed" if self.observed else "static"


def load_tests(paths: Iterable[Path]) -> list[LabelledTest]:
    """The labelled tests of the feature files (tests without candidates left out), each test
    once per mode: an observed run's unobserved tests are in the static run too, and counting
    them twice would weigh the projects that do not build double."""
    tests = []
    seen: set[tuple[str, str, str, bool]] = set()
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                data = json.loads(line)
                key = (data["project"], data.get("file", ""), data.get("test", ""), data["observed"])
                if not data["rows"] or key in seen:
                    continue
                seen.add(key)
                rows = torch.tensor(data["rows"], dtype=torch.float64)
                if rows.shape[1] != len(FEATURES):
                    raise ValueError(
                        f"{path}: {rows.shape[1]} features per candidate, expected {len(FEATURES)}"
                    )
                labels = torch.tensor(data["labels"], dtype=torch.bool)
                tests.append(
                    LabelledTest(data["project"], data["observed"], rows, labels, data.get("offered", []))
                )
    return tests


def fit(tests: Sequence[LabelledTest], l2: float = L2) -> LinearModel:
    """The weights maximising the log-probability of the developer's candidates (the sum over a
    test's right ones) on the tests a candidate covers, less ``l2`` times their squared norm; then,
    those weights fixed, the null utility maximising it on every test ("none of these" the right
    answer where no candidate is). Why in two steps: the null is only to make the top-1 probability
    say how often it is right; fitted together, the uncovered tests move the order within a test
    (out of fold on train, 2026-12-02: 14 more static tests said to throw that do not, top-1 level)."""
    covered = [t for t in tests if bool(t.labels.any())]
    if not covered:
        return LinearModel(tuple(0.0 for _ in FEATURES))
    stacked = torch.cat([t.rows for t in covered])
    mean, std = stacked.mean(0), stacked.std(0).clamp_min(1e-6)
    rows, present, right = _padded(covered, mean, std)
    weights = torch.zeros(len(FEATURES), dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.LBFGS([weights], max_iter=200, line_search_fn="strong_wolfe")

    def loss() -> torch.Tensor:
        optimiser.zero_grad()
        value = -_chosen(rows @ weights, present, right).mean() + l2 * (weights**2).sum()
        value.backward()
        return value

    optimiser.step(loss)
    raw = weights.detach() / std  # the mean shifts every candidate alike: no bias needed
    return LinearModel(tuple(raw.tolist()), _null(tests, raw))


def _null(tests: Sequence[LabelledTest], raw: torch.Tensor) -> float:
    """The utility of "none of these" that maximises every test's log-probability of its right
    candidates, or of none, under the raw weights ``raw``."""
    rows, present, right = _padded(tests, torch.zeros_like(raw), torch.ones_like(raw))
    utilities = rows @ raw
    uncovered = ~right.any(1)
    null = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.LBFGS([null], max_iter=100, line_search_fn="strong_wolfe")

    def loss() -> torch.Tensor:
        optimiser.zero_grad()
        column = null.expand(len(tests), 1)
        with_null = torch.cat([utilities, column], 1)
        value = -_chosen(
            with_null, torch.cat([present, torch.ones_like(uncovered)[:, None]], 1),
            torch.cat([right, uncovered[:, None]], 1),
        ).mean()  # fmt: skip
        value.backward()
        return value

    optimiser.step(loss)
    return float(null.detach())


def _padded(
    tests: Sequence[LabelledTest], mean: torch.Tensor, std: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One padded batch of the tests' standardised candidates, which are present, which are right."""
    width = max(len(t.labels) for t in tests)
    rows = torch.zeros(len(tests), width, len(FEATURES), dtype=torch.float64)
    present = torch.zeros(len(tests), width, dtype=torch.bool)
    right = torch.zeros(len(tests), width, dtype=torch.bool)
    for i, t in enumerate(tests):
        n = len(t.labels)
        rows[i, :n], present[i, :n], right[i, :n] = (t.rows - mean) / std, True, t.labels
    return rows, present, right


def _chosen(utilities: torch.Tensor, present: torch.Tensor, right: torch.Tensor) -> torch.Tensor:
    """Each test's log-probability of its right options, a softmax over the present ones."""
    floor = torch.tensor(-1e30, dtype=torch.float64)
    log_p = torch.log_softmax(torch.where(present, utilities, floor), 1)
    return torch.logsumexp(torch.where(right, log_p, floor), 1)


def folds_of(tests: Sequence[LabelledTest], folds: int, seed: int = 13) -> list[set[str]]:
    """The projects, shuffled (seeded) and dealt into ``folds`` groups."""
    projects = sorted({t.project for t in tests})
    random.Random(seed).shuffle(projects)
    return [set(projects[i::folds]) for i in range(folds)]


@dataclass
class OutOfFold:
    """A test, its out-of-fold probabilities, and what the hand-set pipeline offered."""

    test: LabelledTest
    probabilities: list[float]

    @cached_property
    def order(self) -> list[int]:
        """The order the engine offers (:func:`oracular.ranking.offering.offer`): by probability,
        never one that cannot fail first where another holds, those that cannot hold left out."""
        rows = self.test.rows
        order = sorted(range(len(self.probabilities)), key=lambda i: -self.probabilities[i])
        kept = [i for i in order if not rows[i, _CANNOT_HOLD]]
        return never_vacuous_first(
            kept, [bool(v) for v in rows[:, _VACUOUS]], [bool(f) for f in rows[:, _FAILS]]
        )

    @property
    def confidence(self) -> float:
        """The answer confidence the engine compares with the threshold: the first offered's
        probability."""
        order = self.order
        return self.probabilities[order[0]] if order else 0.0

    @property
    def answerable(self) -> bool:
        """Whether the engine may answer at all: an oracle is offered first, it can fail, and it
        does not fail on the code as it runs (:func:`oracular.engine.answers.decide_abstention`;
        a possible bug, which it does answer, is not among the features: on the developer's
        correct code it is a false alarm)."""
        order = self.order
        return bool(order) and not (self.test.rows[order[0], _VACUOUS] or self.test.rows[order[0], _FAILS])

    def right_at(self, k: int, order: Sequence[int] | None = None) -> bool:
        chosen = (self.order if order is None else order)[:k]
        return any(bool(self.test.labels[i]) for i in chosen)


def cross_validate(tests: Sequence[LabelledTest], folds: int = FOLDS, l2: float = L2) -> list[OutOfFold]:
    """Every test scored by the models (one per mode) fitted on the other folds' projects."""
    found = []
    modes = [mode for mode in MODES if any(t.mode == mode for t in tests)]
    for held in folds_of(tests, folds):
        for mode in modes:
            train = [t for t in tests if t.project not in held and t.mode == mode]
            ranker = LearnedRanker(FEATURES, {mode: fit(train, l2)}, {mode: 0.0}, {})
            for test in (t for t in tests if t.project in held and t.mode == mode):
                found.append(OutOfFold(test, ranker.probabilities(test.rows.tolist(), test.observed)))
    return found


def choose_threshold(
    scored: Sequence[OutOfFold], target: float = TARGET_PRECISION, min_answered: float | None = None
) -> float:
    """The lowest top-1 probability at which the answered tests' top-1 precision reaches ``target``
    (1.0, never answering, where none does); with ``min_answered``, the share of ``scored`` to
    answer, the one whose smaller margin over the two is the largest, where one meets both.

    Why both: the target is two-sided (issue 40: at least 60% right with at least 40% of the
    observed tests answered), and the lowest threshold reaching the precision leaves every point of
    slack on the answered side, where unseen code needs it on the precision side, which varies
    from one project to the next: out of fold on the 2,950 observed train tests that threshold
    answers 44.5% at 60.2% right, but resampling the projects, one draw in ten reads under 57%."""
    ranked = sorted((s for s in scored if s.answerable), key=lambda s: -s.confidence)
    right, best = 0, 1.0
    margins: list[tuple[float, float]] = []
    for n, item in enumerate(ranked, start=1):
        right += item.right_at(1)
        if right / n >= target:
            best = item.confidence
        if min_answered is not None:
            margins.append((min(right / n - target, n / len(scored) - min_answered), item.confidence))
    balanced = max(margins, default=(-1.0, best))
    return balanced[1] if balanced[0] >= 0 else best


def figures(scored: Sequence[OutOfFold], thresholds: dict[str, float]) -> dict[str, Any]:
    """Out-of-fold top-1/top-5 of the learned and the hand-set order, and the answers, by mode."""
    report: dict[str, Any] = {}
    for mode in MODES:
        items = [s for s in scored if s.test.mode == mode]
        if not items:
            continue
        n = len(items)
        answered = [s for s in items if s.answerable and s.confidence >= thresholds[mode]]
        hand = any(s.test.offered for s in items)  # feature files of older versions lack the hand order
        report[mode] = {
            "tests": n,
            "top1": sum(s.right_at(1) for s in items) / n,
            "top5": sum(s.right_at(5) for s in items) / n,
            "hand_top1": sum(s.right_at(1, s.test.offered) for s in items) / n if hand else None,
            "hand_top5": sum(s.right_at(5, s.test.offered) for s in items) / n if hand else None,
            "answered": len(answered) / n,
            "right_when_answered": sum(s.right_at(1) for s in answered) / len(answered) if answered else None,
        }
    return report


def train_learned_ranker(
    paths: Sequence[Path],
    l2: float = L2,
    folds: int = FOLDS,
    target: float = TARGET_PRECISION,
    min_tests: int = MIN_TESTS,
    skip: Sequence[str] = (),
) -> tuple[LearnedRanker, dict[str, Any]]:
    """The model fitted on all of ``paths``' tests, its thresholds chosen out of fold, and the
    out-of-fold figures; only for the modes with at least ``min_tests`` tests, none in ``skip``."""
    tests = [t for t in load_tests(paths) if t.mode not in skip]
    counts = {mode: sum(t.mode == mode for t in tests) for mode in MODES if mode not in skip}
    fitted = [mode for mode in counts if counts[mode] >= min_tests]
    if not fitted:
        raise ValueError(f"too few labelled tests in the features: {counts}, {min_tests} per mode needed")
    tests = [t for t in tests if t.mode in fitted]
    scored = cross_validate(tests, folds, l2)
    thresholds = {
        mode: choose_threshold([s for s in scored if s.test.mode == mode], target, MIN_ANSWERED.get(mode))
        for mode in fitted
    }
    report = figures(scored, thresholds)
    models = {mode: fit([t for t in tests if t.mode == mode], l2) for mode in fitted}
    metadata = {
        "projects": len({t.project for t in tests}), "packages": sorted({t.project for t in tests}),
        "tests": len(tests), "l2": l2, "folds": folds,
        "target_precision": target, "min_answered": MIN_ANSWERED, "out_of_fold": report,
        "data": [f"{p.parent.name}/{p.name}" for p in paths],
    }  # fmt: skip
    return LearnedRanker(FEATURES, models, thresholds, metadata), report


def with_kept_modes(
    fitted: LearnedRanker, previous: LearnedRanker | None, kept: Sequence[str]
) -> LearnedRanker:
    """``fitted`` with ``previous``'s model and threshold for each mode in ``kept``.

    Why: a mode's features are collected apart (static ones in minutes, observed ones in hours, the
    prefixes run), so a change that moves one mode's features (a new int8 scheme, a new prior) may
    be fitted on that mode's new collection while the other keeps the model fitted before; the
    metadata says which modes were kept and what they were fitted on."""
    if not kept:
        return fitted
    missing = [mode for mode in kept if previous is None or not previous.covers(mode == "observed")]
    if previous is None or missing:
        raise ValueError(f"no fitted {', '.join(missing)} model in the config to keep")
    models = {**fitted.models, **{mode: previous.models[mode] for mode in kept}}
    thresholds = {**fitted.thresholds, **{mode: previous.thresholds[mode] for mode in kept}}
    kept_from = {mode: previous.metadata.get("kept", {}).get(mode) or _summary(previous.metadata, mode)
                 for mode in kept}  # fmt: skip
    packages = sorted(
        {*fitted.metadata.get("packages", []), *(p for k in kept_from.values() for p in k["packages"])}
    )
    metadata = {**fitted.metadata, "packages": packages, "kept": kept_from}
    return LearnedRanker(FEATURES, models, thresholds, metadata)


def _summary(metadata: Mapping[str, Any], mode: str) -> dict[str, Any]:
    """What a kept mode was fitted on (every project of that fit: its packages' list is not by mode)."""
    return {
        "out_of_fold": metadata.get("out_of_fold", {}).get(mode),
        "packages": list(metadata.get("packages", [])),
        "data": list(metadata.get("data", [])),
    }
