"""From raw network outputs to the probabilities the engine shows (fitted on dev by
:mod:`oracular.training.calibration`).

The two stages combine into one distribution over a test's candidates:
``P(assertThrows(X)) = P(throws) * P(X | throws)`` and
``P(assertion a) = (1 - P(throws)) * P(a | no throw)``, where ``P(a | no throw)`` is a softmax over
the assertion candidates and ``P(X | throws)`` one over the exception candidates. That is the
listwise model the ranker is trained with, so the scores are comparable across tests, which is
what a single abstention threshold needs.

Raw outputs are not calibrated: the exception head is trained with a class-weighted loss (which
inflates ``P(throws)`` on purpose) and a fine-tuned softmax is usually over-confident. So a
:class:`Calibration` fitted on dev is shipped with the weights and applied here.
"""

from __future__ import annotations

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
