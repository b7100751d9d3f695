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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from oracular.java import syntax

Expr = tuple[Any, ...]
"""A condition or value as nested tuples (``("bin", "<=", ("name", "n"), ("num", 0.0))``):
hashable and cheap to keep on every indexed method."""

UNKNOWN: Expr = ("?",)
MAX_STEPS = 24
"""Leading statements read per method: guards come first, and a long method's tail is work."""
MAX_DEPTH = 3
"""Checks followed: ``Fraction(int, int)`` -> ``this(...)`` -> ``MathUtils.checkNotNull``."""

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
class Unread:
    """Where the reading stopped with a ``throw`` or a check still ahead (a loop checking each
    element): past it nothing is known, not even that the method gets past it."""


Step = Guard | Exit | Check | Local | Store | Unread


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
    if kind == "string_literal":
        return ("sized", sum(len(syntax.text(c)) for c in node.named_children if c.type == "string_fragment"))
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
    if kind == "array_access":
        return (
            "index",
            expression(node.child_by_field_name("array")),
            expression(node.child_by_field_name("index")),
        )
    return UNKNOWN


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
    if owner is None:
        return UNKNOWN
    if name in _SIZE_CALLS and not given:
        return ("size", expression(owner))
    if name == "isEmpty" and not given:
        return ("bin", "==", ("size", expression(owner)), ("num", 0.0))
    if syntax.text(owner) in ("Double", "Float") and name in _FLOAT_TESTS and len(given) == 1:
        return ("test", name, expression(given[0]))
    if syntax.text(owner) in ("Math", "FastMath", "StrictMath") and name == "abs" and len(given) == 1:
        return ("abs", expression(given[0]))
    if syntax.text(owner) == "Arrays" and name == "asList" and len(given) == 1:
        return ("aslist", expression(given[0]))
    if (syntax.text(owner), name) in _FIXED_LISTS:
        return ("array", tuple(expression(g) for g in given)) if len(given) <= MAX_ELEMENTS else UNKNOWN
    if syntax.text(owner) == "Collections" and name in ("emptyList", "emptySet", "emptyMap") and not given:
        return ("sized", 0)
    return UNKNOWN


_FIXED_LISTS = {("Arrays", "asList"), ("List", "of")}
"""Calls making a list of exactly their arguments (one array given to ``asList``: its elements)."""
_EMPTY_COLLECTIONS = frozenset(
    ("ArrayList", "LinkedList", "HashMap", "HashSet", "TreeMap", "TreeSet", "LinkedHashMap", "LinkedHashSet",
     "ArrayDeque", "Vector")
)  # fmt: skip
"""Collections a ``new`` without arguments makes empty (a later ``add`` makes the prefix forget it)."""


def _new_array(node: Node) -> Expr:
    value = node.child_by_field_name("value")
    if value is not None:
        return _elements(value)
    dims = [c for c in node.named_children if c.type == "dimensions_expr"]
    size = expression(dims[0].named_children[0]) if dims and dims[0].named_children else UNKNOWN
    return ("sized", size[1] if size[0] == "num" else None)


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
    if kind == "explicit_constructor_invocation":
        which = syntax.text(statement.child_by_field_name("constructor"))
        return [Check(which, which, _arguments(statement.child_by_field_name("arguments")))]
    if kind == "throw_statement":
        thrown = _thrown(statement)
        return [Guard(("bool", True), thrown)] if thrown else None
    if kind == "return_statement":  # the method ends here: what it calls on the way still checks
        return [*_checks(statement.named_children), Exit(("bool", True))]
    if kind == "expression_statement" and statement.named_children:
        return _effect(statement.named_children[0])
    return None


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
        return _checks([expr])
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


NOTHING = Value()
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
    "!=": operator.ne,
}  # fmt: skip
_ARITHMETIC: dict[str, Callable[[float, float], float]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
}  # fmt: skip


def evaluate(expr: Expr, names: Callable[[str], Value], fields: Callable[[str], Value]) -> Value:
    """Three-valued evaluation: ``names`` gives a parameter's or local's value, ``fields`` a
    field's (a constant's, or nothing known)."""

    def value(e: Expr) -> Value:
        return evaluate(e, names, fields)

    kind = expr[0]
    if kind == "num":
        return number(expr[1])
    if kind == "null":
        return Value(null=True, primitive=False)
    if kind == "bool":
        return Value(truth=expr[1], null=False, primitive=True)
    if kind == "sized":
        return Value(null=False, size=expr[1], primitive=False)
    if kind == "array":
        items = tuple(value(e) for e in expr[1])
        return Value(null=False, size=len(items), primitive=False, elements=items)
    if kind == "aslist":  # Arrays.asList(x): x's elements if x is an array, else a list of x
        given = value(expr[1])
        if given.primitive is False and given.size is not None:
            return Value(null=False, size=given.size, primitive=False, elements=given.elements)
        return Value(null=False, size=1, primitive=False, elements=(given,)) if given.primitive else NOTHING
    if kind == "index":
        items, at = value(expr[1]).elements, value(expr[2]).number
        if items is None or at is None or not at.is_integer() or not 0 <= at < len(items):
            return NOTHING
        return items[int(at)]
    if kind == "name":
        return names(expr[1])
    if kind == "field":
        return fields(expr[1])
    if kind == "size":
        size = value(expr[1]).size
        return number(None if size is None else float(size))
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
    if kind == "bin":
        return _binary(expr[1], value(expr[2]), value(expr[3]))
    return NOTHING


def number(x: float | None) -> Value:
    return Value(number=x, null=False, primitive=True)


def truth_value(truth: bool | None) -> Value:
    return Value(truth=truth, null=False, primitive=True)


def _binary(op: str, left: Value, right: Value) -> Value:
    if op in ("&&", "||"):
        return truth_value(_logic(op, left.truth, right.truth))
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
    return NOTHING


def _logic(op: str, a: bool | None, b: bool | None) -> bool | None:
    if op == "&&":
        return False if a is False or b is False else (True if a and b else None)
    return True if a or b else (False if a is False and b is False else None)


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


Resolver = Callable[[Any, Check, Sequence[Value]], Opening | None]
"""``(owner, check, argument values) -> the opening of the method the check calls``, if it resolves."""
Constants = Callable[[Any, str], Expr | None]
"""``(owner, field name) -> the constant's initialiser``, if it is one."""


class GuardWalk:
    """Evaluates openings through the checks they delegate to; what an owner is (a class of the
    workspace) is the resolver's business, which keeps this module free of the index."""

    def __init__(self, resolve: Resolver, constant: Constants) -> None:
        self.resolve = resolve
        self.constant = constant

    def tripped(
        self, opening: Opening, arguments: Sequence[Value], instance: dict[str, Value] | None = None
    ) -> Tripped | None:
        """The guard the call of ``opening`` with ``arguments`` trips first, if one surely does;
        ``instance``: what the receiver's fields are known to hold (:meth:`construct`)."""
        certain = [True]
        found = self._walk(opening, arguments, 0, certain, instance)
        return Tripped(found[0], certain[0], found[1]) if found and found is not _STOPPED else None

    def construct(self, opening: Opening, arguments: Sequence[Value]) -> dict[str, Value]:
        """The fields a constructor (and those it delegates to) sets from what it is given:
        ``new Logit(2, 5)`` stores ``lo`` and ``hi``, which ``value(x)`` then checks ``x`` against."""
        instance: dict[str, Value] = {}
        found = self._walk(opening, arguments, 0, [True], instance)
        return instance if found is None or found is _STOPPED else {}

    def _walk(
        self,
        opening: Opening,
        arguments: Sequence[Value],
        depth: int,
        certain: list[bool],
        instance: dict[str, Value] | None,
    ) -> tuple[str, Any] | None:
        known = bind(opening.params, arguments, opening.varargs)

        def fields(name: str) -> Value:
            if instance is not None and name in instance:
                return instance[name]
            constant = self.constant(opening.owner, name)
            return evaluate(constant, lambda _: NOTHING, lambda _: NOTHING) if constant else NOTHING

        def names(name: str) -> Value:
            return known[name] if name in known else fields(name)

        for step in opening.steps:
            if isinstance(step, Unread):
                certain[0] = False
                return _STOPPED
            if isinstance(step, Local):
                known[step.name] = evaluate(step.value, names, fields)
            elif isinstance(step, Store):
                if instance is not None:
                    instance[step.name] = evaluate(step.value, names, fields)
            elif isinstance(step, Guard | Exit):
                truth = evaluate(step.condition, names, fields).truth
                if truth and isinstance(step, Guard):
                    return step.thrown, opening.owner
                if truth is not False and isinstance(step, Exit):  # returned, or perhaps
                    certain[0] = certain[0] and truth is True
                    return None
                certain[0] = certain[0] and truth is False
            elif depth < MAX_DEPTH:
                values = [evaluate(a, names, fields) for a in step.arguments]
                callee = self.resolve(opening.owner, step, values)
                same = instance if step.qualifier in (None, "this", "super") else None  # the same object
                found = self._walk(callee, values, depth + 1, certain, same) if callee is not None else None
                if found:
                    return found
        return None


_STOPPED = ("", None)
"""What a walk returns past an :class:`Unread`: no guard known to trip, and none after it either."""


def bind(params: Sequence[str], values: Sequence[Value], varargs: bool = False) -> dict[str, Value]:
    """Parameter name -> argument value; a varargs parameter gets the count of what is left,
    unless it is passed an array (or ``null``) itself."""
    passed_whole = len(values) == len(params) and bool(values) and values[-1].primitive is False
    if varargs and params and not passed_whole:
        fixed = len(params) - 1
        rest = Value(null=False, size=max(0, len(values) - fixed), primitive=False)
        return {**dict(zip(params[:fixed], values, strict=False)), params[-1]: rest}
    return dict(zip(params, values, strict=False))
