"""A 2-step training smoke run on the fixture corpus, with the tiny encoder (no real training).

Why: the whole loop (data, both losses, the optimiser, dev calibration, saving, continuing with
rehearsal) must run end to end; that it learns is measured by ``oracular eval`` on real data.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from oracular.cli.main import main
from oracular.models import store
from oracular.training.trainer import TrainSettings, seed_everything, train

from .conftest import MinedCorpus, tiny_config


def settings(mined: MinedCorpus, out: Path, stage: str = "all", **overrides) -> TrainSettings:
    return TrainSettings(
        stage=stage,
        data=mined.datasets,
        out=out,
        device="cpu",
        max_steps=2,
        batch_size=4,
        encoder_config=tiny_config(),
        progress=False,
        **overrides,
    )


@pytest.mark.parametrize("architecture", ["cached-context", "cross-encoder"])
def test_two_steps_train_calibrate_and_save(mined: MinedCorpus, tmp_path: Path, architecture: str) -> None:
    result = train(settings(mined, tmp_path / "model", architecture=architecture))
    assert result.steps == 2
    config = store.load_config(tmp_path / "model")
    assert config.stages == ["exception", "ranker"] and config.architecture == architecture
    assert config.calibration == result.calibration
    assert config.metadata["dev"]["assertion"]["samples"] == result.dev["assertion"]["samples"] > 0
    assert config.metadata["last_all_run"]["train_samples"] == {"exception": 12, "assertion": 5}
    assert "saved" in (tmp_path / "model" / "train.log").read_text()


def test_training_is_reproducible(mined: MinedCorpus, tmp_path: Path) -> None:
    train(settings(mined, tmp_path / "a"))
    train(settings(mined, tmp_path / "b"))
    first, _, _ = store.load(tmp_path / "a")
    second, _, _ = store.load(tmp_path / "b")
    for (name, a), b in zip(first.state_dict().items(), second.state_dict().values(), strict=True):
        assert torch.equal(a, b), name


def test_a_second_stage_continues_and_rehearses_the_first(mined: MinedCorpus, tmp_path: Path) -> None:
    out = tmp_path / "model"
    train(settings(mined, out, "exception"))
    assert store.load_config(out).stages == ["exception"]
    train(settings(mined, out, "ranker", rehearse=0.5))
    config = store.load_config(out)
    assert config.stages == ["exception", "ranker"]
    assert config.metadata["last_ranker_run"]["train_samples"] == {"exception": 6, "assertion": 5}
    assert "rehearsing ['exception']" in (out / "train.log").read_text()


def test_calibrate_refits_on_dev_without_training(mined: MinedCorpus, tmp_path: Path) -> None:
    out = tmp_path / "model"
    with pytest.raises(ValueError, match="no trained model"):
        train(settings(mined, out, "calibrate"))
    first = train(settings(mined, out, target_precision=0.0))
    before, _, _ = store.load(out)
    result = train(settings(mined, out, "calibrate", target_precision=1.01))
    after, _, _ = store.load(out)
    assert result.steps == 0
    for (name, a), b in zip(before.state_dict().items(), after.state_dict().values(), strict=True):
        assert torch.equal(a, b), name
    config = store.load_config(out)
    assert config.calibration.target_precision == 1.01 != first.calibration.target_precision
    assert config.calibration.abstain_below == 1.0  # unreachable: abstain unless certain
    assert config.calibration.temperature == first.calibration.temperature  # same model, same dev
    assert config.metadata["last_all_run"]["steps"] == 2, "the training run's record is kept"
    assert config.metadata["last_calibrate_run"]["train_samples"] == {}


def test_unknown_stage(mined: MinedCorpus, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="stage"):
        train(settings(mined, tmp_path, "everything"))


def test_cli_reports_missing_datasets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "ranker", "--data", str(tmp_path), "--out", str(tmp_path / "m"), "-q"]) == 2
    assert "oracular corpus mine" in capsys.readouterr().err


def test_seeding_is_global() -> None:
    seed_everything(3)
    a = torch.rand(3)
    seed_everything(3)
    assert torch.equal(a, torch.rand(3))
