"""Targets an oracle-free test can read because the file's other tests assert on them.

Why: the tests of one file check the same unit with the same expressions, and many of them are
out of the enumerator's reach, which builds targets from the prefix's own values and the unit's
zero-argument observers: an argument only the test class names (opencsv's
``validator.isValid(GOOD_ROW)``), an option the test passed as a flag (joptsimple's
``options.has("c")``), a JDK view the suite reads through (args4j's
``Arrays.asList(bean.stringArray)``), a field past the first few (xmlunit's
``listener.comparingWhat``). Of the 8 dev projects' 180 developer oracles missing from the top
five, about 75 assert on an expression another test of the same file asserts on too.

An expression is read again only where it means the same thing: every variable it names is one
the prefix or the test class declares, and its type is known here.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.source import new_parser
from oracular.java.targets import ARBITRARY, OBSERVER_NAME, QUERY_NAME, Target
from oracular.java.types import TypeEnv

MAX_FILE_READS = 6
"""At most this many per test, those most of the file's tests assert on first: each is one more
target to observe and rank."""
MAX_READS_TRIED = 60
"""Of a file's reads, at most this many are parsed for each test (the most common): a large file
asserts on hundreds of expressions, most of them one test's own."""

_HEAD = b"class _Reads { Object _read = "
_NOT_READ = frozenset(
    {"lambda_expression", "object_creation_expression", "method_reference", "assignment_expression",
     "update_expression"}
)  # fmt: skip
"""What an expression read again must not contain: code of its own, a new object, a write."""
_OPENING = frozenset({"(", "[", ".", "!"})
_CLOSING = frozenset({")", "]", ",", "."})
"""Tokens written with no space after them, and before them; and ``(`` or ``[`` right after a name
or a closing bracket (a call, an element), but not after an operator (``a - (b)``)."""
_CALLED = frozenset({"identifier", "type_identifier", ")", "]", ">"})


def file_read_targets(texts: Iterable[str], env: TypeEnv, limit: int = MAX_FILE_READS) -> list[Target]:
    """The expressions of ``texts`` (:meth:`~oracular.java.neighbours.PathMemo.reads`) that make
    sense in ``env``, as targets: ``query`` where every call in it reads (``has``, ``get...``),
    else ``action`` (observed alone: it may change state)."""
    parser = new_parser()
    found: list[Target] = []
    for text in itertools.islice(texts, MAX_READS_TRIED):
        if len(found) >= limit:
            break
        tree = parser.parse(_HEAD + text.encode("utf-8") + b"; }")
        node = _expression(tree.root_node)
        if node is None or not _names_resolve(node, env) or _arbitrary(node):
            continue
        value_type = env.type_of(node)
        if value_type in (None, "void"):
            continue
        names = [
            syntax.call_name(n) for n in syntax.walk_skipping_classes(node) if n.type == "method_invocation"
        ]
        pure = all(OBSERVER_NAME.match(name) or QUERY_NAME.match(name) for name in names)
        receiver = node.child_by_field_name("object")
        found.append(
            Target(
                tidy(node),
                value_type,
                "query" if pure else "action",
                tidy(receiver) if receiver is not None else None,
                syntax.call_name(node) if node.type == "method_invocation" else None,
            )
        )
    return found


def _arbitrary(node: Node) -> bool:
    """An arbitrary value (:data:`~oracular.java.targets.ARBITRARY`): another test compares two
    hashes (``assertEquals(a.hashCode(), b.hashCode())``), one read alone says nothing."""
    return node.type == "method_invocation" and syntax.call_name(node) in ARBITRARY


def tidy(node: Node) -> str:
    """The expression as Oracular writes code: ``options.has( "c" )`` -> ``options.has("c")``, a
    call split over lines on one line; the tokens, literals included, as written."""
    out: list[str] = []
    previous: Node | None = None
    for leaf in _leaves(node):
        token = syntax.text(leaf)
        if previous is not None:
            before = syntax.text(previous)
            tight = (
                before in _OPENING or token in _CLOSING or (token in ("(", "[") and previous.type in _CALLED)
            )
            if before == "," or (leaf.start_byte > previous.end_byte and not tight):
                out.append(" ")
        out.append(token)
        previous = leaf
    return "".join(out)


def _leaves(node: Node) -> Iterable[Node]:
    if node.child_count == 0 or node.type in ("string_literal", "character_literal"):
        yield node
        return
    for child in node.children:
        yield from _leaves(child)


def _expression(root: Node) -> Node | None:
    """The initialiser of ``_read``, if the text parsed as one expression and nothing else."""
    if root.has_error or not root.named_children:
        return None
    body = root.named_children[0].child_by_field_name("body")
    field = body.named_children[0] if body is not None and body.named_children else None
    declarator = field.child_by_field_name("declarator") if field is not None else None
    return declarator.child_by_field_name("value") if declarator is not None else None


def _names_resolve(node: Node, env: TypeEnv) -> bool:
    """Whether every variable the expression names is one ``env`` knows (a local of the prefix, a
    field of the test class), every other name a class or constant, and one of them a local or an
    instance field: a read of constants alone (args4j's ``Animal.HORSE``, the expected side of
    ``assertEquals(Animal.HORSE, testObject.myAnimal)``) says nothing of what this test did.
    :data:`_NOT_READ` never."""
    state = False
    for child in syntax.walk_skipping_classes(node):
        if child.type in _NOT_READ:
            return False
        if child.type != "identifier" or _is_member_name(child):
            continue
        name = syntax.text(child)
        if env.variable_type(name) is None and not name[:1].isupper():
            return False
        state = state or name in env.locals or name in env.instance_fields
    return state


def _is_member_name(identifier: Node) -> bool:
    """``has`` of ``options.has(...)``, ``value`` of ``bean.value``: a member, not a variable."""
    parent = identifier.parent
    if parent is None:
        return False
    if parent.type == "method_invocation":
        return parent.child_by_field_name("name") == identifier
    if parent.type == "field_access":
        return parent.child_by_field_name("field") == identifier
    return False
