"""Workspace index: every class, field and method declared under the workspace roots.

The engine needs it to find the focal method (the unit under test), its Javadoc and thrown
exceptions, the observers of a receiver's class, a class's constants, and helper methods in test
superclasses. It updates incrementally by file modification time, so re-scanning a large project
after one edit re-parses one file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from oracular.java import index_store
from oracular.java.declarations import ClassInfo, FileDeclarations, Import, extract
from oracular.java.source import SourceError, SourceText, decode_java, new_parser, parse_text

PRUNED_DIRS = frozenset(
    {".git", ".hg", ".svn", "target", "build", "out", "node_modules", ".gradle", ".idea", ".venv"}
)
_TEST_NAME = re.compile(r"(Test|Tests|TestCase|IT|Spec)\.java$|^Test\w*\.java$")
PROJECT_MARKERS = (
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "settings.gradle",
    "settings.gradle.kts",
    "build.xml",
)


def is_test_path(path: Path) -> bool:
    """Test sources by Maven/Gradle layout or by naming convention; the layout wins: a class of
    the main tree is code under test whatever its name (joptsimple's ``OptionSpec``,
    ``ArgumentAcceptingOptionSpec``, read as tests by the ``Spec`` suffix, hid their guards and
    Javadoc from every test of the project)."""
    parts = path.parts[:-1]
    if any(p in ("test", "tests", "androidTest", "testFixtures") for p in parts):
        return True
    return "main" not in parts and bool(_TEST_NAME.search(path.name))


SOURCE_FOLDERS = frozenset({"src", "main", "test", "tests", "java"})
"""Folder names that hold sources rather than name a project (``src/test/java``, Ant's ``test``)."""
_PACKAGE = re.compile(rb"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)


def package_root(path: Path) -> Path | None:
    """The source root a Java file lives under, from its ``package`` declaration; ``None`` where
    its folders do not spell its package (test data, templates)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16384)
    except OSError:
        return None
    match = _PACKAGE.search(head)
    parts = match.group(1).decode("ascii", "replace").split(".") if match else []
    root = path.parent
    for part in reversed(parts):
        if root.name != part:
            return None
        root = root.parent
    return root


def project_root(path: Path) -> Path:
    """The outermost build root above ``path`` (so sibling modules are indexed too).

    Without a build file or a checkout above it (an ad-hoc or Bazel project, a file opened on its
    own), the project is what holds the file's source root: above ``src/test/java`` (so the code
    under test in ``src/main/java`` is found), above an Ant-style ``test`` folder, or above any
    source root kept beside a ``src`` folder (jtharness's ``unit-tests`` and
    ``unit-tests-support``, whose Ant build file lives in ``build/``: the source root alone held
    neither the code under test nor the suite's helpers, and no test compiled); never the file's
    own package folder, below its source root.
    """
    start = path if path.is_dir() else path.parent
    start = start.resolve()
    root = None
    for directory in (start, *start.parents):
        if any((directory / m).exists() for m in PROJECT_MARKERS):
            root = directory
        if (directory / ".git").exists():
            return root or directory
    if root is not None:
        return root
    loose = (package_root(path.resolve()) if path.suffix == ".java" else None) or start
    while loose.name in SOURCE_FOLDERS and loose.parent != loose:
        loose = loose.parent
    return loose.parent if (loose.parent / "src").is_dir() and loose.name != "src" else loose


def has_build_marker(directory: Path) -> bool:
    """Whether ``directory`` is a build root (a build file) or a checkout (``.git``)."""
    return any((directory / m).exists() for m in (*PROJECT_MARKERS, ".git"))


def iter_java_files(roots: Iterable[Path], recursive: bool = True) -> Iterator[Path]:
    for root in roots:
        if root.is_file():
            if root.suffix == ".java":
                yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            kept = sorted(d for d in dirnames if d not in PRUNED_DIRS and not d.startswith("."))
            dirnames[:] = kept if recursive else []
            for name in sorted(filenames):
                if name.endswith(".java"):
                    yield Path(dirpath) / name


def test_sources(paths: Iterable[Path], all_files: bool = False) -> Iterator[Path]:
    """The Java files under ``paths`` that are test sources of their project (see
    :meth:`WorkspaceIndex.is_test_file`), or all of them; a file named in ``paths`` always counts.

    ``oracular scan`` and ``oracular suggest`` find the files they analyse this way.
    """
    paths = list(paths)
    named = set(paths)
    roots = WorkspaceIndex(sorted({project_root(p) for p in paths}))  # its roots only: never refreshed
    for path in iter_java_files(paths):
        if all_files or path in named or roots.is_test_file(path):
            yield path


@dataclass
class _Entry:
    mtime_ns: int
    size: int
    decls: FileDeclarations


@dataclass(frozen=True)
class RefreshStats:
    files: int
    parsed: int
    removed: int
    failed: int


MAX_KEPT = 2_000
"""Parsed files an index keeps for :meth:`WorkspaceIndex.take` at most (commons-io's 184 test
files take 34 MiB): a larger batch parses the rest twice rather than holding every tree."""


class WorkspaceIndex:
    """Declarations of all Java files under some roots, refreshed by modification time."""

    def __init__(
        self,
        roots: Iterable[Path] = (),
        recursive: bool = True,
        keep: Collection[Path] = (),
        stored: bool = False,
    ) -> None:
        self.roots = [Path(r).resolve() for r in roots]
        self.recursive = recursive
        """``False``: only the files directly in each root (a folder that is no project)."""
        self._store = index_store.store_path(self.roots, recursive) if stored and self.roots else None
        """Where the index is kept between processes (:mod:`oracular.java.index_store`), if it is;
        read by the first :meth:`refresh`."""
        self._keep = frozenset(Path(p).resolve() for p in keep)
        self._kept: dict[Path, SourceText] = {}
        """Parsed files of ``keep``, until taken: a batch run analyses the trees the index parsed
        instead of parsing every file a second time."""
        self._files: dict[Path, _Entry] = {}
        self._by_simple: dict[str, list[ClassInfo]] = {}
        self._by_qualified: dict[str, ClassInfo] = {}
        self._copies: dict[str, list[ClassInfo]] = {}
        """The classes of one qualified name declared in several files (a project's Android flavour
        beside its JRE one, two versions' modules side by side): :meth:`resolve` picks the nearest."""
        self._by_path: dict[str, FileDeclarations] = {}
        """Declarations by indexed path as :attr:`ClassInfo.path` spells it (no ``resolve()``)."""
        self._parser = new_parser()
        self.generation = 0
        """Bumped whenever the indexed declarations change: results cached against the index
        (:mod:`oracular.incremental`) are only reused within one generation."""
        self._subtypes: tuple[int, dict[str, list[ClassInfo]]] | None = None
        """Direct subtypes by qualified name, for :attr:`generation` (built when first asked)."""

    def refresh(self) -> RefreshStats:
        """Re-parse files whose modification time or size changed; forget deleted ones."""
        seen: set[Path] = set()
        parsed = failed = 0
        stored = self._store is not None and not self._files and self._read_store()
        for path in iter_java_files(self.roots, self.recursive):
            seen.add(path)
            try:
                stat = path.stat()
            except OSError:
                continue
            entry = self._files.get(path)
            if entry and entry.mtime_ns == stat.st_mtime_ns and entry.size == stat.st_size:
                continue
            try:
                decls = self._parse_file(path)
            except (OSError, SourceError):
                failed += 1
                continue
            self._files[path] = _Entry(stat.st_mtime_ns, stat.st_size, decls)
            parsed += 1
        removed = [p for p in self._files if p not in seen]
        for path in removed:
            del self._files[path]
        if parsed or removed or stored:
            self._rebuild_lookup()
        if self._store is not None and index_store.worth_writing(parsed, len(self._files)):
            index_store.write(self._store, self._files)
        return RefreshStats(len(self._files), parsed, len(removed), failed)

    def _read_store(self) -> bool:
        """Start from the kept index (entries of the wrong shape are no index); whether there was one."""
        assert self._store is not None
        entries = index_store.read(self._store)
        if not entries or not all(isinstance(e, _Entry) for e in entries.values()):
            return False
        self._files = entries
        return True

    def _parse_file(self, path: Path) -> FileDeclarations:
        text = decode_java(path.read_bytes(), lenient=True, name=str(path))
        source = parse_text(text, path, self._parser)
        test = self.is_test_file(path)
        decls = extract(source, str(path), openings=not test)
        # ``path`` lies under a resolved root, so it is compared as it is (resolving every file
        # would cost a system call per path component).
        if path in self._keep and len(self._kept) < MAX_KEPT:
            self._kept[path] = source
        for cls in decls.classes:
            cls.is_test = test
        return decls

    def take(self, path: Path) -> SourceText | None:
        """The tree the last refresh parsed for ``path``, if it was to be kept (once: then it is
        forgotten). Its text is the file's as the index read it, leniently decoded."""
        return self._kept.pop(path.resolve(), None)

    def is_test_file(self, path: Path) -> bool:
        """:func:`is_test_path` below the index root: a checkout under ``~/tests/`` is not all tests."""
        path = path.resolve()
        for root in self.roots:
            if path.is_relative_to(root):
                return is_test_path(path.relative_to(root))
        return is_test_path(path)

    def _rebuild_lookup(self) -> None:
        self.generation += 1
        self._by_simple = {}
        self._by_qualified = {}
        self._copies = {}
        self._by_path = {str(path): entry.decls for path, entry in self._files.items()}
        for entry in self._files.values():
            for cls in entry.decls.classes:
                self._by_simple.setdefault(cls.name, []).append(cls)
                earlier = self._by_qualified.get(cls.qualified_name)
                if earlier is not None:
                    self._copies.setdefault(cls.qualified_name, [earlier]).append(cls)
                self._by_qualified[cls.qualified_name] = cls

    @property
    def classes(self) -> Iterator[ClassInfo]:
        for entry in self._files.values():
            yield from entry.decls.classes

    def declarations(self, path: Path) -> FileDeclarations | None:
        entry = self._files.get(path.resolve())
        return entry.decls if entry else None

    def resolve(
        self,
        type_name: str,
        package: str = "",
        imports: Iterable[Import] = (),
        scope: str = "",
        origin: str = "",
    ) -> ClassInfo | None:
        """Find the class a simple or qualified type name refers to from some file's scope;
        ``scope``: the qualified name of the class whose body names it, whose member classes (and
        its outer classes') come first, as in Java: five args4j test classes each declare their
        own ``private static class TestBean``. ``origin``: the path of the file that names it,
        which decides between classes of one qualified name in several modules (:meth:`nearest`)."""
        found = self._resolve(type_name, package, imports, scope)
        return self.nearest(found, origin) if found is not None and origin else found

    def nearest(self, cls: ClassInfo, origin: str) -> ClassInfo:
        """Of the classes named as ``cls`` is, the one whose file is fewest folders away from
        ``origin``: a test compiles against its own module's sources, so apacheds' ``jdbm1`` tests
        use ``jdbm1``'s ``jdbm.btree.BTree``, not ``jdbm2``'s, and a project's Android flavour
        (``android/guava-tests``) its own copy of every class."""
        copies = self._copies.get(cls.qualified_name)
        if not copies:
            return cls
        here = Path(origin).parent.parts

        def distance(other: ClassInfo) -> int:
            there = Path(other.path).parent.parts
            common = 0
            while common < min(len(here), len(there)) and here[common] == there[common]:
                common += 1
            return len(here) + len(there) - 2 * common

        return min(copies, key=distance)

    def _resolve(
        self, type_name: str, package: str, imports: Iterable[Import], scope: str
    ) -> ClassInfo | None:
        base = type_name.split("<", 1)[0].strip().removesuffix("[]")
        if "." in base and base in self._by_qualified:
            return self._by_qualified[base]
        imports = list(imports)
        head, _, member = base.partition(".")
        if member and head[:1].isupper():  # Logistic.Parametric: a member of the class Logistic names
            outer_class = self.resolve(head, package, imports, scope)
            found = self._by_qualified.get(f"{outer_class.qualified_name}.{member}") if outer_class else None
            if found is not None:
                return found
        simple = base.rsplit(".", 1)[-1]
        outer = scope if "." not in base else ""
        while outer and outer != package:
            found = self._by_qualified.get(f"{outer}.{simple}")
            if found is not None:
                return found
            outer = outer.rpartition(".")[0]
        candidates = self._by_simple.get(simple, [])
        if not candidates:
            return None
        if len(candidates) == 1:
            return candidates[0]
        for imp in imports:
            if not imp.is_static and not imp.is_wildcard and imp.simple == simple:
                found = self._by_qualified.get(imp.name)
                if found:
                    return found
        packages = [package] + [i.name for i in imports if i.is_wildcard and not i.is_static]
        for pkg in packages:
            found = self._by_qualified.get(f"{pkg}.{simple}" if pkg else simple)
            if found:
                return found
        non_test = [c for c in candidates if not c.is_test]
        return (non_test or candidates)[0]

    def superclasses(self, cls: ClassInfo) -> Iterator[ClassInfo]:
        """Workspace superclasses of ``cls``, nearest first (cycle-safe)."""
        seen = {cls.qualified_name}
        current = cls
        while current.superclass:
            decls = self._decls_of(current)
            imports = decls.imports if decls else ()
            parent = self.resolve(current.superclass, current.package, imports, origin=current.path)
            if parent is None or parent.qualified_name in seen:
                return
            seen.add(parent.qualified_name)
            yield parent
            current = parent

    def ancestor_names(self, cls: ClassInfo) -> list[str]:
        """``cls``'s superclasses: the workspace's by simple name, nearest first, then the class
        outside the workspace their chain extends, as written (a JDK exception, mostly)."""
        chain = [cls, *self.superclasses(cls)]
        root = chain[-1].superclass
        return [c.name for c in chain[1:]] + ([root] if root else [])

    def supertypes(self, cls: ClassInfo) -> Iterator[ClassInfo]:
        """Workspace superclasses of ``cls`` (nearest first), then the workspace interfaces it and
        they implement or extend, breadth first (cycle-safe): where the methods a receiver of
        type ``cls`` can call are declared (commons-math3's ``RealMatrix`` inherits
        ``getRowDimension()`` from ``AnyMatrix``)."""
        classes = [cls, *self.superclasses(cls)]
        yield from classes[1:]
        seen = {c.qualified_name for c in classes}
        queue = [(c, name) for c in classes for name in c.interfaces]
        while queue:
            owner, name = queue.pop(0)
            decls = self._decls_of(owner)
            parent = self.resolve(name, owner.package, decls.imports if decls else (), origin=owner.path)
            if parent is None or parent.qualified_name in seen:
                continue
            seen.add(parent.qualified_name)
            yield parent
            queue += [(parent, grand) for grand in parent.interfaces]

    def subtypes(self, cls: ClassInfo) -> Iterator[ClassInfo]:
        """The workspace classes extending or implementing ``cls``, directly or not, nearest
        first (cycle-safe): which bodies a call of an abstract method may run."""
        if self._subtypes is None or self._subtypes[0] != self.generation:
            direct: dict[str, list[ClassInfo]] = {}
            for sub in self.classes:
                decls = self._decls_of(sub)
                for name in filter(None, (sub.superclass, *sub.interfaces)):
                    parent = self.resolve(
                        name, sub.package, decls.imports if decls else (), sub.qualified_name, sub.path
                    )
                    if parent is not None and parent is not sub:
                        direct.setdefault(parent.qualified_name, []).append(sub)
            self._subtypes = (self.generation, direct)
        seen, queue = {cls.qualified_name}, [cls]
        while queue:
            for sub in self._subtypes[1].get(queue.pop(0).qualified_name, []):
                if sub.qualified_name not in seen:
                    seen.add(sub.qualified_name)
                    queue.append(sub)
                    yield sub

    def _decls_of(self, cls: ClassInfo) -> FileDeclarations | None:
        """The declarations of ``cls``'s file. Every type resolution asks, so indexed classes are
        found by their path string: ``Path.resolve()`` costs a system call per path component."""
        if not cls.path:
            return None
        return self._by_path.get(cls.path) or self.declarations(Path(cls.path))

    def imports_of(self, cls: ClassInfo) -> list[Import]:
        decls = self._decls_of(cls)
        return decls.imports if decls else []


def walk_project(root: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    """``os.walk`` of a project, sorted, without build outputs, version control and hidden folders."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in PRUNED_DIRS and not d.startswith("."))
        yield Path(dirpath), dirnames, filenames
