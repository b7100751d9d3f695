"""A working directory the tests can write into, inside the sandbox: the module root, mirrored.

Why: tests resolve relative paths against their working directory, the module root, and some
write there as they would under Maven or Ant (tomcat9's base test class makes ``output/tmp``,
others ``target/test-output``). The sandbox binds the whole file system read-only, so such a
test failed ("Unable to create base temporary directory", "Read-only file system") where
``mvn test`` passes, and its prefix was never observed. bwrap 0.8 has no overlay; instead the
working directory is a scratch folder, thrown away with the helper, holding the module root's
folders :data:`DEPTH` levels deep as folders of its own, with everything below them (and every
file) bound read-only from the project. A test can then make files and folders in the module
root and in its folders; what the project holds stays read-only, and nothing a test writes
reaches it. The mirror has the module root's own path, so ``basedir`` and the paths a test
prints are the project's. It shows the first levels as they were when the helper started: the
helper restarts when they change (:meth:`MirroredRoot.stale`). A Maven module not built yet has
its resources where ``process-resources`` would have put them (:data:`MAVEN_RESOURCES`).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from oracular.execution.poms import local_parents

DEPTH = 2
"""Levels of folders made writable: the module root and its folders (``output/``, ``target/``)."""
MAX_BINDS = 512
"""Read-only binds at most; a root with more entries at :data:`DEPTH` is mirrored one level
less deep (each bind is a mount the sandbox makes at start)."""
MAVEN_RESOURCES = (("target/test-classes", "src/test/resources"), ("target/classes", "src/main/resources"))
"""Where Maven's ``process-resources`` copies a module's resources, and from where. Tests read
them there by relative path (java-diff-utils' ``"target/test-classes/mocks/original.txt"``; 36
of the corpus' 338 projects name ``target/test-classes`` or ``target/classes`` in a test), and
the folders exist only after a build: where a Maven module has none and does not filter its
resources, its mirror has them, their entries bound from the resources."""


@dataclass(frozen=True)
class Mirror:
    """What stands in for a module root: paths relative to it."""

    folders: tuple[str, ...]
    """Made as the mirror's own (writable) folders, parents first."""
    bound: tuple[tuple[str, str, bool], ...]
    """Bound read-only: the path in the mirror, the path in the project it shows (the same, but
    for :data:`MAVEN_RESOURCES`) and whether it is a folder."""
    links: tuple[tuple[str, str], ...]
    """Symbolic links, made again with the same target."""


def plan(root: Path, depth: int = DEPTH, max_binds: int = MAX_BINDS) -> Mirror | None:
    """How to mirror ``root``: :data:`DEPTH` levels of folders where the binds stay under
    ``max_binds``, else fewer; ``None`` where ``root`` cannot be read or even its entries are
    too many (the working directory then stays read-only)."""
    for levels in range(depth, 0, -1):
        mirror = _walk(root, levels)
        if mirror is None or len(mirror.bound) <= max_binds:
            return mirror
    return None


def _walk(root: Path, levels: int) -> Mirror | None:
    folders: list[str] = []
    bound: list[tuple[str, str, bool]] = []
    links: list[tuple[str, str]] = []
    pending: list[tuple[str, int]] = [("", 1)]
    while pending:
        relative, level = pending.pop(0)
        try:
            entries = sorted(os.scandir(root / relative), key=lambda e: e.name)
        except OSError:
            return None  # only the root is listed unchecked: a folder is read before it is mirrored
        for entry in entries:
            path = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_symlink():
                links.append((path, os.readlink(entry.path)))
            elif level < levels and entry.is_dir() and os.access(entry.path, os.R_OK | os.X_OK):
                folders.append(path)
                pending.append((path, level + 1))
            else:
                bound.append((path, path, entry.is_dir(follow_symlinks=False)))
    if (root / "pom.xml").is_file() and not _filters_resources(root / "pom.xml"):
        for output, resources in MAVEN_RESOURCES:
            _stand_in(root, output, resources, folders, bound)
    return Mirror(tuple(folders), tuple(bound), tuple(links))


def _filters_resources(pom: Path) -> bool:
    """Whether the build filters resources (``<filtering>true</filtering>``, in the module's POM or
    a parent POM in the tree, which it inherits): its copies then hold ``${project.version}``
    replaced, and an unfiltered stand-in would show values no build makes."""
    for path in (pom, *local_parents(pom)):
        try:
            if "<filtering>true</filtering>" in path.read_text(encoding="utf-8", errors="replace"):
                return True
        except OSError:
            return True
    return False


def _stand_in(
    root: Path, output: str, resources: str, folders: list[str], bound: list[tuple[str, str, bool]]
) -> None:
    """``output`` (``target/test-classes``) as a folder of the mirror showing ``resources``'
    entries, where the module has the resources and no such output, and the mirror can hold it
    (its parent is a folder of the mirror, or absent)."""
    parent = output.rsplit("/", 1)[0]
    held = os.path.lexists(root / parent) and parent not in folders  # bound whole, or a link
    if held or (root / output).exists() or not (root / resources).is_dir():
        return
    try:
        entries = sorted(os.scandir(root / resources), key=lambda e: e.name)
    except OSError:
        return
    folders += [f for f in (parent, output) if f not in folders]
    # a dangling link would be a bind of nothing: the sandbox would not start
    bound += [
        (f"{output}/{e.name}", f"{resources}/{e.name}", e.is_dir()) for e in entries if os.path.exists(e.path)
    ]


@dataclass(frozen=True)
class MirroredRoot:
    """A module root's mirror, made for one helper."""

    root: Path
    scratch: Path
    """The mirror's folder (removed with the helper)."""
    mirror: Mirror
    arguments: tuple[str, ...]
    """The bwrap arguments that put it at :attr:`root`: after the read-only root, before the
    writable folders (which may lie inside it)."""

    def stale(self) -> bool:
        """Whether the module root's first levels changed since the mirror was made: the sandbox
        shows only what was there then, and a build since (a new ``target/classes``, which a
        classpath names) would stay unseen until the helper restarts."""
        return plan(self.root) != self.mirror


def mirror_root(root: Path) -> MirroredRoot | None:
    """``root``'s mirror in a new scratch folder, or ``None`` where it is not mirrored."""
    mirror = plan(root)
    if mirror is None:
        return None
    scratch = Path(tempfile.mkdtemp(prefix="oracular-cwd-"))
    scratch.chmod(root.stat().st_mode & 0o7777)
    for folder in mirror.folders:
        made = root / folder
        (scratch / folder).mkdir(mode=made.stat().st_mode & 0o7777 if made.is_dir() else 0o755)
    for path, _, is_dir in mirror.bound:  # mount points: bwrap binds onto what exists
        if is_dir:
            (scratch / path).mkdir()
        else:
            (scratch / path).touch()
    for path, target in mirror.links:
        os.symlink(target, scratch / path)
    arguments = ["--bind", str(scratch), str(root)]
    for path, shown, _ in mirror.bound:
        arguments += ["--ro-bind", str(root / shown), str(root / path)]
    return MirroredRoot(root, scratch, mirror, tuple(arguments))
