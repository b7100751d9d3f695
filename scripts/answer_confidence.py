"""Would a confidence score beyond the top-1's own probability answer more precisely? (issue 15)

Why: the engine answers a test (does not abstain) by its top-1's calibrated score alone, and at
60% of tests answered its top-1 precision is 53% against the issue's 60%. What else the engine
knows when it answers may say more: how close the second candidate is, whether the top-1 held
on the code under test, whether it is an exception oracle, which assertion it is. This fits a
logistic regression of "the top-1 is the developer's oracle" on those, on one realistic
evaluation's output, and compares the precision at a share of tests answered on another, ordered
by the fitted confidence against the top-1 score. An offline measure, to decide whether the
engine should compute such a confidence; nothing here changes the engine.

    .venv/bin/python scripts/answer_confidence.py FIT.json TEST.json

FIT and TEST: ``oracular eval --realistic ... --json`` outputs (observed mode: the hold status
is a feature), e.g. the 12 ``OTHERS`` projects to fit and the 8 reported ones to test.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import torch

from oracular.evaluation.ranking import COVERAGES, AssertionOutcome, most_confident

METHODS = ("assertEquals", "assertThrows", "assertTrue", "assertFalse", "assertNotNull", "assertArrayEquals")
FEATURES = (
    "top-1 log-odds",
    "second log-odds",
    "margin",
    "top-1 score",
    "value observed",
    "top-1 holds",
    "exception test",
    *METHODS,
)


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def features(judged: dict[str, Any]) -> list[float]:
    top = judged.get("top") or []
    first = judged["top1_score"]
    second = top[1][1] if len(top) > 1 else 0.0
    return [
        _log_odds(first),
        _log_odds(second),
        first - second,
        first,
        float(judged.get("top1_source") == "observed"),
        float(judged.get("top1_status") == "holds"),
        float(judged["kind"] == "exception"),
        *(float(judged.get("top1_method") == m) for m in METHODS),
    ]


def load(path: Path) -> tuple[torch.Tensor, list[int | None], int]:
    """Features and ranks of the tests the engine answers (those the report's
    abstention curve counts: a top-1 that can fail), and how many tests were judged."""
    judged = [j for project in json.loads(path.read_text()) for j in project["judged"]]
    answered = [j for j in judged if j.get("top1_score") is not None]
    return torch.tensor([features(j) for j in answered]), [j.get("rank") for j in answered], len(judged)


def fit(
    x: torch.Tensor, ranks: list[int | None], l2: float = 1e-2
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Weights over standardised features predicting a right top-1, and the standardisation
    (mean, scale)."""
    y = torch.tensor([float(rank == 1) for rank in ranks])
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = (x - mean) / scale
    w = torch.zeros(x.shape[1] + 1, requires_grad=True)
    optimiser = torch.optim.LBFGS([w], max_iter=200)

    def loss() -> torch.Tensor:
        optimiser.zero_grad()
        value = torch.nn.functional.binary_cross_entropy_with_logits(z @ w[:-1] + w[-1], y)
        value = value + l2 * (w[:-1] ** 2).sum()
        value.backward()
        return value

    optimiser.step(loss)
    return w.detach(), mean, scale


def precision_at(confidence: torch.Tensor, ranks: list[int | None], tests: int) -> dict[float, float]:
    """Top-1 precision at each of the report's shares answered, the most confident first
    (:func:`oracular.evaluation.ranking.most_confident`, as ``oracular eval`` computes it)."""
    outcomes = [AssertionOutcome(rank, score) for rank, score in zip(ranks, confidence.tolist(), strict=True)]
    return {level["coverage"]: level["precision"] for level in most_confident(outcomes, tests)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit", type=Path)
    parser.add_argument("test", type=Path)
    args = parser.parse_args()
    w, mean, scale = fit(*load(args.fit)[:2])
    x, ranks, tests = load(args.test)
    fitted = ((x - mean) / scale) @ w[:-1] + w[-1]
    by_score, by_fit = precision_at(x[:, 3], ranks, tests), precision_at(fitted, ranks, tests)
    print(f"fitted on {args.fit.name}, tested on {args.test.name} ({tests} tests)\n")
    print("| answered | precision, top-1 score | precision, fitted confidence |\n|---:|---:|---:|")
    for share in COVERAGES[1:]:
        print(f"| {share:.0%} | {by_score[share]:.1%} | {by_fit[share]:.1%} |")
    print(
        "\nweights (standardised): "
        + ", ".join(f"{n} {v:+.2f}" for n, v in zip(FEATURES, w[:-1].tolist(), strict=True))
    )


if __name__ == "__main__":
    main()
