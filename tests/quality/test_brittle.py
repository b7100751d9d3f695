"""brittle-assertion: assertions that depend on the clock, a random source or a changing static."""

import pytest

from oracular.engine import OracleEngine
from oracular.quality.finding import Severity

from .conftest import run_check

CODE = "brittle-assertion"


def snippet(body: str, members: str = "") -> str:
    return f"""
import org.junit.Test;
import org.junit.BeforeClass;
import static org.junit.Assert.*;
import java.util.*;
import com.example.*;

public class EmployeeTest {{
    {members}

    @Test
    public void checks() {{
        Employee e = new Employee();
        {body}
    }}
}}
"""


def test_elapsed_time_through_locals_names_the_clock(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        snippet("""long start = System.currentTimeMillis();
        e.setBaseSalary(100);
        long elapsed = System.currentTimeMillis() - start;
        assertTrue(elapsed < 100);"""),
    )
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity is Severity.INFORMATION and finding.line == 16
    assert "depends on the clock (System.currentTimeMillis())" in finding.message


def test_unseeded_random_through_a_local(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        snippet("""Random random = new Random();
        assertTrue(random.nextInt(10) < 10);"""),
    )
    assert len(findings) == 1 and "a random source (new Random())" in findings[0].message


def test_one_finding_per_test_and_source(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine,
        CODE,
        snippet("""assertTrue(Math.random() < 1);
        assertTrue(Math.random() >= 0);"""),
    )
    assert len(findings) == 1


def test_static_field_reassigned_by_a_test(qengine: OracleEngine) -> None:
    members = "static int counter;\n    @Test public void bumps() { counter++; assertEquals(1, counter); }"
    _, findings = run_check(qengine, CODE, snippet("assertEquals(0, counter);", members))
    assert [f.test for f in findings] == ["bumps", "checks"]
    assert "the static field EmployeeTest.counter, which is reassigned while tests run" in findings[0].message


def test_static_field_of_the_unit_that_its_code_reassigns(qengine: OracleEngine) -> None:
    _, findings = run_check(
        qengine, CODE, snippet("new Registry();\n        assertEquals(1, Registry.instances);")
    )
    assert len(findings) == 1 and "Registry.instances" in findings[0].message


@pytest.mark.parametrize(
    ("body", "members"),
    [
        ("Random random = new Random(42);\n        assertEquals(0, random.nextInt(1));", ""),
        ('assertEquals("registry", Registry.label);', ""),  # non-final, but nothing reassigns it
        ("assertEquals(3, Registry.LIMIT);", ""),
        ('assertEquals("x", NAME);', 'static String NAME = "x";'),  # a missing final, never changed
        (
            "assertEquals(2, shared.size());",
            "static List<String> shared;\n    @BeforeClass public static void "
            "setUpAll() { shared = new ArrayList<>(); }",
        ),  # set once before all tests
        (
            "assertTrue(ran);",
            "static boolean ran;\n    public void setUp() { ran = false; }\n"
            "    public void run() { ran = true; }",
        ),  # reset before each test, set by the code under test
        ("Date now = new Date();\n        e.setHired(now);\n        assertEquals(now, e.getHired());", ""),
        (
            "long before = System.currentTimeMillis();\n        long t = e.created();\n"
            "        long after = System.currentTimeMillis();\n"
            "        assertTrue(before <= t && t <= after);",
            "",
        ),
        ("assertFalse(e.getLastName() == UUID.randomUUID().toString());", ""),
        ("Date date = new Date();\n        assertEquals(date, new Date(date.getTime()));", ""),
        ("e.setBaseSalary(System.nanoTime() - 1);\n        assertTrue(e.getBaseSalary() > 0);", ""),
        (
            "Calendar cal = Calendar.getInstance();\n        cal.set(2008, 9, 6, 23, 50, 52);\n"
            "        assertEquals(cal.getTime(), e.getHired());",
            "",
        ),
    ],
)
def test_controlled_inputs_are_not_brittle(qengine: OracleEngine, body: str, members: str) -> None:
    _, findings = run_check(qengine, CODE, snippet(body, members))
    assert findings == [], body
