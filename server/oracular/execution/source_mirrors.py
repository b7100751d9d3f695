"""Source roots as javac reads them on the class path: a root holding ``module-info.java`` is
mirrored without it.

Why: Oracular compiles a scratch test class with the project's source roots on javac's source path
and its dependencies on the class path, not the module path (Debian's jars, a build's output, the
JUnit Platform: none of them is laid out as modules). A ``module-info.java`` at a source root turns
that compilation into a module's: the scratch class, in a package of the module, "should be on
source path, or on patch path for module" (openjfx, every test), and a ``requires`` of a module
the JDK no longer has fails the whole class (istack-commons' ``java.activation``). Maven's own
test compilation patches the module; on the class path the declaration only has to be absent.

The mirror is a folder of Oracular's cache with a symbolic link to each entry of the root but the
declaration, made again when the root's entries change; the root itself is never written.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from oracular.execution.toolchain import cache_root

MODULE_DECLARATION = "module-info.java"


def mirror_dir(root: Path) -> Path:
    """The cache folder mirroring ``root``."""
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    return cache_root() / "source-mirrors" / digest


def class_path_root(root: Path) -> Path:
    """``root``, or where it declares a module, its mirror without the declaration (``root`` as it
    is where no mirror can be made: no symbolic links on this file system)."""
    if not (root / MODULE_DECLARATION).is_file():
        return root
    try:
        return _mirror(root)
    except OSError:
        return root


def _mirror(root: Path) -> Path:
    mirror = mirror_dir(root)
    wanted = sorted(p.name for p in root.iterdir() if p.name != MODULE_DECLARATION)
    try:
        if sorted(os.listdir(mirror)) == wanted and all((mirror / n).is_symlink() for n in wanted):
            return mirror
    except OSError:
        pass
    mirror.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{mirror.name}.", dir=mirror.parent))  # one per caller
    for name in wanted:
        (staging / name).symlink_to(root.resolve() / name)
    shutil.rmtree(mirror, ignore_errors=True)
    try:
        staging.rename(mirror)
    except OSError:  # another process made it first: its mirror is as good
        shutil.rmtree(staging, ignore_errors=True)
    return mirror


def class_path_roots(roots: Sequence[Path]) -> tuple[Path, ...]:
    """:func:`class_path_root` of each of ``roots``, in order."""
    return tuple(class_path_root(root) for root in roots)
