"""Fitting a model's :class:`~oracular.models.calibration.Calibration` on dev, and the listwise loss.

What is fitted, each on the dev split after training: Platt scaling for ``P(throws)``, a
temperature for the assertion softmax (both by the listwise loss the ranker is trained with), the
decision threshold that maximises the exception F1, and the abstention threshold that reaches a
stated precision. The editor only applies the result (:mod:`oracular.models.calibration`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import Tensor


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


def fit_logistic(
    x: Tensor, labels: Tensor, l2: float = 0.0, start: Sequence[float] | None = None
) -> tuple[list[float], float]:
    """``(weights, bias)`` minimising the log-loss of ``sigmoid(x @ weights + bias)`` plus
    ``l2 * |weights|^2`` (LBFGS, float64): Platt scaling with one column, the answer confidence
    (:mod:`oracular.training.confidence`) with one per feature. ``start``: the first weights
    (default zeros)."""
    x = x.detach().double()
    y = labels.double()
    params = torch.zeros(x.shape[1] + 1, dtype=torch.float64)
    if start is not None:
        params[:-1] = torch.tensor(start, dtype=torch.float64)
    params.requires_grad_(True)
    optimiser = torch.optim.LBFGS([params], max_iter=500, line_search_fn="strong_wolfe")

    def closure() -> Tensor:
        optimiser.zero_grad()
        weights = params[:-1]
        loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ weights + params[-1], y)
        loss = loss + l2 * (weights**2).sum()
        loss.backward()
        return loss

    optimiser.step(closure)
    fitted = params.detach().tolist()
    return fitted[:-1], fitted[-1]


def fit_platt(logits: Tensor, labels: Tensor) -> tuple[float, float]:
    """``(scale, bias)`` minimising the log-loss of ``sigmoid(scale * logit + bias)``."""
    labels = labels.float()
    if labels.numel() == 0 or bool((labels == labels[0]).all()):
        return 1.0, 0.0
    (scale,), bias = fit_logistic(logits.reshape(-1, 1), labels, start=[1.0])
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
