"""The library index of this machine: the JDK's modules and Debian's jars, by package.

Why here and not in :mod:`oracular.java.library`: where the archives lie is a fact of the machine
(the JDK on ``PATH``, ``/usr/share/java``), found the way the classpath fallback finds them
(:func:`oracular.execution.classpath.system_packages`, kept on disk); the index itself only reads
the archives it is handed. A JDK without ``jmods`` (a JRE) gives no JDK classes: the table of
common JDK types (:mod:`oracular.java.jdk_types`) still answers for those.
"""

from __future__ import annotations

import functools
import shutil
import zipfile
from pathlib import Path

from oracular.execution.classpath import system_packages
from oracular.execution.toolchain import DEBIAN_JAVA
from oracular.java.library import Archive, LibraryIndex

MODULE_CLASSES = "classes/"
"""Where a ``.jmod`` keeps its classes."""


def jdk_modules() -> Path | None:
    """The ``jmods`` folder of the JDK whose ``javac`` is on ``PATH``."""
    javac = shutil.which("javac")
    if javac is None:
        return None
    folder = Path(javac).resolve().parent.parent / "jmods"
    return folder if folder.is_dir() else None


@functools.cache
def _module_packages(folder: Path) -> dict[str, tuple[Archive, ...]]:
    packages: dict[str, list[Archive]] = {}
    for module in sorted(folder.glob("*.jmod")):
        try:
            with zipfile.ZipFile(module) as archive:
                names = archive.namelist()
        except (OSError, zipfile.BadZipFile):
            continue
        held = {n[len(MODULE_CLASSES) :].rsplit("/", 1)[0] for n in names if n.startswith(MODULE_CLASSES)}
        for package in held:
            if package.endswith(".class"):
                continue
            packages.setdefault(package.replace("/", "."), []).append(Archive(module, MODULE_CLASSES))
    return {package: tuple(found) for package, found in packages.items()}


@functools.cache
def system_library(java_dir: Path = DEBIAN_JAVA) -> LibraryIndex:
    """One index per process: the JDK's modules first, then the jars of ``java_dir``. Which
    archive holds which package is learnt at the first lookup (a third of a second), on the
    thread that analyses, never on the one that builds the engine (the editor's event loop)."""

    @functools.cache
    def packages() -> tuple[dict[str, tuple[Archive, ...]], dict[str, tuple[Archive, ...]]]:
        modules = jdk_modules()
        jdk = _module_packages(modules) if modules is not None else {}
        jars = {package: tuple(map(Archive, found)) for package, found in system_packages(java_dir).items()}
        return jdk, jars

    def archives_for(package: str) -> tuple[Archive, ...]:
        jdk, jars = packages()
        return jdk.get(package, ()) + jars.get(package, ())

    return LibraryIndex(archives_for)
