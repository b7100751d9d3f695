"""Where the neural model lives and which files make it up.

Kept free of torch on purpose: the engine asks "are there weights?" on every start-up (the CLI's
``scan`` included), and importing torch for that answer would cost seconds.
"""

from __future__ import annotations

from pathlib import Path

from oracular.candidates.values import models_dir

MODEL_FOLDER = "oracles"
WEIGHTS_FILE = "model.safetensors"
CONFIG_FILE = "config.json"
ARCHITECTURES = ("cached-context", "cross-encoder")
"""How candidates meet their context: the shipped design (the default), and TOGA's plain
cross-encoder it is compared with (:mod:`oracular.models.network` builds each). Named here,
without torch, for the CLI."""
DEFAULT_ARCHITECTURE = ARCHITECTURES[0]


def default_model_dir() -> Path:
    """``<models>/oracles``, where ``<models>`` is ``$ORACULAR_MODELS``, the checkout's or the install's."""
    return models_dir() / MODEL_FOLDER


def weights_present(directory: Path) -> bool:
    return (directory / WEIGHTS_FILE).is_file() and (directory / CONFIG_FILE).is_file()
