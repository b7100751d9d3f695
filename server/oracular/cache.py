"""Where Oracular keeps what it downloads, mines and compiles: one small module, so that the
language server can find its cache without importing the corpus pipeline (tqdm, metadata)."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """``$ORACULAR_CACHE``, else ``$XDG_CACHE_HOME/oracular``, else ``~/.cache/oracular``."""
    explicit = os.environ.get("ORACULAR_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "oracular"


DATASETS_DIR = "datasets"
"""The mined datasets' folder in the cache (``oracular corpus mine``)."""
REALISTIC_DIR = "realistic"
"""The realistic datasets' folder in the cache (``oracular corpus realistic``)."""
