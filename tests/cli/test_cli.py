"""The CLI as users and editors call it: scan, suggest (--json shape, --diff, --write), bad input.

These run ``suggest --no-check`` (static ranking, no JVM); the default, which runs the code, is
tested in ``tests/execution/test_cli_check.py`` and ``tests/candidates/test_compile.py``.
"""

import json
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.java.source import write_if_unchanged

from ..conftest import FIXTURES

STACK_TEST_REL = Path("src/test/java/org/example/stack/StackTest.java")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_scan_lists_oracle_free_tests(capsys, project: Path) -> None:
    code, out, _ = run(capsys, "scan", str(project))
    lines = out.splitlines()
    assert code == 0
    assert f"{project / STACK_TEST_REL}:15 StackTest.testPushPopIsEmpty" in lines
    assert not any("testPeekReturnsLastPushed" in line or "testPopReducesSize" in line for line in lines)
    assert len(lines) == 13


def test_scan_missing_path(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "scan", str(tmp_path / "nope"))
    assert code == 2 and "no such file" in err


def test_suggest_json_shape(capsys, project: Path) -> None:
    code, out, _ = run(capsys, "suggest", str(project / STACK_TEST_REL), "--json", "--top", "3", "--no-check")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"file", "tests", "notes", "mode"}
    assert data["mode"] == "static ranking only (--no-check): values were not observed"
    assert [t["method"] for t in data["tests"]][:2] == ["testPushPopIsEmpty", "testPopOnEmptyStack"]
    for test in data["tests"]:
        assert set(test) - {"confidence"} == {"method", "line", "focal", "exception", "abstained", "observed",
                                              "suggestions"}  # fmt: skip
        assert test["observed"] is False
        assert 0 <= test["confidence"] <= 1  # every test here has an oracle that can fail
        assert isinstance(test["line"], int) and isinstance(test["abstained"], bool)
        assert set(test["exception"]) == {"probability", "type"}
        assert set(test["focal"]) == {"class", "method", "signature", "path"}
        assert 1 <= len(test["suggestions"]) <= 3
        for rank, s in enumerate(test["suggestions"], 1):
            assert set(s) - {"vacuous"} == {"rank", "kind", "oracle", "score", "source", "edits"}
            assert s["rank"] == rank
            assert s["kind"] in ("assertion", "exception")
            for edit in s["edits"]:
                assert set(edit) == {"range", "newText"}
                assert set(edit["range"]) == {"start", "end"}
                assert set(edit["range"]["start"]) == {"line", "character"}
    pop = data["tests"][1]
    assert pop["line"] == 24
    assert pop["focal"]["signature"] == "public T pop()"
    assert pop["suggestions"][0]["kind"] == "exception"
    assert pop["suggestions"][0]["oracle"] == "assertThrows(EmptyStackException.class, () -> s.pop());"
    assert pop["exception"]["type"] == "EmptyStackException"


def test_suggest_line_filter(capsys, project: Path) -> None:
    _, out, _ = run(capsys, "suggest", str(project / STACK_TEST_REL), "--json", "--line", "26", "--no-check")
    assert [t["method"] for t in json.loads(out)["tests"]] == ["testPopOnEmptyStack"]


def test_diff_does_not_write(capsys, project: Path) -> None:
    path = project / STACK_TEST_REL
    before = path.read_bytes()
    code, out, _ = run(capsys, "suggest", str(path), "--diff", "--no-check")
    assert code == 0 and out.startswith("--- a/")
    assert "+        assertTrue(empty);" in out
    assert path.read_bytes() == before


def test_write_applies_top1_and_is_idempotent(capsys, project: Path) -> None:
    path = project / STACK_TEST_REL
    code, out, _ = run(capsys, "suggest", str(path), "--write", "--no-check")
    assert code == 0 and "wrote 6 oracle(s)" in out and "static ranking only (--no-check)" in out
    text = path.read_text()
    assert "assertThrows(EmptyStackException.class, () -> s.pop());" in text
    assert "        assertTrue(empty);\n" in text
    code, out, _ = run(capsys, "suggest", str(path), "--write", "--no-check")
    assert "nothing to write" in out
    _, scan_out, _ = run(capsys, "scan", str(path))
    assert "StackTest" not in scan_out


def test_write_refuses_when_file_changed_underneath(project: Path) -> None:
    path = project / STACK_TEST_REL
    original = path.read_bytes()
    path.write_text(path.read_text() + "\n// edited meanwhile\n")
    assert write_if_unchanged(path, original, "new text") is False
    assert path.read_text().endswith("// edited meanwhile\n")


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty"), (b"\xff\xfe\x00garbage", "not valid UTF-8"), (b"hello world", "no Java declarations")],
)
def test_suggest_bad_input_is_a_clear_error(capsys, tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "BadTest.java"
    path.write_bytes(content)
    code, out, err = run(capsys, "suggest", str(path))
    assert code == 2 and message in err and "Traceback" not in err and out == ""
    assert path.read_bytes() == content


def test_suggest_non_java_file(capsys, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("class A {}")
    code, _, err = run(capsys, "suggest", str(path))
    assert code == 2 and "not a Java file" in err


def test_syntax_errors_still_yield_results(capsys) -> None:
    code, out, _ = run(capsys, "suggest", str(FIXTURES / "SyntaxErrorsTest.java"), "--no-check")
    assert code == 0
    assert "pushNoOracle" in out
    assert "typing: skipped (incomplete or broken code)" in out


def test_python_dash_m_entry_point() -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "oracular", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.startswith("oracular ")
