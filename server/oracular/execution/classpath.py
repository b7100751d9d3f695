"""Classpath discovery: what a workspace's tests need on the classpath to compile and run.

Why several strategies, in this order: the user knows best (the ``oracular.classpath`` setting
plus compiled output folders); then the build tool, when it can answer offline (``mvn -o
dependency:build-classpath``; Gradle's test runtime classpath when ``gradle`` is installed);
then a fallback that works on a bare machine: jars found in the workspace, the ``pom.xml``
dependencies that a local repository already holds (Debian's ``/usr/share/maven-repo`` and
``~/.m2``; read by :mod:`oracular.execution.poms`), and Debian's test jars (JUnit 4/5, Hamcrest,
AssertJ, Mockito). The answer always says which strategy was used, why the ones before it were
not, and what is still missing, so a candidate that "does not compile" for want of a jar is not
blamed on the oracle.

Build-tool answers are cached per build-file fingerprint (running Maven takes seconds).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import threading
import time
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from oracular.cache import write_atomically
from oracular.execution.build_tools import build_fingerprint, gradle_classpath, maven_classpath
from oracular.execution.poms import (
    RUNTIME_SCOPES,
    Resolution,
    packaged_builds,
    pom_resource_dirs,
    repository_poms,
    resolve_pom_dependencies,
    source_encoding,
)
from oracular.execution.source_templates import SUFFIX as TEMPLATE_SUFFIX
from oracular.execution.source_templates import fill_templates, generated_root
from oracular.execution.system_builds import packaged_system_builds
from oracular.execution.toolchain import DEBIAN_JAVA, cache_root
from oracular.java.declarations import Import
from oracular.java.workspace import PRUNED_DIRS, is_test_path, package_root, walk_project

DEBIAN_REPO = Path("/usr/share/maven-repo")
M2_REPO = Path.home() / ".m2" / "repository"
DEBIAN_TEST_JARS = (
    "junit4.jar",
    "hamcrest.jar",
    "hamcrest-core.jar",
    "hamcrest-library.jar",
    "junit-jupiter-api.jar",
    "junit-jupiter-params.jar",
    "opentest4j.jar",
    "apiguardian-api.jar",
    "assertj-core.jar",
    "mockito-core.jar",
    "byte-buddy.jar",
    "byte-buddy-agent.jar",
    "objenesis.jar",
)
"""Test libraries the fallback puts on every classpath (JUnit 4/5, Hamcrest, AssertJ, Mockito)."""
ESSENTIAL_TEST_JARS = ("junit4.jar", "junit-jupiter-api.jar", "opentest4j.jar")
JDK_PACKAGES = (
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "com.sun.",
    "org.w3c.",
    "org.xml.",
    "org.ietf.",
    "org.omg.",
)


@dataclass(frozen=True)
class ClasspathSettings:
    """The ``oracular.classpath`` user setting: entries and compiled output folders."""

    classpath: tuple[str, ...] = ()
    output_dirs: tuple[str, ...] = ()
    use_build_tools: bool = True
    """Set to false to skip Maven/Gradle (tests, or a build that is slow to ask)."""


@dataclass(frozen=True)
class Layout:
    """Where a workspace keeps its sources, resources and build outputs."""

    main_roots: tuple[Path, ...]
    test_roots: tuple[Path, ...]
    resource_dirs: tuple[Path, ...]
    output_dirs: tuple[Path, ...]
    modules: tuple[Path, ...]
    """Directories holding a build file, outermost first."""
    encoding: str | None = None
    """The sources' encoding, where the build declares it (``poms.source_encoding``)."""
    filled: tuple[Path, ...] = ()
    """Sources filled from the build's templates, outside the workspace; their folder is the last
    of :attr:`main_roots` (:mod:`oracular.execution.source_templates`)."""

    @property
    def source_roots(self) -> tuple[Path, ...]:
        return self.main_roots + self.test_roots


@dataclass(frozen=True)
class Classpath:
    root: Path
    strategy: str
    """``setting``, ``maven``, ``gradle`` or ``fallback``."""
    entries: tuple[Path, ...]
    """Jars and class folders of dependencies (and the output folders), compile and run order."""
    layout: Layout
    notes: tuple[str, ...] = ()
    """Why earlier strategies were not used; what the fallback found."""
    missing: tuple[str, ...] = ()
    """Dependencies or entries that could not be found."""
    packaged: tuple[Path, ...] = ()
    """The project's own build as a distribution packaged it, at exactly its version
    (:func:`~oracular.execution.poms.packaged_builds`): taken only where the sources alone do not
    compile (:class:`~oracular.execution.runner.ScratchRunner`)."""

    @property
    def output_dirs(self) -> tuple[Path, ...]:
        return self.layout.output_dirs

    @property
    def dependencies(self) -> tuple[Path, ...]:
        """The entries without the project's own build output (to build from source, not stale output)."""
        own = set(self.layout.output_dirs)
        return tuple(e for e in self.entries if e not in own)

    def describe(self) -> str:
        jars = sum(1 for e in self.entries if e.suffix == ".jar")
        folders = len(self.entries) - jars
        text = f"classpath from {self.strategy}: {jars} jars, {folders} class folders"
        if self.notes:
            text += f" ({'; '.join(self.notes)})"
        if self.layout.filled:  # the build's step done here: say which
            names = sorted(f.name for f in self.layout.filled)
            text += f"; filled from the build's templates: {', '.join(names)}"
        if self.missing:
            text += f"; missing: {', '.join(self.missing[:8])}"
            if len(self.missing) > 8:
                text += f" and {len(self.missing) - 8} more"
        return text

    def to_json(self) -> dict:
        return {
            "strategy": self.strategy,
            "entries": [str(e) for e in self.entries],
            "sourceRoots": [str(r) for r in self.layout.source_roots],
            "outputDirs": [str(d) for d in self.layout.output_dirs],
            "notes": list(self.notes),
            "missing": list(self.missing),
        }


# -- layout ----------------------------------------------------------------------------------


_memo_lock = threading.Lock()
BUILD_FILES = ("pom.xml", "build.gradle", "build.gradle.kts", "build.xml")


LAYOUT_TTL_S = 5.0
_layouts: dict[Path, tuple[float, Layout]] = {}


def layout(root: Path, max_age_s: float = LAYOUT_TTL_S) -> Layout:
    """:func:`scan_layout`, remembered for a few seconds (an editor checks test after test)."""
    root = root.resolve()
    now = time.monotonic()
    with _memo_lock:
        hit = _layouts.get(root)
    if hit is not None and now - hit[0] < max_age_s:
        return hit[1]
    found = scan_layout(root)
    with _memo_lock:
        _layouts[root] = (now, found)
    return found


def scan_layout(root: Path) -> Layout:
    """Source roots from the ``package`` declarations under ``root``; Maven/Gradle output folders."""
    root = root.resolve()
    roots: set[Path] = set()
    modules: list[Path] = []
    resources: list[Path] = []
    data: list[Path] = []  # folders holding files other than Java sources
    templates: list[Path] = []  # sources the build fills from templates (PackageVersion.java.in)
    for directory, _dirs, files in walk_project(root):
        if any(not f.endswith((".java", ".class")) and not f.startswith(".") for f in files):
            data.append(directory)
        if any(f in files for f in BUILD_FILES):
            modules.append(directory)
        if "pom.xml" in files:
            resources += pom_resource_dirs(directory / "pom.xml")
        if directory.name == "resources" and directory.parent.parent.name == "src":
            resources.append(directory)
        if any(part == "resources" for part in directory.relative_to(root).parts):
            continue
        templates += [directory / name for name in files if name.endswith(TEMPLATE_SUFFIX)]
        for name in files:
            if name.endswith(".java") and name != "package-info.java" and name != "module-info.java":
                found = package_root(directory / name)
                if found is not None and found.is_relative_to(root):  # not another workspace's
                    roots.add(found)
    outputs = []
    for module in modules or [root]:
        for relative in ("target/classes", "target/test-classes", "build/classes/java/main",
                         "build/classes/java/test"):  # fmt: skip
            if (module / relative).is_dir():
                outputs.append(module / relative)
    ordered = sorted(roots)
    # Resources kept beside the sources (xom's nu/xom/characters.dat, read by Verifier's static
    # initialiser: without it every class using Verifier failed to load).
    # The folders holding data and their ancestors, as a set: testing each root against each data
    # folder's parents was quadratic, minutes per file on a tree of hundreds of modules.
    holding = {folder for d in data for folder in (d, *d.parents)}
    resources += [r for r in ordered if r != root and r in holding]
    tests = tuple(r for r in ordered if r != root and is_test_path(r.relative_to(root) / "X.java"))
    mains = tuple(r for r in ordered if r not in tests)
    filled = fill_templates(root, templates, mains, modules) if templates else ()
    mains += (generated_root(root),) if filled else ()
    poms = [m / "pom.xml" for m in modules if (m / "pom.xml").is_file()]
    encoding = next((e for pom in poms if (e := source_encoding(pom)) is not None), None)
    resource_dirs = tuple(sorted(set(resources)))
    return Layout(mains, tests, resource_dirs, tuple(outputs), tuple(modules), encoding, filled)


# -- build tools -------------------------------------------------------------------------------


# -- fallback: local repositories, workspace jars, Debian's test jars --------------------------
def workspace_jars(root: Path) -> list[Path]:
    """Jars the workspace ships as libraries: not test data under a resources folder (a broken
    ``.jar`` there, kept on purpose for a test, would stop javac), and only real zip files."""
    return [
        d / f
        for d, _, files in walk_project(root)
        if "resources" not in d.relative_to(root).parts
        for f in sorted(files)
        if f.endswith(".jar") and zipfile.is_zipfile(d / f)
    ]


def debian_test_jars(java_dir: Path = DEBIAN_JAVA) -> tuple[list[Path], list[str]]:
    jars = [java_dir / name for name in DEBIAN_TEST_JARS if (java_dir / name).exists()]
    missing = [name for name in ESSENTIAL_TEST_JARS if not (java_dir / name).exists()]
    return jars, missing


def _dedupe(paths: Iterable[Path]) -> tuple[Path, ...]:
    seen: set[str] = set()
    result = []
    for path in paths:
        key = str(path.resolve()) if path.exists() else str(path)
        if key not in seen:
            seen.add(key)
            result.append(path)
    return tuple(result)


def fallback_classpath(
    root: Path, lay: Layout, java_dir: Path = DEBIAN_JAVA
) -> tuple[list[Path], list[str], list[str], list[Path]]:
    """Entries, what is missing, notes, and the packaged build of this version (kept apart)."""
    poms = [m / "pom.xml" for m in lay.modules if (m / "pom.xml").exists()]
    repos = [r for r in (DEBIAN_REPO, M2_REPO) if r.is_dir()]
    resolution = resolve_pom_dependencies(poms, repos) if poms else Resolution()
    local = workspace_jars(root)
    debian, debian_missing = debian_test_jars(java_dir)
    notes = [f"{len(local)} workspace jars"]
    if poms:
        where = ", ".join(str(r) for r in repos) or "no local repository"
        notes.append(f"{len(resolution.jars)} POM dependencies from {where}")
    if resolution.substituted:
        shown = ", ".join(resolution.substituted[:4]) + (", ..." if len(resolution.substituted) > 4 else "")
        notes.append(f"{len(resolution.substituted)} at the nearest version held locally ({shown})")
    notes.append(f"{len(debian)} Debian test jars")
    system = system_jars_for_imports(lay.source_roots, [*local, *resolution.jars, *debian], java_dir)
    if system:
        notes.append(
            f"{len(system)} jars of {java_dir} for imported packages ({', '.join(j.name for j in system)})"
        )
        needed = needed_at_run_time(system, [*local, *resolution.jars, *debian], repos)
        if needed:
            notes.append(f"{len(needed)} jars they need ({', '.join(j.name for j in needed)})")
        system += needed
    packaged = packaged_builds(poms, repos) or packaged_system_builds(
        lay.main_roots, _build_texts(lay), _system_packages(java_dir)
    )
    if packaged:
        names = ", ".join(j.name for j in packaged)
        notes.append(f"the packaged build of this version where the sources do not compile ({names})")
    missing = [*resolution.missing, *(f"{name} (apt-get install junit4 junit5)" for name in debian_missing)]
    return [*local, *resolution.jars, *debian, *system], missing, notes, packaged


def _build_texts(lay: Layout) -> list[str]:
    """The modules' build files and Gradle properties, as text (where a version is named)."""
    files = [m / name for m in lay.modules for name in (*BUILD_FILES, "gradle.properties")]
    return [f.read_text(encoding="utf-8", errors="replace") for f in files if f.is_file()]


NOT_IN_THE_JDK = ("javax.mail", "javax.activation", "javax.annotation", "javax.inject", "javax.servlet",
                  "javax.xml.bind", "javax.ws", "javax.persistence", "javax.json")  # fmt: skip
"""Packages under :data:`JDK_PACKAGES`' prefixes that JDK 11 and later do not hold."""
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+)", re.M)
MAX_SCANNED_SOURCES = 20_000
"""Sources whose imports are read for :func:`system_jars_for_imports` (a bigger tree: the first)."""


def _imported_names(roots: Iterable[Path]) -> set[str]:
    """What the Java sources under ``roots`` import (classes, or packages for ``.*``)."""
    names: set[str] = set()
    scanned = 0
    for root in roots:
        for path, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in PRUNED_DIRS]
            for name in files:
                if not name.endswith(".java") or scanned >= MAX_SCANNED_SOURCES:
                    continue
                scanned += 1
                try:
                    head = Path(path, name).read_bytes()[:16_384]  # imports come first
                except OSError:
                    continue
                found = (m.group(1).decode("ascii", "replace") for m in _IMPORT.finditer(head))
                names.update(name.rstrip(".") for name in found)
    return names


_system_lock = threading.Lock()
_system_index: dict[tuple[str, int], dict[str, tuple[Path, ...]]] = {}


def _system_packages(java_dir: Path) -> dict[str, tuple[Path, ...]]:
    """Package -> the jars of ``java_dir`` providing it, the shortest file name first (Debian's
    unversioned link, ``jaxen.jar`` before ``jaxen-1.2.0.jar``).

    Every provider is kept because packages are split across jars: ``animal-sniffer.jar`` and
    ``animal-sniffer-annotations.jar`` both hold ``org.codehaus.mojo.animal_sniffer``, and only the
    second its ``IgnoreJRERequirement`` (okio's sources import it). Kept on disk too, keyed by the
    jars' names, sizes and times: with the dev projects' build dependencies installed,
    ``/usr/share/java`` holds 2,600 jars, and reading them all took every fresh ``oracular
    suggest`` (and each evaluation) 2.9 s before its first observation."""
    jars = sorted(java_dir.glob("*.jar"), key=lambda j: (len(j.name), j.name))
    key = (str(java_dir), build_fingerprint(jars))
    with _system_lock:
        if key in _system_index:
            return _system_index[key]
    stored = cache_root() / "classpath" / f"system-jars-{key[1]}.json"
    try:
        data = json.loads(stored.read_text(encoding="utf-8"))
        index = {package: tuple(map(Path, found)) for package, found in data["index"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        providers: dict[str, list[Path]] = {}
        for jar in jars:
            for package in _packages_in_jar(jar):
                providers.setdefault(package, []).append(jar)
        index = {package: tuple(found) for package, found in providers.items()}
        data = {"java_dir": str(java_dir), "index": {p: [str(j) for j in f] for p, f in index.items()}}
        with contextlib.suppress(OSError):  # a cache that cannot be written is only slower
            write_atomically(stored, json.dumps(data))
    with _system_lock:
        _system_index[key] = index
    return index


def _holds_class(jar: Path, entry: str) -> bool:
    try:
        with zipfile.ZipFile(jar) as archive:
            archive.getinfo(entry)
    except (OSError, zipfile.BadZipFile, KeyError):
        return False
    return True


def needed_at_run_time(jars: Sequence[Path], classpath: Sequence[Path], repos: Sequence[Path]) -> list[Path]:
    """What ``jars`` of ``/usr/share/java`` need at run time, by the POMs Debian keeps beside them
    in its repository, less what ``classpath`` (or ``jars``) already holds.

    Why: a jar found for an import loads classes of its own dependencies only when the code runs:
    libloader's ``commons-logging`` import found ``jcl-over-slf4j.jar``, which needs ``slf4j-api``;
    every test failed in its ``setUp`` with ``NoClassDefFoundError: org/slf4j/LoggerFactory``."""
    held = {os.path.realpath(j) for j in (*classpath, *jars)}
    found = resolve_pom_dependencies(repository_poms(jars, repos), repos, scopes=RUNTIME_SCOPES).jars
    needed: dict[str, Path] = {}
    for jar in found:
        needed.setdefault(os.path.realpath(jar), jar)
    return [jar for real, jar in needed.items() if real not in held]


def system_jars_for_imports(
    source_roots: Iterable[Path], classpath: Sequence[Path], java_dir: Path
) -> list[Path]:
    """Jars of ``java_dir`` (Debian's ``/usr/share/java``) for the packages the workspace's
    sources import that neither the workspace nor ``classpath`` provides.

    Why: a project whose build cannot be asked (an Ant build such as xom's or jdom2's, a POM
    naming no version held locally) imports what Debian packages as jars (``org.jaxen``,
    ``org.apache.xerces``); without them its test classes do not compile and no value is
    observed. Only packages nothing else provides are looked up, and the workspace's own
    classes come first on the classpath, so an added jar never replaces the project's code.
    A class of a package several jars hold comes from the jar that holds that class.
    """
    roots = list(source_roots)
    provided = PackageIndex.of_paths(classpath, roots)
    index = _system_packages(java_dir)
    added: dict[Path, None] = {}
    for name in sorted(_imported_names(roots)):
        if provided.provides(Import(name, False, False)):
            continue
        parts = name.split(".")
        # the import's package, or its outer class's (``a.b.C.Inner``), never a shorter one
        prefixes = [parts[:i] for i in range(len(parts), max(1, len(parts) - 3), -1)]
        package = next((p for p in prefixes if ".".join(p) in index), None)
        if package is None:
            continue
        jars = index[".".join(package)]
        if len(package) < len(parts):  # a class of the package: its own jar, where one holds it
            entry = "/".join(parts[: len(package) + 1]) + ".class"
            jars = tuple(j for j in jars if _holds_class(j, entry)) or jars
        added.setdefault(jars[0], None)
    return list(added)


# -- discovery -------------------------------------------------------------------------------
_memo: dict[tuple, Classpath] = {}


def discover(
    root: Path, settings: ClasspathSettings | None = None, java_dir: Path = DEBIAN_JAVA
) -> Classpath:
    """The classpath for the tests under ``root``: setting, else Maven, else Gradle, else fallback."""
    settings = settings or ClasspathSettings()
    root = root.resolve()
    lay = layout(root)
    build_files = [m / f for m in lay.modules for f in BUILD_FILES if (m / f).exists()]
    key = (root, settings, java_dir, build_fingerprint(build_files), lay)
    with _memo_lock:
        if key in _memo:
            return _memo[key]
    notes: list[str] = []
    missing: list[str] = []
    outputs = list(lay.output_dirs)
    if settings.classpath or settings.output_dirs:
        entries = [Path(os.path.expanduser(e)) for e in settings.classpath]
        extra_outputs = [Path(os.path.expanduser(d)) for d in settings.output_dirs]
        missing = [
            f"{e} (in the oracular.classpath setting)" for e in [*entries, *extra_outputs] if not e.exists()
        ]
        lay = dataclasses.replace(lay, output_dirs=_dedupe([*extra_outputs, *outputs]))
        result = Classpath(root, "setting", _dedupe([*lay.output_dirs, *entries]), lay, (), tuple(missing))
    else:
        found: list[Path] | None = None
        packaged: list[Path] = []
        strategy = "fallback"
        if settings.use_build_tools and any(f.name == "pom.xml" for f in build_files):
            found, note = maven_classpath(root)
            notes.append(note)
            strategy = "maven"
        elif settings.use_build_tools and any(f.name.startswith("build.gradle") for f in build_files):
            found, note = gradle_classpath(root)
            notes.append(note)
            strategy = "gradle"
        if found is None:
            strategy = "fallback"
            found, missing, fallback_notes, packaged = fallback_classpath(root, lay, java_dir)
            notes += fallback_notes
        else:
            missing = [f"{e} (named by {strategy})" for e in found if not e.exists()]
            found = [e for e in found if e.exists()]
        entries = _dedupe([*outputs, *found])
        result = Classpath(root, strategy, entries, lay, tuple(notes), tuple(missing), tuple(packaged))
    with _memo_lock:
        _memo[key] = result
    return result


# -- what an import needs -----------------------------------------------------------------------
_packages_lock = threading.Lock()
_jar_packages: dict[tuple[str, int], frozenset[str]] = {}


def _packages_in_jar(jar: Path) -> frozenset[str]:
    try:
        stamp = jar.stat().st_mtime_ns
    except OSError:
        return frozenset()
    key = (str(jar), stamp)
    with _packages_lock:
        if key in _jar_packages:
            return _jar_packages[key]
    try:
        with zipfile.ZipFile(jar) as archive:
            names = archive.namelist()
    except (OSError, zipfile.BadZipFile):
        names = []
    packages = frozenset(
        n.removeprefix("META-INF/versions/").split("/", 1)[-1].rsplit("/", 1)[0].replace("/", ".")
        if n.startswith("META-INF/versions/") else n.rsplit("/", 1)[0].replace("/", ".")
        for n in names
        if n.endswith(".class") and "/" in n
    )  # fmt: skip
    with _packages_lock:
        _jar_packages[key] = packages
    return packages


def _packages_in_dir(directory: Path, suffix: str) -> set[str]:
    """Packages with a ``suffix`` file under a class folder or source root.

    Build folders are skipped at the top only (a source root may be the project itself): deeper
    down, folders are packages, and ``build`` or ``out`` are valid package names.
    """
    packages = set()
    for path, dirs, files in os.walk(directory):
        top = path == str(directory)
        dirs[:] = [d for d in dirs if not d.startswith(".") and not (top and d in PRUNED_DIRS)]
        if any(f.endswith(suffix) for f in files):
            packages.add(".".join(Path(path).relative_to(directory).parts))
    return packages


@dataclass
class PackageIndex:
    """Which packages a classpath (plus source roots) provides, to name an import's missing jar."""

    packages: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, classpath: Classpath, extra: Iterable[Path] = ()) -> PackageIndex:
        return cls.of_paths([*classpath.entries, *extra], classpath.layout.source_roots)

    @classmethod
    def of_paths(cls, entries: Iterable[Path], source_roots: Iterable[Path]) -> PackageIndex:
        index = cls()
        for entry in entries:
            if entry.suffix == ".jar":
                index.packages |= _packages_in_jar(entry)
            elif entry.is_dir():
                index.packages |= _packages_in_dir(entry, ".class")
        for source_root in source_roots:
            index.packages |= _packages_in_dir(source_root, ".java")
        return index

    def provides(self, imported: Import) -> bool:
        name = imported.name
        if name.startswith(JDK_PACKAGES) and not name.startswith(NOT_IN_THE_JDK):
            return True
        parts = name.split(".")
        return any(".".join(parts[:i]) in self.packages for i in range(len(parts), 0, -1))


def missing_imports(imports: Iterable[Import], classpath: Classpath, extra: Iterable[Path] = ()) -> list[str]:
    """Imports of a test file that nothing on the classpath or in the workspace provides."""
    index = PackageIndex.of(classpath, extra)
    return [i.name + (".*" if i.is_wildcard else "") for i in imports if not index.provides(i)]
