"""The conditions and values of Java code as :data:`~oracular.java.guard_values.Expr` tuples.

Why: a method's opening guards are read once, when the workspace is indexed, and evaluated on
every test that calls it: tuples are hashable, cheap to keep on every indexed method, and free
of the tree they came from. Only what can be evaluated is kept (literals, names, fields,
arithmetic, comparisons, lengths, a few JDK calls and constants); anything else is
:data:`~oracular.java.guard_values.UNKNOWN`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.guard_values import FLOAT_TESTS, TEXT_CALLS, UNKNOWN, Expr

_JDK_CONSTANTS = {
    "Double.NaN": math.nan, "Float.NaN": math.nan,
    "Double.POSITIVE_INFINITY": math.inf, "Double.NEGATIVE_INFINITY": -math.inf,
    "Float.POSITIVE_INFINITY": math.inf, "Float.NEGATIVE_INFINITY": -math.inf,
    "Double.MAX_VALUE": 1.7976931348623157e308, "Double.MIN_VALUE": 4.9e-324,
    "Integer.MAX_VALUE": 2**31 - 1, "Integer.MIN_VALUE": -(2**31),
    "Long.MAX_VALUE": 2**63 - 1, "Long.MIN_VALUE": -(2**63),
    **{f"{owner}.{name}": value for owner in ("Math", "FastMath", "StrictMath")
       for name, value in (("PI", math.pi), ("E", math.e))},
}  # fmt: skip
_SIZE_CALLS = ("length", "size")
_INTEGERS = (
    "decimal_integer_literal",
    "hex_integer_literal",
    "octal_integer_literal",
    "binary_integer_literal",
)


def expression(node: Node | None) -> Expr:
    """The evaluable part of an expression; anything else is :data:`UNKNOWN`."""
    if node is None:
        return UNKNOWN
    read = _READERS.get(node.type)
    return read(node) if read is not None else UNKNOWN


def _integer(node: Node) -> Expr:
    digits = syntax.text(node).rstrip("lL").replace("_", "")
    try:
        return ("num", float(int(digits, 8 if node.type == "octal_integer_literal" else 0)))
    except ValueError:
        return UNKNOWN


def _floating(node: Node) -> Expr:
    try:
        return ("num", float(syntax.text(node).rstrip("dDfF").replace("_", "")))
    except ValueError:
        return UNKNOWN


def _character(node: Node) -> Expr:
    decoded = _unescape(syntax.text(node)[1:-1])
    return ("typed", "char", ("num", float(ord(decoded)))) if len(decoded) == 1 else UNKNOWN


def _string(node: Node) -> Expr:
    text = syntax.text(node)
    if text.startswith('"""'):
        return ("typed", "String", ("sized", None))
    decoded = _unescape(text[1:-1])
    return ("str", decoded) if len(decoded) <= MAX_TEXT else ("typed", "String", ("sized", len(decoded)))


def _inner(node: Node) -> Expr:
    """A parenthesised expression's, or a cast's value."""
    inner = node.child_by_field_name("value") if node.type == "cast_expression" else None
    return expression(inner or (node.named_children[-1] if node.named_children else None))


def _unary(node: Node) -> Expr:
    op, operand = syntax.text(node.child_by_field_name("operator")), node.child_by_field_name("operand")
    return {
        "!": ("not", expression(operand)),
        "-": ("neg", expression(operand)),
        "+": expression(operand),
    }.get(op, UNKNOWN)


def _binary(node: Node) -> Expr:
    return (
        "bin",
        syntax.text(node.child_by_field_name("operator")),
        expression(node.child_by_field_name("left")),
        expression(node.child_by_field_name("right")),
    )


def _created(node: Node) -> Expr:
    """``new T(...)``: an empty collection's size, or some object's."""
    created = syntax.text(node.child_by_field_name("type")).split("<", 1)[0]
    args = node.child_by_field_name("arguments")
    empty = created in _EMPTY_COLLECTIONS and (args is None or not args.named_children)
    return ("sized", 0 if empty else None)


def _ternary(node: Node) -> Expr:
    return (
        "if",
        expression(node.child_by_field_name("condition")),
        expression(node.child_by_field_name("consequence")),
        expression(node.child_by_field_name("alternative")),
    )


def _array_access(node: Node) -> Expr:
    return (
        "index",
        expression(node.child_by_field_name("array")),
        expression(node.child_by_field_name("index")),
    )


MAX_TEXT = 256
"""Longest string literal kept whole (``"::\\u0000::".indexOf(...)``); a longer one keeps its length."""
_ESCAPE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-3]?[0-7]{1,2}|.)")
_ESCAPED = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "s": " "}


def _unescape(body: str) -> str:
    """A Java literal's body as the characters it stands for (``\\u0000``, ``\\n``, ``\\0``)."""

    def one(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape[0] == "u":
            return chr(int(escape.lstrip("u"), 16))
        if escape[0].isdigit():
            return chr(int(escape, 8))
        return _ESCAPED.get(escape, escape)

    return _ESCAPE.sub(one, body)


MAX_ELEMENTS = 16
"""Elements of an array literal kept one by one (``param[2] <= 0`` reads them); a longer literal
keeps its length only (commons-math3 opens methods with tables of hundreds of numbers)."""


def _elements(initializer: Node) -> Expr:
    items = initializer.named_children
    if len(items) > MAX_ELEMENTS:
        return ("sized", len(items))
    return ("array", tuple(expression(item) for item in items))


def _field_access(node: Node) -> Expr:
    owner, field = node.child_by_field_name("object"), syntax.text(node.child_by_field_name("field"))
    if owner is not None and owner.type == "this":
        return ("field", field)
    if field == "length":
        return ("size", expression(owner))
    constant = _JDK_CONSTANTS.get(syntax.text(node))
    return ("num", float(constant)) if constant is not None else ("field", syntax.text(node))


def _invocation(node: Node) -> Expr:
    owner, name = node.child_by_field_name("object"), syntax.call_name(node)
    args = node.child_by_field_name("arguments")
    given = args.named_children if args is not None else []
    if owner is None:  # statically imported list factories, or the class's own method
        if name in ("singletonList", "singleton") and len(given) == 1:
            return ("array", (expression(given[0]),))
        return ("aslist", expression(given[0])) if name == "asList" and len(given) == 1 else UNKNOWN
    written = syntax.text(owner)
    if name in _SIZE_CALLS and not given:
        return ("size", expression(owner))
    if name == "isEmpty" and not given:
        return ("bin", "==", ("size", expression(owner)), ("num", 0.0))
    if written in ("Double", "Float") and name in FLOAT_TESTS and len(given) == 1:
        return ("test", name, expression(given[0]))
    if written in ("Math", "FastMath", "StrictMath") and name == "abs" and len(given) == 1:
        return ("abs", expression(given[0]))
    if written == "Arrays" and name == "asList" and len(given) == 1:
        return ("aslist", expression(given[0]))
    if (written, name) in _FIXED_LISTS:
        return ("array", tuple(expression(g) for g in given)) if len(given) <= MAX_ELEMENTS else UNKNOWN
    if written == "Collections" and name in ("emptyList", "emptySet", "emptyMap") and not given:
        return ("sized", 0)
    if written == "String" and name == "valueOf" and len(given) == 1:
        return ("valueof", expression(given[0]))
    if owner.type == "identifier" and written[:1].isupper():
        return UNKNOWN  # a static call: nothing dereferenced
    if name in TEXT_CALLS and len(given) == TEXT_CALLS[name][0]:
        return ("text", name, expression(owner), *(expression(g) for g in given))
    return ("call", expression(owner))


_FIXED_LISTS = {
    ("Arrays", "asList"),
    ("List", "of"),
    ("Collections", "singletonList"),
    ("Collections", "singleton"),
}
"""Calls making a list of exactly their arguments (one array given to ``asList``: its elements)."""
_EMPTY_COLLECTIONS = frozenset(
    ("ArrayList", "LinkedList", "HashMap", "HashSet", "TreeMap", "TreeSet", "LinkedHashMap", "LinkedHashSet",
     "ArrayDeque", "Vector")
)  # fmt: skip
"""Collections a ``new`` without arguments makes empty (a later ``add`` makes the prefix forget it)."""


def _new_array(node: Node) -> Expr:
    value = node.child_by_field_name("value")
    if value is not None:
        return ("typed", _array_type(node), _elements(value))
    dims = [c for c in node.named_children if c.type == "dimensions_expr"]
    size = expression(dims[0].named_children[0]) if dims and dims[0].named_children else UNKNOWN
    return ("typed", _array_type(node), ("sized", size[1] if size[0] == "num" else None))


def _array_type(node: Node) -> str:
    """``new double[3][]``'s type: ``double[][]``."""
    depth = sum(1 for c in node.named_children if c.type == "dimensions_expr")
    depth += sum(syntax.text(c).count("[") for c in node.named_children if c.type == "dimensions")
    return syntax.text(node.child_by_field_name("type")) + "[]" * depth


_READERS: dict[str, Callable[[Node], Expr]] = {
    **dict.fromkeys(_INTEGERS, _integer),
    "decimal_floating_point_literal": _floating,
    "null_literal": lambda node: ("null",),
    "true": lambda node: ("bool", True),
    "false": lambda node: ("bool", False),
    "character_literal": _character,
    "string_literal": _string,
    "identifier": lambda node: ("name", syntax.text(node)),
    "parenthesized_expression": _inner,
    "cast_expression": _inner,
    "unary_expression": _unary,
    "binary_expression": _binary,
    "field_access": _field_access,
    "method_invocation": _invocation,
    "object_creation_expression": _created,
    "array_creation_expression": _new_array,
    "array_initializer": _elements,
    "ternary_expression": _ternary,
    "array_access": _array_access,
}
"""How each kind of node is read; any other kind is :data:`UNKNOWN`."""


def parts(expr: Expr) -> Iterator[Expr]:
    yield expr
    for part in expr[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            yield from parts(part)
        elif isinstance(part, tuple):
            for item in part:
                if isinstance(item, tuple) and item and isinstance(item[0], str):
                    yield from parts(item)


def dereferences(expr: Expr) -> Iterator[Expr]:
    """The names and fields an expression calls a method on, indexes or takes the length of."""
    for part in parts(expr):
        kind = part[0]
        owner = part[2] if kind == "text" else part[1] if kind in ("call", "size", "index") else None
        if owner is not None and owner[0] in ("name", "field"):
            yield owner
