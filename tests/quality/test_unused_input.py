"""unused-input: inputs handed to a checked object that no assertion checks (OraclePolish)."""

from oracular.engine import OracleEngine
from oracular.quality.finding import Severity

from .conftest import apply, run_check

CODE = "unused-input"
EMPLOYEE = """
import org.junit.Test;
import static org.junit.Assert.assertTrue;
import com.example.Employee;

public class EmployeeTest {{
    @Test
    public void testToString() {{
        {body}
    }}
}}
"""


def test_oraclepolish_employee_first_name_never_reaches_to_string_check(qengine: OracleEngine) -> None:
    """The paper's testToString: fields are set, only some of them are in the checked string."""
    body = """Employee e = new Employee();
        e.setFirstName("John");
        e.setLastName("Smith");
        e.setBaseSalary(200);
        assertTrue(e.toString().contains("Smith"));"""
    source, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert len(findings) == 1, [f.message for f in findings]
    finding = findings[0]
    assert finding.severity is Severity.HINT and finding.test == "testToString"
    assert finding.line == 9 and finding.message.startswith('"John" passed to e.setFirstName(...)')
    assert "e.getFirstName()" in finding.message
    fixed = apply(source, finding.fixes[0].edits)
    assert (
        'assertTrue(e.toString().contains("Smith"));\n        assertEquals("John", e.getFirstName());'
        in fixed
    )
    assert "import static org.junit.Assert.assertEquals;" in fixed, "the fix brings its import"


def test_setter_input_checked_through_its_getter_or_directly_is_used(qengine: OracleEngine) -> None:
    body = """Employee e = new Employee();
        e.setFirstName("John");
        e.setLastName("Smith");
        e.setActive(true);
        assertTrue(e.getFirstName().startsWith("J"));
        assertTrue(e.isActive());
        assertTrue(e.toString().contains("Smith"));"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []


def test_boolean_setter_fix_asserts_true_or_false(qengine: OracleEngine) -> None:
    body = """Employee e = new Employee();
        e.setLastName("Smith");
        e.setActive(false);
        assertTrue(e.getLastName().equals("Smith"));"""
    source, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert "assertFalse(e.isActive());" in apply(source, findings[0].fixes[0].edits)


def test_object_compared_whole_or_never_checked_is_not_judged(qengine: OracleEngine) -> None:
    body = """Employee e = new Employee();
        e.setFirstName("John");
        Employee unchecked = new Employee();
        unchecked.setFirstName("Jane");
        Employee expected = new Employee("John", null);
        assertTrue(expected.equals(e));"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []


def test_constructor_argument_left_out_of_the_checked_rendering(qengine: OracleEngine) -> None:
    body = """Employee e = new Employee("John", "Smith");
        assertTrue(e.toString().contains("Smith"));"""
    source, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert len(findings) == 1 and findings[0].message.startswith('"John" passed to new Employee(...)')
    assert 'assertEquals("John", e.getFirstName());' in apply(source, findings[0].fixes[0].edits)


def test_one_property_of_a_constructed_object_is_a_focused_test(qengine: OracleEngine) -> None:
    """``testGetEps`` checks ``getEps()`` of ``new DBSCANClusterer(2.0, 5)``: not a weak oracle."""
    body = """Employee e = new Employee("John", "Smith");
        assertTrue(e.getLastName().equals("Smith"));"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []


def test_literal_through_a_local_is_followed(qengine: OracleEngine) -> None:
    body = """String first = "John";
        Employee e = new Employee();
        e.setFirstName(first);
        assertTrue(e.toString().contains("employee"));"""
    source, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert len(findings) == 1
    assert "assertEquals(first, e.getFirstName());" in apply(source, findings[0].fixes[0].edits)


KEYED = """
import org.junit.Test;
import static org.junit.Assert.assertEquals;
import com.example.DefaultKeyedValues2D;

public class DefaultKeyedValues2DTest {{
    @Test
    public void testGetRowKey() {{
        DefaultKeyedValues2D d = new DefaultKeyedValues2D();
        d.addValue(new Double(1.0), "R1", "C1");
        d.addValue(new Double(1.0), "R2", "C1");
        {asserts}
    }}
}}
"""


def test_jfreechart_column_keys_never_checked(qengine: OracleEngine) -> None:
    """JFreeChart's testGetRowKey: row keys are asserted, the column keys never are."""
    asserts = 'assertEquals("R1", d.getRowKey(0));\n        assertEquals("R2", d.getRowKey(1));'
    _, findings = run_check(qengine, CODE, KEYED.format(asserts=asserts))
    assert [(f.line, f.message.split(" passed")[0]) for f in findings] == [(9, '"C1"'), (10, '"C1"')]
    assert findings[0].fixes == (), "addValue has no getter to suggest"


def test_dataset_checked_only_on_values_leaves_every_key_unused(qengine: OracleEngine) -> None:
    """The issue's variant: values are added with keys, only the values are asserted."""
    source = KEYED.format(asserts="assertEquals(2.0, d.getValue(1, 0).doubleValue(), 0.0);")
    source = source.replace('d.addValue(new Double(1.0), "R2", "C1");', 'd.addValue(2.0, "R2", "C1");')
    _, findings = run_check(qengine, CODE, source)
    assert [f.message.split(" passed")[0] for f in findings] == ['"R2", "C1"']


def test_entries_observed_through_computed_values_are_not_judged(qengine: OracleEngine) -> None:
    """``addValue(x)`` then ``getMean()``-style observers: every input may count."""
    source = KEYED.format(asserts="assertEquals(2, d.getRowCount());")
    _, findings = run_check(qengine, CODE, source)
    assert findings == []


def test_column_keys_asserted_are_used(qengine: OracleEngine) -> None:
    asserts = (
        'assertEquals("R1", d.getRowKey(0));\n        assertEquals("R2", d.getRowKey(1));\n'
        '        assertEquals("C1", d.getColumnKey(0));'
    )
    _, findings = run_check(qengine, CODE, KEYED.format(asserts=asserts))
    assert findings == []


def test_object_observed_through_a_non_getter_is_not_judged(qengine: OracleEngine) -> None:
    """``parse``-like observers can expose every input; only narrow ones (get/contains...) are judged."""
    asserts = "assertEquals(2, d.getRowCount());\n        assertEquals(2, d.render().length());"
    _, findings = run_check(qengine, CODE, KEYED.format(asserts=asserts))
    assert findings == []


def test_object_observed_through_computed_values_is_not_judged(qengine: OracleEngine) -> None:
    """``getMean()``-like observers may be computed from every input: nothing is flagged."""
    body = """Employee e = new Employee("John", "Smith");
        assertTrue(e.created() >= 0);"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []


def test_collections_of_the_test_itself_are_not_the_unit(qengine: OracleEngine) -> None:
    body = """java.util.Map<String, String> rules = new java.util.HashMap<>();
        rules.put("a", "b");
        assertTrue(rules.get("a") != null);"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []


def test_escaped_or_truncated_renderings_still_count_as_checked(qengine: OracleEngine) -> None:
    body = """Employee e = new Employee();
        e.setLastName("Smith\\nJones");
        e.setFirstName("abcdefghijklmnopqrstuvwxyz");
        assertTrue(e.toString().equals("employee: Smith\\\\nJones abcdefghijklmno..."));"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []


def test_renderings_compared_with_each_other_cannot_be_judged(qengine: OracleEngine) -> None:
    body = """Employee e = new Employee("John", "Smith");
        Employee copy = new Employee("John", "Smith");
        assertTrue(e.toString().equals(copy.toString()));"""
    _, findings = run_check(qengine, CODE, EMPLOYEE.format(body=body))
    assert findings == []
