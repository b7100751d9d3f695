"""What a test's prefix wrote, statement by statement: each local's writes, its literal initialiser,
whether it is a fixed-size list or an array the prefix created (what an oracle on it restates)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.types import (
    LITERAL_TYPES,
    literal_type,
    split_generic,
)


def _declared_value(statement: Node, name: str) -> Node | None:
    for declarator in statement.children_by_field_name("declarator"):
        if syntax.text(declarator.child_by_field_name("name")) == name:
            return declarator.child_by_field_name("value")
    return None


def is_literal(node: Node | None) -> bool:
    """A literal, or an array initialiser of literals (``{1, 2}``, ``new int[] {1, 2}``)."""
    if node is None:
        return False
    if node.type in LITERAL_TYPES or literal_type(node) is not None:
        return True
    if node.type == "array_creation_expression":
        node = node.child_by_field_name("value")
    if node is not None and node.type == "array_initializer":
        return all(is_literal(c) for c in node.named_children)
    return False


def _written_name(node: Node) -> Node | None:
    """The local a node writes: ``x = ...``, ``x[0] = ...``, ``x.f = ...``, ``x++``, ``x.call()``."""
    written = None
    if node.type == "assignment_expression":
        written = node.child_by_field_name("left")
        while written is not None and written.type in ("array_access", "field_access"):
            written = written.child_by_field_name("array" if written.type == "array_access" else "object")
    elif node.type == "method_invocation":
        written = node.child_by_field_name("object")
    elif node.type == "update_expression":
        written = next((c for c in node.named_children if c.type == "identifier"), None)
    return written if written is not None and written.type == "identifier" else None


@dataclass
class WriteHistory:
    """What the prefix did to each local: when it last wrote it, and what it holds."""

    last: dict[str, int]
    """Local -> index of the last top-level statement that assigned it or called a method on it."""
    restated: set[str]
    """Locals initialised with a literal and never written again: asserting on them restates input."""
    fresh: set[str]
    """Locals holding a ``new`` object (never reassigned): asserting they are not null cannot fail."""
    sized: dict[str, str] = field(default_factory=dict)
    """Variable -> how its size is read (``.length``, ``.size()``), for those last assigned an
    array the prefix created (``{"-a", "b"}``, ``new int[3]``) or a collection of fixed size
    (``Arrays.asList(...)``, ``List.of(...)``): that size never changes, so asserting it restates
    the test's own input (args4j's ``args = new String[] {"-flag", "false"}``, then
    ``parser.parseArgument(args)``; java-diff-utils' ``assertEquals(6, revised.size())`` after
    ``revised = Arrays.asList("C", "B", "A", "B", "A", "C")`` was a top-1 over the diff itself)."""
    built: dict[str, str] = field(default_factory=dict)
    """Variable -> the class of the ``new`` object last assigned to it, generics dropped; may be more
    specific than its declared type (``CrossoverPolicy cp = new CycleCrossover<>()``)."""
    literal_arrays: dict[str, str] = field(default_factory=dict)
    """Variable -> the array of literals last assigned to it, as written (``new String[] {"-flag",
    "false"}``), while nothing wrote it since: the test's own input."""
    literal_lists: dict[str, list[str]] = field(default_factory=dict)
    """Variable -> the literals of the fixed-size list last assigned to it (``Arrays.asList("C",
    "B")``: ``['"C"', '"B"']``), while nothing called a method on it since: the test's own input."""

    def assigned(self, name: str, value: Node | None) -> None:
        """What a plain assignment of ``value`` to ``name`` (declaration or ``=``) tells."""
        self.sized.pop(name, None)
        self.literal_arrays.pop(name, None)
        self.literal_lists.pop(name, None)
        if _is_fixed_size(value):
            self.sized[name] = ".size()"
            arguments = value.child_by_field_name("arguments") if value is not None else None
            elements = arguments.named_children if arguments is not None else []
            if elements and all(is_literal(e) and e.type != "array_creation_expression" for e in elements):
                self.literal_lists[name] = [syntax.text(e) for e in elements]
        if _is_array_creation(value):
            self.sized[name] = ".length"
            if is_literal(value):
                self.literal_arrays[name] = syntax.text(value)
        self.built.pop(name, None)
        if value is not None and value.type == "object_creation_expression":
            self.built[name] = split_generic(syntax.text(value.child_by_field_name("type")))[0]


FIXED_SIZE_FACTORIES = frozenset(
    {"Arrays.asList", "List.of", "Set.of", "Map.of", "Collections.emptyList", "Collections.emptySet",
     "Collections.emptyMap", "Collections.singletonList", "Collections.singleton", "Collections.singletonMap"}
)  # fmt: skip
"""Calls whose collection's size no code can change (``Arrays.asList`` writes through to its array,
but neither adds nor removes)."""


def _is_fixed_size(node: Node | None) -> bool:
    if node is None or node.type != "method_invocation":
        return False
    receiver = node.child_by_field_name("object")
    name = syntax.call_name(node)
    if receiver is None:  # a static import: ``asList("a", "b")``, not a bare ``of(...)``
        return name != "of" and any(f.endswith(f".{name}") for f in FIXED_SIZE_FACTORIES)
    return f"{syntax.text(receiver)}.{name}" in FIXED_SIZE_FACTORIES


def _is_array_creation(node: Node | None) -> bool:
    return node is not None and node.type in ("array_initializer", "array_creation_expression")


def write_history(statements: list[Node]) -> WriteHistory:
    history = WriteHistory({}, set(), set())
    for index, statement in enumerate(statements):
        if statement.type == "local_variable_declaration":
            for declarator in statement.children_by_field_name("declarator"):
                name = syntax.text(declarator.child_by_field_name("name"))
                value = declarator.child_by_field_name("value")
                history.last[name] = index
                history.restated.discard(name)
                history.fresh.discard(name)
                history.assigned(name, value)
                if is_literal(value):
                    history.restated.add(name)
                elif value is not None and value.type == "object_creation_expression":
                    history.fresh.add(name)
            continue
        for node in syntax.walk_skipping_classes(statement):
            written = _written_name(node)
            if written is not None:
                name = syntax.text(written)
                history.last[name] = index
                history.restated.discard(name)
                history.literal_arrays.pop(name, None)
                history.literal_lists.pop(name, None)
                if node.type != "method_invocation":
                    history.fresh.discard(name)
                if node.child_by_field_name("left") == written:  # the variable itself, not x[0]
                    history.assigned(name, node.child_by_field_name("right"))
    return history
