"""A run's weights travel back from a lent GPU as the tensors it changed, and merge back exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from oracular.training.transfer import diff, merge


def _weights(path: Path, **tensors: torch.Tensor) -> Path:
    save_file(tensors, str(path))
    return path


def test_only_changed_tensors_travel_and_the_merge_rebuilds_the_run(tmp_path: Path) -> None:
    frozen = torch.arange(12, dtype=torch.float16).reshape(3, 4)
    init = _weights(tmp_path / "init.st", embeddings=frozen, head=torch.zeros(2, dtype=torch.float16))
    run = _weights(
        tmp_path / "run.st",
        embeddings=frozen.clone(),
        head=torch.tensor([0.0, 0.5], dtype=torch.float16),  # one element changed
        extra=torch.ones(1, dtype=torch.float16),  # a tensor the starting model lacks
    )
    assert diff(init, run, tmp_path / "delta.st") == 2
    assert set(load_file(str(tmp_path / "delta.st"))) == {"head", "extra"}

    merge(init, tmp_path / "delta.st", tmp_path / "merged.st")
    rebuilt, expected = load_file(str(tmp_path / "merged.st")), load_file(str(run))
    assert list(rebuilt) == list(expected)
    assert all(torch.equal(rebuilt[name], expected[name]) for name in expected)


def test_a_delta_merged_on_the_wrong_starting_model_is_refused(tmp_path: Path) -> None:
    init = _weights(tmp_path / "init.st", a=torch.zeros(1), b=torch.zeros(1))
    run = _weights(tmp_path / "run.st", a=torch.ones(1), b=torch.zeros(1))
    diff(init, run, tmp_path / "delta.st")
    other = _weights(tmp_path / "other.st", a=torch.zeros(1))
    with pytest.raises(ValueError, match="neither the delta nor the starting model: b"):
        merge(other, tmp_path / "delta.st", tmp_path / "merged.st")


def test_a_plain_weights_file_is_not_taken_for_a_delta(tmp_path: Path) -> None:
    init = _weights(tmp_path / "init.st", a=torch.zeros(1))
    with pytest.raises(ValueError, match="not a delta"):
        merge(init, init, tmp_path / "merged.st")
