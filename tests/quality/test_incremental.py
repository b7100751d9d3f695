"""Incremental analysis: re-parsing from the previous tree, and per-method results kept across versions.

What must hold: after an edit inside one test method, only that method is analysed again (the
other methods' kept results are handed back as they were), and whatever the edit, the analysis
equals a fresh one of the same text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from oracular.engine import OracleEngine
from oracular.java.reparse import Reparser, common_prefix, common_suffix
from oracular.java.source import parse_text
from oracular.lsp.documents import Analysis, History, OpenDocument, analyse
from oracular.quality import CHECKS, QualitySettings

from ..conftest import EXAMPLE_TESTS
from .conftest import QUALITY_FIXTURES

PATH = QUALITY_FIXTURES / "com" / "example" / "ParserTest.java"
"""Never written: the analysis reads the text it is given."""
ALL = QualitySettings.only(CHECKS)
TESTS = 12


def method(i: int) -> str:
    """Three tests per ``i``: one without an oracle, one with quality findings, one clean."""
    return f"""
    @Test
    public void noOracle{i}() {{
        Parser p = new Parser();
        int n = p.parse("a b");
    }}

    @Test
    public void weak{i}() {{
        Parser p = new Parser();
        try {{
            p.parse("");
        }} catch (IllegalArgumentException e) {{
        }}
        assertEquals(p.parse("a"), 1);
    }}

    @Test
    public void fine{i}() {{
        assertEquals(2, new Parser().parse("a b"));
    }}
"""


TEXT = (
    "package com.example;\n\nimport org.junit.jupiter.api.Test;\n"
    "import static org.junit.jupiter.api.Assertions.assertEquals;\n\n"
    "public class ParserTest {\n"
    '    private final String sample = "x y";\n'
    + "".join(method(i) for i in range(TESTS))
    + "\n    private void helper() {\n        sample.length();\n    }\n}\n"
)


def run(engine: OracleEngine, text: str, version: int, history: History | None) -> Analysis:
    analysis = analyse(
        engine, OpenDocument("file:///ParserTest.java", version, text, PATH), ALL, lambda: False, history
    )
    assert analysis is not None
    return analysis


def as_json(analysis: Analysis) -> str:
    """Everything the editor shows of a version: reports (edits included) and findings (fixes included)."""
    assert analysis.report is not None
    return json.dumps(
        [analysis.report.to_json(), [f.to_json() for f in analysis.findings], analysis.report.top_edits()],
        default=repr,
        sort_keys=True,
    )


def inside(text: str, name: str) -> int:
    """An offset at the start of the second line of test ``name``'s body."""
    start = text.index(f"void {name}()")
    return text.index("\n", text.index("{", start)) + 1


def test_the_example_has_reports_and_findings_of_every_kind(qengine: OracleEngine) -> None:
    analysis = run(qengine, TEXT, 1, None)
    codes = {f.code for f in analysis.findings}
    assert {"swallowed-exception", "swapped-arguments", "untested-precondition"} <= codes
    assert len(analysis.tests) == TESTS
    assert any(fix.edits for f in analysis.findings for fix in f.fixes)


def test_an_edit_in_one_method_reanalyses_that_method_only(qengine: OracleEngine) -> None:
    history = History()
    first = run(qengine, TEXT, 1, history)
    at = inside(TEXT, "weak5")
    edited = TEXT[:at] + "        int extra = 1;\n\n" + TEXT[at:]
    before = history.memo.misses
    second = run(qengine, edited, 2, history)

    # One test changed: its oracle verdict, findings and untested-precondition summary are
    # computed again, everything else is handed back (the fix of a new test is kept with the
    # first test that seeds it).
    assert history.memo.misses - before == 3
    assert as_json(second) == as_json(run(qengine, edited, 2, None))
    # Kept results are the same objects' data, moved: the reports above the edit are unchanged,
    # those below it two lines further down.
    for old, new in zip(first.tests, second.tests, strict=True):
        moved = 2 if old.test.line > second.tests[5].test.line else 0
        assert new.line == old.line + moved
        assert [s.candidate for s in new.suggestions] == [s.candidate for s in old.suggestions]
        assert [e.start[0] for s in new.suggestions for e in s.edits[:1]] == [
            e.start[0] + moved for s in old.suggestions for e in s.edits[:1]
        ]


def test_an_edit_outside_the_tests_invalidates_every_method(qengine: OracleEngine) -> None:
    history = History()
    run(qengine, TEXT, 1, history)
    edited = TEXT.replace('sample = "x y"', 'sample = "x y z"')
    hits = history.memo.hits
    second = run(qengine, edited, 2, history)
    assert history.memo.hits == hits
    assert as_json(second) == as_json(run(qengine, edited, 2, None))


def test_random_edits_always_equal_a_fresh_analysis(qengine: OracleEngine) -> None:
    """Edits anywhere (inside tests, between them, in the header), some breaking the syntax."""
    rng = random.Random(16)
    history = History()
    text = TEXT
    pieces = ["\n", "x", "        int k = 2;\n", "}", "        assertEquals(1, 1);\n", "é", "😀", ""]
    for version in range(1, 41):
        at = rng.randrange(len(text))
        text = text[:at] + rng.choice(pieces) + text[at + rng.randrange(3) :]
        assert as_json(run(qengine, text, version, history)) == as_json(run(qengine, text, version, None)), (
            version
        )


def test_a_new_index_generation_invalidates_kept_results(qengine: OracleEngine, tmp_path: Path) -> None:
    history = History()
    run(qengine, TEXT, 1, history)
    qengine.index.generation += 1  # as a refresh that changed a declaration does
    hits = history.memo.hits
    run(qengine, TEXT, 2, history)
    assert history.memo.hits == hits


def test_the_reparser_gives_the_tree_a_fresh_parse_gives() -> None:
    rng = random.Random(3)
    text = (EXAMPLE_TESTS / "StackTest.java").read_text(encoding="utf-8")
    reparser = Reparser()
    reparser.parse(text)
    for _ in range(200):
        at = rng.randrange(len(text))
        text = (
            text[:at]
            + rng.choice(["\n", "\r\n", " ", "x", "(", "é", "😀", ""])
            + text[at + rng.randrange(4) :]
        )
        assert str(reparser.parse(text).root) == str(parse_text(text).root)


@pytest.mark.parametrize(
    ("a", "b", "prefix", "suffix"),
    [
        (b"", b"", 0, 0),
        (b"abc", b"abc", 3, 0),
        (b"abcd", b"abXd", 2, 1),
        (b"aaa", b"aaaa", 3, 0),
        (b"xy", b"", 0, 0),
    ],
)
def test_common_prefix_and_suffix(a: bytes, b: bytes, prefix: int, suffix: int) -> None:
    assert common_prefix(a, b) == prefix
    assert common_suffix(a, b, min(len(a), len(b)) - prefix) == suffix
