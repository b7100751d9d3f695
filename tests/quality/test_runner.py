"""The runner and settings (one switch per check) and ``oracular scan --all`` / ``--json``."""

import json
import shutil
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.engine import OracleEngine
from oracular.quality import CHECKS, QualitySettings, check_file

from ..conftest import java
from .conftest import QUALITY_FIXTURES

WEAK_TEST = """
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import com.example.Parser;

public class ParserTest {
    @Test
    public void parses() {
        Parser p = new Parser();
        p.parse("a b");
        try {
            p.parse("");
        } catch (IllegalArgumentException e) {
        }
        assertEquals(new Parser().parse("a"), 1);
    }

    @Test
    public void noOracle() {
        new Parser().parse("a");
    }
}
"""


def test_checks_below_80_percent_precision_start_off() -> None:
    assert QualitySettings().codes == [
        "swallowed-exception", "swapped-arguments", "brittle-assertion", "untested-precondition",
    ]  # fmt: skip


def test_every_check_has_a_switch_named_after_its_code() -> None:
    assert list(CHECKS) == [
        "discarded-result", "unused-input", "swallowed-exception", "swapped-arguments",
        "brittle-assertion", "untested-precondition",
    ]  # fmt: skip
    settings = QualitySettings()
    for code in CHECKS:
        assert settings.with_codes({code: False}).enabled(code) is False
        assert QualitySettings.only([code]).codes == [code]
    with pytest.raises(ValueError, match="unknown quality check"):
        settings.with_codes({"no-such-check": True})


def test_findings_come_in_document_order_and_respect_the_switches(qengine: OracleEngine) -> None:
    source = java(WEAK_TEST)
    analysis = qengine.analyse(source)
    everything = check_file(qengine, analysis, QualitySettings.only(CHECKS))
    assert [f.code for f in everything] == [
        "untested-precondition", "discarded-result", "swallowed-exception", "swapped-arguments",
    ]  # fmt: skip
    assert [f.start for f in everything] == sorted(f.start for f in everything)
    quiet = QualitySettings.only(CHECKS).with_codes(
        {"swallowed-exception": False, "untested-precondition": False}
    )
    assert [f.code for f in check_file(qengine, analysis, quiet)] == ["discarded-result", "swapped-arguments"]
    assert check_file(qengine, analysis, QualitySettings.only([])) == []
    assert all(
        not f.fixes or f.code == "swapped-arguments" for f in check_file(qengine, analysis, fixes=False)
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The quality fixtures as a project with one weak test file."""
    root = tmp_path / "project"
    shutil.copytree(QUALITY_FIXTURES, root / "src" / "main" / "java")
    test = root / "src" / "test" / "java" / "com" / "example" / "ParserTest.java"
    test.parent.mkdir(parents=True)
    test.write_text("package com.example;\n" + WEAK_TEST.lstrip(), encoding="utf-8")
    (root / "pom.xml").write_text("<project/>", encoding="utf-8")
    return root


def test_scan_all_prints_findings_after_oracle_free_tests(capsys, project: Path) -> None:
    code = main(["scan", str(project), "--all", "--checks", ",".join(CHECKS)])
    lines = capsys.readouterr().out.splitlines()
    test = project / "src" / "test" / "java" / "com" / "example" / "ParserTest.java"
    assert code == 0
    assert lines[0] == f"{test}:19 ParserTest.noOracle"
    assert lines[1].startswith(f"{test}:6: untested-precondition: Parser.parse throws NullPointerException")
    assert lines[2].startswith(f"{test}:10: discarded-result: the result of Parser.parse(...) is discarded")
    assert [line.split(": ")[1] for line in lines[3:]] == ["swallowed-exception", "swapped-arguments"]


def test_scan_without_all_is_unchanged(capsys, project: Path) -> None:
    main(["scan", str(project)])
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_scan_json(capsys, project: Path) -> None:
    assert main(["scan", str(project), "--all", "--checks", "swapped-arguments", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (entry,) = data["files"]
    assert entry["oracle_free"] == [{"class": "ParserTest", "method": "noOracle", "line": 19}]
    (finding,) = entry["findings"]
    assert set(finding) == {"code", "severity", "message", "line", "test", "range", "fixes"}
    assert (finding["code"], finding["severity"], finding["line"], finding["test"]) == (
        "swapped-arguments", "hint", 15, "parses",
    )  # fmt: skip
    assert finding["fixes"][0]["edits"][0]["newText"] == "1"


def test_scan_rejects_unknown_checks(capsys, project: Path) -> None:
    assert main(["scan", str(project), "--all", "--checks", "nonsense"]) == 2
    assert "unknown quality check(s) 'nonsense'" in capsys.readouterr().err


def test_scan_all_runs_the_checks_on_by_default(capsys, project: Path) -> None:
    main(["scan", str(project), "--all"])
    codes = [line.split(": ")[1] for line in capsys.readouterr().out.splitlines()[1:]]
    assert codes == ["untested-precondition", "swallowed-exception", "swapped-arguments"]
