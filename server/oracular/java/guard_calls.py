"""Which guard a test's throwing statement trips, read from the workspace's code.

Why: the static engine (no execution) must still say which exception a prefix throws, and the
code under test usually says it plainly in its opening guards (:mod:`oracular.java.guards`).
This module is where those guards meet a test: the prefix's locals and the call's literal
arguments give the values, the workspace index resolves the checks a method delegates to (its
own helpers, ``this(...)``, ``super(...)``, a utility class's static ``checkNotNull``) and the
constants its guards compare with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, FieldInfo, MethodInfo
from oracular.java.guard_expressions import expression
from oracular.java.guard_values import (
    NOTHING,
    UNKNOWN,
    Expr,
    NullDereference,
    Value,
    erased,
    evaluate,
    typed,
)
from oracular.java.guard_walk import Alternatives, GuardWalk, Opening, Tripped
from oracular.java.guards import Check, Guard, Unread, opaque, opening_steps
from oracular.java.source import parse_text
from oracular.java.types import PRIMITIVE_BOX, TypeEnv, is_primitive, takes


@dataclass(frozen=True)
class GuardVerdict:
    """The type the statement's call surely throws, its superclasses' simple names (a test may
    expect a broader type), ``certain``: no guard before it could trip instead, and ``habit``:
    the ancestor the file's other tests expect where none of them expects the thrown type by
    name (commons-math3's tests expect ``MathIllegalArgumentException`` where the guard throws
    ``NotPositiveException``): then the developer names the ancestor, 37 times of 45 on the 8
    dev projects' cut throwing tests, and the thrown type where the file names it, 42 of 44."""

    thrown: str
    ancestors: tuple[str, ...]
    certain: bool
    habit: str | None = None

    @property
    def named(self) -> str:
        """The type a test of this file would name: the habit, else the thrown type."""
        return self.habit or self.thrown

    def signal(self, exception: str) -> float:
        """``1`` for :attr:`named`, ``-1`` for any other once ``certain`` except the thrown type
        and its other ancestors (caught too), else ``0``."""
        simple = exception.rsplit(".", 1)[-1]
        if simple == self.named.rsplit(".", 1)[-1]:
            return 1.0
        caught = simple == self.thrown.rsplit(".", 1)[-1] or simple in self.ancestors
        return -1.0 if self.certain and not caught else 0.0

    def to_json(self) -> dict[str, object]:
        found = {"thrown": self.thrown, "ancestors": list(self.ancestors), "certain": self.certain}
        return {**found, "habit": self.habit} if self.habit else found

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GuardVerdict:
        habit = data.get("habit")
        return cls(str(data["thrown"]), tuple(data.get("ancestors") or ()), bool(data.get("certain")), habit)


def opening(cls: ClassInfo, method: MethodInfo) -> Opening:
    params = [name for _, name in method.params]
    return Opening(cls, method.opening, params, _varargs(method), [declared for declared, _ in method.params])


class WorkspaceGuards:
    """Resolves checks and constants through the workspace index, from the callee's own file."""

    def __init__(self, env: TypeEnv) -> None:
        self.index = env.index
        self.walk = GuardWalk(self.resolve, self.constant)

    def _class(self, owner: ClassInfo, name: str) -> ClassInfo | None:
        imports = self.index.imports_of(owner)
        return self.index.resolve(name, owner.package, imports, owner.qualified_name, owner.path)

    def resolve(
        self, owner: ClassInfo, check: Check, values: Sequence[Value]
    ) -> Opening | Alternatives | None:
        found = self._workspace(owner, check, values)
        if found is None and check.callee in _LIBRARY_GUARDS and self._library(owner, check):
            thrown, condition = _LIBRARY_GUARDS[check.callee]
            return Opening(owner, (Guard(condition, thrown),), ("checked", "message"), varargs=True)
        return found

    def _library(self, owner: ClassInfo, check: Check) -> bool:
        """A library check named by its class, or imported statically from it."""
        if check.qualifier is not None:
            return check.qualifier in _LIBRARY_CHECKS
        return any(h.rsplit(".", 1)[-1] in _LIBRARY_CHECKS for h in self._static_holders(owner, check.callee))

    def _static_holders(self, owner: ClassInfo, name: str) -> list[str]:
        """The classes ``owner``'s file imports a static ``name`` from (or all of, ``.*``)."""
        return [
            imported.name if imported.is_wildcard else imported.name.rpartition(".")[0]
            for imported in self.index.imports_of(owner)
            if imported.is_static and (imported.is_wildcard or imported.simple == name)
        ]

    def _workspace(
        self, owner: ClassInfo, check: Check, values: Sequence[Value]
    ) -> Opening | Alternatives | None:
        if check.qualifier in ("this", "super", "new"):
            name = {"this": owner.name, "super": owner.superclass or "", "new": check.callee}[check.qualifier]
            cls = owner if check.qualifier == "this" else self._class(owner, name)
            return _only(cls, cls.constructors() if cls else [], values)
        if check.qualifier is None:  # the class's own, inherited, or imported statically
            holders = [self._class(owner, h) for h in self._static_holders(owner, check.callee)]
            for cls in (owner, *self.index.supertypes(owner), *(h for h in holders if h is not None)):
                found = _only(cls, cls.methods_named(check.callee), values)
                if found is not None:
                    return found
            return None
        cls = self._class(owner, check.qualifier)
        return _only(cls, cls.methods_named(check.callee), values) if cls else None

    def implemented(self, cls: ClassInfo, method: MethodInfo, values: Sequence[Value]) -> Tripped | None:
        """What an abstract method's implementations throw for ``values``, where all of them
        surely throw the same type (commons-math3's ``BinomialConfidenceInterval.createInterval``:
        each of its four opens with ``IntervalUtils.checkParameters(...)``): the implementations
        are the call's :class:`~oracular.java.guard_walk.Alternatives`."""
        chosen: list[Opening | Alternatives] = []
        for sub in self.index.subtypes(cls):
            bodies = [m for m in sub.methods_named(method.name) if not _abstract(sub, m)]
            found = _only(sub, bodies, values) if not sub.is_test and bodies else None
            if found is not None:
                chosen.append(found)
            if len(chosen) > MAX_IMPLEMENTATIONS:
                return None
        return self.walk.tripped(Alternatives(tuple(chosen)), values) if chosen else None

    def constant(self, owner: ClassInfo, name: str) -> Expr | None:
        found = owner.fields.get(name)
        return _final_value(found) if found is not None else None

    def ancestors(self, owner: ClassInfo, thrown: str) -> tuple[str, ...]:
        """The thrown class's workspace superclasses, then the JDK class they extend."""
        cls = self._class(owner, thrown)
        return tuple(n.rsplit(".", 1)[-1] for n in self.index.ancestor_names(cls)) if cls else ()


_LIBRARY_CHECKS = ("Objects", "Preconditions")
"""The JDK's and Guava's argument checks, called by class name or statically imported."""
_LIBRARY_GUARDS: dict[str, tuple[str, Expr]] = {
    "requireNonNull": ("NullPointerException", ("bin", "==", ("name", "checked"), ("null",))),
    "checkNotNull": ("NullPointerException", ("bin", "==", ("name", "checked"), ("null",))),
    "checkArgument": ("IllegalArgumentException", ("not", ("name", "checked"))),
    "checkState": ("IllegalStateException", ("not", ("name", "checked"))),
}
"""What they throw, and when: ``Objects.requireNonNull(reader, "reader")`` is commons-csv's
``NullPointerException``, where a hand-written guard would throw ``IllegalArgumentException``."""


def _only(
    cls: ClassInfo | None, methods: Sequence[MethodInfo], values: Sequence[Value]
) -> Opening | Alternatives | None:
    """The one method the arguments can be passed to: by count (a varargs one takes any number
    from its fixed ones), then by kind (a number is no reference, a reference no number)."""
    fitting = [m for m in methods if takes(m, len(values))]
    if len(fitting) > 1:
        fitting = [m for m in fitting if all(map(_fits, (p for p, _ in m.params), values))]
    if len(fitting) > 1:  # Java tries the methods taking the arguments as they are before varargs
        fitting = [m for m in fitting if not _varargs(m)] or fitting
    if cls is None or not fitting:
        return None
    if len(fitting) > MAX_ALTERNATIVES:  # which one runs is not known: past it, nothing is
        return Opening(cls, (Unread(),), ()) if any(m.opening for m in fitting) else None
    if len(fitting) > 1:
        return Alternatives(tuple(opening(cls, m) for m in fitting))
    return opening(cls, fitting[0])


MAX_ALTERNATIVES = 4
"""Overloads the arguments do not tell apart that are walked each (``FastMath.min``'s four)."""


MAX_IMPLEMENTATIONS = 8
"""Implementations of an abstract method walked; more (``UnivariateFunction.value``) say nothing."""


def _abstract(cls: ClassInfo, method: MethodInfo) -> bool:
    """A method without a body: declared ``abstract``, or an interface's (not ``default``/``static``)."""
    if "abstract" in method.modifiers:
        return True
    return cls.kind == "interface" and not {"default", "static", "private"} & method.modifiers


def _varargs(method: MethodInfo) -> bool:
    return bool(method.params) and method.params[-1][0].endswith("...")


_PRIMITIVE_LIKE = frozenset([*PRIMITIVE_BOX, *PRIMITIVE_BOX.values(), "Number", "Object"])
"""Where a number or a truth value can go (boxed if need be)."""


def _fits(param: str, value: Value) -> bool:
    if param.endswith("..."):  # one element of the rest, or the rest as an array
        return _fits(param[:-3], value) or _fits(param[:-3] + "[]", value)
    if value.primitive is None:
        return True
    if value.primitive:
        return param in _PRIMITIVE_LIKE
    return not is_primitive(param) and _same_kind(erased(param), value.type)


def _same_kind(param: str, given: str | None) -> bool:
    """Whether a reference of type ``given`` can be passed as ``param``, as far as arrays and
    strings tell (``checkEqualLength(double[], double[])`` is not ``(int[], int[])``): a
    primitive array only as itself, an array never as a string and a string never as an array."""
    if given is None or param in ("Object", "T") or len(param) == 1:
        return True
    if given.endswith("[]") != param.endswith("[]"):
        return False
    if given.endswith("[]"):
        element, wanted = given[:-2], param[:-2]
        return element == wanted or not (
            is_primitive(element) or is_primitive(wanted) or "[]" in element + wanted
        )
    return given != "String" or param in ("String", "CharSequence", "Comparable", "Serializable")


@lru_cache(maxsize=4096)
def initialiser(text: str) -> Expr:
    """A field initialiser's text as an expression (fields keep their initialiser as text)."""
    source = parse_text(f"class OracularConstant {{ Object value = {text}; }}\n")
    declarator = next((n for n in syntax.walk(source.root) if n.type == "variable_declarator"), None)
    return expression(declarator.child_by_field_name("value")) if declarator is not None else UNKNOWN


@dataclass(frozen=True)
class Built:
    """A local the prefix made with ``new``: its class as written and what its constructor got."""

    type: str
    arguments: tuple[Value, ...]


def prefix_values(
    statements: Sequence[Node], fields: dict[str, Value] | None = None
) -> tuple[dict[str, Value], dict[str, Built]]:
    """What the prefix's locals hold before its last statement, as far as literals tell, and the
    objects it built with ``new``: a local a later statement calls a method on or writes into is
    forgotten (a list filled, an array element set, a setter called). ``fields``: the test
    class's final fields (:func:`final_fields`), which its locals shadow."""
    known: dict[str, Value] = dict(fields or {})
    built: dict[str, Built] = {}
    for statement in statements:
        if statement.type == "local_variable_declaration":
            declared = erased(syntax.text(statement.child_by_field_name("type")))
            for declarator in statement.children_by_field_name("declarator"):
                name, value = (
                    syntax.text(declarator.child_by_field_name("name")),
                    declarator.child_by_field_name("value"),
                )
                dimensions = syntax.text(declarator.child_by_field_name("dimensions")).count("[")
                known[name] = _evaluate(expression(value), known)
                if declared != "var":
                    known[name] = typed(known[name], declared + "[]" * dimensions)
                built.pop(name, None)
                if value is not None and value.type == "object_creation_expression":
                    built[name] = _built(value, known)
            continue
        for node in syntax.walk(statement):
            if node.type == "method_invocation":
                receiver = node.child_by_field_name("object")
                if receiver is not None and receiver.type == "identifier":
                    known.pop(syntax.text(receiver), None)
                    built.pop(syntax.text(receiver), None)
            elif (
                node.type == "assignment_expression"
                and (left := node.child_by_field_name("left")) is not None
            ):
                target = left.child_by_field_name("array") if left.type == "array_access" else left
                plain = syntax.text(node.child_by_field_name("operator")) == "=" and left.type == "identifier"
                right = node.child_by_field_name("right")
                known[syntax.text(target)] = _evaluate(expression(right) if plain else UNKNOWN, known)
                built.pop(syntax.text(target), None)
                if plain and right is not None and right.type == "object_creation_expression":
                    built[syntax.text(target)] = _built(right, known)  # solver = new ConjugateGradient(...)
    return known, built


def _built(creation: Node, known: dict[str, Value]) -> Built:
    args = creation.child_by_field_name("arguments")
    values = tuple(_evaluate(expression(a), known) for a in (args.named_children if args else []))
    return Built(syntax.text(creation.child_by_field_name("type")), values)


def final_fields(cls: ClassInfo | None) -> dict[str, Value]:
    """The values of a class's ``final`` fields initialised with literals (``private static final
    int N = 5;``, ``final double[] x = {1, 2}``), each knowing those declared before it."""
    known: dict[str, Value] = {}
    for name, info in cls.fields.items() if cls is not None else ():
        value = _final_value(info)
        if value is not None:
            known[name] = _evaluate(value, known)
    return known


def _final_value(field: FieldInfo) -> Expr | None:
    """A ``final`` field's initialiser: the same for every object (a non-final one may change)."""
    return initialiser(field.initializer) if "final" in field.modifiers and field.initializer else None


def _evaluate(expr: Expr, known: dict[str, Value]) -> Value:
    """A test's value: where the test itself dereferences ``null``, it is not the code's guard."""
    try:
        return evaluate(expr, lambda name: known.get(name, NOTHING), lambda _: NOTHING)
    except NullDereference:
        return NOTHING


def trip(
    calls: Sequence[tuple[ClassInfo, MethodInfo, Node]],
    before: Sequence[Node],
    env: TypeEnv,
    file_expects: Sequence[str] = (),
) -> GuardVerdict | None:
    """The first guard the statement's workspace calls (in evaluation order) surely trip, on a
    receiver the prefix built with the fields its constructor set; ``file_expects``: the types
    the file's other tests expect, the most often first. A call of the test class's own method
    (:func:`own_helper`) walks the opening read from its body in this file."""
    guards = WorkspaceGuards(env)
    known, built = prefix_values(before, final_fields(env.index.resolve(env.scope) if env.scope else None))
    certain = True
    for cls, method, call in calls:
        args = call.child_by_field_name("arguments")
        values = [_evaluate(expression(a), known) for a in (args.named_children if args else [])]
        made, instance = _instance(guards, env, call, built, known)
        called = own_opening(call, cls, method) if cls.is_test else opening(cls, method)
        if made is not None and made is not cls:  # the class built, not the interface declared
            called = guards.resolve(made, Check(method.name, None, ()), values) or called
        if made is None and _abstract(cls, method):
            tripped = guards.implemented(cls, method, values)
        else:
            tripped = guards.walk.tripped(called, values, instance)
        if tripped is not None:
            ancestors = guards.ancestors(tripped.owner, tripped.thrown)
            named = tripped.thrown.rsplit(".", 1)[-1] in {t.rsplit(".", 1)[-1] for t in file_expects}
            habit = None if named else next((t for t in file_expects if t in ancestors), None)
            return GuardVerdict(tripped.thrown, ancestors, certain and tripped.certain, habit)
        certain = False  # a call that passed its guards did some work, which may throw too
    return None


def own_helper(call: Node, env: TypeEnv) -> tuple[ClassInfo, MethodInfo] | None:
    """The test class's own method an unqualified call reaches (commons-math3's
    ``create(weights, means, covariances)``, which builds the distribution under test)."""
    found = env.own_method(call)
    return found if found is not None and found[0].is_test else None


def own_opening(call: Node, cls: ClassInfo, method: MethodInfo) -> Opening:
    """A test class's method's opening, read from its declaration in the tree ``call`` is in
    (the index reads no test file's openings), up to its first call on some object: a helper
    builds what it tests, then does the work that throws (commons-math3's ``CMAESOptimizerTest.
    doTest``: ``optim.optimize(...)``, then asserts on a result never computed)."""
    scope = syntax.enclosing(call, "class_body")
    while scope is not None:
        for child in scope.named_children:
            if (
                child.type == "method_declaration"
                and syntax.text(child.child_by_field_name("name")) == method.name
            ):
                params = child.child_by_field_name("parameters")
                count = sum(1 for p in params.named_children if "parameter" in p.type) if params else 0
                if count == len(method.params):
                    steps = opening_steps(child.child_by_field_name("body"))
                    work = next((i for i, step in enumerate(steps) if opaque(step)), None)
                    kept = steps if work is None else (*steps[:work], Unread())
                    return replace(opening(cls, method), steps=kept)
        scope = syntax.enclosing(scope, "class_body")
    return opening(cls, method)


def _instance(
    guards: WorkspaceGuards, env: TypeEnv, call: Node, built: dict[str, Built], known: dict[str, Value]
) -> tuple[ClassInfo | None, dict[str, Value] | None]:
    """The class of the call's receiver and its fields, where the prefix (or the statement)
    built it with ``new`` (``UnivariateFunction f = new Logit(2, 5)``: ``Logit``, ``lo`` and ``hi``)."""
    receiver = call.child_by_field_name("object") if call.type == "method_invocation" else None
    if receiver is None:
        return None, None
    if receiver.type == "object_creation_expression":
        made: Built | None = _built(receiver, known)
    else:
        made = built.get(syntax.text(receiver)) if receiver.type == "identifier" else None
    cls = env.resolve_class(made.type) if made is not None else None
    if made is None or cls is None:
        return None, None
    constructor = _only(cls, cls.constructors(), made.arguments)
    return cls, guards.walk.construct(constructor, made.arguments) if constructor is not None else None
