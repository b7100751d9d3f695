"""swapped-arguments: a literal in the actual slot; TestNG's (actual, expected) order respected."""

import pytest

from oracular.engine import OracleEngine
from oracular.quality.finding import Severity

from .conftest import apply, run_check

CODE = "swapped-arguments"


def snippet(imports: str, body: str) -> str:
    return f"""
{imports}
import com.example.Parser;

public class ParserTest {{
    @Test
    public void parses() {{
        Parser p = new Parser();
        {body}
    }}
}}
"""


JUNIT5 = "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;"
JUNIT4 = "import org.junit.Test;\nimport static org.junit.Assert.assertEquals;"
TESTNG = "import org.testng.annotations.Test;\nimport static org.testng.Assert.assertEquals;"
TESTNG_JUNIT_ORDER = "import org.testng.annotations.Test;\nimport static org.testng.AssertJUnit.assertEquals;"


def test_literal_in_actual_slot_is_flagged_with_a_swap_fix(qengine: OracleEngine) -> None:
    source, findings = run_check(qengine, CODE, snippet(JUNIT5, 'assertEquals(p.parse("a b"), 2);'))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity is Severity.HINT and "JUnit's order is (expected, actual)" in finding.message
    assert 'assertEquals(2, p.parse("a b"));' in apply(source, finding.fixes[0].edits)


@pytest.mark.parametrize(
    ("imports", "statement"),
    [
        (JUNIT4, 'assertEquals("tokens", p.parse("a b"), 2);'),  # JUnit 4: message first
        (JUNIT5, 'assertEquals(p.parse("a b"), 2, "tokens");'),  # JUnit 5: message last
        (JUNIT5, "assertEquals(p.getCount(), 2.5, 0.01);"),  # delta
        (JUNIT5, "assertEquals(p.getClass(), Parser.class);"),  # class literal
        (JUNIT5, "assertEquals(p.withStrict(true), null);"),
        (JUNIT5, "assertEquals(p.getCount(), Integer.MAX_VALUE);"),  # a JDK constant
        (TESTNG, 'assertEquals(2, p.parse("a b"));'),  # TestNG: (actual, expected)
        (TESTNG_JUNIT_ORDER, 'assertEquals(p.parse("a b"), 2);'),  # AssertJUnit keeps JUnit's order
        ("import junit.framework.TestCase;", "assertEquals(p.getCount(), 0);"),  # JUnit 3, inherited
    ],
)
def test_swapped_in_every_framework(qengine: OracleEngine, imports: str, statement: str) -> None:
    source = snippet(imports, statement)
    if "TestCase" in imports:
        source = source.replace("public class ParserTest {", "public class ParserTest extends TestCase {")
        source = source.replace("@Test\n", "").replace("void parses()", "void testParses()")
    _, findings = run_check(qengine, CODE, source)
    assert len(findings) == 1, statement


@pytest.mark.parametrize(
    ("imports", "statement"),
    [
        (JUNIT5, 'assertEquals(2, p.parse("a b"));'),
        (JUNIT5, "assertEquals(1, 1);"),
        (JUNIT5, "assertEquals(Parser.DEFAULT, 2);"),  # a constant on both sides
        (JUNIT5, 'assertEquals(Parser.forName("x"), Parser.DEFAULT);'),  # the unit's constant is tested
        (JUNIT5, 'String expected = "x"; assertEquals(expected, "x");'),
        (JUNIT4, 'assertEquals(message, p.parse("a"), 2);'),  # untyped first argument: unsure
        (TESTNG, 'assertEquals(p.parse("a b"), 2);'),  # TestNG's own order: correct
        ("import org.testng.annotations.Test;", 'Assert.assertEquals(p.parse("a b"), 2);'),  # owner unknown
    ],
)
def test_not_flagged(qengine: OracleEngine, imports: str, statement: str) -> None:
    _, findings = run_check(qengine, CODE, snippet(imports, statement))
    assert findings == [], statement


def test_testng_message_is_about_testng_order(qengine: OracleEngine) -> None:
    source, findings = run_check(qengine, CODE, snippet(TESTNG, 'assertEquals(2, p.parse("a b"));'))
    assert "TestNG's Assert takes (actual, expected)" in findings[0].message
    assert 'assertEquals(p.parse("a b"), 2);' in apply(source, findings[0].fixes[0].edits)


def test_the_test_classs_own_assert_equals_is_left_alone(qengine: OracleEngine) -> None:
    source = snippet(JUNIT5, 'assertEquals(p.parse("a b"), 2, "x", "y");').replace(
        "public class ParserTest {",
        "public class ParserTest {\n    void assertEquals(Object a, int b, String c, String d) {}",
    )
    _, findings = run_check(qengine, CODE, source)
    assert findings == []
