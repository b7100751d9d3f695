"""Cutting developer tests before their oracle, and the recorded-value regression oracle."""

from __future__ import annotations

from oracular.corpus.devtests import cut_file, oracle_free_copy
from oracular.engine import OracleEngine
from oracular.evaluation.regression import regression_body
from oracular.execution.jvm import Observation, TestOutcome
from oracular.execution.observe import observe_statement
from oracular.java.junit import Flavour

from ..conftest import java

TESTS = """
package org.example.stack;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class CutTest {
    @Test
    public void sizeAfterPush() {
        Stack<Integer> s = new Stack<>();
        s.push(1);
        assertEquals(1, s.size());
        s.push(2);
        assertEquals(2, s.size());
    }

    @Test(expected = java.util.EmptyStackException.class)
    public void popEmpty() {
        Stack<Integer> s = new Stack<>();
        s.pop();
    }

    @Test
    public void peekEmpty() {
        Stack<Integer> s = new Stack<>();
        assertThrows(java.util.EmptyStackException.class, () -> s.peek());
    }

    @Test
    public void noOracle() {
        new Stack<Integer>().push(3);
    }

    @Test
    public void oracleFirst() {
        assertEquals(1, 1);
    }
}
"""


def test_tests_are_cut_before_their_first_oracle(engine: OracleEngine) -> None:
    source = java(TESTS)
    analysis = engine.analyse(source)
    cuts = {c.name: c for c in cut_file(engine, analysis)}
    assert set(cuts) == {"sizeAfterPush", "popEmpty", "peekEmpty"}  # nothing to cut before / no oracle

    size = cuts["sizeAfterPush"]
    assert size.kind == "assertion"
    # `s.size()` is already a target (an observer of `s`), so no call is appended; the first
    # oracle is where the test is cut.
    assert size.prefix == ("Stack<Integer> s = new Stack<>();", "s.push(1);")
    assert size.dev == ("Stack<Integer> s = new Stack<>();", "s.push(1);", "assertEquals(1, s.size());")

    pop = cuts["popEmpty"]
    assert (pop.kind, pop.dev_expected) == ("exception", "java.util.EmptyStackException")
    assert pop.prefix == pop.dev == ("Stack<Integer> s = new Stack<>();", "s.pop();")

    peek = cuts["peekEmpty"]
    assert peek.kind == "exception"
    assert peek.prefix == ("Stack<Integer> s = new Stack<>();", "s.peek();")
    assert peek.dev[-1].startswith("assertThrows(")


def test_the_oracle_free_copy_has_no_oracles_left_in_the_cut_tests(engine: OracleEngine) -> None:
    source = java(TESTS)
    analysis = engine.analyse(source)
    cuts = cut_file(engine, analysis)
    copy = oracle_free_copy(source, analysis, cuts)
    assert not copy.root.has_error
    oracle_free = {s.test.name for s in engine.analyse(copy).oracle_free}
    assert {"sizeAfterPush", "popEmpty", "peekEmpty", "noOracle"} <= oracle_free
    assert "expected =" not in copy.text
    assert "public void popEmpty() throws Exception {" in copy.text  # an unwrapped lambda may throw


def test_regression_oracles_record_the_observed_value() -> None:
    passed = TestOutcome("passed")
    prefix = ["int v = c.value();"]
    body = regression_body(Flavour.JUNIT5, prefix, "v", passed, Observation("literal", "int", "-1"))
    assert body == [*prefix, "org.junit.jupiter.api.Assertions.assertEquals((Object) (-1), (Object) (v));"]
    body = regression_body(Flavour.JUNIT4, prefix, "ok", passed, Observation("boolean", "boolean", "false"))
    assert body is not None and body[-1] == "org.junit.Assert.assertFalse((ok));"
    body = regression_body(Flavour.JUNIT3, prefix, "s", passed, Observation("null", "null", "null"))
    assert body is not None and body[-1] == "junit.framework.Assert.assertNull((s));"
    body = regression_body(Flavour.JUNIT5, prefix, "o", passed, Observation("object", "p.Thing", ""))
    assert body is not None and body[-1].endswith("assertNotNull((o));")
    for observed, oracle in [
        (
            Observation("array", "[I", "new int[] {1, 2}"),
            "assertTrue(java.util.Objects.deepEquals(new int[] {1, 2}, (v)));",
        ),
        (
            Observation("list", "java.util.ArrayList", '"a"'),
            'assertEquals(java.util.Arrays.asList("a"), (Object) (v));',
        ),
        (Observation("enum", "p.Color", "RED"), 'assertEquals("RED", String.valueOf((Object) (v)));'),
        (Observation("class", "java.lang.Class", "p.Thing"), "assertEquals(p.Thing.class, (Object) (v));"),
    ]:
        body = regression_body(Flavour.JUNIT5, prefix, "v", passed, observed)
        assert body is not None and body[-1] == f"org.junit.jupiter.api.Assertions.{oracle}"


def test_a_prefix_that_threw_is_recorded_as_an_expected_exception() -> None:
    threw = TestOutcome("failed", exception="java.lang.IllegalStateException")
    body = regression_body(Flavour.JUNIT5, ["c.increment();"], "c.value()", threw, None)
    assert body is not None
    assert "c.increment();" in body[0] and '"java.lang.IllegalStateException"' in body[0]
    assert body[1].startswith("org.junit.jupiter.api.Assertions.fail(")
    assert regression_body(Flavour.TESTNG, [], "x", TestOutcome("passed"), None) is None
    assert "oracular.exec.Observe.value" in observe_statement("3", "s.size()")
