"""Projects whose sources are not UTF-8 are observed: javac reads them in the encoding the build
declares (``project.build.sourceEncoding``), else in ISO-8859-1 where UTF-8 meets a byte it cannot
map; the scratch copy itself is ASCII (``\\uXXXX`` escapes), so a test's own non-ASCII text keeps
its value in any encoding."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import OracleChecker
from oracular.execution.poms import source_encoding
from oracular.execution.runner import java_ascii
from oracular.java.source import load_source

from .conftest import require_toolchain

LABEL = (
    "package p;\n\npublic class Label {\n    // caf\xe9, in ISO-8859-1\n"
    '    public String text() {\n        return "ol\xe9";\n    }\n}\n'
)
TEST = """package p;

import org.junit.Test;

public class LabelTest {
    @Test
    public void testText() {
        Label label = new Label();
        String greeting = "h\\u00e9llo " + label.text();
    }
}
"""
POM = (
    "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1"
    "</version><properties><project.build.sourceEncoding>{}</project.build.sourceEncoding></properties>"
    "</project>\n"
)


def write_project(root: Path, declared: str | None) -> Path:
    (root / "src/main/java/p").mkdir(parents=True)
    (root / "src/main/java/p/Label.java").write_bytes(LABEL.encode("iso-8859-1"))
    test = root / "src/test/java/p/LabelTest.java"
    test.parent.mkdir(parents=True)
    test.write_text(TEST.replace("\\u00e9", "\u00e9"), encoding="utf-8")  # the test file is UTF-8
    if declared is not None:
        (root / "pom.xml").write_text(POM.format(declared), encoding="utf-8")
    return test


@pytest.mark.parametrize("declared", ["ISO-8859-1", None])
def test_a_latin1_project_is_observed(declared: str | None, tmp_path: Path, checker: OracleChecker) -> None:
    require_toolchain()
    test = write_project(tmp_path, declared)
    engine = engine_for([test], EngineSettings(top_k=5))
    report = engine.suggest(load_source(test), observer=ValueObserver(checker))
    (only,) = report.tests
    assert only.observed, (only.unobserved, report.notes)
    oracles = [s.oracle for s in only.suggestions]
    assert 'assertEquals("h\\u00e9llo ol\\u00e9", greeting);' in oracles, oracles


def test_the_declared_encoding_is_read_from_the_pom(tmp_path: Path) -> None:
    (tmp_path / "pom.xml").write_text(
        POM.format("${enc}").replace("<properties>", "<properties><enc>Cp1252</enc>")
    )
    assert source_encoding(tmp_path / "pom.xml") == "Cp1252"
    (tmp_path / "pom.xml").write_text(POM.format("${parent.enc}"))
    assert source_encoding(tmp_path / "pom.xml") is None  # a parent's property: not resolved here


def test_java_ascii_escapes_only_what_is_beyond_ascii() -> None:
    assert java_ascii('s = "a\\n";') == 's = "a\\n";'
    assert java_ascii('"\u00e9\U0001f600"') == '"\\u00e9\\ud83d\\ude00"'
