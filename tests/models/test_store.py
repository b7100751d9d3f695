"""Saving and loading: fp16 weights, config and tokenizer travel together and round-trip.

Why: the shipped folder is all the editor gets. Its calibration and input settings must come
back exactly, and the fp16 weights must give the same ranking as the network that was saved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors import safe_open

from oracular.models import store
from oracular.models.inputs import InputFormatter, InputSettings
from oracular.models.layout import CONFIG_FILE, WEIGHTS_FILE, weights_present
from oracular.models.network import CrossEncoderNetwork, collate

from .conftest import STACK_CANDIDATES, STACK_FOCAL, STACK_STATEMENTS, tiny_network


def test_round_trip(tiny_model_dir: Path, formatter: InputFormatter) -> None:
    network, config, tokenizer = store.load(tiny_model_dir)
    assert config.calibration.temperature == 0.7 and config.calibration.abstain_below == 0.3
    assert config.inputs == InputSettings() and config.stages == ["exception", "ranker"]
    assert config.cross_layers == network.bert.cross_layers == 1
    assert not network.training
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)], formatter.pad_id)
    with torch.no_grad():
        saved_exception, saved_scores = tiny_network(cross_layers=1)(batch)
        exception, scores = network(batch)
    assert torch.allclose(exception, saved_exception, atol=1e-2)
    assert torch.allclose(scores, saved_scores, atol=1e-2)
    assert tokenizer.get_vocab_size() == formatter.tokenizer.get_vocab_size()


def test_weights_are_stored_in_half_precision(tiny_model_dir: Path) -> None:
    with safe_open(str(tiny_model_dir / WEIGHTS_FILE), "pt") as weights:
        names = weights.keys()
        assert {weights.get_tensor(name).dtype for name in names} == {torch.float16}
    assert (tiny_model_dir / "tokenizer.json").is_file() and (tiny_model_dir / "vocab.txt").is_file()
    assert weights_present(tiny_model_dir)
    assert store.size_bytes(tiny_model_dir) > (tiny_model_dir / WEIGHTS_FILE).stat().st_size


def test_an_unknown_format_is_refused(tiny_model_dir: Path, tmp_path: Path) -> None:
    data = json.loads((tiny_model_dir / CONFIG_FILE).read_text())
    (tmp_path / CONFIG_FILE).write_text(json.dumps({**data, "format": 99}))
    with pytest.raises(ValueError, match="format"):
        store.load_config(tmp_path)


def test_the_architecture_travels_with_the_weights(tiny_model_dir: Path, tmp_path: Path) -> None:
    """A cross-encoder comes back as one; a config older than the setting is the shipped design."""
    data = json.loads((tiny_model_dir / CONFIG_FILE).read_text())
    assert data["architecture"] == "cached-context"
    directory = tmp_path / "cross"
    network, config, _ = store.load(tiny_model_dir)
    config.cross_layers, config.architecture = None, "cross-encoder"
    store.save(directory, network, config)
    assert isinstance(store.load(directory)[0], CrossEncoderNetwork)
    del data["architecture"]
    (tmp_path / CONFIG_FILE).write_text(json.dumps(data))
    assert store.load_config(tmp_path).architecture == "cached-context"


def test_the_int8_scheme_travels_with_the_config_and_a_config_without_one_is_per_tensor(
    tiny_model_dir: Path, tmp_path: Path
) -> None:
    data = json.loads((tiny_model_dir / CONFIG_FILE).read_text())
    assert "int8" not in data and store.load_config(tiny_model_dir).int8 == "per-tensor"
    config = store.load_config(tiny_model_dir)
    config.int8 = "per-channel"
    store.save_config(tmp_path, config)
    assert store.load_config(tmp_path).int8 == "per-channel"
    (tmp_path / CONFIG_FILE).write_text(json.dumps({**data, "int8": "per-row"}))
    with pytest.raises(ValueError, match="int8 scheme 'per-row'"):
        store.load_config(tmp_path)
