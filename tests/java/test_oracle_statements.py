"""One "fail line" rule for the editor's quality checks and the corpus's reading of developers' oracles.

Why: the two used to disagree (the corpus knew only ``fail(...)``), so a developer's
``throw new AssertionError()`` in a try/catch was an expected-exception oracle to the quality checks
and no oracle at all to the corpus.
"""

from __future__ import annotations

import pytest

from oracular.corpus.samples import exception_oracle, is_not_throw_oracle
from oracular.java import syntax
from oracular.java.oracle_statements import contains_fail, ends_with_fail, is_fail

from ..conftest import java

FAIL_LINES = [
    'fail("expected");',
    "Assert.fail();",
    'throw new AssertionError("expected");',
    "assertTrue(false);",
    'assertFalse("never", true);',
    "failBecauseExceptionWasNotThrown(IllegalStateException.class);",
]


def _body(statements: str) -> list:
    source = java(f"class T {{ void t() {{ {statements} }} }}")
    block = next(n for n in syntax.walk(source.root) if n.type == "block")
    return syntax.statements(block)


@pytest.mark.parametrize("line", FAIL_LINES)
def test_every_form_of_a_fail_line_is_one(line: str) -> None:
    statements = _body(f"stack.pop(); {line}")
    assert ends_with_fail(statements)
    assert contains_fail(statements[-1])


@pytest.mark.parametrize("line", ["assertTrue(done);", "stack.pop();", "throw new IOException();"])
def test_other_lines_are_not(line: str) -> None:
    statements = _body(line)
    assert not ends_with_fail(statements)
    assert not any(is_fail(n) for s in statements for n in syntax.walk(s))


@pytest.mark.parametrize("line", FAIL_LINES)
def test_the_corpus_reads_try_fail_catch_with_every_fail_line(line: str) -> None:
    statement = _body(f"try {{ stack.pop(); {line} }} catch (EmptyStackException e) {{ }}")[0]
    oracle = exception_oracle(statement)
    assert oracle is not None and oracle.exception == "EmptyStackException"
    assert oracle.inner == ["stack.pop();"]


@pytest.mark.parametrize("line", FAIL_LINES)
def test_the_corpus_reads_catch_then_fail_as_must_not_throw(line: str) -> None:
    statement = _body(f"try {{ stack.pop(); }} catch (EmptyStackException e) {{ {line} }}")[0]
    assert is_not_throw_oracle(statement)


def test_a_fail_line_inside_a_nested_class_belongs_to_that_class() -> None:
    statement = _body('Runnable r = new Runnable() { public void run() { fail("x"); } };')[0]
    assert not contains_fail(statement)
