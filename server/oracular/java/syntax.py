"""Small, generic helpers over tree-sitter Java nodes, shared by every analysis module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from tree_sitter import Node

T = TypeVar("T")

STATEMENT_SKIP = frozenset({"line_comment", "block_comment", "{", "}", ";"})


def text(node: Node | None) -> str:
    """The source text of a node (tree-sitter keeps the bytes, so this is cheap)."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def walk(node: Node) -> Iterator[Node]:
    """Pre-order traversal, iterative so deeply nested code cannot hit the recursion limit."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def walk_skipping_classes(node: Node) -> Iterator[Node]:
    """Pre-order traversal that does not enter nested class bodies (their code runs elsewhere)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in reversed(current.children):
            if child.type not in ("class_body", "class_declaration", "interface_declaration"):
                stack.append(child)


DECLARATION_CONTAINERS = frozenset(
    {
        "program",
        "class_declaration",
        "class_body",
        "enum_declaration",
        "enum_body",
        "enum_body_declarations",
        "interface_declaration",
        "interface_body",
        "record_declaration",
    }
)
"""Where the members of a file's classes sit (classes nested in classes included)."""


def member_declarations(root: Node) -> Iterator[Node]:
    """The members of the file's classes in source order, never entering a method body.

    A few hundred nodes in a file of tens of thousands: finding the tests or the helpers of a
    2,000-line file this way costs a fraction of a full walk. Local and anonymous classes, whose
    code lives in a method body, are not visited (JUnit does not run their methods either).
    """
    stack = [root]
    while stack:
        node = stack.pop()
        if node is not root:
            yield node
        if node is root or node.type in DECLARATION_CONTAINERS:
            stack.extend(reversed(node.named_children))


def statements(block: Node) -> list[Node]:
    """The statements directly inside a block, in order, without comments and braces."""
    return [c for c in block.named_children if c.type not in STATEMENT_SKIP]


def annotations(declaration: Node) -> list[Node]:
    """Annotation nodes in a declaration's modifiers."""
    for child in declaration.children:
        if child.type == "modifiers":
            return [c for c in child.children if c.type in ("annotation", "marker_annotation")]
    return []


def annotation_name(annotation: Node) -> str:
    """Simple name of an annotation: ``@org.junit.Test`` -> ``Test``."""
    name = annotation.child_by_field_name("name")
    return text(name).rsplit(".", 1)[-1]


def annotation_arguments(annotation: Node) -> dict[str, str]:
    """Element-value pairs of an annotation as raw text; a lone value is keyed ``value``."""
    args = annotation.child_by_field_name("arguments")
    if args is None:
        return {}
    pairs: dict[str, str] = {}
    for child in args.named_children:
        if child.type == "element_value_pair":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            pairs[text(key)] = text(value)
        elif child.type not in ("line_comment", "block_comment"):
            pairs["value"] = text(child)
    return pairs


def modifiers(declaration: Node) -> frozenset[str]:
    """Keyword modifiers (``public``, ``static``, ``final``...) of a declaration."""
    for child in declaration.children:
        if child.type == "modifiers":
            return frozenset(
                text(c) for c in child.children if c.type not in ("annotation", "marker_annotation")
            )
    return frozenset()


def preceding_javadoc(declaration: Node) -> str | None:
    """The ``/** ... */`` comment directly before a declaration, if any."""
    prev = declaration.prev_sibling
    while prev is not None and prev.type == "line_comment":
        prev = prev.prev_sibling
    if prev is not None and prev.type == "block_comment" and text(prev).startswith("/**"):
        return text(prev)
    return None


def declared_type(declaration: Node, declarator: Node) -> str:
    """The type ``declarator`` declares: the declaration's, with the C-style dimensions after the
    name (``String item[] = reader.readNext();`` declares a ``String[]``)."""
    dimensions = declarator.child_by_field_name("dimensions")
    type_text = text(declaration.child_by_field_name("type"))
    return type_text + "".join(text(dimensions).split()) if dimensions is not None else type_text


def call_name(invocation: Node) -> str:
    return text(invocation.child_by_field_name("name"))


def enclosing(node: Node, *types: str) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type not in types:
        parent = parent.parent
    return parent


CLASS_LIKE = ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration")


class ByText(Generic[T]):
    """What ``compute`` makes of a node depending on its text alone, remembered by that text:
    an editor re-extracts every method of a file after each edit, and nearly all of them are
    unchanged. Bounded: forgotten all at once when ``kept`` texts are held."""

    def __init__(self, compute: Callable[[Node], T], kept: int) -> None:
        self.compute = compute
        self.kept = kept
        self._found: dict[bytes, T] = {}

    def __call__(self, node: Node) -> T:
        key = node.text or b""
        found = self._found.get(key)
        if found is None:
            if len(self._found) >= self.kept:
                self._found.clear()
            found = self._found[key] = self.compute(node)
        return found
