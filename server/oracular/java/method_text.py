"""A test method on its own: a cut test's statements as a method, and such a method parsed back.

Why: a test cut before its oracle (mined samples, the quality checks' "what if this line were
gone") no longer exists in any file; it is written out as a standalone method and parsed inside
a wrapper class, so that the same tree-sitter analysis runs on it as on a real test.
"""

from __future__ import annotations

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.junit import TestMethod
from oracular.java.source import parse_text

_WRAPPER_HEAD = "class OracularPrefix {\n"


def synthesise_method(test: TestMethod, number: int, statements: list[str]) -> str:
    """The cut test as a method: ``void testN(params) { ... }`` (no annotations, no throws)."""
    params = syntax.text(test.node.child_by_field_name("parameters")) or "()"
    body = "".join(f"    {s}\n" for s in statements)
    return f"void test{number}{params} {{\n{body}}}"


def parse_method(method_text: str) -> Node:
    """Parse a synthesised method (inside a wrapper class) and return its declaration node."""
    source = parse_text(_WRAPPER_HEAD + method_text + "\n}\n")
    for node in syntax.walk(source.root):
        if node.type == "method_declaration":
            return node
    raise ValueError("not a method")  # unreachable: the wrapper always holds one
