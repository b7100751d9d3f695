"""The guard clauses a method opens with, and which one a call's arguments trip.

Why: which exception a test expects depends on the argument it gets wrong. commons-math3's
``FunctionUtils.sample(f, min, max, n)`` opens with ``if (n <= 0) throw new
NotStrictlyPositiveException(n)`` and then ``if (min >= max) throw new
NumberIsTooLargeException(min, max, false)``; a test calling ``sample(new Sin(), PI, 0.0, 10)``
expects the second, ``sample(new Sin(), 0.0, PI, -1)`` the first. The Javadoc says so in prose
(:mod:`oracular.candidates.throws_conditions` reads it); the body says so in code, which can be
evaluated: the static ranking named the wrong type for a third of the 8 dev projects' throwing tests.

A main method's opening is read once, when the workspace is indexed (:func:`opening_steps`):
its leading ``if (...) throw new T(...)`` guards, ``if (...) return`` exits (with their ``else``
blocks), the checks it delegates to (``this(...)``, ``checkIndex(i)``, ``MathUtils.checkNotNull(x)``,
a constructor), the locals it computes and the fields it stores (``this.lo = lo``) on the way, up
to the first statement that is none of these (a loop, an ``if`` doing other work), after which
the parameters' values are no longer known (:class:`Unread` where a ``throw`` or a check lies
beyond). :class:`GuardWalk` then binds a call's literal arguments to the parameters and evaluates
the guards in order, three-valued: a condition on anything else (a field no constructor set, a
call's result) is unknown, and so never trips.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tree_sitter import Node

from oracular.java import syntax

Expr = tuple[Any, ...]
"""A condition or value as nested tuples (``("bin", "<=", ("name", "n"), ("num", 0.0))``):
hashable and cheap to keep on every indexed method."""

UNKNOWN: Expr = ("?",)
MAX_STEPS = 24
"""Leading statements read per method: guards come first, and a long method's tail is work."""
MAX_DEPTH = 5
"""Checks followed: ``Fraction(int, int)`` -> ``this(...)`` -> ``MathUtils.checkNotNull``,
``LoessInterpolator.smooth`` -> its overload -> ``MathArrays.checkOrder`` -> two more -> the loop
that throws; a deeper one may throw first (what is found after it is not certain)."""

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
_FLOAT_TESTS = {"isNaN": math.isnan, "isInfinite": math.isinf}
_INTEGERS = (
    "decimal_integer_literal",
    "hex_integer_literal",
    "octal_integer_literal",
    "binary_integer_literal",
)


@dataclass(frozen=True)
class Guard:
    """``if (condition) throw new thrown(...)``; ``thrown`` as written (a simple name mostly)."""

    condition: Expr
    thrown: str


@dataclass(frozen=True)
class Exit:
    """``if (condition) return ...;``: past it, the opening goes on only where it does not hold
    (``checkEqualLength``: ``if (a.length == b.length) return true; else ... throw``)."""

    condition: Expr


@dataclass(frozen=True)
class Check:
    """A call whose guards are the method's own: ``qualifier`` is ``None`` for the method's own
    class (``checkIndex(i)``), ``"this"``/``"super"`` for a constructor's delegation, ``"new"``
    for a constructor of the class ``callee``, or a class name (``MathUtils.checkNotNull(x)``)."""

    callee: str
    qualifier: str | None
    arguments: tuple[Expr, ...]


@dataclass(frozen=True)
class Local:
    """A local computed on the way (``final int n = x.length``), or a parameter reassigned."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Store:
    """``this.name = value``: a constructor setting what the methods' guards later compare."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Use:
    """A call on a value for its effect (``key.hashCode()``): nothing known comes of it, but a
    ``null`` there throws ``NullPointerException`` (joptsimple's ``AbbreviationMap.put(null, v)``)."""

    value: Expr


@dataclass(frozen=True)
class Each:
    """``for (T name : source) body``: the body's guards run on each element known."""

    name: str
    source: Expr
    body: tuple[Step, ...]


@dataclass(frozen=True)
class Count:
    """``for (int name = start; name < end; name++) body`` (``<=`` when ``inclusive``): the body's
    guards run for each index (``MathArrays.checkPositive``: ``if (in[i] <= 0) throw ...``)."""

    name: str
    start: Expr
    end: Expr
    inclusive: bool
    body: tuple[Step, ...]


@dataclass(frozen=True)
class Unread:
    """Where the reading stopped with a ``throw`` or a check still ahead (a loop checking each
    element): past it nothing is known, not even that the method gets past it."""


Step = Guard | Exit | Check | Local | Store | Use | Each | Count | Unread


def expression(node: Node | None) -> Expr:
    """The evaluable part of an expression; anything else is :data:`UNKNOWN`."""
    if node is None:
        return UNKNOWN
    kind = node.type
    text = syntax.text(node)
    if kind in _INTEGERS:
        digits = text.rstrip("lL").replace("_", "")
        try:
            return ("num", float(int(digits, 8 if kind == "octal_integer_literal" else 0)))
        except ValueError:
            return UNKNOWN
    if kind == "decimal_floating_point_literal":
        try:
            return ("num", float(text.rstrip("dDfF").replace("_", "")))
        except ValueError:
            return UNKNOWN
    if kind == "null_literal":
        return ("null",)
    if kind in ("true", "false"):
        return ("bool", kind == "true")
    if kind == "character_literal":
        decoded = _unescape(text[1:-1])
        return ("typed", "char", ("num", float(ord(decoded)))) if len(decoded) == 1 else UNKNOWN
    if kind == "string_literal":
        if text.startswith('"""'):
            return ("typed", "String", ("sized", None))
        decoded = _unescape(text[1:-1])
        return ("str", decoded) if len(decoded) <= MAX_TEXT else ("typed", "String", ("sized", len(decoded)))
    if kind == "identifier":
        return ("name", text)
    if kind in ("parenthesized_expression", "cast_expression"):
        inner = node.child_by_field_name("value") if kind == "cast_expression" else None
        return expression(inner or (node.named_children[-1] if node.named_children else None))
    if kind == "unary_expression":
        op, operand = syntax.text(node.child_by_field_name("operator")), node.child_by_field_name("operand")
        return {
            "!": ("not", expression(operand)),
            "-": ("neg", expression(operand)),
            "+": expression(operand),
        }.get(op, UNKNOWN)
    if kind == "binary_expression":
        return (
            "bin",
            syntax.text(node.child_by_field_name("operator")),
            expression(node.child_by_field_name("left")),
            expression(node.child_by_field_name("right")),
        )
    if kind == "field_access":
        return _field_access(node)
    if kind == "method_invocation":
        return _invocation(node)
    if kind == "object_creation_expression":
        created = syntax.text(node.child_by_field_name("type")).split("<", 1)[0]
        args = node.child_by_field_name("arguments")
        empty = created in _EMPTY_COLLECTIONS and (args is None or not args.named_children)
        return ("sized", 0 if empty else None)
    if kind == "array_creation_expression":
        return _new_array(node)
    if kind == "array_initializer":
        return _elements(node)
    if kind == "ternary_expression":
        return (
            "if",
            expression(node.child_by_field_name("condition")),
            expression(node.child_by_field_name("consequence")),
            expression(node.child_by_field_name("alternative")),
        )
    if kind == "array_access":
        return (
            "index",
            expression(node.child_by_field_name("array")),
            expression(node.child_by_field_name("index")),
        )
    return UNKNOWN


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
    if written in ("Double", "Float") and name in _FLOAT_TESTS and len(given) == 1:
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
    if name in _TEXT_CALLS and len(given) == _TEXT_CALLS[name][0]:
        return ("text", name, expression(owner), *(expression(g) for g in given))
    return ("call", expression(owner))


_TEXT_CALLS: dict[str, tuple[int, Callable[..., Any]]] = {
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


def opening_steps(body: Node | None) -> tuple[Step, ...]:
    """The guards, checks and locals a method body opens with (see the module docstring)."""
    return _openings(body) if body is not None else ()


OPENINGS_KEPT = 4096
"""Openings remembered by their body's text (:class:`~oracular.java.syntax.ByText`)."""


_VALIDATING = ("check", "verify", "validate", "require", "ensure")
"""Names of the calls that exist to throw (``MathUtils.checkFinite(values[i])`` in a loop)."""


def _may_throw(node: Node) -> bool:
    if node.type == "throw_statement":
        return True
    return node.type == "method_invocation" and syntax.call_name(node).startswith(_VALIDATING)


def _read_opening(body: Node) -> tuple[Step, ...]:
    steps: list[Step] = []
    statements = syntax.statements(body)
    for i, statement in enumerate(statements[:MAX_STEPS]):
        read = _step(statement)
        if read is None:
            if any(_may_throw(n) for s in statements[i:] for n in syntax.walk(s)):
                steps.append(Unread())
            break
        steps += read
    while steps and isinstance(steps[-1], Local):  # what nothing after reads
        steps.pop()
    return tuple(steps)


_openings = syntax.ByText(_read_opening, OPENINGS_KEPT)


def _step(statement: Node) -> list[Step] | None:
    """What one leading statement adds; ``None`` stops the reading."""
    kind = statement.type
    if kind == "if_statement":
        return _branches(statement)
    if kind == "local_variable_declaration":
        declarators = statement.children_by_field_name("declarator")
        values = [d.child_by_field_name("value") for d in declarators]
        names = [syntax.text(d.child_by_field_name("name")) for d in declarators]
        return [*_checks(values), *(Local(n, expression(v)) for n, v in zip(names, values, strict=True))]
    if kind == "explicit_constructor_invocation":  # its arguments' checks first
        which, args = (
            syntax.text(statement.child_by_field_name("constructor")),
            statement.child_by_field_name("arguments"),
        )
        return [*_checks([args]), Check(which, which, _arguments(args))]
    if kind == "throw_statement":
        thrown = _thrown(statement)
        return [Guard(("bool", True), thrown)] if thrown else None
    if kind == "return_statement":  # the method ends here: what it calls on the way still checks
        return [*_checks(statement.named_children), *_uses(statement.named_children), Exit(("bool", True))]
    if kind == "expression_statement" and statement.named_children:
        return _effect(statement.named_children[0])
    if kind == "enhanced_for_statement":
        source, body = (
            statement.child_by_field_name("value"),
            _read_all(statement.child_by_field_name("body")),
        )
        if body is None:
            return None
        each = Each(syntax.text(statement.child_by_field_name("name")), expression(source), body)
        return _loop(_checks([source]), each)
    if kind == "for_statement":
        return _counted(statement)
    return None


def _uses(nodes: Sequence[Node]) -> list[Step]:
    """The expressions among ``nodes`` that dereference a parameter, local or field (``return
    key.toCharArray()``): ``null`` there throws."""
    found = [expression(n) for n in nodes]
    return [Use(e) for e in found if any(_dereferences(e))]


def _dereferences(expr: Expr) -> Iterator[Expr]:
    """The names and fields an expression calls a method on, indexes or takes the length of."""
    for part in _parts(expr):
        kind = part[0]
        owner = part[2] if kind == "text" else part[1] if kind in ("call", "size", "index") else None
        if owner is not None and owner[0] in ("name", "field"):
            yield owner


def opaque(step: Step) -> bool:
    """Whether a step calls a method on some object, which may throw (an unknown call)."""
    value = step.value if isinstance(step, Local | Store | Use) else None
    return value is not None and any(part[0] == "call" for part in _parts(value))


def _parts(expr: Expr) -> Iterator[Expr]:
    yield expr
    for part in expr[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            yield from _parts(part)
        elif isinstance(part, tuple):
            for item in part:
                if isinstance(item, tuple) and item and isinstance(item[0], str):
                    yield from _parts(item)


def _loop(before: list[Step], loop: Each | Count) -> list[Step]:
    """A loop that can throw nothing is only what it assigns, unknown after it."""
    if any(not isinstance(s, Local | Store) for s in loop.body):
        return [*before, loop]
    return [*before, *(replace(s, value=UNKNOWN) for s in loop.body)]


def _read_all(node: Node | None) -> tuple[Step, ...] | None:
    """A loop's body, read whole (a statement it cannot read makes the loop unreadable)."""
    if node is None:
        return None
    statements = syntax.statements(node) if node.type == "block" else [node]
    steps: list[Step] = []
    for statement in statements[:MAX_STEPS]:
        read = _step(statement)
        if read is None:
            return None
        steps += read
    return tuple(steps) if len(statements) <= MAX_STEPS else None


def _counted(statement: Node) -> list[Step] | None:
    """``for (int i = start; i < end; i++)`` (or ``<=``, ``++i``, ``i += 1``): the other loops'
    iterations are not read."""
    init, condition = statement.child_by_field_name("init"), statement.child_by_field_name("condition")
    update = statement.child_by_field_name("update")
    if init is None or init.type != "local_variable_declaration" or condition is None or update is None:
        return None
    declarators = init.children_by_field_name("declarator")
    if len(declarators) != 1 or condition.type != "binary_expression":
        return None
    name = syntax.text(declarators[0].child_by_field_name("name"))
    op = syntax.text(condition.child_by_field_name("operator"))
    steps_up = syntax.text(update).replace(" ", "") in (f"{name}++", f"++{name}", f"{name}+=1")
    if syntax.text(condition.child_by_field_name("left")) != name or op not in ("<", "<=") or not steps_up:
        return None
    body = _read_all(statement.child_by_field_name("body"))
    if body is None:
        return None
    start, end = declarators[0].child_by_field_name("value"), condition.child_by_field_name("right")
    return _loop(_checks([start]), Count(name, expression(start), expression(end), op == "<=", body))


def _arguments(args: Node | None) -> tuple[Expr, ...]:
    return tuple(expression(a) for a in (args.named_children if args else []))


_CALLS = ("method_invocation", "object_creation_expression")


def _checks(values: Sequence[Node | None]) -> list[Step]:
    """The checks among the calls of some expressions, in evaluation order: calls of the class
    itself, of a class by name, and constructors (``new UniformIntegerDistribution(rng, lo, hi)``)."""
    calls = [n for v in values if v is not None for n in _calls_within(v)]
    found: list[Step] = []
    for call in sorted(calls, key=lambda n: n.end_byte):
        check = _check(call)
        if check is not None:
            found.append(check)
    return found


_OPAQUE = ("array_initializer", "lambda_expression")
"""Where no check hides: a literal table (commons-math3 opens methods with hundreds of numbers),
a lambda's body (run later, if at all)."""


def _calls_within(node: Node) -> list[Node]:
    """The calls an expression makes as it is evaluated: an anonymous class's field initialisers
    run when it is created (commons-math3's ``exponentialDecay`` returns one whose field is a
    checked ``new ExponentialDecayFunction(...)``), its methods' bodies do not."""
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type in _CALLS:
            found.append(current)
        if current.type == "class_body":
            stack.extend(c for c in current.named_children if c.type == "field_declaration")
        elif current.type == "ternary_expression":  # one side runs: which, is not known here
            stack.extend(c for c in [current.child_by_field_name("condition")] if c is not None)
        else:
            stack.extend(c for c in current.named_children if c.type not in _OPAQUE)
    return found


def _check(call: Node) -> Check | None:
    if call.type == "object_creation_expression":
        if any(c.type == "class_body" for c in call.named_children):
            return None  # an anonymous class: no constructor of the workspace's (its fields: above)
        created = syntax.text(call.child_by_field_name("type")).split("<", 1)[0]
        return Check(created, "new", _arguments(call.child_by_field_name("arguments")))
    owner = call.child_by_field_name("object")
    if owner is None or owner.type == "this":
        qualifier = None
    elif owner.type == "identifier" and syntax.text(owner)[:1].isupper():
        qualifier = syntax.text(owner)
    else:
        return None
    return Check(syntax.call_name(call), qualifier, _arguments(call.child_by_field_name("arguments")))


def _effect(expr: Node) -> list[Step] | None:
    """A call statement checks what its calls of the class itself, of a class by name or of a
    constructor check; a call on some object changes no parameter. An assignment to a plain
    name may be a parameter's."""
    if expr.type in _CALLS:
        return [*_checks([expr]), *_uses([expr])]
    if expr.type == "assignment_expression":
        left = expr.child_by_field_name("left")
        right = expr.child_by_field_name("right")
        plain = syntax.text(expr.child_by_field_name("operator")) == "="
        value = expression(right) if plain else UNKNOWN
        if left is not None and left.type == "identifier":
            return [*_checks([right]), Local(syntax.text(left), value)]
        if (
            left is not None
            and left.type == "field_access"
            and syntax.text(left.child_by_field_name("object")) == "this"
        ):
            return [*_checks([right]), Store(syntax.text(left.child_by_field_name("field")), value)]
        return _checks([right])
    return None


def _branches(statement: Node) -> list[Step] | None:
    """``if (c) throw ...; [else if (d) throw ...;]`` is a chain of guards, ``if (c) return ...;``
    an exit; either may go on in an ``else`` block, read as more of the opening."""
    found: list[Step] = []
    node: Node | None = statement
    while node is not None and node.type == "if_statement":
        condition = expression(node.child_by_field_name("condition"))
        consequence = node.child_by_field_name("consequence")
        thrown = _thrown(consequence)
        if thrown is not None:
            found.append(Guard(condition, thrown))
        elif _returns(consequence):
            found.append(Exit(condition))
        else:
            return None
        node = node.child_by_field_name("alternative")
    if node is None:
        return found
    rest = opening_steps(node) if node.type == "block" else ()
    return [*found, *rest] if rest else None


def _returns(node: Node | None) -> bool:
    """A ``return`` (alone, or alone in a block) calling nothing."""
    while node is not None and node.type == "block" and len(node.named_children) == 1:
        node = node.named_children[0]
    return (
        node is not None
        and node.type == "return_statement"
        and not any(n.type in _CALLS for n in syntax.walk(node))
    )


def _thrown(node: Node | None) -> str | None:
    """The type a ``throw new T(...)`` (alone, or alone in a block) creates."""
    while node is not None and node.type == "block" and len(node.named_children) == 1:
        node = node.named_children[0]
    if node is None or node.type != "throw_statement" or not node.named_children:
        return None
    created = node.named_children[0]
    if created.type != "object_creation_expression":
        return None
    return syntax.text(created.child_by_field_name("type")) or None


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


def evaluate(expr: Expr, names: Callable[[str], Value], fields: Callable[[str], Value]) -> Value:
    """Three-valued evaluation: ``names`` gives a parameter's or local's value, ``fields`` a
    field's (a constant's, or nothing known). Raises :class:`NullDereference` where the
    expression surely dereferences ``null`` (``&&`` and ``||`` short-circuit as Java does)."""

    def value(e: Expr) -> Value:
        return evaluate(e, names, fields)

    def dereferenced(e: Expr) -> Value:
        found = value(e)
        if found.null:
            raise NullDereference
        return found

    kind = expr[0]
    if kind == "num":
        return number(expr[1])
    if kind == "null":
        return Value(null=True, primitive=False)
    if kind == "bool":
        return Value(truth=expr[1], null=False, primitive=True)
    if kind == "sized":
        return Value(null=False, size=expr[1], primitive=False)
    if kind == "str":
        return Value(null=False, size=len(expr[1]), primitive=False, text=expr[1], type="String")
    if kind == "typed":
        return typed(value(expr[2]), expr[1])
    if kind == "array":
        items = tuple(value(e) for e in expr[1])
        return Value(null=False, size=len(items), primitive=False, elements=items)
    if kind == "aslist":  # Arrays.asList(x): x's elements if x is an array, else a list of x
        given = value(expr[1])
        if given.primitive is False and given.size is not None and given.text is None:
            return Value(null=False, size=given.size, primitive=False, elements=given.elements)
        one = given.primitive or given.text is not None
        return Value(null=False, size=1, primitive=False, elements=(given,)) if one else NOTHING
    if kind == "index":
        items, at = dereferenced(expr[1]).elements, value(expr[2]).number
        if items is None or at is None or not at.is_integer() or not 0 <= at < len(items):
            return NOTHING
        return items[int(at)]
    if kind == "name":
        return names(expr[1])
    if kind == "field":
        return fields(expr[1])
    if kind == "size":
        size = dereferenced(expr[1]).size
        return number(None if size is None else float(size))
    if kind == "call":
        dereferenced(expr[1])
        return NOTHING
    if kind == "text":
        return _text_call(expr[1], dereferenced(expr[2]), [value(e) for e in expr[3:]])
    if kind == "valueof":
        return _text_of(value(expr[1]))
    if kind == "not":
        truth = value(expr[1]).truth
        return truth_value(None if truth is None else not truth)
    if kind == "neg":
        x = value(expr[1]).number
        return number(None if x is None else -x)
    if kind == "abs":
        x = value(expr[1]).number
        return number(None if x is None else abs(x))
    if kind == "test":
        x = value(expr[2]).number
        return truth_value(None if x is None else _FLOAT_TESTS[expr[1]](x))
    if kind == "if":  # c ? a : b evaluates one side only
        truth = value(expr[1]).truth
        if truth is None:
            return NOTHING
        return value(expr[2] if truth else expr[3])
    if kind == "bin" and expr[1] in ("&&", "||"):
        return _logic(expr[1], value(expr[2]).truth, lambda: value(expr[3]).truth)
    if kind == "bin":
        return _binary(expr[1], value(expr[2]), value(expr[3]))
    return NOTHING


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
        found = _TEXT_CALLS[name][1](owner.text, *given)
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


@dataclass(frozen=True)
class Tripped:
    """The guard a call trips: its exception type, and ``certain`` when every guard before it
    was known not to trip (so no other type of the opening can be thrown first)."""

    thrown: str
    certain: bool
    owner: Any
    """Whose guard it is: the type is spelled from that class's file."""


@dataclass(frozen=True)
class Opening:
    """A method's opening steps, with what they need to run: its parameters' names (the last
    one ``varargs`` or not) and its owner (for the resolver and the constants)."""

    owner: Any
    steps: Sequence[Step]
    params: Sequence[str]
    varargs: bool = False
    types: Sequence[str] = ()
    """The parameters' declared types."""


@dataclass(frozen=True)
class Alternatives:
    """The methods a check may call, its arguments not telling which (``FastMath.min(int, int)``
    or ``(double, double)``, a value's type unknown): what all of them do is what it does."""

    openings: tuple[Opening, ...]


Resolver = Callable[[Any, Check, Sequence[Value]], Opening | Alternatives | None]
"""``(owner, check, argument values) -> the opening(s) of the method the check calls``, if it resolves."""
Constants = Callable[[Any, str], Expr | None]
"""``(owner, field name) -> the constant's initialiser``, if it is one."""


class GuardWalk:
    """Evaluates openings through the checks they delegate to; what an owner is (a class of the
    workspace) is the resolver's business, which keeps this module free of the index."""

    def __init__(self, resolve: Resolver, constant: Constants) -> None:
        self.resolve = resolve
        self.constant = constant

    def constant_value(self, owner: Any, name: str, depth: int = 0) -> Value:
        """A constant's value, its initialiser reading the class's other constants (joptsimple's
        ``HYPHEN = String.valueOf(HYPHEN_CHAR)``), a few deep."""
        constant = self.constant(owner, name) if depth <= MAX_DEPTH else None
        if constant is None:
            return NOTHING
        other = lambda n: self.constant_value(owner, n, depth + 1)  # noqa: E731
        try:
            return evaluate(constant, other, other)
        except NullDereference:
            return NOTHING

    def tripped(
        self,
        opening: Opening | Alternatives,
        arguments: Sequence[Value],
        instance: dict[str, Value] | None = None,
    ) -> Tripped | None:
        """The guard the call of ``opening`` with ``arguments`` trips first, if one surely does;
        ``instance``: what the receiver's fields are known to hold (:meth:`construct`)."""
        state = _State()
        found = self._walk(opening, arguments, 0, state, instance)
        return Tripped(found[0], state.certain, found[1]) if found and found is not _STOPPED else None

    def construct(self, opening: Opening | Alternatives, arguments: Sequence[Value]) -> dict[str, Value]:
        """The fields a constructor (and those it delegates to) sets from what it is given:
        ``new Logit(2, 5)`` stores ``lo`` and ``hi``, which ``value(x)`` then checks ``x`` against."""
        instance: dict[str, Value] = {}
        found = self._walk(opening, arguments, 0, _State(), instance)
        return instance if found is None or found is _STOPPED else {}

    def _walk(
        self,
        opening: Opening | Alternatives,
        arguments: Sequence[Value],
        depth: int,
        state: _State,
        instance: dict[str, Value] | None,
    ) -> tuple[str, Any] | None:
        if isinstance(opening, Alternatives):
            frame = _Frame(self, opening.openings[0], {}, depth - 1, state, instance)
            found = frame._alternatives(opening.openings, list(arguments), instance)
            return None if found is _RETURNED else found
        known = bind(opening.params, arguments, opening.varargs, opening.types)
        found = _Frame(self, opening, known, depth, state, instance).run(opening.steps)
        return None if found is _RETURNED else found


_STOPPED = ("", None)
"""What a walk returns past an :class:`Unread`: no guard known to trip, and none after it either."""
_RETURNED = ("", "returned")
"""What a frame's steps return once the method surely (or perhaps) returned."""
MAX_ITERATIONS = 64
"""Iterations of a counted loop walked one by one; a longer one is walked once, its index unknown."""
MAX_WALKED = 4096
"""Steps one call's walk takes at most (nested loops): past them it knows nothing more."""
Outcome = tuple[str, Any] | None


@dataclass
class _State:
    """What a call's walk shares across the methods it enters: whether every guard so far
    surely did not trip, and the steps it may still take."""

    certain: bool = True
    budget: int = MAX_WALKED


class _Frame:
    """One method's walk: its parameters' and locals' values (``known``), the receiver's fields
    (``instance``), and the walk's shared :class:`_State`."""

    def __init__(
        self,
        walk: GuardWalk,
        opening: Opening,
        known: dict[str, Value],
        depth: int,
        state: _State,
        instance: dict[str, Value] | None,
    ) -> None:
        self.walk, self.opening, self.known = walk, opening, known
        self.depth, self.state, self.instance = depth, state, instance

    def fields(self, name: str) -> Value:
        if self.instance is not None and name in self.instance:
            return self.instance[name]
        return self.walk.constant_value(self.opening.owner, name)

    def names(self, name: str) -> Value:
        return self.known[name] if name in self.known else self.fields(name)

    def value(self, expr: Expr) -> Value:
        return evaluate(expr, self.names, self.fields)

    def run(self, steps: Sequence[Step]) -> Outcome:
        for step in steps:
            self.state.budget -= 1
            if self.state.budget < 0:
                self.state.certain = False
                return _STOPPED
            try:
                found = self._step(step)
            except NullDereference:
                return "NullPointerException", self.opening.owner
            if found is not None:
                return found
        return None

    def _step(self, step: Step) -> Outcome:
        if isinstance(step, Unread):
            self.state.certain = False
            return _STOPPED
        if isinstance(step, Local):
            self.known[step.name] = self.value(step.value)
        elif isinstance(step, Store):
            if self.instance is not None:
                self.instance[step.name] = self.value(step.value)
        elif isinstance(step, Use):
            self.value(step.value)
        elif isinstance(step, Guard | Exit):
            truth = self.value(step.condition).truth
            if truth and isinstance(step, Guard):
                return step.thrown, self.opening.owner
            if truth is not False and isinstance(step, Exit):  # returned, or perhaps
                self.state.certain = self.state.certain and truth is True
                return _RETURNED
            self.state.certain = self.state.certain and truth is False
        elif isinstance(step, Each):
            return self._each(step)
        elif isinstance(step, Count):
            return self._count(step)
        else:
            values = [self.value(a) for a in step.arguments]
            callee = self.walk.resolve(self.opening.owner, step, values)
            if callee is not None and self.depth >= MAX_DEPTH:  # a check not followed may throw first
                openings = callee.openings if isinstance(callee, Alternatives) else (callee,)
                self.state.certain = self.state.certain and not any(o.steps for o in openings)
                return None
            same = self.instance if step.qualifier in (None, "this", "super") else None  # the same object
            if isinstance(callee, Alternatives):
                return self._alternatives(callee.openings, values, same)
            if callee is not None:
                return self.walk._walk(callee, values, self.depth + 1, self.state, same)
        return None

    def _alternatives(
        self, openings: Sequence[Opening], values: list[Value], same: dict[str, Value] | None
    ) -> Outcome:
        """Each alternative walked on its own; where they differ, nothing past them is known."""
        walked = []
        for opening in openings:
            state, instance = (
                _State(self.state.certain, self.state.budget),
                dict(same) if same is not None else None,
            )
            walked.append(
                (self.walk._walk(opening, values, self.depth + 1, state, instance), state, instance)
            )
        self.state.budget = min(state.budget for _, state, _ in walked)
        outcomes = {found[0] if found else None for found, _, _ in walked}
        if len(outcomes) != 1 or _STOPPED[0] in outcomes:
            self.state.certain = False
            return _STOPPED
        self.state.certain = all(state.certain for _, state, _ in walked)
        if same is not None:  # fields the alternatives set alike are known, the others not
            for name in {n for _, _, instance in walked for n in instance or {}}:
                stored = {repr((instance or {}).get(name)) for _, _, instance in walked}
                same[name] = walked[0][2][name] if len(stored) == 1 else NOTHING
        return walked[0][0]

    def _each(self, step: Each) -> Outcome:
        source = self.value(step.source)
        if source.null:
            raise NullDereference
        if source.elements is not None:
            return self._iterate(step.name, source.elements, step.body)
        if source.size is None:
            return self._unknown(step.body)
        return self._iterate(step.name, (NOTHING,) if source.size > 0 else (), step.body)

    def _count(self, step: Count) -> Outcome:
        start, end = self.value(step.start).number, self.value(step.end).number
        if start is None or end is None:
            return self._unknown(step.body)
        indices = range(math.ceil(start), math.floor(end) + 1 if step.inclusive else math.ceil(end))
        if len(indices) > MAX_ITERATIONS:
            return self._iterate(step.name, (number(None),), step.body)
        return self._iterate(step.name, [number(float(i)) for i in indices], step.body)

    def _iterate(self, name: str, items: Sequence[Value], body: Sequence[Step]) -> Outcome:
        for item in items:
            self.known[name] = item
            found = self.run(body)
            if found is not None:
                return found
        return None

    def _unknown(self, body: Sequence[Step]) -> Outcome:
        """A loop run an unknown number of times: what its body may throw makes what comes
        after uncertain, and what it assigns unknown."""
        if any(not isinstance(s, Local | Store) for s in body):
            self.state.certain = False
        for s in body:
            if isinstance(s, Local):
                self.known[s.name] = NOTHING
            elif isinstance(s, Store) and self.instance is not None:
                self.instance[s.name] = NOTHING
        return None


def bind(
    params: Sequence[str], values: Sequence[Value], varargs: bool = False, types: Sequence[str] = ()
) -> dict[str, Value]:
    """Parameter name -> argument value; a varargs parameter gets what is left as an array,
    unless it is passed an array (or ``null``) itself. ``types``: the parameters' declared
    types, which a value not known better takes."""
    last = values[-1] if values else NOTHING
    array = last.primitive is False and last.text is None and (last.type or "[]").endswith("[]")
    passed_whole = len(values) == len(params) and bool(values) and (bool(last.null) or array)
    if varargs and params and not passed_whole:
        fixed = len(params) - 1
        rest = tuple(values[fixed:])
        bound = {**dict(zip(params[:fixed], values, strict=False)), params[-1]: Value(
            null=False, size=len(rest), primitive=False, elements=rest
        )}  # fmt: skip
    else:
        bound = dict(zip(params, values, strict=False))
    for name, declared in zip(params, types, strict=False):
        if name in bound:
            bound[name] = typed(bound[name], erased(declared))
    return bound


def erased(type_name: str) -> str:
    """A declared type as a value's: ``final List<V>`` is ``List``, ``double...`` ``double[]``."""
    plain = re.sub(r"<.*>", "", type_name.removeprefix("final ")).replace(" ", "")
    return plain[:-3] + "[]" if plain.endswith("...") else plain
