"""The CPU model's int8 weights kept in the cache: read back instead of quantised, the same
network either way, and every way the file can be missing, stale or unwritable costs only a
quantisation."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import torch
from torch import nn

from oracular.models import int8_store
from oracular.models.inference import QUANTISATIONS, load_model, quantise
from oracular.models.layout import WEIGHTS_FILE
from oracular.models.store import load_config, load_network, save_config


class Counting:
    """``quantise``, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, network: nn.Module) -> nn.Module:
        self.calls += 1
        return quantise(network)


def _load(directory: Path, root: Path, counting: Counting) -> nn.Module:
    config, scheme = load_config(directory), QUANTISATIONS["per-tensor"]
    return int8_store.quantised_network(
        directory, config, lambda: load_network(directory, config), counting, scheme, root
    )


def _outputs(network: nn.Module) -> torch.Tensor:
    ids = torch.tensor([[2, 5, 9, 14, 3]])
    with torch.inference_mode():
        context, exception = network.encode(ids, torch.ones_like(ids, dtype=torch.bool))
        candidates = torch.tensor([[[4, 7, 3], [6, 3, 0]]])
        scores = network.score(context, candidates, candidates != 0)
    return torch.cat([exception, scores[0]])


@pytest.fixture
def model(tiny_model_dir: Path, tmp_path: Path) -> Path:
    """A copy of the tiny model: its weights file's time may change."""
    return Path(shutil.copytree(tiny_model_dir, tmp_path / "oracles"))


def test_the_second_load_reads_the_int8_weights_and_ranks_as_the_first(model: Path, tmp_path: Path) -> None:
    counting = Counting()
    first = _load(model, tmp_path / "int8", counting)
    assert counting.calls == 1 and len(list((tmp_path / "int8").glob("*.pt"))) == 1
    second = _load(model, tmp_path / "int8", counting)
    assert counting.calls == 1  # read, not quantised
    assert torch.equal(_outputs(first), _outputs(second))
    # quantised as quantise quantises (its scales come from the file)
    expected = quantise(load_network(model, load_config(model))).exception_head[0].weight()
    assert torch.equal(second.exception_head[0].weight().dequantize(), expected.dequantize())


def test_new_weights_are_quantised_again(model: Path, tmp_path: Path) -> None:
    counting = Counting()
    _load(model, tmp_path / "int8", counting)
    weights = model / WEIGHTS_FILE
    stat = weights.stat()
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    _load(model, tmp_path / "int8", counting)
    assert counting.calls == 2 and len(list((tmp_path / "int8").glob("*.pt"))) == 2


def test_a_damaged_file_is_quantised_again_and_replaced(model: Path, tmp_path: Path) -> None:
    counting = Counting()
    expected = _outputs(_load(model, tmp_path / "int8", counting))
    (kept,) = (tmp_path / "int8").glob("*.pt")
    kept.write_bytes(b"not a torch file")
    assert torch.equal(_outputs(_load(model, tmp_path / "int8", counting)), expected)
    assert counting.calls == 2
    _load(model, tmp_path / "int8", counting)
    assert counting.calls == 2  # the replacement is read


def test_a_file_of_another_shape_is_not_loaded_into_the_network(model: Path, tmp_path: Path) -> None:
    counting = Counting()
    expected = _outputs(_load(model, tmp_path / "int8", counting))
    (kept,) = (tmp_path / "int8").glob("*.pt")
    state = torch.load(kept, weights_only=True)
    state.pop(next(iter(state)))  # a network whose modules changed since the file was written
    torch.save(state, kept)
    assert torch.equal(_outputs(_load(model, tmp_path / "int8", counting)), expected)
    assert counting.calls == 2


def test_a_cache_that_cannot_be_written_costs_the_quantisation_only(model: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would go")
    counting = Counting()
    network = _load(model, blocked / "int8", counting)
    assert counting.calls == 1 and _outputs(network).shape == (3,)


def test_only_the_newest_files_are_kept(model: Path, tmp_path: Path) -> None:
    folder = tmp_path / "int8"
    folder.mkdir()
    for age in range(int8_store.KEPT + 2):
        old = folder / f"old{age}.pt"
        old.write_bytes(b"")
        os.utime(old, ns=(1_000_000_000 * age, 1_000_000_000 * age))
    _load(model, folder, Counting())
    names = {p.name for p in folder.glob("*.pt")}
    assert len(names) == int8_store.KEPT and "old0.pt" not in names and "old5.pt" in names


def test_load_model_keeps_the_int8_weights_in_oracular_s_cache(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORACULAR_CACHE", str(tmp_path / "cache"))
    first = load_model(model, "cpu")
    assert len(list((tmp_path / "cache" / int8_store.CACHE_DIR).glob("*.pt"))) == 1
    second = load_model(model, "cpu")
    assert torch.equal(_outputs(first.network), _outputs(second.network))


def test_a_model_quantised_per_channel_is_kept_per_channel_and_read_back_as_it_ran(
    model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORACULAR_CACHE", str(tmp_path / "cache"))
    per_tensor = load_model(model, "cpu")
    config = load_config(model)
    config.int8 = "per-channel"
    save_config(model, config)
    first, second = load_model(model, "cpu"), load_model(model, "cpu")
    kept = list((tmp_path / "cache" / int8_store.CACHE_DIR).glob("*.pt"))
    assert len(kept) == 2  # one file per scheme: neither is read for the other
    weight = second.network.exception_head[0].weight()
    assert weight.qscheme() == torch.per_channel_affine
    assert per_tensor.network.exception_head[0].weight().qscheme() == torch.per_tensor_affine
    assert torch.equal(_outputs(first.network), _outputs(second.network))
