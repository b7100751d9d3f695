"""The guard walk: a call's arguments bound to a method's parameters, its opening steps evaluated.

Why: the steps :mod:`oracular.java.guards` reads once per method are walked on every call a test
makes, through the checks they delegate to (:class:`GuardWalk`): the arguments are bound to the
parameters (:func:`bind`), then the steps evaluated in order (:mod:`oracular.java.guard_values`),
three-valued: a condition on anything else (a field no constructor set, a call's result) is
unknown, and so never trips; past an :class:`~oracular.java.guards.Unread` nothing is known.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from oracular.java.guard_values import NOTHING, Expr, NullDereference, Value, erased, evaluate, number, typed
from oracular.java.guards import Check, Count, Each, Exit, Guard, Local, Step, Store, Unread, Use

MAX_DEPTH = 5
"""Checks followed: ``Fraction(int, int)`` -> ``this(...)`` -> ``MathUtils.checkNotNull``,
``LoessInterpolator.smooth`` -> its overload -> ``MathArrays.checkOrder`` -> two more -> the loop
that throws; a deeper one may throw first (what is found after it is not certain)."""


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
