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
a constructor), ``for`` loops whose bodies are read whole (``MathArrays.checkPositive``: ``if (in[i]
<= 0) throw ...`` for each element), calls on a parameter (``null`` there throws
``NullPointerException``), the locals it computes and the fields it stores (``this.lo = lo``) on
the way, up to the first statement that is none of these (a ``while`` loop, an ``if`` doing other
work), after which the parameters' values are no longer known (:class:`Unread` where a ``throw``
or a check lies beyond). :class:`GuardWalk` then binds a call's arguments to the parameters and
evaluates the steps in order (:mod:`oracular.java.guard_values`), three-valued: a condition on
anything else (a field no constructor set, a call's result) is unknown, and so never trips.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.guard_expressions import dereferences, expression, parts
from oracular.java.guard_values import (
    NOTHING,
    UNKNOWN,
    Expr,
    NullDereference,
    Value,
    erased,
    evaluate,
    number,
    typed,
)

MAX_STEPS = 24
"""Leading statements read per method: guards come first, and a long method's tail is work."""
MAX_DEPTH = 5
"""Checks followed: ``Fraction(int, int)`` -> ``this(...)`` -> ``MathUtils.checkNotNull``,
``LoessInterpolator.smooth`` -> its overload -> ``MathArrays.checkOrder`` -> two more -> the loop
that throws; a deeper one may throw first (what is found after it is not certain)."""


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

    openings: tuple[Opening | Alternatives, ...]


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
            return self._walk_each(opening.openings, arguments, depth, state, instance)
        known = bind(opening.params, arguments, opening.varargs, opening.types)
        found = _Frame(self, opening, known, depth, state, instance).run(opening.steps)
        return None if found is _RETURNED else found

    def _walk_each(
        self,
        openings: Sequence[Opening | Alternatives],
        arguments: Sequence[Value],
        depth: int,
        state: _State,
        same: dict[str, Value] | None,
    ) -> tuple[str, Any] | None:
        """Each alternative walked on its own: what all do is what the call does; where they
        differ, nothing past them is known. The fields all set alike are known, the others not."""
        walked = []
        for opening in openings:
            own, instance = _State(state.certain, state.budget), dict(same) if same is not None else None
            walked.append((self._walk(opening, arguments, depth, own, instance), own, instance))
        state.budget = min(own.budget for _, own, _ in walked)
        outcomes = {found[0] if found else None for found, _, _ in walked}
        if len(outcomes) != 1 or _STOPPED[0] in outcomes:
            state.certain = False
            return _STOPPED
        state.certain = all(own.certain for _, own, _ in walked)
        if same is not None:
            for name in {n for _, _, instance in walked for n in instance or {}}:
                stored = {repr((instance or {}).get(name)) for _, _, instance in walked}
                same[name] = walked[0][2][name] if len(stored) == 1 else NOTHING
        return walked[0][0]


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
            if callee is not None:  # one method, or the alternatives the arguments leave
                return self.walk._walk(callee, values, self.depth + 1, self.state, same)
        return None

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
