"""Evaluation: the metric definitions, the baselines, and ``oracular eval`` on the fixture corpus.

Why: published figures must use the stated denominators (ALL assertion samples, including those
the grammar cannot express) and compare the model with the baseline on identical problems.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.evaluation.ranking import (
    AssertionOutcome,
    ExceptionOutcome,
    assertion_metrics,
    assertion_outcome,
    coin_metrics,
    exception_metrics,
    never_throws_metrics,
)

from ..models.conftest import MinedCorpus


def corpus_args(mined: MinedCorpus) -> list[str]:
    """The fixture datasets, their sources and the dictionary they were mined with."""
    return [
        "--data",
        str(mined.datasets),
        "--cache",
        str(mined.cache),
        "--dictionary",
        str(mined.dictionary),
        "-q",
    ]


def test_rank_of_the_first_correct_candidate_with_ties_in_candidate_order() -> None:
    assert assertion_outcome([0.1, 0.5, 0.5, 0.2], [2]) == AssertionOutcome(2, 0.5)
    assert assertion_outcome([0.1, 0.5, 0.5, 0.2], [0, 3]) == AssertionOutcome(3, 0.5)
    assert assertion_outcome([0.3], []) == AssertionOutcome(None, 0.3)


def test_assertion_metrics_count_uncovered_samples_in_the_denominator() -> None:
    outcomes = [
        AssertionOutcome(1, 0.9),
        AssertionOutcome(3, 0.8),
        AssertionOutcome(None, 0.7),
        AssertionOutcome(1, 0.2),
    ]
    metrics = assertion_metrics(outcomes, threshold=0.75)
    assert (
        metrics["top1"] == 0.5 and metrics["top5"] == 0.75 and metrics["top1_covered"] == pytest.approx(2 / 3)
    )
    levels = {level["coverage"]: level for level in metrics["at_coverage"]}
    assert levels[1.0]["precision"] == 0.5 and levels[0.2]["precision"] == 1.0
    assert metrics["at_threshold"] == {"threshold": 0.75, "coverage": 0.5, "precision": 0.5}


def test_exception_metrics_and_baselines() -> None:
    outcomes = [
        ExceptionOutcome(True, 0.9, True),
        ExceptionOutcome(True, 0.4, False),
        ExceptionOutcome(False, 0.6, None),
        ExceptionOutcome(False, 0.1, None),
    ]
    metrics = exception_metrics(outcomes, 0.5)
    assert metrics["precision"] == 0.5 and metrics["recall"] == 0.5 and metrics["accuracy"] == 0.5
    assert metrics["type_accuracy"] == 1.0  # over the samples predicted to throw
    assert metrics["type_accuracy_all"] == 0.5  # over every throwing sample
    never = never_throws_metrics(outcomes)
    assert never["accuracy"] == 0.5 and never["recall"] == 0.0 and never["f1"] == 0.0
    coin = coin_metrics(0.25, outcomes)
    assert coin["precision"] == pytest.approx(0.5) and coin["recall"] == pytest.approx(0.25)
    assert coin["accuracy"] == pytest.approx(0.25 * 0.5 + 0.75 * 0.5)


def test_eval_cli_compares_the_model_and_the_baseline(
    mined: MinedCorpus, tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORACULAR_MODELS", str(mined.cache))  # where mining wrote its dictionary
    monkeypatch.setattr("oracular.candidates.values.GLOBAL_DICTIONARY", mined.dictionary.name)
    output = tmp_path / "eval.md"
    argv = [
        "eval",
        "--data",
        str(mined.datasets),
        "--cache",
        str(mined.cache),
        "--model",
        str(tiny_model_dir),
    ]
    assert main([*argv, "--device", "cpu", "-q", "-o", str(output)]) == 0
    text = output.read_text()
    for heading in ("## Exception stage", "## Assertion stage", "### Top-1 precision"):
        assert heading in text
    for row in (
        "| neural (threshold",
        "| baseline (threshold 0.50)",
        "| weighted coin (p=",
        "| never throws |",
    ):
        assert row in text
    assert "not replayed" not in text


def test_eval_cli_compares_several_models_by_folder_name(
    mined: MinedCorpus, tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "unsplit"
    shutil.copytree(tiny_model_dir, other)
    argv = ["eval", "--data", str(mined.datasets), "--cache", str(mined.cache), "--device", "cpu", "-q"]
    models = ["--model", str(tiny_model_dir), "--model", str(other), "--model", str(tmp_path / "gone")]
    assert main([*argv, *models]) == 0
    out = capsys.readouterr().out
    assert (
        f"- model oracles: {tiny_model_dir} (" in out and f"- model gone: none in {tmp_path / 'gone'}" in out
    )
    for row in ("| oracles (threshold", "| unsplit (threshold", "| baseline (threshold"):
        assert row in out
    assertion_rows = out.split("## Assertion stage")[1]
    assert "| oracles |" in assertion_rows and "| unsplit |" in assertion_rows


def test_eval_cli_without_a_model_reports_the_baseline_alone(
    mined: MinedCorpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "eval",
        "--data",
        str(mined.datasets),
        "--cache",
        str(mined.cache),
        "--model",
        str(tmp_path),
        "-q",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "baseline only" in out and "| neural" not in out
