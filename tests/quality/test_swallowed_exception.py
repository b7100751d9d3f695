"""swallowed-exception: try/catch without fail(), and assertions that only run under an if."""

import pytest

from oracular.engine import OracleEngine
from oracular.quality.finding import Severity

from .conftest import apply, run_check

CODE = "swallowed-exception"
JUNIT5 = "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;"
JUNIT4 = "import org.junit.Test;\nimport static org.junit.Assert.assertEquals;"


def snippet(body: str, imports: str = JUNIT5) -> str:
    return f"""
{imports}
import com.example.Parser;

public class ParserTest {{
    @Test
    public void parses() throws Exception {{
        Parser p = new Parser();
        assertEquals(0, p.getCount());
        {body}
    }}
}}
"""


def test_empty_catch_without_fail_is_a_warning_with_both_fixes(qengine: OracleEngine) -> None:
    source, findings = run_check(
        qengine,
        CODE,
        snippet("""try {
            p.parse("");
        } catch (IllegalArgumentException e) {
            // expected
        }"""),
    )
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity is Severity.WARNING and finding.line == 12
    assert finding.message == (
        "IllegalArgumentException is caught and ignored: the test passes whether or not parse(...) throws it"
    )
    insert_fail, convert = finding.fixes
    fixed = apply(source, insert_fail.edits)
    assert 'p.parse("");\n            fail("Expected IllegalArgumentException");\n' in fixed
    assert "import static org.junit.jupiter.api.Assertions.fail;" in fixed
    converted = apply(source, convert.edits)
    assert 'assertThrows(IllegalArgumentException.class, () -> p.parse(""));\n    }' in converted
    assert (
        "try {" not in converted
        and "import static org.junit.jupiter.api.Assertions.assertThrows;" in converted
    )


def test_assertions_only_in_the_catch(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        snippet("""try {
            p.parse("");
        } catch (IllegalArgumentException e) {
            assertEquals("empty", e.getMessage());
        }"""),
    )
    assert len(findings) == 1 and "the assertions in this catch run only if" in findings[0].message
    assert [f.title for f in findings[0].fixes] == [
        'Insert fail("Expected IllegalArgumentException"); after the call'
    ]


def test_junit4_without_assert_throws_gets_only_the_fail_fix(qengine: OracleEngine) -> None:
    source, findings = run_check(
        qengine, CODE, snippet('try { p.parse(""); } catch (IllegalArgumentException e) { }', JUNIT4)
    )
    assert [f.title.split()[0] for f in findings[0].fixes] == ["Insert"]
    assert "import static org.junit.Assert.fail;" in apply(source, findings[0].fixes[0].edits)


@pytest.mark.parametrize(
    "body",
    [
        'try { p.parse(""); fail("no exception"); } catch (IllegalArgumentException e) { }',
        'try { p.parse(""); } catch (IllegalArgumentException e) { throw new IllegalStateException(e); }',
        'try { p.parse(""); } catch (IllegalArgumentException e) { fail(e.getMessage()); }',
        "try { Thread.sleep(10); p.getCount(); } catch (InterruptedException e) { }",
        "try { p.close(); } catch (Exception e) { }",
        'boolean thrown = false; try { p.parse(""); } catch (IllegalArgumentException e) { thrown = true; }'
        " assertEquals(true, thrown);",
        'try { p.parse(""); } finally { p.reset(); }',
        'try { assertEquals(1, p.parse("a")); } catch (IllegalArgumentException e) { }',  # either outcome
        'Runnable r = () -> { try { p.parse(""); } catch (Exception e) { } };',
        'try { p.parse(""); } catch (IllegalArgumentException e) { errors.add(e); }',
        'try { p.parse(""); } catch (IllegalArgumentException e) { return; }',  # a deliberate skip
        'try { p.parse(""); } catch (UnsupportedOperationException e) { }',  # an optional operation
        "try { p.parse(null); } catch (NullPointerException optional) { }",
        "try { super.toString(); } catch (RuntimeException e) { }",  # an override tolerating a deviation
    ],
)
def test_not_swallowed(qengine: OracleEngine, body: str) -> None:
    _, findings = run_check(qengine, CODE, snippet(body))
    assert findings == [], body


def test_broad_catch_around_assertions_hides_failures(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        snippet('try { assertEquals(1, p.parse("a")); } catch (Exception e) { e.printStackTrace(); }'),
    )
    assert len(findings) == 1 and "Exception is caught and swallowed" in findings[0].message


GUARDED = """
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import com.example.Parser;

public class ParserTest {{
    @Test
    public void parses() {{
        Parser p = new Parser();
        p.parse("a b");
        {body}
    }}
}}
"""


def test_every_assertion_under_a_null_guard_on_the_units_result(qengine: OracleEngine) -> None:
    body = "Parser q = p.withStrict(true);\n        if (q != null) { assertEquals(2, q.getCount()); }"
    source, findings = run_check(qengine, CODE, GUARDED.format(body=body))
    assert len(findings) == 1 and findings[0].severity is Severity.WARNING
    assert findings[0].message.startswith("every assertion in parses runs only when q != null holds")
    assert "assertNotNull(q);\n        if (q != null)" in apply(source, findings[0].fixes[0].edits)


@pytest.mark.parametrize(
    "body",
    [
        "assertEquals(2, p.getCount());",
        "if (p.getCount() > 0) { assertEquals(2, p.getCount()); }\n        assertEquals(2, p.getCount());",
        'if (p.getCount() == 0) { fail("no tokens"); }',  # a guarded fail is the check itself
        "if (p.getCount() > 0) { assertEquals(2, p.getCount()); } else { assertEquals(0, p.getCount()); }",
        "if (WINDOWS) { assertEquals(2, p.getCount()); }\n"
        "        if (LINUX) { assertEquals(2, p.getCount()); }",
        "if (applies()) { assertEquals(2, p.getCount()); }",  # the test's own set-up decides
        "if (p.getCount() > 0) { assertEquals(2, p.getCount()); }",  # a case deliberately not covered
        "for (int i = 0; i < 3; i++) { if (p.getCount() > i) { assertEquals(2, p.getCount()); } }",
    ],
)
def test_not_guarded(qengine: OracleEngine, body: str) -> None:
    _, findings = run_check(qengine, CODE, GUARDED.format(body=body))
    assert findings == [], body
