"""Maven POMs read without Maven: declared dependencies and resource folders, resolved to local jars.

Why without Maven: where ``mvn -o`` cannot answer (not installed, or a dependency it would have to
download), the POMs still say what the tests need, and a local repository (Debian's
``/usr/share/maven-repo``, ``~/.m2``) often holds it with its compile/runtime closure, if not at
the exact version then at a near one (:func:`candidate_versions`). Only ``${...}`` properties are
interpolated (profiles, dependency management and version ranges are not read), so the answer is
a best effort: what stood in at another version and what was not found are reported beside it.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

_PROPERTY = re.compile(r"\$\{([^}]+)\}")


@dataclass(frozen=True)
class Dependency:
    group: str
    artifact: str
    version: str | None
    scope: str = "compile"

    @property
    def coordinate(self) -> str:
        return f"{self.group}:{self.artifact}"


def _xml_children(element: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in element if c.tag.rsplit("}", 1)[-1] == name]


def _xml_text(element: ET.Element, name: str) -> str | None:
    found = _xml_children(element, name)
    return found[0].text.strip() if found and found[0].text else None


def read_pom(path: Path) -> tuple[dict[str, str], list[Dependency], tuple[str, str] | None]:
    """Properties, declared dependencies and own ``groupId:artifactId`` of one POM; a relocation
    (``<distributionManagement><relocation>``) counts as a dependency on where it moved."""
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError):
        return {}, [], None
    project = tree.getroot()
    properties: dict[str, str] = {}
    parent = next(iter(_xml_children(project, "parent")), None)
    group = _xml_text(project, "groupId") or (_xml_text(parent, "groupId") if parent is not None else None)
    version = _xml_text(project, "version") or (_xml_text(parent, "version") if parent is not None else None)
    if version:
        properties["project.version"] = properties["version"] = version
    if group:
        properties["project.groupId"] = properties["groupId"] = group
    if parent is not None and (v := _xml_text(parent, "version")):
        properties["project.parent.version"] = v
    for block in _xml_children(project, "properties"):
        for prop in block:
            properties[prop.tag.rsplit("}", 1)[-1]] = (prop.text or "").strip()
    artifact = _xml_text(project, "artifactId")
    deps = []
    for block in _xml_children(project, "dependencies"):
        for dep in _xml_children(block, "dependency"):
            g, a = _xml_text(dep, "groupId"), _xml_text(dep, "artifactId")
            if not g or not a or _xml_text(dep, "optional") == "true":
                continue
            deps.append(Dependency(g, a, _xml_text(dep, "version"), _xml_text(dep, "scope") or "compile"))
    for management in _xml_children(project, "distributionManagement"):
        for moved in _xml_children(management, "relocation"):  # Debian's hamcrest-all -> hamcrest
            g, a = _xml_text(moved, "groupId") or group, _xml_text(moved, "artifactId") or artifact
            if g and a:
                deps.append(Dependency(g, a, _xml_text(moved, "version") or version))
    own = (group, artifact) if group and artifact else None
    return properties, deps, own


MAX_PARENTS = 8
"""Parent POMs followed at most: a chain longer than any real build's is a cycle."""


def local_parents(path: Path) -> list[Path]:
    """The parent POMs of ``path`` that are in the tree, nearest first: ``<parent>``'s
    ``<relativePath>`` (by default ``../pom.xml``; empty, none), where that POM is the parent the
    child names (its ``artifactId``). A parent only a repository holds is not read.

    Why: what a module inherits (resource filtering, say) may be declared only in the parent POM
    of its multi-module build."""
    chain: list[Path] = []
    while len(chain) < MAX_PARENTS:
        try:
            project = ET.parse(path).getroot()
        except (OSError, ET.ParseError):
            break
        parent = next(iter(_xml_children(project, "parent")), None)
        if parent is None:
            break
        relative = _xml_text(parent, "relativePath")
        if _xml_children(parent, "relativePath") and not relative:
            break  # <relativePath/>: looked up in repositories only
        found = path.parent / (relative or "../pom.xml")
        found = found / "pom.xml" if found.is_dir() else found
        try:
            named = _xml_text(ET.parse(found).getroot(), "artifactId")
        except (OSError, ET.ParseError):
            break
        if named != _xml_text(parent, "artifactId") or found.resolve() in chain:
            break
        chain.append(found.resolve())
        path = found
    return chain


def pom_resource_dirs(path: Path) -> list[Path]:
    """The existing folders a POM declares as (test) resources, beside ``src/*/resources``.

    Why: a project may keep its resources next to its sources (args4j's ``Messages.properties``
    under ``src``, declared ``<resource><directory>src</directory>``); run without them, its
    code throws ``MissingResourceException`` where it means ``CmdLineException``, and an
    observed oracle would expect the wrong exception. Includes and excludes are not read: a
    folder's other files on the classpath are harmless to tests.
    """
    try:
        project = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return []
    found = []
    for build in _xml_children(project, "build"):
        for block, item in (("resources", "resource"), ("testResources", "testResource")):
            for resources in _xml_children(build, block):
                for resource in _xml_children(resources, item):
                    directory = _xml_text(resource, "directory")
                    if directory and "${" not in directory and (path.parent / directory).is_dir():
                        found.append((path.parent / directory).resolve())
    return found


def source_encoding(path: Path) -> str | None:
    """The encoding a POM declares its sources in (``project.build.sourceEncoding``, else the
    compiler plugin's ``<encoding>``), where it resolves in the POM itself; ``None`` otherwise.

    Why: javac reads sources as UTF-8 unless told, and a project kept in ISO-8859-1 (commons
    projects by their parent POM's default) did not compile at all: none of its tests observed.
    """
    try:
        project = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    properties = read_pom(path)[0]
    declared = properties.get("project.build.sourceEncoding")
    if declared is None:
        for build in _xml_children(project, "build"):
            for plugins in _xml_children(build, "plugins"):
                for plugin in _xml_children(plugins, "plugin"):
                    if _xml_text(plugin, "artifactId") != "maven-compiler-plugin":
                        continue
                    for configuration in _xml_children(plugin, "configuration"):
                        declared = declared or _xml_text(configuration, "encoding")
    resolved = _interpolate(declared, properties)
    return resolved if resolved and "${" not in resolved else None


def _interpolate(value: str | None, properties: dict[str, str]) -> str | None:
    if value is None:
        return None
    for _ in range(5):
        new = _PROPERTY.sub(lambda m: properties.get(m.group(1), m.group(0)), value)
        if new == value:
            break
        value = new
    return None if "${" in value else value


def _version_key(version: str) -> tuple:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"[.\-]", version))


def candidate_versions(wanted: str | None, available: Iterable[str]) -> list[str]:
    """The versions to try for a dependency, best first.

    The exact version; then the same major version (Debian's ``1.x`` alias for it, then the
    nearest newer release, then the nearest older one), since a POM's ``1.9.2`` runs on ``1.x``
    but rarely on ``2.2.2``; then Debian's ``debian`` (its packaged version, often the newest
    major); then the newest there.
    """
    versions = sorted(set(available), key=_version_key, reverse=True)
    ordered = [wanted] if wanted else []
    major = wanted.split(".", 1)[0] if wanted else None
    if major is not None and major.isdigit():
        same = [v for v in versions if v.split(".", 1)[0] == major and v not in (wanted, f"{major}.x")]
        newer = sorted((v for v in same if _version_key(v) > _version_key(wanted)), key=_version_key)
        older = [v for v in same if _version_key(v) < _version_key(wanted)]
        ordered += [f"{major}.x", *newer, *older]
    ordered += ["debian", *versions]
    return list(dict.fromkeys(ordered))


@dataclass(frozen=True)
class Located:
    path: Path
    """The jar, or a POM only (Debian's relocations, such as ``hamcrest-all``)."""
    version: str


def find_in_repos(dep: Dependency, repos: Sequence[Path]) -> Located | None:
    """Where a local repository holds ``dep``, at the best version :func:`candidate_versions` finds.

    A version holding only a POM (a relocation) answers with that POM, whose own dependencies
    stand in for the artifact; one with none stands in for nothing (a POM a build left in
    ``~/.m2`` without its jar: icu4j's, which read as "held at 76.1" while no class of it was
    there) and is passed over.
    """
    pom_only = None
    for repo in repos:
        base = repo / dep.group.replace(".", "/") / dep.artifact
        if not base.is_dir():
            continue
        available = [d.name for d in base.iterdir() if d.is_dir()]
        for version in candidate_versions(dep.version, available):
            jar = base / version / f"{dep.artifact}-{version}.jar"
            if jar.exists():
                return Located(jar, version)
            pom = jar.with_suffix(".pom")
            if pom_only is None and pom.exists() and read_pom(pom)[1]:
                pom_only = Located(pom, version)
    return pom_only


@dataclass
class Resolution:
    jars: list[Path] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Dependencies no local repository holds, at any version."""
    substituted: list[str] = field(default_factory=list)
    """``group:artifact 1.9.2 -> 1.x``: held only at another version, which stands in."""


RUNTIME_SCOPES = frozenset({"compile", "runtime"})


def resolve_pom_dependencies(
    poms: Sequence[Path], repos: Sequence[Path], depth: int = 4, scopes: frozenset[str] | None = None
) -> Resolution:
    """Jars for the POMs' dependencies (of ``scopes``; all, test scope included, by default) and
    their compile/runtime closure."""
    own: set[tuple[str, str]] = set()
    queue: list[tuple[Dependency, int]] = []
    for pom in poms:
        properties, deps, coordinate = read_pom(pom)
        if coordinate:
            own.add(coordinate)
        for dep in deps:
            if scopes is not None and dep.scope not in scopes:
                continue
            group = _interpolate(dep.group, properties) or dep.group
            version = _interpolate(dep.version, properties)
            queue.append((Dependency(group, dep.artifact, version, dep.scope), 0))
    result = Resolution()
    seen: set[str] = set()
    while queue:
        dep, level = queue.pop(0)
        if (dep.group, dep.artifact) in own or dep.coordinate in seen or dep.scope in ("system", "import"):
            continue
        seen.add(dep.coordinate)
        found = find_in_repos(dep, repos)
        if found is None:
            result.missing.append(f"{dep.coordinate}{':' + dep.version if dep.version else ''} ({dep.scope})")
            continue
        if dep.version and found.version != dep.version and level == 0:
            result.substituted.append(f"{dep.coordinate} {dep.version} -> {found.version}")
        if found.path.suffix == ".jar":
            result.jars.append(found.path)
        if level >= depth:
            continue
        properties, deps, _ = read_pom(found.path.with_suffix(".pom"))
        for child in deps:
            if child.scope in RUNTIME_SCOPES:
                version = _interpolate(child.version, properties)
                queue.append((Dependency(child.group, child.artifact, version, child.scope), level + 1))
    return result


def repository_poms(jars: Iterable[Path], repos: Sequence[Path]) -> list[Path]:
    """The POMs a local repository keeps beside its links to ``jars``: Debian's ``/usr/share/java``
    jars are linked from ``/usr/share/maven-repo``, their POMs beside the links."""
    wanted = {os.path.realpath(jar) for jar in jars}
    found: dict[str, Path] = {}
    for repo in repos:
        for folder, _, files in os.walk(repo):
            for name in sorted(files):
                path = Path(folder) / name
                target = os.path.realpath(path) if name.endswith(".jar") and path.is_symlink() else None
                if target in wanted and target not in found and path.with_suffix(".pom").is_file():
                    found[target] = path.with_suffix(".pom")
    return list(found.values())


def packaged_builds(poms: Sequence[Path], repos: Sequence[Path]) -> list[Path]:
    """The local repositories' jars of the POMs' own artifacts at exactly their versions: the
    project's build output as a distribution packaged it.

    Why: some sources do not compile from the tree alone: a class a build step generates
    (jackson's ``PackageVersion`` from a template), or code an older JDK accepted (ini4j's
    ``remove(Object, Object)`` clashes with ``Map``'s since Java 8). Only then do the packaged
    classes join the classpath (a distribution may patch them: Debian's jackson-core 2.14.1
    declares exceptions its source does not); javac still compiles any source newer than its
    packaged class (an edited file), and another version is never taken: it would be another
    program.
    """
    found = []
    for pom in poms:
        properties, _, coordinate = read_pom(pom)
        version = properties.get("project.version")
        if coordinate is None or not version or "${" in version:
            continue
        located = find_in_repos(Dependency(*coordinate, version), repos)  # the exact version first
        if located is not None and located.version == version and located.path.suffix == ".jar":
            found.append(located.path)
    return found
