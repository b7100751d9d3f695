"""``oracular suggest PATH...`` over folders and many files (static ranking: no JVM needed).

The baseline ranker ranks (``tests/conftest.py``); one process unless a test says otherwise.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from oracular.cli.main import main

from ..conftest import EXAMPLE

TESTS = Path("src") / "test" / "java" / "org" / "example" / "stack"


def suggest(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["suggest", *args])
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(out: str) -> dict[str, dict]:
    documents = [json.loads(line) for line in out.splitlines()]
    return {d["file"]: d for d in documents}


def test_a_folder_gives_one_json_document_per_test_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = suggest(capsys, str(EXAMPLE), "--json", "--no-check")
    assert code == 0, err
    documents = json_lines(out)
    expected = sorted(str(p) for p in (EXAMPLE / TESTS).glob("*Test.java"))
    assert sorted(documents) == expected  # the main sources are not test sources
    assert "3 file(s): 13 test(s) without an oracle" in err  # the summary goes to stderr with --json
    # Each line is the document `suggest FILE --json` prints for that file.
    for path in expected:
        code, single, _ = suggest(capsys, path, "--json", "--no-check")
        assert code == 0
        assert json.loads(single) == documents[path]


def test_write_applies_the_top_oracles_file_by_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch, alone = tmp_path / "batch", tmp_path / "alone"
    for copy in (batch, alone):
        shutil.copytree(EXAMPLE, copy)
    code, out, err = suggest(capsys, str(batch), "--write", "--no-check")
    assert code == 0, err
    summary = out.splitlines()
    written = sum(
        int(part.split()[0]) for line in summary for part in line.split(", ") if "oracle(s) written" in part
    )
    assert written > 0
    # The same as writing each file on its own.
    for path in sorted((alone / TESTS).glob("*Test.java")):
        assert suggest(capsys, str(path), "--write", "--no-check")[0] == 0
        assert (batch / TESTS / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    # No temporary file is left behind.
    assert not list((batch / TESTS).glob(".*.oracular"))


def test_bad_files_are_reported_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "stack"
    shutil.copytree(EXAMPLE, project)
    (project / TESTS / "EmptyTest.java").write_text("", encoding="utf-8")
    (project / TESTS / "Latin1Test.java").write_bytes(b'class Latin1Test { String s = "\xe9"; }\n')
    code, out, err = suggest(capsys, str(project), "--json", "--no-check")
    assert code == 1
    assert "EmptyTest.java: file is empty" in err
    assert "Latin1Test.java: not valid UTF-8" in err
    assert "2 file(s) skipped" in err
    assert len(json_lines(out)) == 3  # the good files all answered


def test_two_processes_answer_as_one(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = suggest(capsys, str(EXAMPLE), "--json", "--no-check")
    code, two, err = suggest(capsys, str(EXAMPLE), "--json", "--no-check", "--jobs", "2")
    assert code == 0, err
    assert sorted(two.splitlines()) == sorted(one.splitlines())


def test_several_files_are_listed_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (EXAMPLE / TESTS).glob("*Test.java"))
    code, out, _ = suggest(capsys, *files, "--no-check", "--top", "1")
    assert code == 0
    for path in files:
        assert f"{path}:" in out
    assert "static ranking only (--no-check)" in out


@pytest.mark.parametrize("option", [["--line", "3"], ["--check"]])
def test_line_and_check_take_one_file(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = suggest(capsys, str(EXAMPLE), *option)
    assert code == 2
    assert "take one file" in err


def test_a_folder_without_test_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "Main.java").write_text("class Main {}\n", encoding="utf-8")
    (tmp_path / "pom.xml").write_text("<project/>\n", encoding="utf-8")
    code, _, err = suggest(capsys, str(tmp_path))
    assert code == 2
    assert "no test sources" in err


def test_ray_asked_for_but_not_installed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails
    code, _, err = suggest(capsys, str(EXAMPLE), "--no-check", "--ray", "auto")
    assert code == 2
    assert "pip install 'oracular[ray]'" in err
