"""Templates: what to assert with the value left as a slot (models v2)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.templates import group_by_template, spread, target_templates, template_text
from oracular.candidates.values import Value, named_literals
from oracular.engine import OracleEngine
from oracular.java.prefix import PrefixAnalysis
from oracular.java.source import load_source
from oracular.java.targets import Target
from oracular.ranking.baseline import OBSERVED_WEIGHT, value_weights
from oracular.ranking.problem import OracleProblem

from ..conftest import indexed
from ..java.test_targets import analysed

if TYPE_CHECKING:
    from oracular.engine import TestStatus

SIZE = Target("s.size()", "int", "observer")


def equals(value: str, source: str = "literal", target: Target = SIZE) -> Candidate:
    return Candidate("assertion", "assertEquals", target, Value(value, "int", source))


def test_a_template_hides_the_value_and_only_the_value() -> None:
    assert template_text(equals("3")) == "assertEquals(?, s.size())"
    empty = Target("s.isEmpty()", "boolean", "observer")
    assert template_text(Candidate("assertion", "assertTrue", empty)) == "assertTrue(s.isEmpty())"
    thrown = Candidate("exception", "assertThrows", exception="EmptyStackException")
    assert template_text(thrown) == "assertThrows(EmptyStackException.class)"


def test_every_target_gets_the_templates_its_type_allows(engine: OracleEngine) -> None:
    prefix = analysed(engine, 'List<String> xs = new ArrayList<>(); xs.add("a"); int n = xs.size();')
    texts = [template_text(t) for t in target_templates(prefix.targets)]
    assert "assertEquals(?, n)" in texts  # a primitive: no null checks, an equality even with no value
    assert "assertNull(n)" not in texts
    assert {"assertTrue(xs.isEmpty())", "assertFalse(xs.isEmpty())"} <= set(texts)
    assert {"assertNotNull(xs)", "assertNull(xs)", "assertEquals(?, xs)"} <= set(texts)
    assert "assertEquals(?, xs.toString())" in texts  # a list of text reads as "[a]"...
    assert "assertNotNull(xs.toString())" not in texts  # ...which is never null
    assert len(texts) == len(set(texts))


def test_a_list_text_takes_only_values_that_read_like_one(engine: OracleEngine) -> None:
    prefix = analysed(engine, 'List<String> xs = new ArrayList<>(); xs.add("a"); String s = "[a]";')
    status = SimpleNamespace(classes=[])  # no test-class constants
    found = engine.values_for(prefix, status, dictionary={"String": ('""', '"a"'), "int": ("0", "-1")})  # type: ignore[arg-type]
    values = [v.text for v in found["xs.toString()"]]
    assert '"[a]"' in values and "s" in values
    assert '"a"' not in values and '""' not in values
    sizes = [v.text for v in found["xs.size()"]]
    assert "0" in sizes and "-1" not in sizes  # a count is never negative


def test_candidates_group_by_template_in_first_seen_order() -> None:
    empty = Target("s.isEmpty()", "boolean", "observer")
    candidates = [equals("1"), Candidate("assertion", "assertTrue", empty), equals("2"), equals("3")]
    texts, group = group_by_template(candidates)
    assert texts == ["assertEquals(?, s.size())", "assertTrue(s.isEmpty())"]
    assert group == [0, 1, 0, 0]


def test_a_template_shares_its_score_among_its_values_by_weight() -> None:
    scores = spread([0.6, 0.4], [0, 1, 0, 0], [1.0, 1.0, 2.0, 1.0])
    assert scores == pytest.approx([0.15, 0.4, 0.3, 0.15])
    assert sum(scores) == pytest.approx(1.0)


def test_the_observed_value_outweighs_every_static_guess_of_its_target(engine: OracleEngine) -> None:
    prefix = analysed(engine, "Stack<Integer> s = new Stack<>(); s.push(1); s.push(2);")
    candidates = [equals("2", "observed"), equals("2", "argument"), equals("0", "global"), equals("1")]
    weights = value_weights(OracleProblem("t", prefix, candidates))
    assert weights[0] == OBSERVED_WEIGHT
    assert weights[0] > sum(weights[1:])
    assert weights[1] > weights[2]  # statically, the size the pushes imply beats a dictionary guess


def _only_test(root: Path, constants: str, test: str) -> tuple[OracleEngine, TestStatus, PrefixAnalysis]:
    """``p.Constants`` and the test class ``p.FmtTest`` (one oracle-free test), analysed."""
    (root / "Constants.java").write_text(f"package p; public class Constants {{ {constants} }}")
    (root / "FmtTest.java").write_text(f"package p; {test}")
    engine = OracleEngine(indexed(root), global_dictionary={})
    analysis = engine.analyse(load_source(root / "FmtTest.java"))
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    return engine, status, prefix


def test_the_constants_a_test_file_imports_by_name_are_expected_values(tmp_path: Path) -> None:
    engine, status, prefix = _only_test(
        tmp_path,
        'public static final String CRLF = "\\r\\n"; private static final String HIDDEN = "h";'
        ' public static String mutable = "m";',
        "import static p.Constants.CRLF; import static p.Constants.HIDDEN;"
        " import static p.Constants.mutable; import static p.Constants.*; import org.junit.Test;"
        ' public class FmtTest { @Test public void t() { String s = "a" + CRLF; } }',
    )
    values = {v.text: v.source for v in engine.values_for(prefix, status)["s"]}
    # as the file writes it; a private or non-final field is no constant, a wildcard names none
    assert values["CRLF"] == "constant"
    assert "HIDDEN" not in values and "mutable" not in values


def test_a_literal_is_named_by_a_constant_the_test_can_write_bare(tmp_path: Path) -> None:
    _, status, prefix = _only_test(
        tmp_path,
        'public static final String CRLF = "\\r\\n"; public static final String LF = "\\n";',
        "import static p.Constants.CRLF; import org.junit.Test; public class FmtTest {"
        ' private static final String EMPTY = ""; @Test public void t() { String s = "a"; } }',
    )
    # the test's own constant, private or not, and the one it imports; never LF, which it cannot name
    assert named_literals(prefix.env, status.classes) == {'""': "EMPTY", '"\\r\\n"': "CRLF"}


def test_a_member_class_s_constants_are_spelt_as_the_test_file_can_name_them(tmp_path: Path) -> None:
    """java-diff-utils: ``DiffRow.Tag.EQUAL``; ``Tag.EQUAL`` does not compile in its test."""
    engine, status, prefix = _only_test(
        tmp_path,
        "public static class Tag { public static final Tag EQUAL = new Tag(); }",
        "import org.junit.Test; public class FmtTest {"
        " @Test public void t() { Constants.Tag tag = new Constants.Tag(); } }",
    )
    values = {v.text for v in engine.values_for(prefix, status)["tag"]}
    assert "Constants.Tag.EQUAL" in values
    assert "Tag.EQUAL" not in values
