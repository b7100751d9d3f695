"""Scratch copies: one generated method per variant, edits applied, names and lines mapped."""

from __future__ import annotations

import re
from pathlib import Path

from oracular.candidates.render import TextEdit
from oracular.execution.scratch import ScratchBuilder, Variant, append_edit, body_edit, byte_edit
from oracular.java.junit import find_test_methods
from oracular.java.source import parse_text

from ..conftest import java

SOURCE = """
package org.example;

import org.junit.jupiter.api.Test;

class CounterTest {
    @Test
    void counts() {
        Counter c = new Counter();
        c.add(2);
    }

    @Test
    void other() {
        helper();
    }

    @Test
    void calledByHelper() {
    }

    void helper() {
        calledByHelper();
    }
}
"""


def _tests(source):
    return {t.name: t for t in find_test_methods(source, [])}


def test_variants_become_named_methods_with_their_edits_and_line_ranges() -> None:
    source = java(SOURCE)
    tests = _tests(source)
    counts = tests["counts"]
    last = counts.body.named_children[-1]
    end = source.position(last.end_byte)
    insert = byte_edit(source, TextEdit(end, end, "\n        assertEquals(2, c.total());"))
    builder = ScratchBuilder(source)
    builder.replace(counts, [Variant("bare"), Variant("oracle", (insert,))])
    builder.drop_other_tests(tests.values())
    builder.add_imports(["import static org.junit.jupiter.api.Assertions.assertEquals;"])
    scratch = builder.build()

    parsed = parse_text(scratch.text)
    assert not parsed.root.has_error
    assert set(scratch.methods) == {"bare", "oracle"}
    bare, oracle = scratch.methods["bare"], scratch.methods["oracle"]
    assert (bare.name, oracle.name) == ("oracular$1", "oracular$2")
    assert bare.class_name == oracle.class_name == "org.example.CounterTest"
    lines = scratch.text.splitlines()
    oracle_text = "\n".join(lines[oracle.first_line - 1 : oracle.last_line])
    assert lines[oracle.first_line - 1].strip() == "@Test"  # the method starts at its annotations
    assert "void oracular$2()" in oracle_text
    assert "assertEquals(2, c.total());" in oracle_text
    assert "assertEquals" not in "\n".join(lines[bare.first_line - 1 : bare.last_line])
    assert scratch.method_at(oracle.first_line + 1) == "oracle"
    # The original test emptied (a superclass may declare it abstract), an unreferenced test
    # emptied (a subclass may call it), a test a helper calls kept whole.
    assert re.search(r"void counts\(\) \{ \}", scratch.text)
    assert re.search(r"void other\(\) \{ \}", scratch.text)
    assert "void calledByHelper()" in scratch.text and "void calledByHelper() { }" not in scratch.text
    assert "import static org.junit.jupiter.api.Assertions.assertEquals;" in scratch.text
    assert scratch.relative_path == Path("org/example/Snippet.java")
    assert scratch.top_level == ("org.example.CounterTest",)


def test_excluded_variants_are_left_out_and_lines_still_map() -> None:
    source = java(SOURCE)
    counts = _tests(source)["counts"]
    builder = ScratchBuilder(source)
    builder.replace(counts, [Variant("a"), Variant("b", (append_edit(counts, ["int x = 1;"], source),))])
    scratch = builder.build(exclude={"a"})
    assert set(scratch.methods) == {"b"}
    assert "int x = 1;" in scratch.text.splitlines()[scratch.methods["b"].last_line - 2]


def test_junit3_methods_keep_the_test_prefix_and_nested_classes_get_binary_names() -> None:
    source = java(
        """
        package p;
        import junit.framework.TestCase;
        public class OuterTest extends TestCase {
            public void testSum() { int s = 1 + 1; }
        }
        class Holder {
            static class InnerTest {
                @org.junit.Test public void works() { int x = 2; }
            }
        }
        """
    )
    tests = {t.name: t for t in find_test_methods(source, [])}
    builder = ScratchBuilder(source)
    builder.replace(tests["testSum"], [Variant("j3", (body_edit(tests["testSum"], ["int s = 3;"], source),))])
    builder.replace(tests["works"], [Variant("nested")])
    scratch = builder.build()
    assert scratch.methods["j3"].name.startswith("testOracular$")
    assert scratch.methods["nested"].class_name == "p.Holder$InnerTest"
    assert "int s = 3;" in scratch.text
    assert not parse_text(scratch.text).root.has_error


def test_an_edit_outside_the_test_is_refused() -> None:
    source = java(SOURCE)
    tests = _tests(source)
    builder = ScratchBuilder(source)
    outside = body_edit(tests["other"], ["x();"], source)
    try:
        builder.replace(tests["counts"], [Variant("bad", (outside,))])
    except ValueError as exc:
        assert "outside" in str(exc)
    else:
        raise AssertionError("an edit outside the test method was accepted")
