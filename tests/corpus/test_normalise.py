"""Normalising developers' oracles into the grammar's canonical form (JUnit 3/4/5, TestNG, AssertJ, Hamcrest).

Why: every coverage figure in the corpus report, and every training label, is a comparison
between a developer's assertion and a generated candidate; a form read wrongly is a wrong label.
"""

from __future__ import annotations

import pytest

from oracular.candidates.text import canonical_expression
from oracular.corpus.normalise import normalise_assertion
from oracular.java import syntax
from oracular.java.junit import Flavour
from tests.conftest import java


def first_statement(line: str):
    source = java(f"class T {{ void t() {{ {line} }} }}")
    method = next(n for n in syntax.walk(source.root) if n.type == "method_declaration")
    return syntax.statements(method.child_by_field_name("body"))[0]


@pytest.mark.parametrize(
    ("line", "flavour", "expected"),
    [
        ("assertEquals(5, x.size());", Flavour.JUNIT5, "assertEquals(5, x.size())"),
        ('Assert.assertEquals("msg", 5L, x.size());', Flavour.JUNIT4, "assertEquals(5L, x.size())"),
        ('assertEquals(5, x.size(), "msg");', Flavour.JUNIT5, "assertEquals(5, x.size())"),
        ("assertEquals(0.5d, r, 0.001);", Flavour.JUNIT4, "assertEquals(0.5d, r)"),
        ('assertEquals("m", 0.5, r, 0.001);', Flavour.JUNIT4, "assertEquals(0.5, r)"),
        ("Assertions.assertEquals(true, s.isEmpty());", Flavour.JUNIT5, "assertTrue(s.isEmpty())"),
        ("assertEquals(Boolean.FALSE, flag);", Flavour.JUNIT4, "assertFalse(flag)"),
        ("assertEquals(null, s.peek());", Flavour.JUNIT4, "assertNull(s.peek())"),
        ('assertTrue("not empty", s.isEmpty());', Flavour.JUNIT4, "assertTrue(s.isEmpty())"),
        ('assertNotNull(s, "msg");', Flavour.JUNIT5, "assertNotNull(s)"),
        ("assertEquals(s.size(), 3);", Flavour.TESTNG, "assertEquals(3, s.size())"),
        ('Assert.assertEquals(s.size(), 3, "msg");', Flavour.TESTNG, "assertEquals(3, s.size())"),
        ("assertThat(s.size()).isEqualTo(3);", Flavour.JUNIT5, "assertEquals(3, s.size())"),
        ("assertThat(s.isEmpty()).isTrue();", Flavour.JUNIT5, "assertTrue(s.isEmpty())"),
        ('assertThat(s.peek(), is("x"));', Flavour.JUNIT4, 'assertEquals("x", s.peek())'),
        ('assertThat(s.peek(), is(equalTo("x")));', Flavour.JUNIT4, 'assertEquals("x", s.peek())'),
        ("assertThat(s.peek(), nullValue());", Flavour.JUNIT4, "assertNull(s.peek())"),
        ('assertThat("why", s.peek(), notNullValue());', Flavour.JUNIT4, "assertNotNull(s.peek())"),
        # Fluent and comparison forms with an exact JUnit equivalent (issue 15).
        ("assertThat(rows).hasSize(2);", Flavour.JUNIT5, "assertEquals(2, rows.size())"),
        ("assertThat(p.rows()).isEmpty();", Flavour.JUNIT5, "assertTrue(p.rows().isEmpty())"),
        ("assertThat(rows).isNotEmpty();", Flavour.JUNIT5, "assertFalse(rows.isEmpty())"),
        ('assertThat(n).as("count").isEqualTo(3);', Flavour.JUNIT5, "assertEquals(3, n)"),
        ('assertThat(rows).describedAs("rows").hasSize(2);', Flavour.JUNIT5, "assertEquals(2, rows.size())"),
        ("assertThat(a).isSameAs(b);", Flavour.JUNIT5, "assertSame(b, a)"),
        ("assertThat(a).isNotEqualTo(b);", Flavour.JUNIT5, "assertNotEquals(b, a)"),
        ("assertThat(rows, hasSize(2));", Flavour.JUNIT4, "assertEquals(2, rows.size())"),
        ("assertThat(map, aMapWithSize(0));", Flavour.JUNIT4, "assertEquals(0, map.size())"),
        ("assertThat(rows, is(empty()));", Flavour.JUNIT4, "assertTrue(rows.isEmpty())"),
        ("assertThat(rows, not(empty()));", Flavour.JUNIT4, "assertFalse(rows.isEmpty())"),
        ("assertThat(map, hasKey(1));", Flavour.JUNIT4, "assertTrue(map.containsKey(1))"),
        ('assertThat(s, containsString("ab"));', Flavour.JUNIT4, 'assertTrue(s.contains("ab"))'),
        ("assertThat(a, sameInstance(b));", Flavour.JUNIT4, "assertSame(b, a)"),
        ("assertThat(a, not(nullValue()));", Flavour.JUNIT4, "assertNotNull(a)"),
        ("assertThat(a, is(not(3)));", Flavour.JUNIT4, "assertNotEquals(3, a)"),
        ("assertThat(flag, is(not(true)));", Flavour.JUNIT4, "assertFalse(flag)"),
        ("assertTrue(x != null);", Flavour.JUNIT4, "assertNotNull(x)"),
        ("assertTrue(!key1.equals(key2));", Flavour.JUNIT4, "assertFalse(key1.equals(key2))"),
        ('assertFalse("msg", !(p.isEmpty()));', Flavour.JUNIT4, "assertTrue(p.isEmpty())"),
        ("assertTrue(!(x == null));", Flavour.JUNIT4, "assertNotNull(x)"),
        ("assertTrue(!!done);", Flavour.JUNIT4, "assertTrue(done)"),
        ('assertTrue("msg", null == p.getParent());', Flavour.JUNIT4, "assertNull(p.getParent())"),
        ("assertFalse(x == null);", Flavour.JUNIT4, "assertNotNull(x)"),
        ("assertTrue(e.getContentSize() == 1);", Flavour.JUNIT4, "assertEquals(1, e.getContentSize())"),
        ("assertTrue((11 == e.size()));", Flavour.JUNIT4, "assertEquals(11, e.size())"),
        ("assertTrue(c != 'x');", Flavour.JUNIT4, "assertNotEquals('x', c)"),
        ('assertTrue("default".equals(str));', Flavour.JUNIT4, 'assertEquals("default", str)'),
        ('assertFalse(p.getName().equals("p1"));', Flavour.JUNIT4, 'assertNotEquals("p1", p.getName())'),
        # Identity against null or a class literal (Class compares by identity) is the JUnit form.
        (
            "assertSame(Map.class, t.getErasedType());",
            Flavour.JUNIT4,
            "assertEquals(Map.class, t.getErasedType())",
        ),
        (
            'assertNotSame("m", t.type(), List.class);',
            Flavour.JUNIT4,
            "assertNotEquals(List.class, t.type())",
        ),
        ("Assert.assertNotSame(null, histogram);", Flavour.JUNIT4, "assertNotNull(histogram)"),
        ("assertThat(a).isSameAs(null);", Flavour.JUNIT5, "assertNull(a)"),
        ("assertSame(a, b);", Flavour.JUNIT5, "assertSame(a, b)"),
    ],
)
def test_normalised_forms(line: str, flavour: Flavour, expected: str) -> None:
    truth = normalise_assertion(first_statement(line), flavour)
    assert truth is not None
    assert truth.text == expected


def test_grammar_coverage_depends_on_form_and_expected_value() -> None:
    covered = normalise_assertion(first_statement("assertEquals(Stack.MAX, s.size());"), Flavour.JUNIT5)
    computed = normalise_assertion(first_statement("assertEquals(a.size() + 1, s.size());"), Flavour.JUNIT5)
    same = normalise_assertion(first_statement("assertSame(a, b);"), Flavour.JUNIT5)
    contains = normalise_assertion(first_statement("assertThat(list).contains(3);"), Flavour.JUNIT5)
    assert covered is not None and covered.in_grammar
    assert computed is not None and not computed.in_grammar
    assert same is not None and not same.in_grammar
    assert contains is not None and contains.method == "assertThat" and not contains.in_grammar
    assert contains.family == "assertThat (AssertJ)"


@pytest.mark.parametrize(
    "line",
    [
        "assertTrue(a == b);",  # identity of references, or equality of primitives: unknown here
        "assertTrue(r == 0.5);",  # floating point: assertEquals compares within a delta
        "assertTrue(n > 0);",
        "assertTrue(a.equals(b));",  # a null a throws where assertEquals(a, b) would pass
        "assertTrue(1 == 1);",
    ],
)
def test_comparisons_without_an_exact_junit_form_stay_as_written(line: str) -> None:
    truth = normalise_assertion(first_statement(line), Flavour.JUNIT4)
    assert truth is not None and truth.method == "assertTrue"


@pytest.mark.parametrize(
    "line",
    [
        "assertThat(a + b).hasSize(2);",  # a.size() would need parentheses: left unmapped
        "assertThat(list).contains(3);",
        "assertThat(rows).hasSize(2).isNotEmpty();",  # two checks: no one JUnit form
        "assertThat(x, matches(EOF));",
        "assertThat(rows, hasSize(greaterThan(1)));",  # a matcher, not a size
        'assertThat(names, hasItem(startsWith("a")));',
    ],
)
def test_fluent_forms_without_an_exact_junit_form_stay_unmapped(line: str) -> None:
    truth = normalise_assertion(first_statement(line), Flavour.JUNIT5)
    assert truth is not None and truth.method == "assertThat"


def test_other_oracles_are_counted_but_fail_and_plain_calls_are_not_assertions() -> None:
    verify = normalise_assertion(first_statement("verify(mock).close();"), Flavour.JUNIT5)
    assert verify is not None and verify.method == "verify" and not verify.in_grammar
    assert normalise_assertion(first_statement('fail("boom");'), Flavour.JUNIT5) is None
    assert normalise_assertion(first_statement("s.push(1);"), Flavour.JUNIT5) is None


def test_canonical_expression_strips_suffixes_and_spaces_but_not_inside_literals() -> None:
    assert canonical_expression("assertEquals( 5L , x.get( 1 ) )") == "assertEquals(5,x.get(1))"
    assert canonical_expression("assertEquals(0.5f, r)") == canonical_expression("assertEquals(0.5, r)")
    assert canonical_expression('assertEquals("a b 5L", s)') == 'assertEquals("a b 5L",s)'
    assert canonical_expression("assertEquals(0xFFL, v)") == "assertEquals(0xFF,v)"
    assert canonical_expression("assertEquals('x', c)") == "assertEquals('x',c)"


def test_string_literals_joined_by_plus_are_the_one_literal_the_compiler_makes() -> None:
    """A developer splits a long expected string over lines; the observed value is one literal."""
    same = canonical_expression
    assert same('assertEquals("---\\n" + "key: \\"true\\"", yaml)') == same(
        'assertEquals("---\\nkey: \\"true\\"", yaml)'
    )
    assert same('assertEquals("a" + "b" + x + "c" + "d", s)') == 'assertEquals("ab"+x+"cd",s)'
    assert same('assertEquals("a\\\\" + "n", s)') == 'assertEquals("a\\\\n",s)'  # each escape stays whole
    # Not a receiver's literal, a character, or a value that is not a string literal.
    assert same('assertEquals("a" + "b".length(), s)') == 'assertEquals("a"+"b".length(),s)'
    assert same("assertEquals('a' + \"b\", s)") == "assertEquals('a'+\"b\",s)"
    assert same('assertEquals("a" + 1 + "b", s)') == 'assertEquals("a"+1+"b",s)'


def test_one_value_spelt_several_ways_is_one_key() -> None:
    same = canonical_expression
    assert same("assertEquals(42.0f, x)") == same("assertEquals(42, x)") == "assertEquals(42,x)"
    assert same("assertEquals(1.50, x, 0.0)") == "assertEquals(1.5,x,0)"
    assert same("assertEquals(Character.valueOf('&'), c)") == same("assertEquals('&', c)")
    assert same("assertEquals(java.lang.Integer.valueOf(3), m)") == "assertEquals(3,m)"
    assert same("assertEquals(Long.valueOf(-5L), x)") == "assertEquals(-5,x)"
    # Only literals are unboxed, only boxes are, and strings and other numbers keep their text.
    assert same("assertEquals(Integer.valueOf(x), y)") == "assertEquals(Integer.valueOf(x),y)"
    assert same("assertEquals(String.valueOf(3), s)") == "assertEquals(String.valueOf(3),s)"
    assert same('assertEquals("1.0", s)') == 'assertEquals("1.0",s)'
    assert same("assertEquals(1.05, x)") == "assertEquals(1.05,x)"
    assert same("assertEquals(1.0e5, x)") == "assertEquals(1.0e5,x)"
    assert same("assertEquals(v1.0, x)") == "assertEquals(v1.0,x)"
