"""A 2-step training smoke run on the fixture corpus, with the tiny encoder (no real training).

Why: the whole loop (data, both losses, the optimiser, dev calibration, saving, continuing with
rehearsal) must run end to end; that it learns is measured by ``oracular eval`` on real data.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import torch

from oracular.cli.main import main
from oracular.models import backbone, store
from oracular.models.backbone import BackboneMissing
from oracular.models.inputs import InputSettings
from oracular.training import trainer
from oracular.training.trainer import TrainSettings, rate_factor, seed_everything, train

from ..models.conftest import MinedCorpus, tiny_config


def settings(mined: MinedCorpus, out: Path, stage: str = "all", **overrides) -> TrainSettings:
    defaults = {
        "device": "cpu",
        "max_steps": 2,
        "batch_size": 4,
        "encoder_config": tiny_config(),
        "progress": False,
        "checkpoint": out.parent / f"{out.name}-{stage}.ckpt",
    }
    return TrainSettings(stage=stage, data=mined.datasets, out=out, **{**defaults, **overrides})


def same_weights(a: Path, b: Path) -> None:
    first, _, _ = store.load(a)
    second, _, _ = store.load(b)
    for (name, x), y in zip(first.state_dict().items(), second.state_dict().values(), strict=True):
        assert torch.equal(x, y), name


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


def test_a_held_out_fold_of_projects_is_not_trained_on(mined: MinedCorpus, tmp_path: Path, capsys) -> None:
    """A network cross-fitted by project: ``--hold-out K/N`` trains without fold K's projects
    (the fixture's train projects alpha and beta fall in folds 0 and 1 of 2) and says so."""
    train(settings(mined, tmp_path / "without-alpha", hold_out="0/2"))
    config = store.load_config(tmp_path / "without-alpha")
    run = config.metadata["last_all_run"]
    assert run["settings"]["hold_out"] == "0/2"
    held = run["train_samples"]
    assert 0 < held["exception"] < 12 and held["assertion"] <= 5  # beta's alone
    train(settings(mined, tmp_path / "without-beta", hold_out="1/2"))
    other = store.load_config(tmp_path / "without-beta").metadata["last_all_run"]["train_samples"]
    assert held["exception"] + other["exception"] == 12 and held["assertion"] + other["assertion"] == 5
    # a fold that is not K of N, a stage that trains no network, a start from a model that saw
    # every fold: one line, nothing trained
    start_from = ["--init", str(tmp_path / "without-beta")]
    common = ["--data", str(mined.datasets), "--out", str(tmp_path / "no"), "-q"]
    for stage, fold, more in (("all", "2/2", []), ("calibrate", "0/2", []), ("all", "0/2", start_from)):
        args = ["train", stage, *common, "--hold-out", fold, *more]
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and ("hold-out" in err or "fold" in err)
    assert not (tmp_path / "no").exists()
    # nor goes on from a model in --out that saw the fold (the other fold's network here)
    args = ["train", "all", "--data", str(mined.datasets), "--out", str(tmp_path / "without-beta")]
    assert main([*args, "--hold-out", "0/2", "--max-steps", "1", "-q"]) == 2
    assert "saw fold 0/2" in capsys.readouterr().err


def test_training_is_reproducible(mined: MinedCorpus, tmp_path: Path) -> None:
    train(settings(mined, tmp_path / "a"))
    train(settings(mined, tmp_path / "b"))
    same_weights(tmp_path / "a", tmp_path / "b")


def test_a_run_cut_short_resumes_from_its_checkpoint_as_the_same_run(
    mined: MinedCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two epochs of 3 + 2 batches; the cut falls after step 6, inside the second epoch."""
    whole = settings(mined, tmp_path / "whole", max_steps=None, epochs=2, checkpoint_every=1)
    train(whole)
    assert not whole.checkpoint.exists(), "a finished run removes its checkpoint"

    cut = settings(mined, tmp_path / "cut", max_steps=None, epochs=2, checkpoint_every=1)
    real_loss, calls = trainer.batch_loss, []

    def dies_on_the_seventh_step(*args, **kwargs):
        calls.append(1)
        if len(calls) == 7:
            raise KeyboardInterrupt  # the session stops
        return real_loss(*args, **kwargs)

    monkeypatch.setattr(trainer, "batch_loss", dies_on_the_seventh_step)
    with pytest.raises(KeyboardInterrupt):
        train(cut)
    assert cut.checkpoint.exists() and not (tmp_path / "cut" / "model.safetensors").exists()
    monkeypatch.setattr(trainer, "batch_loss", real_loss)
    result = train(cut)
    assert result.steps == 10
    assert "resuming from" in (tmp_path / "cut" / "train.log").read_text()
    same_weights(tmp_path / "whole", tmp_path / "cut")


def test_another_runs_checkpoint_is_not_resumed(mined: MinedCorpus, tmp_path: Path) -> None:
    stale = settings(mined, tmp_path / "model", seed=1, checkpoint_every=1)
    trainer.Checkpoint(stale).save(*_fresh_network_and_optimiser(stale), trainer.Position(step=1))
    train(settings(mined, tmp_path / "model", checkpoint_every=1))
    train(settings(mined, tmp_path / "fresh"))
    same_weights(tmp_path / "model", tmp_path / "fresh")
    assert "another run's checkpoint" in (tmp_path / "model" / "train.log").read_text()


def _fresh_network_and_optimiser(run: TrainSettings):
    network, _, _ = trainer.initial_network(run)
    return network, trainer._optimiser(network, run)


def test_encoding_workers_change_nothing_but_speed(mined: MinedCorpus, tmp_path: Path) -> None:
    train(settings(mined, tmp_path / "inline", workers=0, max_steps=3))
    train(settings(mined, tmp_path / "workers", workers=2, max_steps=3))
    same_weights(tmp_path / "inline", tmp_path / "workers")


def test_the_time_budget_ends_the_run_and_the_learning_rate_with_it(
    mined: MinedCorpus, tmp_path: Path
) -> None:
    budget = settings(mined, tmp_path / "model", time_budget=1e-9, max_steps=None, epochs=3)
    assert train(budget).steps == 1, "the budget was spent by the first step"
    assert "time budget" in (tmp_path / "model" / "train.log").read_text()
    # 10 steps, 1 of warm-up, then linear decay to zero by the last step...
    stepwise = dataclasses.replace(budget, time_budget=None)
    assert rate_factor(stepwise, 0, 10, 0.0) == 1.0
    assert rate_factor(stepwise, 5, 10, 1e6) == pytest.approx(1 - 4 / 9)
    # ...or by the budget's end: the run is as far along as the further of steps and seconds.
    timed = dataclasses.replace(budget, time_budget=100.0)
    assert rate_factor(timed, 5, 10, 75.0) == pytest.approx(0.25 / 0.94)  # time runs out first
    assert rate_factor(timed, 5, 10, 10.0) == pytest.approx(0.5 / 0.94)  # steps run out first
    assert rate_factor(timed, 5, 10, 150.0) == 0.0
    # A budget far shorter than the steps warms up in its first 6% of time.
    long = dataclasses.replace(timed, warmup=0.06)
    assert rate_factor(long, 10, 10_000, 3.0) == pytest.approx(0.5)
    assert rate_factor(long, 10, 10_000, 50.0) == pytest.approx(0.5 / 0.94)


def test_a_second_stage_continues_and_rehearses_the_first(mined: MinedCorpus, tmp_path: Path) -> None:
    out = tmp_path / "model"
    train(settings(mined, out, "exception"))
    assert store.load_config(out).stages == ["exception"]
    train(settings(mined, out, "ranker", rehearse=0.5))
    config = store.load_config(out)
    assert config.stages == ["exception", "ranker"]
    assert config.metadata["last_ranker_run"]["train_samples"] == {"exception": 6, "assertion": 5}
    assert "rehearsing ['exception']" in (out / "train.log").read_text()


def test_a_continued_model_learns_to_read_the_test_name(mined: MinedCorpus, tmp_path: Path) -> None:
    out = tmp_path / "model"
    train(settings(mined, tmp_path / "v3"))
    assert not store.load_config(tmp_path / "v3").inputs.test_name
    named = dataclasses.replace(InputSettings(), test_name=True)
    train(settings(mined, out, init=tmp_path / "v3", inputs=named))
    assert store.load_config(out).inputs.test_name
    assert "input setting test_name is True now" in (out / "train.log").read_text()


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


def test_fine_tuning_needs_no_backbone_package(
    mined: MinedCorpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A GPU machine has the model to fine-tune but not always the MiniLM package: the tokenizer
    files come with the model started from."""
    train(settings(mined, tmp_path / "first"))

    def missing(*_args, **_kwargs):
        raise BackboneMissing("not installed here")

    monkeypatch.setattr(backbone, "backbone_dir", missing)
    train(settings(mined, tmp_path / "tuned", init=tmp_path / "first"))
    for name in ("tokenizer.json", "vocab.txt"):
        assert (tmp_path / "tuned" / name).read_bytes() == (tmp_path / "first" / name).read_bytes()
    store.load(tmp_path / "tuned")
