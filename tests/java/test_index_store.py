"""The workspace index kept on disk: a new process reads it instead of parsing, sees what changed
since, rewrites it only after a large change, and survives a damaged or foreign store."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oracular.java import index_store
from oracular.java.workspace import WorkspaceIndex

FILES = 30


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ORACULAR_CACHE", str(tmp_path / "cache"))
    src = tmp_path / "project" / "src" / "main" / "java" / "p"
    src.mkdir(parents=True)
    for i in range(FILES):
        (src / f"C{i}.java").write_text(
            f"package p;\npublic class C{i} {{ public int n() {{ return {i}; }} }}\n"
        )
    (tmp_path / "project" / "pom.xml").write_text("<project/>\n")
    return tmp_path / "project"


def _store(project: Path) -> Path:
    return index_store.store_path([project.resolve()], True)


def _touch(path: Path, text: str) -> None:
    path.write_text(text)
    later = path.stat().st_mtime_ns + 10**9
    os.utime(path, ns=(later, later))


def test_a_new_index_reads_the_kept_one_and_parses_only_what_changed(project: Path) -> None:
    first = WorkspaceIndex([project], stored=True)
    assert first.refresh().parsed == FILES and _store(project).is_file()
    written = _store(project).stat().st_mtime_ns

    again = WorkspaceIndex([project], stored=True)
    stats = again.refresh()
    assert (stats.files, stats.parsed) == (FILES, 0)
    assert again.resolve("p.C7") is not None and again.resolve("p.C7").methods_named("n")  # type: ignore[union-attr]

    c3 = project / "src/main/java/p/C3.java"
    _touch(c3, "package p;\npublic class C3 { public int n() { return 3; } public int m() { return 4; } }\n")
    (project / "src/main/java/p/C4.java").unlink()
    changed = WorkspaceIndex([project], stored=True)
    stats = changed.refresh()
    assert (stats.files, stats.parsed, stats.removed) == (FILES - 1, 1, 1)
    assert [m.name for m in changed.resolve("p.C3").methods] == ["n", "m"]  # type: ignore[union-attr]
    assert changed.resolve("p.C4") is None
    assert _store(project).stat().st_mtime_ns == written  # one file parsed: not worth a rewrite

    for i in range(10, FILES):  # most of the project changes (another branch): the store is rewritten
        _touch(project / f"src/main/java/p/C{i}.java", f"package p;\npublic class C{i} {{ }}\n")
    assert WorkspaceIndex([project], stored=True).refresh().parsed == FILES - 10 + 1  # and C3
    assert _store(project).stat().st_mtime_ns != written
    assert WorkspaceIndex([project], stored=True).refresh().parsed == 0


def test_a_damaged_or_foreign_store_is_no_index(project: Path) -> None:
    path = _store(project)
    path.parent.mkdir(parents=True)
    for content in (b"not a pickle", b"\x80\x05K\x01.", b""):  # garbage, an int, nothing
        path.write_bytes(content)
        assert WorkspaceIndex([project], stored=True).refresh().parsed == FILES
        path.unlink()


def test_the_store_is_named_by_the_roots_and_the_extractor(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    WorkspaceIndex([project]).refresh()  # not stored unless asked
    assert not _store(project).exists()
    assert index_store.store_path([project], True) != index_store.store_path([project], False)
    before = _store(project)
    monkeypatch.setattr(index_store, "extractor_version", lambda: "another extractor")
    assert _store(project) != before
