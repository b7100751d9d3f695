"""The project's own build among Debian's jars, for a project no POM names: found by its classes,
taken at the version its build file names.

Why: where the sources alone do not compile (a class a build step generates, georegression's
32-bit geometry written from the 64-bit one; a dependency Debian lacks in a class the tests reach,
jython's ``com.carrotsearch.sizeof``), the project's build as the distribution packaged it stands
in (:func:`oracular.execution.poms.packaged_builds`). That one is found by the POM's own
coordinates; a Gradle or Ant project has none, so its packaged build is the jar of
``/usr/share/java`` that holds its main classes, ``name-VERSION.jar``, whose ``VERSION`` its build
files name: another version would be another program, never taken.
"""

from __future__ import annotations

import os
import re
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

SAMPLED_CLASSES = 12
"""Main sources looked at per source root: enough to tell the project's jar from one that shares a
package with it."""
_VERSIONED = re.compile(r"^(?P<name>.+?)-(?P<version>\d[\w.+~]*)\.jar$")


def main_classes(root: Path, limit: int = SAMPLED_CLASSES) -> list[str]:
    """Up to ``limit`` class entries (``org/acme/Box.class``) of a main root's top-level files."""
    found: list[str] = []
    for folder, _, files in os.walk(root):
        relative = Path(folder).relative_to(root)
        for name in sorted(files):
            if name.endswith(".java") and name not in ("package-info.java", "module-info.java"):
                found.append((relative / name).with_suffix(".class").as_posix())
                if len(found) >= limit:
                    return found
    return found


def _entries(jar: Path) -> frozenset[str]:
    try:
        with zipfile.ZipFile(jar) as archive:
            return frozenset(archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return frozenset()


def named_version(version: str, build_texts: Sequence[str]) -> bool:
    """Whether a build file names ``version`` as a whole (``0.24``, not in ``0.245`` or ``10.24``)."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(version)}(?![\w.])")
    return any(pattern.search(text) for text in build_texts)


def packaged_system_builds(
    main_roots: Sequence[Path], build_texts: Sequence[str], index: Mapping[str, tuple[Path, ...]]
) -> list[Path]:
    """The versioned jars of ``index`` (package -> the jars holding it) that hold half or more of
    the sampled classes of a main root, at a version ``build_texts`` name (a project's other roots
    may be demos and fixtures no jar holds)."""
    sampled = [c for c in (main_classes(root) for root in main_roots) if c]
    packages = {c.rpartition("/")[0].replace("/", ".") for classes in sampled for c in classes}
    candidates = {jar for package in packages for jar in index.get(package, ())}
    found: dict[Path, Path] = {}  # the file -> its versioned name (Debian links one to the other)
    for jar in sorted(candidates):
        match = _VERSIONED.match(jar.name)
        if match is None or not named_version(match["version"], build_texts):
            continue
        entries = _entries(jar)
        if any(2 * sum(c in entries for c in classes) >= len(classes) for classes in sampled):
            found.setdefault(jar.resolve(), jar)
    return list(found.values())
