"""What the guard walk knows of a value, and how a condition evaluates on it.

Why: a guard trips only where its condition surely holds, so evaluation is three-valued: a
:class:`Value` knows a number, whether it is null, a length, a truth value, a string's text, an
array's elements, its type, or nothing of these, and every operation on the unknown stays unknown
(:mod:`oracular.java.guard_walk` walks the conditions; :mod:`oracular.java.guard_expressions` reads
them from the code).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

Expr = tuple[Any, ...]
"""A condition or value as nested tuples (``("bin", "<=", ("name", "n"), ("num", 0.0))``):
hashable and cheap to keep on every indexed method."""

UNKNOWN: Expr = ("?",)
FLOAT_TESTS = {"isNaN": math.isnan, "isInfinite": math.isinf}
TEXT_CALLS: dict[str, tuple[int, Callable[..., Any]]] = {
    "indexOf": (1, lambda s, x: float(s.find(x))),
    "contains": (1, lambda s, x: x in s),
    "startsWith": (1, lambda s, x: s.startswith(x)),
    "endsWith": (1, lambda s, x: s.endswith(x)),
    "equals": (1, lambda s, x: s == x),
    "charAt": (1, lambda s, i: float(ord(s[int(i)])) if i.is_integer() and 0 <= i < len(s) else None),
    "trim": (0, lambda s: s.strip(" \t\n\r\f\v\0")),
}
"""String methods evaluated on literals (joptsimple: ``if (separator.indexOf(NIL_VALUE_SEPARATOR) != -1)
throw new IllegalArgumentException(...)``): argument count, and what they compute."""


@dataclass(frozen=True)
class Value:
    """What is known of a value: a number, whether it is null, its length (array, string,
    collection), or a truth value."""

    number: float | None = None
    null: bool | None = None
    size: int | None = None
    truth: bool | None = None
    primitive: bool | None = None
    """A number or a truth value (``True``), a reference (``False``): which overload it can be
    passed to."""
    elements: tuple[Value, ...] | None = None
    """An array literal's, one by one."""
    text: str | None = None
    """A string literal's characters."""
    type: str | None = None
    """Its type where the code says (``new double[3]``, a string, a parameter's declared type):
    which of ``checkEqualLength(double[], double[])`` and ``(int[], int[])`` it is passed to."""


class NullDereference(Exception):
    """Raised by :func:`evaluate` where a value known to be ``null`` is dereferenced."""


NOTHING = Value()
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
    "!=": operator.ne,
}  # fmt: skip
_ARITHMETIC: dict[str, Callable[[float, float], float]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
}  # fmt: skip


_FLOATING = ("double", "float")
_INTEGRAL = ("int", "long", "short", "byte", "char")


def _divided(left: Value, right: Value) -> float | None:
    """``left / right`` as Java divides: a ``double`` operand makes it exact, two integers
    truncate; where the types are not known, only if both divisions agree."""
    a, b = left.number, right.number
    if a is None or b is None or b == 0:
        return None
    if left.type in _FLOATING or right.type in _FLOATING or not (a.is_integer() and b.is_integer()):
        return a / b
    if left.type in _INTEGRAL and right.type in _INTEGRAL:
        return float(math.trunc(a / b))
    return a / b if a % b == 0 else None


Lookup = Callable[[str], Value]
"""A name's value: a parameter's or local's (``names``), a field's (``fields``)."""
_Rule = Callable[[Expr, Lookup, Lookup], Value]
"""How one kind of :data:`Expr` evaluates (:data:`_RULES`)."""


def evaluate(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    """Three-valued evaluation: ``names`` gives a parameter's or local's value, ``fields`` a
    field's (a constant's, or nothing known). Raises :class:`NullDereference` where the
    expression surely dereferences ``null`` (``&&`` and ``||`` short-circuit as Java does)."""
    rule = _RULES.get(expr[0])
    return rule(expr, names, fields) if rule is not None else NOTHING


def _dereferenced(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    found = evaluate(expr, names, fields)
    if found.null:
        raise NullDereference
    return found


def _array(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    items = tuple(evaluate(e, names, fields) for e in expr[1])
    return Value(null=False, size=len(items), primitive=False, elements=items)


def _as_list(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    """``Arrays.asList(x)``: x's elements if x is an array, else a list of x."""
    given = evaluate(expr[1], names, fields)
    if given.primitive is False and given.size is not None and given.text is None:
        return Value(null=False, size=given.size, primitive=False, elements=given.elements)
    one = given.primitive or given.text is not None
    return Value(null=False, size=1, primitive=False, elements=(given,)) if one else NOTHING


def _index(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    items, at = _dereferenced(expr[1], names, fields).elements, evaluate(expr[2], names, fields).number
    if items is None or at is None or not at.is_integer() or not 0 <= at < len(items):
        return NOTHING
    return items[int(at)]


def _size(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    size = _dereferenced(expr[1], names, fields).size
    return number(None if size is None else float(size))


def _call(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    """A method called on a value: nothing known comes of it, but a ``null`` there throws."""
    _dereferenced(expr[1], names, fields)
    return NOTHING


def _text(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    owner = _dereferenced(expr[2], names, fields)
    return _text_call(expr[1], owner, [evaluate(e, names, fields) for e in expr[3:]])


def _not(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    truth = evaluate(expr[1], names, fields).truth
    return truth_value(None if truth is None else not truth)


def _numeric(apply: Callable[[float], float]) -> _Rule:
    """The rule of a one-operand arithmetic (``-x``, ``Math.abs(x)``)."""

    def rule(expr: Expr, names: Lookup, fields: Lookup) -> Value:
        x = evaluate(expr[1], names, fields).number
        return number(None if x is None else apply(x))

    return rule


def _test(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    x = evaluate(expr[2], names, fields).number
    return truth_value(None if x is None else FLOAT_TESTS[expr[1]](x))


def _conditional(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    """``c ? a : b`` evaluates one side only."""
    truth = evaluate(expr[1], names, fields).truth
    if truth is None:
        return NOTHING
    return evaluate(expr[2] if truth else expr[3], names, fields)


def _operation(expr: Expr, names: Lookup, fields: Lookup) -> Value:
    if expr[1] in ("&&", "||"):
        left = evaluate(expr[2], names, fields).truth
        return _logic(expr[1], left, lambda: evaluate(expr[3], names, fields).truth)
    return _binary(expr[1], evaluate(expr[2], names, fields), evaluate(expr[3], names, fields))


_RULES: dict[str, _Rule] = {
    "num": lambda expr, names, fields: number(expr[1]),
    "null": lambda expr, names, fields: Value(null=True, primitive=False),
    "bool": lambda expr, names, fields: Value(truth=expr[1], null=False, primitive=True),
    "sized": lambda expr, names, fields: Value(null=False, size=expr[1], primitive=False),
    "str": lambda expr, names, fields: Value(
        null=False, size=len(expr[1]), primitive=False, text=expr[1], type="String"
    ),
    "typed": lambda expr, names, fields: typed(evaluate(expr[2], names, fields), expr[1]),
    "array": _array,
    "aslist": _as_list,
    "index": _index,
    "name": lambda expr, names, fields: names(expr[1]),
    "field": lambda expr, names, fields: fields(expr[1]),
    "size": _size,
    "call": _call,
    "text": _text,
    "valueof": lambda expr, names, fields: _text_of(evaluate(expr[1], names, fields)),
    "not": _not,
    "neg": _numeric(operator.neg),
    "abs": _numeric(abs),
    "test": _test,
    "if": _conditional,
    "bin": _operation,
}
"""How each kind of :data:`Expr` evaluates; any other kind is :data:`NOTHING`."""


_PRIMITIVES = frozenset(("int", "long", "short", "byte", "char", "float", "double", "boolean"))


def typed(found: Value, type_name: str | None) -> Value:
    """``found`` known to be of ``type_name``: a primitive or a reference (which overload it can be
    passed to, ``GammaDistribution(double, double, double)`` or ``(RandomGenerator, double,
    double)``), of which type (an array's elements of its element type)."""
    if not type_name:
        return found
    if found.primitive is None:
        primitive = type_name in _PRIMITIVES
        found = replace(found, primitive=primitive, null=False if primitive else found.null)
    if found.primitive and found.type is None and type_name in _PRIMITIVES:
        return replace(found, type=type_name)  # how it divides
    if found.type is not None or found.primitive is not False:
        return found
    element = type_name[:-2] if type_name.endswith("[]") else None
    items = found.elements
    if items is not None and element is not None and element.endswith("[]"):
        items = tuple(typed(item, element) for item in items)
    return replace(found, type=type_name, elements=items)


def _text_call(name: str, owner: Value, arguments: list[Value]) -> Value:
    if owner.text is None:
        return NOTHING
    given = [a.text if a.text is not None else a.number if name == "charAt" else _char(a) for a in arguments]
    if name == "equals" and arguments and arguments[0].null:
        return truth_value(False)
    if any(g is None for g in given):
        return NOTHING
    try:
        found = TEXT_CALLS[name][1](owner.text, *given)
    except (TypeError, ValueError, AttributeError):
        return NOTHING
    if isinstance(found, bool):
        return truth_value(found)
    if isinstance(found, str):
        return Value(null=False, size=len(found), primitive=False, text=found, type="String")
    return number(found)


def _text_of(given: Value) -> Value:
    """``String.valueOf(x)``: a string's, a ``char``'s or an integer's text."""
    found = given.text
    if found is None and given.number is not None and given.type == "char":
        found = _char(given)
    elif found is None and given.number is not None and given.type in _INTEGRAL:
        found = str(int(given.number))
    return (
        NOTHING
        if found is None
        else Value(null=False, size=len(found), primitive=False, text=found, type="String")
    )


def _char(value: Value) -> str | None:
    """A ``char`` (or a code point passed as ``int``) as the character it is."""
    x = value.number
    return chr(int(x)) if x is not None and x.is_integer() and 0 <= x < 0x110000 else None


def number(x: float | None) -> Value:
    return Value(number=x, null=False, primitive=True)


def truth_value(truth: bool | None) -> Value:
    return Value(truth=truth, null=False, primitive=True)


def _binary(op: str, left: Value, right: Value) -> Value:
    if op in ("==", "!=") and (left.null or right.null):
        other = right if left.null else left
        same = True if other.null else False if other.null is False else None
        return truth_value(None if same is None else same == (op == "=="))
    a, b = left.number, right.number
    if a is None or b is None:
        if op in ("==", "!=") and left.truth is not None and right.truth is not None:
            return truth_value((left.truth == right.truth) == (op == "=="))
        return NOTHING
    if op in _COMPARE:
        return truth_value(_COMPARE[op](a, b))
    if op in _ARITHMETIC:
        return number(_ARITHMETIC[op](a, b))
    return number(_divided(left, right)) if op == "/" else NOTHING


def _logic(op: str, a: bool | None, b: Callable[[], bool | None]) -> Value:
    """``a && b``, ``a || b``: ``b`` is evaluated only where Java would, and where it may not be
    (``a`` unknown), a ``null`` it dereferences only makes it unknown."""
    if (op == "&&" and a is False) or (op == "||" and a is True):
        return truth_value(a)
    if a is None:
        try:
            right = b()
        except NullDereference:
            return truth_value(None)
        return truth_value(False if op == "&&" and right is False else True if op == "||" and right else None)
    return truth_value(b())


def erased(type_name: str) -> str:
    """A declared type as a value's: ``final List<V>`` is ``List``, ``double...`` ``double[]``."""
    plain = re.sub(r"<.*>", "", type_name.removeprefix("final ")).replace(" ", "")
    return plain[:-3] + "[]" if plain.endswith("...") else plain
