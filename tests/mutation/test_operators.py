"""Mutation operators: what each one produces, and what is deliberately left alone."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from oracular.java.source import load_source, parse_text
from oracular.mutation.operators import OPERATORS, default_value, mutants_for

from ..conftest import EXAMPLE, java

SNIPPET = """
package p;

import java.util.List;

public class Calc {
    public static final int LIMIT = 10;
    private int total;

    public int add(int x) {
        if (x < 0 || x > LIMIT) {
            throw new IllegalArgumentException("bad " + x);
        }
        total += x;
        total++;
        log.debug("added");
        record(x);
        return total * 2 - x;
    }

    public boolean isBig() {
        return total >= 100;
    }

    public List<String> names() {
        return List.of("a");
    }

    public String label() {
        return "calc";
    }

    public void reset() {
        total = -total;
    }

    private void record(int x) {
        assert x >= 0;
    }

    static class Helper {
        int twice(int y) { return y * 2; }
    }
}

class Other {
    int one() { return 1; }
}
"""


def _mutants(classes=None):
    source = java(SNIPPET)
    return source, mutants_for(source, Path("Calc.java"), classes)


def _changes(mutants, operator):
    return sorted((m.original, m.replacement) for m in mutants if m.operator == operator)


def test_every_operator_fires_on_the_snippet_and_every_mutant_still_parses() -> None:
    source, mutants = _mutants({"p.Calc"})
    assert {m.operator for m in mutants} == set(OPERATORS)
    for mutant in mutants:
        mutated = parse_text(mutant.apply(source.data).decode("utf-8"))
        assert not mutated.root.has_error, mutant.description
    assert len({(m.start, m.end, m.replacement) for m in mutants}) == len(mutants)  # no duplicates


def test_operator_replacements_follow_pit() -> None:
    _, mutants = _mutants({"p.Calc"})
    assert ("<", "<=") in _changes(mutants, "boundary")
    assert (">=", ">") in _changes(mutants, "boundary")
    assert ("<", ">=") in _changes(mutants, "negate")
    assert ("*", "/") in _changes(mutants, "math")
    assert ("-", "+") in _changes(mutants, "math")
    assert ("+=", "-=") in _changes(mutants, "math")
    assert ("++", "--") in _changes(mutants, "increments")
    assert ("-total", "total") in _changes(mutants, "invert-negs")
    assert ("2", "3") in _changes(mutants, "constant")
    assert ("100", "101") in _changes(mutants, "constant")
    returns = _changes(mutants, "return-default")
    assert ("total >= 100", "false") in returns
    assert ('List.of("a")', "java.util.Collections.emptyList()") in returns
    assert ('"calc"', '""') in returns
    assert ("record(x);", ";") in _changes(mutants, "void-call")
    extreme = [r for _, r in _changes(mutants, "extreme")]
    assert "{ return true; }" in extreme and "{ return false; }" in extreme and "{ }" in extreme


def test_constants_strings_logging_and_asserts_are_left_alone() -> None:
    source, mutants = _mutants({"p.Calc"})
    start = source.data.index(b"assert x >= 0;")
    assert not any(start <= m.start < start + len(b"assert x >= 0;") for m in mutants)  # asserts are off
    # `LIMIT = 10` is inlined by javac into other classes; string concatenation has no `-`.
    assert not any(m.original == "10" for m in mutants)
    assert not any(m.operator == "math" and m.original == "+" for m in mutants)
    assert not any("log.debug" in m.original for m in mutants if m.operator == "void-call")


def test_only_the_named_classes_and_their_nested_classes_are_mutated() -> None:
    _, mutants = _mutants({"p.Calc"})
    methods = {m.method for m in mutants}
    assert "twice" in methods  # nested in Calc
    assert "one" not in methods  # another top-level class
    _, other = _mutants({"p.Other"})
    assert {m.method for m in other} == {"one"}


def test_default_values_per_type() -> None:
    assert default_value("void") is None
    assert default_value("long") == "0L"
    assert default_value("Integer") == "0"
    assert default_value("Map<String, List<Integer>>") == "java.util.Collections.emptyMap()"
    assert default_value("Optional<String>") == "java.util.Optional.empty()"
    assert default_value("int[]") == "null"
    assert default_value("T") == "null"


def test_the_example_classes_yield_mutants_on_every_line_that_computes() -> None:
    path = EXAMPLE / "src/main/java/org/example/stack/BoundedCounter.java"
    mutants = mutants_for(load_source(path), path, {"org.example.stack.BoundedCounter"})
    counts = Counter(m.operator for m in mutants)
    assert counts["increments"] == 1 and counts["extreme"] >= 5 and counts["boundary"] == 2
    assert all(m.path == path for m in mutants)


def test_extreme_mutants_return_this_for_a_builder_and_the_argument_for_an_identity() -> None:
    source = java(
        "class Builder {\n"
        "  int size;\n"
        "  Builder size(int s) { size = s; return this; }\n"
        "  String trim(String text) { return text.trim(); }\n"
        "  static Builder create() { return new Builder(); }\n"
        "}\n"
    )
    extreme = {(m.method, m.replacement) for m in mutants_for(source, Path("B.java"), None, ("extreme",))}
    assert ("size", "{ return this; }") in extreme and ("size", "{ return null; }") in extreme
    assert ("trim", "{ return text; }") in extreme and ("trim", '{ return ""; }') in extreme
    assert ("create", "{ return this; }") not in extreme  # static: no `this`
