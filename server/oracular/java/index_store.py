"""A project's workspace index kept on disk, so that a new process reads it instead of parsing.

Why: every new process indexed its project from scratch: a fresh ``oracular suggest`` of one
file, each worker of a batch, a language server opening its first file. guava-libraries' 3,039
Java files take 9.3 s to parse and 0.4 s to read back (2026-12-02, the 2-core machine). The
index is refreshed by each file's modification time and size as before, so a file changed since
the store was written is parsed again; the store itself is written again only when a refresh
parsed a good share of the project (a first index, a checkout of another branch), never after
the one file an edit or a save touches.

What a store holds is the declarations as :mod:`oracular.java.declarations` extracted them, keyed
by the roots indexed and valid only for the same extractor: the sources of this package and the
installed Java grammar (its library's size and time) are part of its name. It lives in
Oracular's cache folder, written by Oracular alone (``pickle``: a store is trusted as the cache
folder is).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import pickle
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import tree_sitter_java

from oracular.cache import default_cache_dir, write_atomically

STORE_DIR = "index"
KEPT = 16
"""Stores kept (the most recently written): a few projects' worth (guava's is 23 MB)."""
REWRITE_SHARE = 0.1
REWRITE_MIN = 20
"""A refresh that parsed at least this share of the project's files, and this many, writes the
store again: a first index, or many files changed since (the whole store is written each time:
1.1 s for guava's)."""


@cache
def extractor_version() -> str:
    """What the declarations depend on besides the files: this package's code, the grammar."""
    digest = hashlib.sha256(sys.version.encode())
    for binding in sorted(Path(tree_sitter_java.__file__).parent.glob("*.so")):  # the grammar as installed
        stat = binding.stat()
        digest.update(f"{binding.name}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def store_path(roots: list[Path], recursive: bool, cache_dir: Path | None = None) -> Path:
    """Where the index of ``roots`` is kept."""
    key = repr(([str(r) for r in roots], recursive, extractor_version())).encode()
    return (cache_dir or default_cache_dir()) / STORE_DIR / f"{hashlib.sha256(key).hexdigest()[:24]}.pickle"


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """Without the cycle collector, reading a store is 4 to 7 times faster (it holds millions of
    small objects, and each allocation counted towards another collection)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read(path: Path) -> dict[Path, Any] | None:
    """The kept entries by path, or ``None`` when there is no usable store."""
    try:
        data = path.read_bytes()
        with _no_collection():
            entries = pickle.loads(data)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return entries if isinstance(entries, dict) else None


def write(path: Path, entries: dict[Path, Any]) -> None:
    """Keep ``entries`` at ``path`` (atomically), and only the :data:`KEPT` newest stores; a
    cache that cannot be written costs the next process a parse, nothing else."""
    try:
        write_atomically(path, pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL))
        stores = sorted(path.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for stale in stores[KEPT:]:
            stale.unlink(missing_ok=True)
    except OSError:
        pass


def worth_writing(parsed: int, files: int) -> bool:
    return parsed >= REWRITE_MIN and parsed >= REWRITE_SHARE * files
