"""The classes of the libraries and JDK modules a workspace's code is compiled against, read from
their archives on demand: what a test can ask an object of a type its sources do not declare.

Why: target enumeration (:mod:`oracular.java.targets`) offers a receiver's observers from the
workspace's declarations and a table of the JDK's common types; a library's object (an HTTP
response, a StAX reader, a UUID) had none, so a test asserting ``response.getStatusCode()`` could
never be answered. Measured over 836 first assertions of 80 train projects, 39 (4.7%) assert on a
zero-argument call of such a receiver. An archive is found by package (the caller says which
archives hold which package), a class read from it when first asked (:mod:`oracular.java.class_files`)
and kept; nothing is executed.
"""

from __future__ import annotations

import threading
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from oracular.java.class_files import ClassFileError, read_class
from oracular.java.declarations import ClassInfo, Import

OBJECT = "java.lang.Object"


@dataclass(frozen=True)
class Archive:
    """A jar, or a JDK module (``java.base.jmod``, whose classes lie under ``classes/``)."""

    path: Path
    prefix: str = ""


class LibraryIndex:
    """Library classes by qualified name, read from ``archives_for(package)`` when first asked."""

    def __init__(self, archives_for: Callable[[str], Sequence[Archive]]) -> None:
        self._archives_for = archives_for
        self._classes: dict[str, ClassInfo | None] = {}
        self._open: dict[Path, zipfile.ZipFile | None] = {}
        self._held: set[int] = set()
        self._lock = threading.Lock()

    def holds(self, cls: ClassInfo) -> bool:
        """Whether ``cls`` is one of this index's (not the workspace's)."""
        return id(cls) in self._held

    def find(self, name: str) -> ClassInfo | None:
        """The class of a qualified name (``a.b.C``, a member ``a.b.C.D`` or ``a.b.C$D``)."""
        with self._lock:
            if name not in self._classes:
                found = self._read(name)
                self._classes[name] = found
                if found is not None:
                    self._held.add(id(found))
            return self._classes[name]

    def resolve(self, type_text: str, imports: Iterable[Import], package: str = "") -> ClassInfo | None:
        """The class a type name of a file names: qualified, else by its explicit imports, its
        wildcard imports, ``java.lang``, then its own package."""
        base = type_text.split("<", 1)[0].strip()
        if not base or base.endswith("]") or not base[:1].isalpha():
            return None
        head, _, rest = base.partition(".")
        if head[:1].islower():  # a qualified name (packages are lower case)
            return self.find(base)
        imports = [i for i in imports if not i.is_static]
        explicit = next((i.name for i in imports if not i.is_wildcard and i.simple == head), None)
        if explicit is not None:
            return self.find(f"{explicit}.{rest}" if rest else explicit)
        wildcards = [i.name.removesuffix(".*") for i in imports if i.is_wildcard]
        for owner in [*wildcards, "java.lang", *([package] if package else [])]:
            found = self.find(f"{owner}.{base}")
            if found is not None:
                return found
        return None

    def supertypes(self, cls: ClassInfo) -> Iterator[ClassInfo]:
        """Its superclasses and interfaces, breadth first, but ``Object``: an identity hash code
        and ``Object.toString()`` say nothing of the state a test built."""
        seen = {cls.qualified_name}
        queue = [n for n in (cls.superclass, *cls.interfaces) if n]
        while queue:
            name = queue.pop(0)
            parent = self.find(name) if name != OBJECT else None
            if parent is None or parent.qualified_name in seen:
                continue
            seen.add(parent.qualified_name)
            yield parent
            queue += [n for n in (parent.superclass, *parent.interfaces) if n]

    def _read(self, name: str) -> ClassInfo | None:
        parts = name.replace("$", ".").split(".")
        # the package is the lower-case head; the rest a class and its member classes
        split = next((i for i, p in enumerate(parts) if p[:1].isupper()), len(parts))
        if split == 0 or split == len(parts):
            return None
        package = ".".join(parts[:split])
        entry = "/".join(parts[:split]) + "/" + "$".join(parts[split:]) + ".class"
        for archive in self._archives_for(package):
            data = self._entry(archive, entry)
            if data is None:
                continue
            try:
                return read_class(data)
            except ClassFileError:
                return None
        return None

    def _entry(self, archive: Archive, entry: str) -> bytes | None:
        if archive.path not in self._open:
            try:
                self._open[archive.path] = zipfile.ZipFile(archive.path)
            except (OSError, zipfile.BadZipFile):
                self._open[archive.path] = None
        opened = self._open[archive.path]
        if opened is None:
            return None
        try:
            return opened.read(archive.prefix + entry)
        except (KeyError, OSError, zipfile.BadZipFile):
            return None
