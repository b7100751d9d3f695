"""The working directory's mirror: which folders become the mirror's own, what is bound from the
project, and when it is mirrored less deep or not at all."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from oracular.execution.poms import local_parents
from oracular.execution.workdir import mirror_root, plan


def module(root: Path, files_in_target: int = 1) -> Path:
    (root / "src" / "main").mkdir(parents=True)
    (root / "pom.xml").write_text("<project/>", encoding="utf-8")
    (root / "target").mkdir()
    for i in range(files_in_target):
        (root / "target" / f"f{i}").write_text("x", encoding="utf-8")
    os.symlink("src", root / "sources")
    return root


def test_the_module_root_and_its_folders_are_mirrored_their_contents_bound(tmp_path: Path) -> None:
    mirror = plan(module(tmp_path))
    assert mirror is not None
    assert mirror.folders == ("src", "target")
    assert mirror.bound == (
        ("pom.xml", "pom.xml", False),
        ("src/main", "src/main", True),
        ("target/f0", "target/f0", False),
    )
    assert mirror.links == (("sources", "src"),)


def test_too_many_entries_two_levels_down_mirror_one_level(tmp_path: Path) -> None:
    mirror = plan(module(tmp_path, files_in_target=20), max_binds=10)
    assert mirror is not None
    assert mirror.folders == ()
    assert [path for path, _, _ in mirror.bound] == ["pom.xml", "src", "target"]
    assert plan(tmp_path, max_binds=2) is None


def test_a_maven_module_not_built_has_its_resources_where_maven_would_copy_them(tmp_path: Path) -> None:
    """Tests read ``target/test-classes/mocks/x.txt`` by relative path: a Maven module's mirror
    holds ``target/test-classes`` (and ``target/classes``) showing its resources' entries, where
    the build made none."""
    root = module(tmp_path)
    (root / "src" / "test" / "resources" / "mocks").mkdir(parents=True)
    (root / "src" / "test" / "resources" / "a.txt").write_text("a", encoding="utf-8")
    os.symlink("missing", root / "src" / "test" / "resources" / "dangling")  # nothing to bind
    mirror = plan(root)
    assert mirror is not None
    assert mirror.folders == ("src", "target", "target/test-classes")
    assert mirror.bound[-2:] == (
        ("target/test-classes/a.txt", "src/test/resources/a.txt", False),
        ("target/test-classes/mocks", "src/test/resources/mocks", True),
    )
    (root / "target" / "test-classes").mkdir()  # built: its own output is shown
    assert not any(path.startswith("target/test-classes/") for path, _, _ in plan(root).bound)  # type: ignore[union-attr]
    (root / "target" / "test-classes").rmdir()
    (root / "pom.xml").write_text(
        "<project><build><resources><resource><filtering>true</filtering>", encoding="utf-8"
    )
    assert "target/test-classes" not in plan(root).folders  # type: ignore[union-attr]  # copies hold other text
    (root / "pom.xml").unlink()  # not a Maven module: no stand-in
    assert not any(path.startswith("target/test-classes") for path in plan(root).folders)  # type: ignore[union-attr]


def test_resources_a_parent_pom_filters_have_no_stand_in(tmp_path: Path) -> None:
    """A multi-module build may declare resource filtering in its parent POM alone: the module
    inherits it, and an unfiltered stand-in would show ``${project.version}`` as no build does.
    The parent is read where the tree holds it (``<relativePath>``, by default ``../pom.xml``)."""
    root = module(tmp_path / "core")
    (root / "src" / "test" / "resources").mkdir(parents=True)
    (root / "src" / "test" / "resources" / "v.properties").write_text(
        "v=${project.version}", encoding="utf-8"
    )
    child = "<project><parent><artifactId>{}</artifactId>{}</parent><artifactId>core</artifactId></project>"
    (root / "pom.xml").write_text(child.format("parent", ""), encoding="utf-8")
    filtering = "<build><resources><resource><filtering>true</filtering></resource></resources></build>"
    parent = "<project><artifactId>{}</artifactId>{}</project>"
    (tmp_path / "pom.xml").write_text(parent.format("parent", filtering), encoding="utf-8")

    def stood_in() -> bool:
        return "target/test-classes" in plan(root).folders  # type: ignore[union-attr]

    assert local_parents(root / "pom.xml") == [(tmp_path / "pom.xml").resolve()]
    assert not stood_in()
    (tmp_path / "pom.xml").write_text(parent.format("other", filtering), encoding="utf-8")
    assert local_parents(root / "pom.xml") == [] and stood_in()  # not the parent it names
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "pom.xml").write_text(parent.format("parent", filtering), encoding="utf-8")
    relative = "<relativePath>../build</relativePath>"
    (root / "pom.xml").write_text(child.format("parent", relative), encoding="utf-8")
    assert local_parents(root / "pom.xml") == [(tmp_path / "build" / "pom.xml").resolve()]
    assert not stood_in()
    (root / "pom.xml").write_text(child.format("parent", "<relativePath/>"), encoding="utf-8")
    assert local_parents(root / "pom.xml") == [] and stood_in()  # a repository's parent: not read
    # a parent naming itself its own parent is read once
    looped = (
        "<project><parent><artifactId>parent</artifactId></parent><artifactId>parent</artifactId></project>"
    )
    (tmp_path / "pom.xml").write_text(looped, encoding="utf-8")
    (root / "pom.xml").write_text(child.format("parent", ""), encoding="utf-8")
    assert local_parents(root / "pom.xml") == [(tmp_path / "pom.xml").resolve()]


def test_an_unreadable_root_is_not_mirrored(tmp_path: Path) -> None:
    assert plan(tmp_path / "missing") is None


def test_the_mirror_holds_mount_points_and_links_and_the_arguments_bind_them(tmp_path: Path) -> None:
    root = module(tmp_path)
    mirrored = mirror_root(root)
    assert mirrored is not None
    scratch = mirrored.scratch
    try:
        assert mirrored.arguments[:3] == ("--bind", str(scratch), str(root))
        assert mirrored.arguments[3:] == (
            "--ro-bind", str(root / "pom.xml"), str(root / "pom.xml"),
            "--ro-bind", str(root / "src/main"), str(root / "src/main"),
            "--ro-bind", str(root / "target/f0"), str(root / "target/f0"),
        )  # fmt: skip
        assert (scratch / "pom.xml").is_file() and (scratch / "pom.xml").read_text(encoding="utf-8") == ""
        assert (scratch / "src" / "main").is_dir() and os.readlink(scratch / "sources") == "src"
        assert not mirrored.stale()
        (root / "src" / "main" / "deeper").mkdir()  # inside a bound folder: seen as it is
        assert not mirrored.stale()
        (root / "target" / "classes").mkdir()  # a build since: the helper must restart to see it
        assert mirrored.stale()
    finally:
        shutil.rmtree(scratch)
