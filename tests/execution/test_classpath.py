"""Classpath discovery: setting, Maven, Gradle, fallback, and what is reported missing."""

from __future__ import annotations

import os
import shutil
import stat
import textwrap
import zipfile
from pathlib import Path

import pytest

from oracular.execution import classpath as cp
from oracular.execution.classpath import ClasspathSettings, discover, layout, missing_imports, workspace_jars
from oracular.execution.poms import (
    Dependency,
    candidate_versions,
    find_in_repos,
    read_pom,
    resolve_pom_dependencies,
)
from oracular.java.declarations import Import

POM = """<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId>
  <artifactId>{artifact}</artifactId>
  <version>1.0</version>
  <properties><lib.version>2.1</lib.version></properties>
  <dependencies>{deps}</dependencies>
</project>
"""


def _dep(group: str, artifact: str, version: str | None = None, scope: str | None = None) -> str:
    parts = f"<groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
    if version:
        parts += f"<version>{version}</version>"
    if scope:
        parts += f"<scope>{scope}</scope>"
    return f"<dependency>{parts}</dependency>"


def _artifact(repo: Path, group: str, artifact: str, version: str, deps: str = "", jar: bool = True) -> Path:
    folder = repo / group.replace(".", "/") / artifact / version
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{artifact}-{version}.pom").write_text(
        POM.format(artifact=artifact, deps=deps), encoding="utf-8"
    )
    path = folder / f"{artifact}-{version}.jar"
    if jar:
        path.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip
    return path


def _executable(folder: Path, name: str, script: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(script), encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def test_layout_finds_roots_from_package_declarations(project: Path) -> None:
    found = layout(project, max_age_s=0)
    assert found.main_roots == (project / "src/main/java",)
    assert found.test_roots == (project / "src/test/java",)
    assert found.modules == (project,)
    assert found.output_dirs == ()
    (project / "target/classes").mkdir(parents=True)
    assert layout(project, max_age_s=0).output_dirs == (project / "target/classes",)


def test_a_source_root_holding_data_files_is_a_resource_folder_too(tmp_path: Path) -> None:
    """xom keeps ``nu/xom/characters.dat`` beside its sources (an Ant build), and ``Verifier``'s
    static initialiser reads it from the classpath: without it no xom class could be loaded."""
    for relative, text in {
        "xom/src/nu/xom/Verifier.java": "package nu.xom;\nclass Verifier {}\n",
        "xom/src/nu/xom/characters.dat": "data",
        "xom/src/nu/xom/tests/VerifierTest.java": "package nu.xom.tests;\nclass VerifierTest {}\n",
        "plain/src/main/java/p/A.java": "package p;\nclass A {}\n",
        "plain/src/main/java/p/.hidden": "",
    }.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    assert (tmp_path / "xom/src").resolve() in cp.scan_layout(tmp_path / "xom").resource_dirs
    assert cp.scan_layout(tmp_path / "plain").resource_dirs == ()


def test_pom_dependencies_resolve_transitively_from_a_local_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    lib = _artifact(repo, "org.lib", "lib", "2.1", deps=_dep("org.lib", "core", "3.0"))
    core = _artifact(repo, "org.lib", "core", "3.0")
    # A Debian-style relocation: a POM with no jar whose dependency is the real artifact.
    _artifact(repo, "org.old", "all", "debian", deps=_dep("org.lib", "core", "3.0"), jar=False)
    debian_only = _artifact(repo, "org.deb", "thing", "debian")
    pom = tmp_path / "pom.xml"
    deps = (
        _dep("org.lib", "lib", "${lib.version}")
        + _dep("org.old", "all", "1.3", "test")
        + _dep("org.deb", "thing", "9.9")
        + _dep("org.gone", "missing", "1.0", "test")
        + _dep("${project.groupId}", "sibling", "1.0")
    )
    pom.write_text(POM.format(artifact="sibling", deps=deps), encoding="utf-8")
    properties, declared, own = read_pom(pom)
    assert properties["lib.version"] == "2.1" and own == ("org.acme", "sibling")
    assert Dependency("org.lib", "lib", "${lib.version}") in declared
    resolution = resolve_pom_dependencies([pom], [repo])
    assert resolution.jars == [lib, debian_only, core]
    assert resolution.missing == ["org.gone:missing:1.0 (test)"]  # the sibling module is not "missing"
    assert resolution.substituted == ["org.old:all 1.3 -> debian", "org.deb:thing 9.9 -> debian"]
    found = find_in_repos(Dependency("org.lib", "lib", None), [repo])
    assert found is not None and found.path == lib


RELOCATION = """<project><modelVersion>4.0.0</modelVersion><groupId>org.old</groupId>
<artifactId>moved</artifactId><version>debian</version><distributionManagement><relocation>
<groupId>org.lib</groupId><artifactId>core</artifactId></relocation></distributionManagement></project>"""


def test_a_relocation_resolves_to_where_it_moved_and_a_bare_pom_to_nothing(tmp_path: Path) -> None:
    """Debian relocates ``hamcrest-all`` to ``hamcrest`` by a POM's ``<relocation>``: the jar it
    moved to stands in. A POM with neither a jar, dependencies nor a relocation (icu4j's, left in
    ``~/.m2``) stands in for nothing: the dependency is missing, not "held at another version"."""
    repo = tmp_path / "repo"
    core = _artifact(repo, "org.lib", "core", "debian")
    moved = repo / "org/old/moved/debian/moved-debian.pom"
    moved.parent.mkdir(parents=True)
    moved.write_text(RELOCATION, encoding="utf-8")
    _artifact(repo, "com.icu", "icu", "76.1", jar=False)
    pom = tmp_path / "pom.xml"
    deps = _dep("org.old", "moved", "1.3") + _dep("com.icu", "icu", "3.8")
    pom.write_text(POM.format(artifact="app", deps=deps), encoding="utf-8")
    resolution = resolve_pom_dependencies([pom], [repo])
    assert resolution.jars == [core]
    assert resolution.missing == ["com.icu:icu:3.8 (compile)"]
    assert resolution.substituted == ["org.old:moved 1.3 -> debian"]


def test_a_missing_version_resolves_to_the_nearest_one_of_the_same_major(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for version in ("1.x", "2.2.2", "debian", "1.8", "1.10"):
        _artifact(repo, "org.lib", "lib", version)
    assert candidate_versions("1.9.2", ["1.x", "2.2.2", "debian", "1.8", "1.10"]) == [
        "1.9.2", "1.x", "1.10", "1.8", "debian", "2.2.2",
    ]  # fmt: skip
    assert candidate_versions(None, ["1.x", "debian", "3.0"]) == ["debian", "3.0", "1.x"]
    found = find_in_repos(Dependency("org.lib", "lib", "1.9.2"), [repo])
    assert found is not None and found.version == "1.x"
    (repo / "org/lib/lib/1.x").rename(repo / "org/lib/lib/gone")
    assert find_in_repos(Dependency("org.lib", "lib", "1.9.2"), [repo]).version == "1.10"
    pom = tmp_path / "pom.xml"
    pom.write_text(POM.format(artifact="app", deps=_dep("org.lib", "lib", "1.9.2")), encoding="utf-8")
    assert resolve_pom_dependencies([pom], [repo]).substituted == ["org.lib:lib 1.9.2 -> 1.10"]


def test_the_user_setting_wins_and_missing_entries_are_named(project: Path, tmp_path: Path) -> None:
    jar = tmp_path / "dep.jar"
    jar.write_bytes(b"")
    settings = ClasspathSettings((str(jar), str(tmp_path / "nope.jar")), (str(tmp_path / "out"),))
    found = discover(project, settings)
    assert found.strategy == "setting"
    assert jar in found.entries
    assert any("nope.jar" in m for m in found.missing) and any("out" in m for m in found.missing)
    assert "classpath from setting" in found.describe()


def test_maven_is_asked_offline_and_its_failure_explained(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dep = tmp_path / "m2" / "dep.jar"
    dep.parent.mkdir()
    dep.write_bytes(b"")
    bin_dir = tmp_path / "bin"
    _executable(
        bin_dir,
        "mvn",
        f"""
        for arg in "$@"; do case "$arg" in -Dmdep.outputFile=*) out="${{arg#-Dmdep.outputFile=}}";; esac; done
        [ "$1" = "-o" ] || exit 3
        printf '%s' "{dep}:/nowhere/gone.jar" > "$out"
        """,
    )
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    found = discover(project)
    assert found.strategy == "maven"
    assert dep in found.entries
    assert found.missing == ("/nowhere/gone.jar (named by maven)",)

    _executable(bin_dir, "mvn", 'echo "[ERROR] Cannot access central in offline mode"; exit 1\n')
    (project / "pom.xml").write_text((project / "pom.xml").read_text() + "\n", encoding="utf-8")  # new key
    found = discover(project)
    assert found.strategy == "fallback"
    assert "Maven offline failed: Cannot access central in offline mode" in found.describe()


def test_gradle_test_runtime_classpath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "g"
    (root / "src/test/java/p").mkdir(parents=True)
    (root / "src/test/java/p/ATest.java").write_text("package p; class ATest {}", encoding="utf-8")
    (root / "build.gradle").write_text("apply plugin: 'java'\n", encoding="utf-8")
    lib = tmp_path / "lib.jar"
    lib.write_bytes(b"")
    bin_dir = tmp_path / "bin"
    asked = tmp_path / "asked.txt"
    script = f'[ "$1" = "--offline" ] || exit 3\necho "$@" > {asked}\necho "ORACULAR_CP {lib}"\n'
    _executable(bin_dir, "gradle", script)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    found = discover(root)
    assert (found.strategy, found.entries) == ("gradle", (lib,))
    # no daemon left running after the question, no project cache written into the user's tree
    words = asked.read_text(encoding="utf-8").split()
    assert "--no-daemon" in words
    assert root not in Path(words[words.index("--project-cache-dir") + 1]).parents


def test_the_fallback_brings_debian_test_jars_and_names_unprovided_imports(project: Path) -> None:
    found = discover(project, ClasspathSettings(use_build_tools=False))
    assert found.strategy == "fallback"
    real = {e.resolve() for e in found.entries}
    if (cp.DEBIAN_JAVA / "junit4.jar").exists():
        wanted = ("junit4.jar", "junit-jupiter-api.jar", "hamcrest.jar", "assertj-core.jar")
        assert {(cp.DEBIAN_JAVA / name).resolve() for name in wanted} <= real
    imports = [
        Import("org.junit.jupiter.api.Test", False, False),
        Import("org.example.stack.Stack", False, False),
        Import("java.util.List", False, False),
        Import("org.nowhere.Thing", False, False),
        Import("org.nowhere.Util.helper", True, False),
    ]
    missing = missing_imports(imports, found)
    expected = ["org.nowhere.Thing", "org.nowhere.Util.helper"]
    if not (cp.DEBIAN_JAVA / "junit-jupiter-api.jar").exists():
        expected.insert(0, "org.junit.jupiter.api.Test")
    assert missing == expected


def _jar(path: Path, *classes: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name in classes:
            archive.writestr(name, b"")
    return path


def test_the_fallback_adds_system_jars_for_packages_the_sources_import_and_nothing_provides(
    tmp_path: Path,
) -> None:
    """xom builds with Ant: no POM names its parser, so its tests did not compile for want of
    ``org.apache.xerces`` and ``org.jaxen``, which Debian's ``/usr/share/java`` holds."""
    java_dir = tmp_path / "java"
    xerces = _jar(java_dir / "xercesImpl.jar", "org/apache/xerces/parsers/SAXParser.class")
    _jar(java_dir / "xercesImpl-2.12.2.jar", "org/apache/xerces/parsers/SAXParser.class")
    jaxen = _jar(java_dir / "jaxen.jar", "org/jaxen/XPath.class", "org/jaxen/dom/DOMXPath.class")
    _jar(java_dir / "mail.jar", "javax/mail/Message.class")
    _jar(java_dir / "shadow.jar", "nu/xom/Node.class", "org/junit/Test.class", "javax/xml/parsers/X.class")
    src = tmp_path / "project" / "src" / "nu" / "xom"
    src.mkdir(parents=True)
    (src / "Builder.java").write_text(
        "package nu.xom;\nimport org.apache.xerces.parsers.SAXParser;\nimport org.jaxen.*;\n"
        "import static org.jaxen.dom.DOMXPath.valueOf;\nimport javax.mail.Message;\n"
        "import javax.xml.parsers.X;\nimport java.util.List;\nimport nu.xom.Node;\nimport org.junit.Test;\n"
        "public class Builder {}\n",
        encoding="utf-8",
    )
    (src / "Node.java").write_text("package nu.xom;\npublic class Node {}\n", encoding="utf-8")
    junit = _jar(tmp_path / "junit.jar", "org/junit/Test.class")
    found = cp.system_jars_for_imports([tmp_path / "project" / "src"], [junit], java_dir)
    # the unversioned link; nothing for the JDK's javax.xml, the project's own nu.xom or JUnit
    assert found == [java_dir / "mail.jar", xerces, jaxen]


def test_a_class_of_a_package_split_across_system_jars_comes_from_the_jar_that_holds_it(
    tmp_path: Path,
) -> None:
    """okio imports ``IgnoreJRERequirement``, which ``animal-sniffer-annotations.jar`` holds; the
    package's other jar, ``animal-sniffer.jar`` (a shorter name), does not: its sources did not
    compile."""
    java_dir = tmp_path / "java"
    package = "org/codehaus/mojo/animal_sniffer"
    _jar(java_dir / "animal-sniffer.jar", f"{package}/Clazz.class")
    annotations = _jar(java_dir / "animal-sniffer-annotations.jar", f"{package}/IgnoreJRERequirement.class")
    src = tmp_path / "project" / "src" / "okio"
    src.mkdir(parents=True)
    source = "package okio;\nimport org.codehaus.mojo.animal_sniffer.{};\npublic class Okio {{}}\n"
    (src / "Okio.java").write_text(source.format("IgnoreJRERequirement"), encoding="utf-8")
    roots = [tmp_path / "project" / "src"]
    assert cp.system_jars_for_imports(roots, [], java_dir) == [annotations]
    (src / "Okio.java").write_text(source.format("*"), encoding="utf-8")  # a whole package: its first jar
    assert cp.system_jars_for_imports(roots, [], java_dir) == [java_dir / "animal-sniffer.jar"]


def test_class_folders_provide_packages_named_like_build_folders(tmp_path: Path) -> None:
    classes = tmp_path / "classes"
    (classes / "org/acme/build").mkdir(parents=True)
    (classes / "org/acme/build/Tool.class").write_bytes(b"")
    (classes / "target/x").mkdir(parents=True)  # a build folder at the top is still skipped
    (classes / "target/x/Y.class").write_bytes(b"")
    found = discover(tmp_path, ClasspathSettings((), (str(classes),)))
    imports = [Import("org.acme.build.Tool", False, False), Import("target.x.Y", False, False)]
    assert missing_imports(imports, found) == ["target.x.Y"]


def test_workspace_jars_are_libraries_not_test_data(tmp_path: Path) -> None:
    library = tmp_path / "lib" / "dep.jar"
    library.parent.mkdir()
    with zipfile.ZipFile(library, "w") as jar:
        jar.writestr("p/A.class", b"")
    broken = tmp_path / "lib" / "broken.jar"
    broken.write_bytes(b"not a zip")
    data = tmp_path / "src/test/resources/fixtures/sample.jar"
    data.parent.mkdir(parents=True)
    shutil.copy(library, data)  # a valid jar, but test data
    assert workspace_jars(tmp_path) == [library]


def test_which_system_jar_provides_a_package_is_remembered_on_disk_until_the_jars_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading 2,600 jars cost every fresh process 2.9 s: a second process reads one file."""
    monkeypatch.setattr(cp, "cache_root", lambda: tmp_path / "cache")
    java_dir = tmp_path / "java"
    jaxen = _jar(java_dir / "jaxen.jar", "org/jaxen/XPath.class")
    assert cp._system_packages(java_dir) == {"org.jaxen": (jaxen,)}
    cp._system_index.clear()  # a new process: nothing in memory...

    def unread(jar: Path) -> frozenset[str]:
        raise AssertionError(f"{jar} read again")

    monkeypatch.setattr(cp, "_packages_in_jar", unread)
    assert cp._system_packages(java_dir) == {"org.jaxen": (jaxen,)}  # ...the file answers
    monkeypatch.undo()
    monkeypatch.setattr(cp, "cache_root", lambda: tmp_path / "cache")
    mail = _jar(java_dir / "mail.jar", "javax/mail/Message.class")
    assert cp._system_packages(java_dir) == {"org.jaxen": (jaxen,), "javax.mail": (mail,)}  # a jar more


def _repository_entry(repo: Path, group: str, artifact: str, version: str, jar: Path, deps: str = "") -> Path:
    """A Debian repository's link to ``jar`` and the POM beside it, depending on ``deps``."""
    folder = repo / group.replace(".", "/") / artifact / version
    folder.mkdir(parents=True)
    link = folder / f"{artifact}-{version}.jar"
    link.symlink_to(jar)
    link.with_suffix(".pom").write_text(
        f"<project><groupId>{group}</groupId><artifactId>{artifact}</artifactId><version>{version}</version>"
        f"<dependencies>{deps}</dependencies></project>\n",
        encoding="utf-8",
    )
    return link


def test_a_system_jar_brings_what_it_needs_at_run_time_by_the_pom_debian_keeps_beside_it(
    tmp_path: Path,
) -> None:
    """libloader's ``commons-logging`` import found ``jcl-over-slf4j.jar``, whose classes load
    ``slf4j-api`` when the code runs: its test scope and what the classpath holds are not added."""
    java_dir, repo = tmp_path / "java", tmp_path / "maven-repo"
    bridge = _jar(java_dir / "jcl-over-slf4j.jar", "org/apache/commons/logging/Log.class")
    api = _jar(java_dir / "slf4j-api.jar", "org/slf4j/LoggerFactory.class")
    junit = _jar(java_dir / "junit4.jar", "org/junit/Test.class")
    dependency = (
        "<dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version>{}</dependency>"
    )
    _repository_entry(
        repo, "org.slf4j", "jcl-over-slf4j", "debian", bridge,
        dependency.format("org.slf4j", "slf4j-api", "debian", "")
        + dependency.format("junit", "junit", "4.x", "<scope>test</scope>"),
    )  # fmt: skip
    api_link = _repository_entry(repo, "org.slf4j", "slf4j-api", "debian", api)
    _repository_entry(repo, "junit", "junit", "4.x", junit)
    assert cp.needed_at_run_time([bridge], [], [repo]) == [api_link]
    assert cp.needed_at_run_time([bridge], [api], [repo]) == []  # already there, by another name
