"""Where Oracular keeps what it downloads, mines and compiles: one small module, so that the
language server can find its cache without importing the corpus pipeline (tqdm, metadata)."""

from __future__ import annotations

import contextlib
import os
import tempfile
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


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8, or bytes as they are) to ``path`` in one step: another process or
    thread reading the cache sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
