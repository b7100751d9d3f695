"""untested-precondition: documented or checked preconditions no test in the file expects."""

from oracular.engine import OracleEngine
from oracular.quality.finding import Severity

from .conftest import apply, run_check

CODE = "untested-precondition"
JUNIT5 = "import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;"
JUNIT4 = "import org.junit.Test;\nimport static org.junit.Assert.*;"


def parser_test(extra: str = "", imports: str = JUNIT5) -> str:
    return f"""
{imports}
import com.example.Parser;

public class ParserTest {{
    @Test
    public void countsTokens() {{
        Parser p = new Parser();
        assertEquals(2, p.parse("a b"));
    }}
{extra}
}}
"""


def test_javadoc_throws_clauses_become_a_class_hint_with_generated_tests(qengine: OracleEngine) -> None:
    source, findings = run_check(qengine, CODE, parser_test())
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity is Severity.HINT and finding.test is None and finding.line == 5
    assert finding.message == (
        "Parser.parse throws NullPointerException (if text is null); IllegalArgumentException (if text is "
        "empty) but no test in this file expects them"
    )
    null_test, empty_test = (apply(source, fix.edits) for fix in finding.fixes)
    assert (
        """
    @Test
    public void testParseThrowsNullPointerException() {
        Parser p = new Parser();
        assertThrows(NullPointerException.class, () -> p.parse(null));
    }
"""
        in null_test
    )
    assert 'assertThrows(IllegalArgumentException.class, () -> p.parse(""));' in empty_test


def test_expected_exceptions_in_any_form_cover_the_precondition(qengine: OracleEngine) -> None:
    extra = """
    @Test
    public void rejectsNull() {
        assertThrows(NullPointerException.class, () -> new Parser().parse(null));
    }

    @Test
    public void rejectsEmpty() {
        try {
            new Parser().parse("");
            fail();
        } catch (IllegalArgumentException expected) {
        }
    }"""
    _, findings = run_check(qengine, CODE, parser_test(extra))
    assert findings == []


def test_expectation_for_another_method_does_not_count(qengine: OracleEngine) -> None:
    extra = """
    @Test
    public void other() {
        assertThrows(NullPointerException.class, () -> new Parser().reset());
    }"""
    _, findings = run_check(qengine, CODE, parser_test(extra))
    assert "NullPointerException" in findings[0].message


def test_null_pointer_tester_covers_null_checks(qengine: OracleEngine) -> None:
    extra = """
    @Test
    public void nulls() {
        new NullPointerTester().testAllPublicInstanceMethods(new Parser());
    }"""
    _, findings = run_check(qengine, CODE, parser_test(extra))
    assert [
        ("NullPointerException" in f.message, "IllegalArgumentException" in f.message) for f in findings
    ] == [(False, True)]


def test_junit4_gets_try_fail_catch(qengine: OracleEngine) -> None:
    source, findings = run_check(qengine, CODE, parser_test(imports=JUNIT4))
    fixed = apply(source, findings[0].fixes[0].edits)
    assert 'p.parse(null);\n            fail("Expected NullPointerException");' in fixed


def test_guards_in_the_body_name_the_violating_input(qengine: OracleEngine) -> None:
    source, findings = run_check(
        qengine,
        CODE,
        f"""
{JUNIT5}
import com.example.Account;

public class AccountTest {{
    @Test
    public void deposits() {{
        Account account = new Account("ann");
        account.deposit(5);
        assertEquals(5, account.balance());
    }}
}}
""",
    )
    messages = sorted(f.message.removesuffix(" but no test in this file expects it") for f in findings)
    assert messages == [
        "Account.Account throws NullPointerException (when owner == null)",
        "Account.deposit throws IllegalArgumentException (when amount < 0)",
    ]
    by_method = {f.message.split()[0]: f for f in findings}
    deposit = apply(source, by_method["Account.deposit"].fixes[0].edits)
    assert (
        'Account account = new Account("ann");\n        assertThrows(IllegalArgumentException.class, () -> '
        "account.deposit(-1));" in deposit
    )
    constructor = apply(source, by_method["Account.Account"].fixes[0].edits)
    assert (
        "public void testAccountThrowsNullPointerException() {\n"
        "        assertThrows(NullPointerException.class, () -> new Account(null));" in constructor
    )


def test_calls_on_other_classes_are_not_the_unit_under_test(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        f"""
{JUNIT5}
import com.example.Parser;

public class EmployeeTest {{
    @Test
    public void counts() {{
        assertEquals(2, new Parser().parse("a b"));
    }}
}}
""",
    )
    assert findings == []


def test_expectations_in_the_files_own_helpers_count(qengine: OracleEngine) -> None:
    extra = """
    @Test
    public void rejects() {
        assertRejected(null);
        assertRejected("");
    }

    private static void assertRejected(String text) {
        try {
            new Parser().parse(text);
            fail();
        } catch (NullPointerException | IllegalArgumentException expected) {
        }
    }"""
    _, findings = run_check(qengine, CODE, parser_test(extra))
    assert findings == []
