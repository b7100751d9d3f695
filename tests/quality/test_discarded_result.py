"""discarded-result: a non-void call of the unit whose value and receiver go unchecked."""

import re

from oracular.engine import OracleEngine
from oracular.quality.discarded_result import is_about
from oracular.quality.finding import Severity

from .conftest import apply, run_check

CODE = "discarded-result"
HEAD = """
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import com.example.Parser;

class ParserTest {
"""


def test_flags_dropped_value_and_offers_ranked_oracles_for_it(qengine: OracleEngine) -> None:
    source, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void parses() {
        Parser p = new Parser();
        p.parse("a b");
        Parser other = new Parser();
        assertEquals(0, other.getCount());
    }
}
""",
    )
    assert len(findings) == 1
    finding = findings[0]
    assert (finding.code, finding.severity, finding.test) == (CODE, Severity.HINT, "parses")
    assert (
        finding.line == 10
        and "Parser.parse(...)" in finding.message
        and "p is not asserted" in finding.message
    )
    assert finding.fixes, "the engine's ranked oracles for the value"
    fixed = apply(source, finding.fixes[0].edits)
    assert re.search(r'\n        assertEquals\(\w+, p\.parse\("a b"\)\);\n', fixed), fixed
    assert fixed.count('p.parse("a b")') == 1, "the call is wrapped, not repeated"
    assert "Parser other = new Parser();" in fixed, "the rest of the test is kept"


def test_value_checked_through_the_receiver_afterwards_is_not_flagged(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void parses() {
        Parser p = new Parser();
        p.parse("a b");
        assertEquals(2, p.getCount());
    }
}
""",
    )
    assert findings == []


def test_receiver_checked_only_before_the_call_is_flagged(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void parses() {
        Parser p = new Parser();
        assertEquals(0, p.getCount());
        p.parse("a b");
    }
}
""",
    )
    assert [f.line for f in findings] == [11]


def test_fluent_calls_used_values_and_void_calls_are_not_flagged(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void configures() {
        Parser p = new Parser();
        p.withStrict(true);
        p.reset();
        int n = p.parse("a");
        Parser other = new Parser();
        assertEquals(1, n);
    }
}
""",
    )
    assert findings == []


def test_tests_expected_to_throw_and_oracle_free_tests_are_skipped(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void noOracle() {
        Parser p = new Parser();
        p.parse("a b");
    }

    @org.junit.Test(expected = NullPointerException.class)
    void throwsOnNull() {
        Parser p = new Parser();
        p.parse(null);
    }
}
""",
    )
    assert findings == []


def test_data_reaching_an_asserted_variable_counts_as_checked(qengine: OracleEngine) -> None:
    """The call's arguments exchange data with what is asserted (a buffer a stream wraps)."""
    _, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void copies() {
        Parser p = new Parser();
        StringBuilder out = new StringBuilder();
        Wrapper w = new Wrapper(out);
        p.parse("a", w);
        assertEquals("a", out.toString());
    }
}
""",
    )
    assert findings == []


def test_only_calls_the_test_is_about_count(qengine: OracleEngine) -> None:
    """Set-up, warm-ups repeated later, and checks inside callbacks are not the point of the test."""
    _, findings = run_check(
        qengine,
        CODE,
        HEAD
        + """
    @Test
    void counts() {
        Parser p = new Parser();
        p.parse("a b");
        assertEquals(0, new Parser().getCount());
    }

    @Test
    void parsesTwice() {
        new Parser().parse("a b");
        assertEquals(2, new Parser().parse("a b"));
    }

    @Test
    void parsesInCallback() {
        Parser p = new Parser();
        p.parse("a b");
        Runnable check = () -> assertEquals(0, p.getCount());
    }
}
""",
    )
    assert findings == []


def test_words_tie_test_names_to_methods() -> None:
    assert is_about("testSubstitute", "substituteMostRecentElement")
    assert is_about("parses", "parse")
    assert not is_about("testConfig", "nextLong")
    assert not is_about("testDeleteFile", "copyFile"), "generic words do not count"
