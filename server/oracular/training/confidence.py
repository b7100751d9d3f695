"""``oracular train confidence``: fit the answer confidence (:mod:`oracular.ranking.confidence`)
on realistic evaluations of dev projects, and store it in the model's config.

Why on realistic evaluations and not on the mined dev samples the calibration uses: the question
is whether the engine's top-1, after everything the engine does with the ranker's scores (the
observed values, the verdicts, the offer order), is the developer's oracle for a test cut right
before it. Only ``oracular eval --realistic`` answers that. Fit on some dev projects and measure
on others (``--check``): the reported figures must come from projects it was not fitted on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch

from oracular.evaluation.ranking import COVERAGES, AssertionOutcome, most_confident
from oracular.evaluation.realistic import ProjectRun
from oracular.ranking.confidence import AnswerConfidence, AnswerView, features
from oracular.training.calibration import abstention_threshold, fit_logistic

L2 = 1e-2
"""Penalty on the standardised weights: a few hundred tests fit two dozen features."""
TARGET_PRECISION = 0.6
"""The top-1 precision the threshold is chosen for by default (issue 15's target)."""


@dataclass
class Answers:
    """The answered tests of some evaluations: what the confidence read, and whether the top-1
    was right; ``tests`` counts every test judged (the share answered is over all of them)."""

    views: list[AnswerView]
    right: list[bool]
    tests: int
    sources: list[str]


def load_answers(paths: Sequence[Path]) -> Answers:
    """Read ``oracular eval --realistic --json`` outputs; an evaluation that predates the answer
    view cannot be fitted on (it is named in the error)."""
    answers = Answers([], [], 0, [])
    for path in paths:
        runs = [ProjectRun.from_json(r) for r in json.loads(path.read_text(encoding="utf-8"))]
        judged = [j for run in runs for j in run.judged]
        if judged and not any(j.answer is not None for j in judged):
            raise ValueError(f"{path} records no answer views: run 'oracular eval --realistic' again")
        answered = [j for j in judged if j.answer is not None]
        answers.views += [AnswerView.from_json(j.answer) for j in answered]  # type: ignore[arg-type]
        answers.right += [j.rank == 1 for j in answered]
        answers.tests += len(judged)
        answers.sources.append(f"{path.name}: {', '.join(run.name for run in runs)}")
    return answers


def fit_confidence(answers: Answers, target_precision: float, l2: float = L2) -> AnswerConfidence:
    """A logistic regression of "the top-1 is right" on the views' standardised features, and the
    lowest threshold at which the fitted tests' answered top-1s reach ``target_precision``."""
    if not answers.views or all(answers.right) or not any(answers.right):
        raise ValueError("fitting a confidence needs answered tests, some right and some wrong")
    x = torch.tensor([features(v) for v in answers.views], dtype=torch.float64)
    mean, scale = x.mean(0), x.std(0).clamp_min(1e-6)
    weights, bias = fit_logistic((x - mean) / scale, torch.tensor(answers.right), l2)
    model = AnswerConfidence(
        weights, bias, mean.tolist(), scale.tolist(), 1.0, target_precision,
        {"evaluations": answers.sources, "tests": answers.tests, "answered": len(answers.views), "l2": l2},
    )  # fmt: skip
    confidences = [model.probability(v) for v in answers.views]
    model.threshold = abstention_threshold(confidences, answers.right, target_precision)
    return model


Level = tuple[float, float | None, float | None]


def precision_table(model: AnswerConfidence, answers: Answers) -> list[Level]:
    """``(share answered, precision by the top-1's score, precision by the confidence)`` at each
    of the report's shares: the tests answered most confident first, as ``oracular eval``
    reports it."""

    def levels(scores: list[float]) -> dict[float, float | None]:
        outcomes = [AssertionOutcome(1 if r else None, s) for r, s in zip(answers.right, scores, strict=True)]
        return {c["coverage"]: c["precision"] for c in most_confident(outcomes, answers.tests)}

    plain = levels([v.offered[0].score if v.offered else 0.0 for v in answers.views])
    fitted = levels([model.probability(v) for v in answers.views])
    return [(share, plain[share], fitted[share]) for share in COVERAGES[1:]]


def at_threshold(model: AnswerConfidence, answers: Answers) -> tuple[float, float | None]:
    """The share of tests the engine answers at the model's threshold, and its top-1 precision."""
    pairs = zip(answers.views, answers.right, strict=True)
    kept = [right for view, right in pairs if model.probability(view) >= model.threshold]
    return len(kept) / answers.tests if answers.tests else 0.0, sum(kept) / len(kept) if kept else None
