"""The listwise objective, calibration fitting, thresholds, and the joint two-stage scores.

Why: these numbers decide what the editor shows and when it stays silent. The loss must reward
putting mass on any correct candidate; a fitted temperature must undo over-confidence; the
abstention threshold must really reach its precision on the data it was chosen on.
"""

from __future__ import annotations

import math

import pytest
import torch

from oracular.models.calibration import Calibration, exception_probability, predict
from oracular.training.calibration import (
    abstention_threshold,
    best_f1_threshold,
    fit_platt,
    fit_temperature,
    listwise_nll,
)


def test_listwise_loss_with_one_label_is_cross_entropy() -> None:
    logits = torch.tensor([[2.0, 0.5, -1.0]])
    group = torch.ones(1, 3, dtype=torch.bool)
    labels = torch.tensor([[False, True, False]])
    expected = torch.nn.functional.cross_entropy(logits, torch.tensor([1]))
    assert torch.allclose(listwise_nll(logits, group, labels), expected[None])


def test_listwise_loss_credits_mass_on_any_correct_candidate() -> None:
    logits = torch.tensor([[2.0, 2.0, 0.0]])
    group = torch.ones(1, 3, dtype=torch.bool)
    one = listwise_nll(logits, group, torch.tensor([[True, False, False]]))
    both = listwise_nll(logits, group, torch.tensor([[True, True, False]]))
    probabilities = logits.softmax(-1)[0]
    assert torch.allclose(both, -torch.log(probabilities[0] + probabilities[1]))
    assert both < one
    # Moving mass between two correct candidates does not change the loss.
    uneven = torch.log(torch.tensor([[3.0, 1.0, 1.0]]))
    even = torch.log(torch.tensor([[2.0, 2.0, 1.0]]))
    labels = torch.tensor([[True, True, False]])
    assert torch.allclose(listwise_nll(uneven, group, labels), listwise_nll(even, group, labels))


def test_listwise_loss_ignores_candidates_outside_the_group_and_rows_without_labels() -> None:
    logits = torch.tensor([[1.0, 0.0, 50.0], [1.0, 0.0, 0.0]])
    group = torch.tensor([[True, True, False], [True, True, True]])
    labels = torch.tensor([[True, False, False], [False, False, False]])
    loss = listwise_nll(logits, group, labels)
    expected = torch.nn.functional.cross_entropy(logits[:1, :2], torch.tensor([0]))
    assert torch.allclose(loss[0], expected) and loss[1] == 0


def test_temperature_undoes_over_and_under_confidence() -> None:
    torch.manual_seed(0)
    true_logits = torch.randn(2000, 8)
    labels = torch.zeros(2000, 8, dtype=torch.bool)
    labels[torch.arange(2000), torch.multinomial(true_logits.softmax(-1), 1).squeeze(-1)] = True
    group = torch.ones(2000, 8, dtype=torch.bool)
    assert fit_temperature(true_logits * 3, group, labels) == pytest.approx(3.0, rel=0.15)
    assert fit_temperature(true_logits / 2, group, labels) == pytest.approx(0.5, rel=0.15)
    assert fit_temperature(true_logits, group, torch.zeros_like(labels)) == 1.0


def test_platt_scaling_recovers_a_scale_and_a_bias() -> None:
    torch.manual_seed(0)
    logits = torch.randn(5000) * 3
    labels = torch.rand(5000) < torch.sigmoid(0.5 * logits - 1.0)
    scale, bias = fit_platt(logits, labels)
    assert scale == pytest.approx(0.5, abs=0.1) and bias == pytest.approx(-1.0, abs=0.15)
    assert fit_platt(logits, torch.zeros(5000, dtype=torch.bool)) == (1.0, 0.0)


def test_f1_threshold() -> None:
    probabilities = [0.9, 0.8, 0.7, 0.3, 0.2, 0.1]
    labels = [True, True, False, True, False, False]
    assert best_f1_threshold(probabilities, labels) == 0.3  # 3 TP, 1 FP: F1 6/7
    assert best_f1_threshold([0.4, 0.6], [False, False]) == 0.5


def test_abstention_threshold_reaches_the_stated_precision_with_most_coverage() -> None:
    scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    correct = [True, True, False, True, False, False]
    assert abstention_threshold(scores, correct, 1.0) == 0.8
    assert abstention_threshold(scores, correct, 0.75) == 0.6
    assert abstention_threshold(scores, correct, 0.5) == 0.4  # 3 of 6
    assert abstention_threshold([0.3, 0.2], [False, False], 0.5) == 1.0  # unreachable: always abstain


def test_abstention_threshold_never_splits_tied_scores() -> None:
    # A threshold of 0.8 answers both 0.8s: precision 2/3, below 0.9.
    assert abstention_threshold([0.9, 0.8, 0.8], [True, True, False], 0.9) == 0.9


def test_joint_scores_form_one_distribution() -> None:
    calibration = Calibration(temperature=2.0, exception_scale=1.0, exception_bias=0.0)
    logits = torch.tensor([2.0, 1.0, 0.0, 0.5, 1.5])
    is_exception = torch.tensor([False, False, False, True, True])
    prediction = predict(0.0, logits, is_exception, calibration)
    assert prediction.exception_probability == pytest.approx(0.5)
    assert sum(prediction.scores) == pytest.approx(1.0)
    assert prediction.exception_index == 4
    assertions = torch.tensor(prediction.scores[:3]) / 0.5
    assert torch.allclose(assertions, (logits[:3] / 2.0).softmax(-1))


def test_joint_scores_without_exception_candidates() -> None:
    prediction = predict(-math.inf, torch.tensor([1.0, 0.0]), torch.tensor([False, False]), Calibration())
    assert prediction.exception_index is None and prediction.exception_probability == 0.0
    assert sum(prediction.scores) == pytest.approx(1.0)


def test_calibrated_exception_probability() -> None:
    calibration = Calibration(exception_scale=2.0, exception_bias=-1.0)
    assert float(exception_probability(0.5, calibration)) == pytest.approx(0.5)
    assert Calibration.from_json({**calibration.to_json(), "unknown": 1}) == calibration
