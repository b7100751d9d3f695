"""What the file's other tests assert on, read again in an oracle-free test."""

from __future__ import annotations

import pytest

from oracular.engine import OracleEngine
from oracular.java.file_reads import file_read_targets, tidy
from oracular.java.source import new_parser

from ..conftest import java
from .test_targets import analysed

READS_TEST = """
package org.example.stack;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;
class StackTest {
    static final int LIMIT = 3;
    @org.junit.jupiter.api.Test
    void first() {
        Stack<Integer> s = new Stack<>();
        s.push(1);
        assertTrue(s.contains( 1 ));
        assertEquals(1, s.search(LIMIT));
    }
    @org.junit.jupiter.api.Test
    void second() {
        Stack<Integer> s = new Stack<>();
        List<String> names = new ArrayList<>();
        assertTrue(s.contains(1));
        assertEquals("[]", Arrays.asList(names.toArray(new String[0])).toString());
        assertEquals(0, names.size());
    }
    @org.junit.jupiter.api.Test
    void oracleFree() {
        Stack<Integer> s = new Stack<>();
        s.push(2);
    }
}
"""


def test_the_reads_are_the_expressions_the_files_tests_assert_on_the_most_common_first(
    engine: OracleEngine,
) -> None:
    analysis = engine.analyse(java(READS_TEST))
    reads = analysis.asserted_reads
    assert reads[0] == "s.contains( 1 )"  # both tests assert it, however spaced; as first written
    assert set(reads) >= {"s.search(LIMIT)", "names.size()"}
    assert "1" not in reads and "LIMIT" not in reads  # literals and plain names read no member


def test_a_read_becomes_a_target_where_every_name_it_uses_is_known(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        "Stack<Integer> s = new Stack<>();\ns.push(2);",
        members="static final int LIMIT = 3; static final List<String> NAMES = new ArrayList<>();",
    )
    texts = [
        "s.contains( 1 )",
        "s.contains(LIMIT)",
        "names.size()",
        "s.peek()",
        "s.peek() + other",
        "s.search(1)",
        "s.hashCode()",  # one hash, read alone: arbitrary (another test compares two)
    ]
    found = {t.expression: (t.type, t.kind) for t in file_read_targets(texts, prefix.env)}
    assert found == {
        "s.contains(1)": ("boolean", "query"),
        "s.contains(LIMIT)": ("boolean", "query"),
        "s.peek()": ("Integer", "action"),  # it may change state (it does not): observed alone
    }  # names and other are not this test's; what search returns is not known here; NAMES.size()
    # reads constants alone: it says nothing of what this test did
    assert len(file_read_targets(texts, prefix.env, limit=1)) == 1


def test_the_oracle_free_test_is_offered_what_its_neighbours_assert_on(engine: OracleEngine) -> None:
    report = engine.suggest(java(READS_TEST))
    (test,) = report.tests
    oracles = [s.oracle for s in test.suggestions]
    assert "assertTrue(s.contains(1));" in oracles


@pytest.mark.parametrize(
    ("written", "tidied"),
    [
        ('options.has( "c" )', 'options.has("c")'),
        (
            'Pattern.matches(\n    "a  b" + "\\n",  w.toString())',
            'Pattern.matches("a  b" + "\\n", w.toString())',
        ),
        ("! diff . similar ( )", "!diff.similar()"),
        ("a.b(x,y)[0] + 1", "a.b(x, y)[0] + 1"),
        ("a - (b * c)", "a - (b * c)"),
    ],
)
def test_a_read_is_written_as_oracular_writes_code(written: str, tidied: str) -> None:
    root = new_parser().parse(f"class _R {{ Object _r = {written}; }}".encode()).root_node
    declarator = root.named_children[0].child_by_field_name("body").named_children[0]
    value = declarator.child_by_field_name("declarator").child_by_field_name("value")
    assert tidy(value) == tidied
