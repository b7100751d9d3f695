"""Scoring examples on every candidate, and fitting the calibration on dev's scores.

Why apart from the training loop: scoring is no training step (eval mode, no gradients, every
candidate of a sample rather than a sampled few, the template prior added where the model has
one), and what turns the scores into decisions (Platt scaling, the exception threshold, the
assertion temperature, the abstention threshold for a stated precision) is fitted on dev's
scores, never on train's: the network has seen train and is overconfident there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import Tensor
from tqdm import tqdm

from oracular.candidates.template_features import TemplateContext
from oracular.evaluation.ranking import (
    ExceptionOutcome,
    assertion_metrics,
    assertion_outcome,
    exception_metrics,
)
from oracular.models.calibration import Calibration, exception_probability, predict
from oracular.models.network import OracleNetwork, collate
from oracular.models.prior import TemplatePrior
from oracular.training.batches import bucketed, example_cost, exception_flags, label_mask
from oracular.training.calibration import (
    abstention_threshold,
    best_f1_threshold,
    fit_platt,
    fit_temperature,
)
from oracular.training.data import Example, exception_texts, sample_statements


@dataclass
class Scored:
    example: Example
    exception_logit: float
    logits: Tensor


def with_prior(scored: Scored, prior: TemplatePrior) -> Scored:
    """An evaluation example's logits (every candidate of its sample) with the template prior added:
    an assertion sample's templates, or an exception sample's types (the first one's bonus)."""
    sample = scored.example.sample
    context = TemplateContext.of_sample(sample, sample_statements(sample))
    texts = exception_texts(sample) if scored.example.throws is not None else sample["candidates"]
    logits = prior.adjust(scored.logits, texts, scored.example.is_exception, context)
    return Scored(scored.example, scored.exception_logit, logits)


def score(
    network: OracleNetwork,
    examples: Sequence[Example],
    pad_id: int,
    device: str,
    batch_size: int,
    dtype: torch.dtype | None = None,
    progress: bool = False,
    desc: str = "score",
) -> list[Scored]:
    """Raw outputs for every example, all candidates, in eval mode (``dtype``: autocast)."""
    network.eval()
    scored = []
    with (
        torch.inference_mode(),
        torch.autocast(device, dtype=dtype or torch.bfloat16, enabled=dtype is not None),
    ):
        batches = bucketed(list(examples), batch_size, random.Random(0), example_cost, shuffle=False)
        for chunk in tqdm(batches, desc=desc, unit="batch", disable=not progress):
            batch = collate([e.encoded for e in chunk], pad_id).to(device)
            exception_logits, logits = network(batch)
            for b, e in enumerate(chunk):
                count = len(e.encoded.candidates)
                scored.append(Scored(e, float(exception_logits[b]), logits[b, :count].float().cpu()))
    return scored


def calibrate(
    exceptions: Sequence[Scored], assertions: Sequence[Scored], target_precision: float
) -> tuple[Calibration, dict[str, Any]]:
    """Fit the calibration on dev outputs and measure the calibrated model there."""
    logits = torch.tensor([s.exception_logit for s in exceptions])
    throws = [bool(s.example.throws) for s in exceptions]
    scale, bias = fit_platt(logits, torch.tensor(throws))
    calibration = Calibration(exception_scale=scale, exception_bias=bias, target_precision=target_precision)
    probabilities = exception_probability(logits, calibration).tolist() if exceptions else []
    calibration.exception_threshold = best_f1_threshold(probabilities, throws)

    width = max((len(s.logits) for s in assertions), default=1)
    padded = torch.zeros((len(assertions), width))
    present = torch.zeros((len(assertions), width), dtype=torch.bool)
    for i, s in enumerate(assertions):
        padded[i, : len(s.logits)] = s.logits
        present[i, : len(s.logits)] = True
    examples = [s.example for s in assertions]
    group = present & ~exception_flags(examples, width)
    calibration.temperature = fit_temperature(padded, group, label_mask(examples, width))

    outcomes = [
        assertion_outcome(
            predict(s.exception_logit, s.logits, torch.tensor(s.example.is_exception), calibration).scores,
            s.example.labels,
        )
        for s in assertions
    ]
    calibration.abstain_below = abstention_threshold(
        [o.top_score for o in outcomes], [o.rank == 1 for o in outcomes], target_precision
    )
    exception_outcomes = []
    for s, p in zip(exceptions, probabilities, strict=True):
        index = predict(
            s.exception_logit, s.logits, torch.tensor(s.example.is_exception), calibration
        ).exception_index
        type_correct = (
            (index in s.example.labels) if s.example.throws and s.example.sample.get("exception") else None
        )
        exception_outcomes.append(ExceptionOutcome(bool(s.example.throws), p, type_correct))
    dev = {
        "exception": exception_metrics(exception_outcomes, calibration.exception_threshold),
        "assertion": assertion_metrics(outcomes, calibration.abstain_below),
        "exception_samples": len(exceptions),
        "exception_positive": sum(throws),
    }
    return calibration, dev
