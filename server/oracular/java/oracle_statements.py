"""The parts of an oracle statement: its call chain, and whether it is a "must not get here" line.

Why apart from :mod:`oracular.java.oracles` (which decides whether a test checks anything at all):
these read one statement's shape, and both the editor's quality checks and the offline corpus
(cutting developers' tests before their oracle) need the same answers. One definition each, so
the corpus and the editor never disagree on what a ``fail`` is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.assertions import ASSERT_FALSE, ASSERT_TRUE, FAIL
from oracular.java.oracles import is_oracle_call

if TYPE_CHECKING:
    from oracular.java.junit import TestMethod

FAIL_NAMES = frozenset({FAIL, "failBecauseExceptionWasNotThrown", "shouldHaveThrown"})
ASSERTJ_THROWN = {
    "assertThatIllegalArgumentException": "IllegalArgumentException",
    "assertThatIllegalStateException": "IllegalStateException",
    "assertThatNullPointerException": "NullPointerException",
    "assertThatIOException": "IOException",
    "assertThatIndexOutOfBoundsException": "IndexOutOfBoundsException",
}
"""AssertJ's ``assertThatX()`` entry points and the exception type each expects."""


def call_args(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    return list(args.named_children) if args is not None else []


def call_chain(expression: Node) -> list[Node]:
    """``a(x).b().c(y)`` as ``[a, b, c]`` (innermost call first); ``[]`` if not a call."""
    chain = []
    node: Node | None = expression
    while node is not None and node.type == "method_invocation":
        chain.append(node)
        node = node.child_by_field_name("object")
    return chain[::-1]


def statement_call(statement: Node) -> Node | None:
    """The call a statement consists of: ``f(...);`` or ``T v = f(...);``."""
    if statement.type == "expression_statement" and statement.named_children:
        expr = statement.named_children[0]
        return expr if expr.type == "method_invocation" else None
    if statement.type == "local_variable_declaration":
        declarators = statement.children_by_field_name("declarator")
        value = declarators[-1].child_by_field_name("value") if declarators else None
        return value if value is not None and value.type == "method_invocation" else None
    return None


def closing_calls(method: Node) -> dict[str, list[tuple[str, ...]]]:
    """The calls a method's body ends with, by ``name`` or, on a named receiver, ``Receiver.name``,
    each with its arguments' texts: the last statements that are calls, up to the first that is not, and never
    the first of several statements. That is where a suite's helper checks what the test did:
    commons-email's ``getMailServer()`` (void, asserting that the server started) opens its tests,
    commons-io's ``checkCollectionsEmpty("A")`` comes before the next action; xmlunit's
    ``assertParsedDocumentEqual(xHtmlDocument, goodHTML)``, a test of one statement, is all check."""
    body = method.child_by_field_name("body")
    statements = [s for s in body.named_children if "comment" not in s.type] if body is not None else []
    start, floor = len(statements), 0 if len(statements) == 1 else 1
    while start > floor and _call_statement(statements[start - 1]) is not None:
        start -= 1
    found: dict[str, list[tuple[str, ...]]] = {}  # in the order the test calls them
    for statement in statements[start:]:
        call = _call_statement(statement)
        # a chain (``assertThat(x).isTrue()``) is no helper of the suite
        if call is not None and len(call_chain(call)) == 1:
            receiver = call.child_by_field_name("object")
            name = syntax.call_name(call)
            key = name if receiver is None else f"{syntax.text(receiver)}.{name}"
            found.setdefault(key, []).append(tuple(syntax.text(a) for a in call_args(call)))
    return found


def _call_statement(statement: Node) -> Node | None:
    return statement_call(statement) if statement.type == "expression_statement" else None


def is_oracle_statement(statement: Node, extra: frozenset[str] = frozenset()) -> bool:
    """A statement whose call chain contains an assertion entry point (``verify``, AssertJ...)."""
    call = statement_call(statement)
    return call is not None and any(is_oracle_call(syntax.call_name(c), extra) for c in call_chain(call))


def is_fail(node: Node) -> bool:
    """A line that must not be reached: ``fail(...)``, ``assertTrue(false)``, ``throw new AssertionError``."""
    if node.type == "throw_statement":
        return "AssertionError" in syntax.text(node) or "AssertionFailedError" in syntax.text(node)
    if node.type != "method_invocation":
        return False
    name = syntax.call_name(node)
    if name in FAIL_NAMES:
        return True
    args = node.child_by_field_name("arguments")
    last = syntax.text(args.named_children[-1]) if args is not None and args.named_children else ""
    return (name, last) in ((ASSERT_TRUE, "false"), (ASSERT_FALSE, "true"))


def contains_fail(node: Node | None) -> bool:
    """Whether ``node`` holds a fail line of its own (those in nested classes belong to them)."""
    return node is not None and any(is_fail(n) for n in syntax.walk_skipping_classes(node))


def ends_with_fail(statements: list[Node]) -> bool:
    """Whether the last of ``statements`` is a fail line (the ``try`` of a try/``fail``/catch)."""
    if not statements:
        return False
    last = statements[-1]
    call = statement_call(last)
    return is_fail(call if call is not None else last)


def caught_types(catch: Node) -> list[str]:
    """The simple names a ``catch`` clause catches (``catch (A | b.B e)``: ``A``, ``B``)."""
    param = next((c for c in catch.named_children if c.type == "catch_formal_parameter"), None)
    caught = next((c for c in param.named_children if c.type == "catch_type"), None) if param else None
    return [syntax.text(t).rsplit(".", 1)[-1] for t in caught.named_children] if caught is not None else []


def _after_fail(catch: Node) -> bool:
    """A ``catch`` of a try/``fail``/catch: its ``try`` block ends with a fail line."""
    block = catch.parent.child_by_field_name("body") if catch.parent is not None else None
    return block is not None and ends_with_fail(syntax.statements(block))


def _in_fail_message(node: Node) -> bool:
    """A class literal in ``fail("Expected " + IOException.class.getName())``: what the message
    names, not what the test catches (commons-io's writer tests catch ``IOExceptionList``)."""
    call = syntax.enclosing(node, "method_invocation")
    while call is not None and syntax.call_name(call) != FAIL:  # not failBecause...(X.class)
        call = syntax.enclosing(call, "method_invocation")
    return call is not None


def expected_exception_types(test: TestMethod, nodes: Iterable[Node], any_catch: bool) -> list[str]:
    """The simple names of the exception types ``test`` says it expects, each once, in order:
    ``@Test(expected = X.class)``, a class literal among ``nodes`` named like a throwable
    (``assertThrows(X.class, ...)``, a rule's ``thrown.expect(X.class)``; not one in a ``fail``
    message), AssertJ's ``assertThatX()``, and what a ``catch`` catches: that of a
    try/``fail``/catch only, or with ``any_catch`` every one (a generous reading, for checks that
    must not miss a stated type)."""
    found: dict[str, None] = {}
    if test.expected_exception:
        stated = (e.strip().removesuffix(".class") for e in test.expected_exception.split(","))
        found.update(dict.fromkeys(e.rsplit(".", 1)[-1] for e in stated))
    for node in nodes:
        if node.type == "class_literal" and not _in_fail_message(node):
            name = syntax.text(node).removesuffix(".class").rsplit(".", 1)[-1]
            if name.endswith(("Exception", "Error")):
                found[name] = None
        elif node.type == "catch_clause" and (any_catch or _after_fail(node)):
            found.update(dict.fromkeys(caught_types(node)))
        elif node.type == "method_invocation" and syntax.call_name(node) in ASSERTJ_THROWN:
            found[ASSERTJ_THROWN[syntax.call_name(node)]] = None
    return list(found)
