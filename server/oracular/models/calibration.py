"""From raw network outputs to the probabilities the engine shows, and fitting them on dev.

The two stages combine into one distribution over a test's candidates:
``P(assertThrows(X)) = P(throws) * P(X | throws)`` and
``P(assertion a) = (1 - P(throws)) * P(a | no throw)``, where ``P(a | no throw)`` is a softmax over
the assertion candidates and ``P(X | throws)`` one over the exception candidates. That is the
listwise model the ranker is trained with, so the scores are comparable across tests, which is
what a single abstention threshold needs.

Raw outputs are not calibrated: the exception head is trained with a class-weighted loss (which
inflates ``P(throws)`` on purpose) and a fine-tuned softmax is usually over-confident. So, on dev:
Platt scaling for ``P(throws)``, a temperature for the assertion softmax, the decision threshold
that maximises the exception F1, and the abstention threshold that reaches a stated precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

import torch
from torch import Tensor


@dataclass
class Calibration:
    temperature: float = 1.0
    """Divides the assertion logits before the softmax."""
    exception_scale: float = 1.0
    exception_bias: float = 0.0
    """``P(throws) = sigmoid(scale * logit + bias)`` (Platt scaling)."""
    exception_threshold: float = 0.5
    """``P(throws)`` from which the test is classified as throwing (max F1 on dev)."""
    abstain_below: float = 0.0
    """Top score below which the ranker has no confident oracle."""
    target_precision: float | None = None
    """The top-1 precision ``abstain_below`` was chosen for, on dev."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


@dataclass
class Prediction:
    exception_probability: float
    exception_index: int | None
    """The candidate index of the most likely exception type, if there is one."""
    scores: list[float]


def listwise_nll(logits: Tensor, group: Tensor, labels: Tensor) -> Tensor:
    """``-log sum_{i in labels} softmax(logits over group)_i``, per row.

    logits, group, labels: (N, C); ``group`` marks the candidates competing in the softmax,
    ``labels`` the correct ones (several when equivalent candidates are all right). Rows with no
    label give 0.
    """
    masked = logits.masked_fill(~group, float("-inf"))
    correct = logits.masked_fill(~(labels & group), float("-inf"))
    has_label = (labels & group).any(-1)
    loss = torch.logsumexp(masked, -1) - torch.logsumexp(correct, -1)
    return torch.where(has_label, loss, torch.zeros_like(loss))


def exception_probability(logit: Tensor | float, calibration: Calibration) -> Tensor:
    z = torch.as_tensor(logit, dtype=torch.float32)
    return torch.sigmoid(calibration.exception_scale * z + calibration.exception_bias)


def predict(
    exception_logit: float, logits: Tensor, is_exception: Tensor, calibration: Calibration
) -> Prediction:
    """One test's joint scores: logits (C,) from the scorer, ``is_exception`` (C,) bool."""
    p = float(exception_probability(exception_logit, calibration))
    logits = logits.float()
    scores = torch.zeros_like(logits)
    assertions = ~is_exception
    if assertions.any():
        scores[assertions] = (1.0 - p) * (logits[assertions] / calibration.temperature).softmax(-1)
    index = None
    if is_exception.any():
        scores[is_exception] = p * logits[is_exception].softmax(-1)
        positions = is_exception.nonzero().squeeze(-1)
        index = int(positions[logits[positions].argmax()])
    return Prediction(p, index, scores.tolist())


# -- fitting on dev ------------------------------------------------------------------------
def fit_temperature(logits: Tensor, group: Tensor, labels: Tensor) -> float:
    """The temperature minimising the listwise NLL over labelled rows (a log-spaced grid search).

    A grid, not gradient descent: one parameter, deterministic, and no local-minimum surprises
    with several correct candidates per row.
    """
    rows = (labels & group).any(-1)
    if not rows.any():
        return 1.0
    logits, group, labels = logits[rows].float(), group[rows], labels[rows]
    grid = torch.logspace(math.log10(0.05), math.log10(20.0), 301)
    losses = torch.stack([listwise_nll(logits / t, group, labels).mean() for t in grid])
    return float(grid[int(losses.argmin())])


def fit_platt(logits: Tensor, labels: Tensor) -> tuple[float, float]:
    """``(scale, bias)`` minimising the log-loss of ``sigmoid(scale * logit + bias)``."""
    labels = labels.float()
    if labels.numel() == 0 or bool((labels == labels[0]).all()):
        return 1.0, 0.0
    params = torch.tensor([1.0, 0.0], requires_grad=True)
    optimiser = torch.optim.LBFGS([params], lr=0.5, max_iter=200, line_search_fn="strong_wolfe")
    x = logits.detach().float()

    def closure() -> Tensor:
        optimiser.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(params[0] * x + params[1], labels)
        loss.backward()
        return loss

    optimiser.step(closure)
    scale, bias = params.detach().tolist()
    return float(scale), float(bias)


def best_f1_threshold(probabilities: Sequence[float], labels: Sequence[bool]) -> float:
    """The threshold (one of the probabilities) with the highest F1; 0.5 with no positive."""
    positives = sum(labels)
    if positives == 0:
        return 0.5
    pairs = _descending(probabilities, labels)
    best, threshold, true_positives = -1.0, 0.5, 0
    for answered, (probability, label) in enumerate(pairs, start=1):
        true_positives += label
        f1 = 2 * true_positives / (answered + positives)
        if _is_cut(pairs, answered) and f1 > best:
            best, threshold = f1, probability
    return threshold


def abstention_threshold(top_scores: Sequence[float], correct: Sequence[bool], precision: float) -> float:
    """The lowest top-score threshold whose answered tests reach ``precision`` (most coverage).

    Unreachable on dev: 1.0, i.e. the ranker abstains unless certain; the caller logs it.
    """
    pairs = _descending(top_scores, correct)
    threshold, right = 1.0, 0
    for answered, (score, is_right) in enumerate(pairs, start=1):
        right += is_right
        if _is_cut(pairs, answered) and right / answered >= precision:
            threshold = score
    return threshold


def _descending(scores: Sequence[float], flags: Sequence[bool]) -> list[tuple[float, bool]]:
    return sorted(zip(scores, flags, strict=True), key=lambda pair: -pair[0])


def _is_cut(pairs: list[tuple[float, bool]], answered: int) -> bool:
    """A threshold at ``pairs[answered - 1]`` answers exactly the first ``answered`` (no tie across)."""
    return answered == len(pairs) or pairs[answered][0] != pairs[answered - 1][0]
