"""The runner's content fingerprints and its bounded results cache."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from oracular.execution.jvm import JvmWorker
from oracular.execution.runner import CompileContext, ScratchOutcome, ScratchRunner, prune, tree_fingerprint
from oracular.execution.scratch import ScratchClass


def test_fingerprints_change_with_sources_and_ignore_other_files(tmp_path: Path) -> None:
    source = tmp_path / "src" / "A.java"
    source.parent.mkdir()
    source.write_text("class A {}", encoding="utf-8")
    before = tree_fingerprint([tmp_path / "src"])
    (tmp_path / "src" / "notes.txt").write_text("ignored", encoding="utf-8")
    assert tree_fingerprint([tmp_path / "src"]) == before
    source.write_text("class A { int x; }", encoding="utf-8")
    assert tree_fingerprint([tmp_path / "src"]) != before


def test_the_results_cache_keeps_the_newest_half_past_its_limit(tmp_path: Path) -> None:
    for i in range(12):
        path = tmp_path / f"{i}.json"
        path.write_text("{}", encoding="utf-8")
        os.utime(path, ns=(i * 10**9, i * 10**9))
    assert prune(tmp_path, 20) == 0
    assert prune(tmp_path, 10) == 7
    assert sorted(int(p.stem) for p in tmp_path.iterdir()) == [7, 8, 9, 10, 11]


def test_a_remembered_result_is_for_the_same_working_directory_and_jvm_options(tmp_path: Path) -> None:
    """A test may read ``basedir`` or resolve paths against its working directory."""
    toolchain = SimpleNamespace(helper=tmp_path / "helper")
    scratch = ScratchClass("class FooTest {}", Path("FooTest.java"), ("FooTest",))
    context = CompileContext(classpath=(tmp_path / "a.jar",))

    def key(**worker: object) -> str:
        runner = ScratchRunner(JvmWorker(toolchain, **worker), tmp_path)  # type: ignore[arg-type]
        return runner.cache_key(scratch, context, 5.0, {})

    here = key(cwd=tmp_path)
    assert key(cwd=tmp_path) == here
    assert key(cwd=tmp_path / "module") != here  # another basedir
    assert key(cwd=tmp_path, jvm_options=("-Dfoo=1",)) != here


def test_each_compilation_has_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two compilations of the same content at once (the editor beside a batch run, two evaluation
    cells) shared one folder: the first to finish deleted the sources the other's javac read."""
    toolchain = SimpleNamespace(helper=tmp_path / "helper")
    runner = ScratchRunner(JvmWorker(toolchain), tmp_path)  # type: ignore[arg-type]
    scratch = ScratchClass("class FooTest {}", Path("FooTest.java"), ("FooTest",))
    folders: list[Path] = []

    def compile_(
        build: object, context: object, out_dir: Path, *rest: object
    ) -> tuple[ScratchClass, ScratchOutcome]:
        folders.append(out_dir)
        return scratch, ScratchOutcome()

    monkeypatch.setattr(runner, "compile", compile_)
    for _ in range(2):
        runner._compile_and_run(
            lambda _: scratch, scratch, CompileContext(classpath=()), "same-key", 5.0, {}, None, None
        )
    assert len(set(folders)) == 2 and all(f.parent.parent == tmp_path / "scratch" for f in folders)
    assert not list((tmp_path / "scratch").iterdir())  # each removed after use
