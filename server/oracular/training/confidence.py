"""``oracular train confidence``: fit the answer confidence (:mod:`oracular.ranking.confidence`)
on realistic evaluations of dev projects, and store it in the model's config.

Why on realistic evaluations and not on the mined dev samples the calibration uses: the question
is whether the engine's top-1, after everything the engine does with the ranker's scores (the
observed values, the verdicts, the offer order), is the developer's oracle for a test cut right
before it. Only ``oracular eval --realistic`` answers that. Fit on some dev projects and measure
on others (``--check``): the reported figures must come from projects it was not fitted on.

The thresholds are chosen apart from the weights, one per mode (values observed or not), and
may be chosen on more projects than the weights were fitted on (``--threshold-eval``): where
those include a checked project, its figures come from thresholds chosen without it
(:func:`held_out_at_threshold`, each project left out in turn).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
    """The answered tests of some evaluations: what the confidence read, whether the top-1 was
    right and the project it is of; ``tests`` counts every test judged (the share answered is
    over all of them), ``per_project`` the same by project."""

    views: list[AnswerView]
    right: list[bool]
    tests: int
    sources: list[str]
    projects: list[str] = field(default_factory=list)
    per_project: Counter[str] = field(default_factory=Counter)

    def without(self, project: str) -> Answers:
        return self._where(lambda p: p != project)

    def only(self, project: str) -> Answers:
        return self._where(lambda p: p == project)

    def _where(self, keep: Callable[[str], bool]) -> Answers:
        kept = [i for i, p in enumerate(self.projects) if keep(p)]
        per_project = Counter({p: n for p, n in self.per_project.items() if keep(p)})
        return Answers(
            [self.views[i] for i in kept], [self.right[i] for i in kept], sum(per_project.values()),
            self.sources, [self.projects[i] for i in kept], per_project,
        )  # fmt: skip


def load_answers(paths: Sequence[Path]) -> Answers:
    """Read ``oracular eval --realistic --json`` outputs; an evaluation that predates the answer
    view cannot be fitted on (it is named in the error)."""
    answers = Answers([], [], 0, [])
    for path in paths:
        runs = [ProjectRun.from_json(r) for r in json.loads(path.read_text(encoding="utf-8"))]
        judged = [j for run in runs for j in run.judged]
        if judged and not any(j.answer is not None for j in judged):
            raise ValueError(f"{path} records no answer views: run 'oracular eval --realistic' again")
        for run in runs:
            answered = [j for j in run.judged if j.answer is not None]
            answers.views += [AnswerView.from_json(j.answer) for j in answered]  # type: ignore[arg-type]
            answers.right += [j.rank == 1 for j in answered]
            answers.projects += [run.name] * len(answered)
            answers.per_project[run.name] += len(run.judged)
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
    choose_thresholds(model, answers, target_precision)
    return model


def choose_thresholds(model: AnswerConfidence, answers: Answers, target_precision: float) -> None:
    """Per mode, the lowest threshold at which the answers of that mode reach ``target_precision``
    (1.0, i.e. abstain, where none does); a mode with no answers takes the other's."""

    def chosen(observed: bool) -> float | None:
        pairs = [(model.probability(v), r) for v, r in zip(answers.views, answers.right, strict=True)
                 if v.observed is observed]  # fmt: skip
        return (
            abstention_threshold([p for p, _ in pairs], [r for _, r in pairs], target_precision)
            if pairs
            else None
        )

    observed, static = chosen(True), chosen(False)
    model.target_precision = target_precision
    model.fitted_on = {**model.fitted_on, "thresholds_on": answers.sources, "thresholds_tests": answers.tests}
    model.threshold = observed if observed is not None else static if static is not None else 1.0
    model.static_threshold = static


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
    """The share of tests the engine answers at the model's thresholds, and its top-1 precision."""
    return _share(_kept(model, answers), answers.tests)


def held_out_at_threshold(
    model: AnswerConfidence, chosen_on: Answers, measured: Answers, target_precision: float
) -> tuple[float, float | None]:
    """:func:`at_threshold` on ``measured``, each of its projects answered at the thresholds
    chosen on ``chosen_on`` without that project: what a project the thresholds never saw gets."""
    kept: list[bool] = []
    for project in measured.per_project:
        held = copy.copy(model)
        choose_thresholds(held, chosen_on.without(project), target_precision)
        kept += _kept(held, measured.only(project))
    return _share(kept, measured.tests)


def _kept(model: AnswerConfidence, answers: Answers) -> list[bool]:
    """Whether the top-1 was right, for each answer the model does not abstain on."""
    pairs = zip(answers.views, answers.right, strict=True)
    return [right for view, right in pairs if model.probability(view) >= model.threshold_for(view)]


def _share(kept: list[bool], tests: int) -> tuple[float, float | None]:
    return len(kept) / tests if tests else 0.0, sum(kept) / len(kept) if kept else None
