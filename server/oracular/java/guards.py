"""The guard clauses a method opens with, read as the steps a call's arguments are walked through.

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
a constructor), ``for`` loops whose bodies are read whole (``MathArrays.checkPositive``: ``if (in[i]
<= 0) throw ...`` for each element), calls on a parameter (``null`` there throws
``NullPointerException``), the locals it computes and the fields it stores (``this.lo = lo``) on
the way, up to the first statement that is none of these (a ``while`` loop, an ``if`` doing other
work), after which the parameters' values are no longer known (:class:`Unread` where a ``throw``
or a check lies beyond). :class:`~oracular.java.guard_walk.GuardWalk` then binds a call's
arguments to the parameters and evaluates the steps in order (:mod:`oracular.java.guard_walk`),
three-valued: a condition on anything else (a field no constructor set, a call's result) is
unknown, and so never trips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.guard_expressions import dereferences, expression, parts
from oracular.java.guard_values import UNKNOWN, Expr

MAX_STEPS = 24
"""Leading statements read per method: guards come first, and a long method's tail is work."""


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
    return [Use(e) for e in found if any(dereferences(e))]


def opaque(step: Step) -> bool:
    """Whether a step calls a method on some object, which may throw (an unknown call)."""
    value = step.value if isinstance(step, Local | Store | Use) else None
    return value is not None and any(part[0] == "call" for part in parts(value))


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
