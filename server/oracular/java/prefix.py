"""Understanding a test prefix: its locals, the focal method, and what to assert on.

TOGA's tool reused the target of an assertion EvoSuite had already written, so a test with no
assertion got nothing. Here the target is chosen from the prefix itself: the variable declared
last, else the value of the last non-void call, else the observers (``size()``, ``isEmpty()``,
``getX()``...) of the receiver of the last mutating call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, MethodInfo, unique_types
from oracular.java.file_reads import file_read_targets
from oracular.java.guard_calls import GuardVerdict, own_helper, trip
from oracular.java.jdk_throws import CONSTRUCTOR, documented_throws
from oracular.java.oracle_statements import call_args, statement_call
from oracular.java.targets import OBSERVER_NAME, Target, TargetEnumerator, workspace_observers
from oracular.java.types import ResolvedCall, TypeEnv, best_overload, split_generic, takes
from oracular.java.write_history import WriteHistory, is_literal, write_history

MAX_OBSERVERS = 6
HELPER_DEPTH = 2
"""Calls followed inside the focal class for the exceptions a focal call may throw."""
NULL_ARGUMENT_TYPES = ("NullPointerException", "IllegalArgumentException")
"""What a call given a ``null`` argument throws in the realistic train split: of the 1,790
samples whose last statement passes ``null``, 511 throw, 187 the first and 179 the second."""


@dataclass
class FocalMethod:
    cls: ClassInfo
    method: MethodInfo
    call: Node
    statement_index: int
    receiver: str | None

    @property
    def signature(self) -> str:
        return self.method.signature(self.cls.name)

    def exception_types(self) -> list[str]:
        """What the focal call may throw: the method's own types first, then those of its class's
        methods it calls, up to :data:`HELPER_DEPTH` calls deep. A public method often validates
        through a helper (``checkIndex(i)``, ``requireOpen()``) whose ``throw`` it never shows,
        and a constructor through another one (``Quaternion(double[] v)`` calls ``this(0, v)``).

        Following superclasses' methods and other classes' static helpers as well was tried on
        the 8 dev projects' 987 throwing one-cut samples: the type is offered for 80.0% instead of
        79.3%, but type accuracy falls from 56.5% to 56.2%: more types compete."""
        found = self.method.exception_types()
        seen = {id(self.method)}
        frontier = [self.method]
        for _ in range(HELPER_DEPTH):
            called = {name for f in frontier for name in f.called}
            delegated = {n for f in frontier for n in f.delegates}
            reached = [
                m
                for m in self.cls.methods
                if id(m) not in seen
                and (m.name in called or (m.is_constructor and any(takes(m, n) for n in delegated)))
            ]
            seen.update(id(m) for m in reached)
            found += [t for m in reached for t in m.exception_types()]
            frontier = reached
        return unique_types(found)

    @property
    def name(self) -> str:
        return self.cls.name if self.method.is_constructor else self.method.name


_TOO_BROAD = frozenset({"Exception", "RuntimeException", "Throwable", "Error"})
"""Roots no test expecting a specific failure names (``Exception`` stays the last resort)."""


def exception_ancestors(types: list[str], env: TypeEnv) -> list[str]:
    """The superclasses of the workspace's exception types in ``types``, nearest first, up to the
    JDK class their hierarchy extends. A test often expects a broader type than the code throws:
    commons-math3's tests expect ``MathIllegalArgumentException`` where ``checkPositive`` throws
    its ``NotPositiveException``. Of the 987 throwing realistic samples of 8 dev projects, 83
    expected such an ancestor of an offered type, which was not offered itself."""
    found: list[str] = []
    for name in types:
        cls = env.resolve_class(name)
        if cls is None:
            continue
        names = env.index.ancestor_names(cls)
        found += names[:-1] + [n for n in names[-1:] if n not in _TOO_BROAD]  # the JDK root, unless too broad
    return found


def by_habit(types: list[str], file_expects: tuple[str, ...]) -> list[str]:
    """``types`` with the file's habit first: the type the file's other tests expect most often
    among ``types``, else the one they expect most often at all.

    The code says what may be thrown, the file how its tests name it (a broader type, the one a
    helper throws). With the ancestors above, this took the type named by version 3 from 39.6%
    to 51.7% of the 987 throwing samples of 8 dev projects, each cut alone in its file
    (``docs/eval.md``); the engine's prior favours the first type."""
    simple = [t.rsplit(".", 1)[-1] for t in types]
    first = next((t for t in file_expects if t in simple), file_expects[0] if file_expects else None)
    if first is None:
        return types
    named = types[simple.index(first)] if first in simple else first  # as qualified as the code has it
    return [named, *(t for t, name in zip(types, simple, strict=True) if name != first)]


@dataclass
class PrefixAnalysis:
    statements: list[Node]
    targets: list[Target]
    focal: FocalMethod | None
    env: TypeEnv
    replace_last: bool
    """The last statement is a bare call whose value is the target: the oracle wraps it."""
    reassigned: set[str] = field(default_factory=set)
    file_expects: tuple[str, ...] = ()
    """The exception types the file's other tests expect, the most often first
    (:meth:`~oracular.engine.FileAnalysis.expected_exceptions`)."""
    written: WriteHistory | None = None
    """:attr:`history`, where the caller walked it already (:func:`analyse_prefix`, for the targets)."""

    @property
    def last(self) -> Node:
        return self.statements[-1]

    @cached_property
    def history(self) -> WriteHistory:
        """What the prefix did to each local, walked once: every candidate's strength reads it."""
        return self.written if self.written is not None else write_history(self.statements)

    @property
    def computes_value(self) -> bool:
        """The prefix ends by computing a value: a local declared or assigned, or a call whose
        value the oracle wraps. That value is what such tests assert, far more often than not."""
        last = self.last
        if last.type == "local_variable_declaration" or self.replace_last:
            return True
        inner = (
            last.named_children[0] if last.type == "expression_statement" and last.named_children else None
        )
        return inner is not None and inner.type == "assignment_expression"

    @property
    def action(self) -> int | None:
        """The index of the statement whose effect an oracle checks: the focal call's, else the
        last, but never a read (``s.size();``, ``int n = s.getCount();``: the value asserted,
        not what changed it). What the action changed is what the developer asserts on (a
        parsed bean's field, the writer a printer filled), not what the set-up left alone.
        ``None`` when every statement is a read."""
        index = self.focal.statement_index if self.focal is not None else len(self.statements) - 1
        if self.replace_last:
            index = min(index, len(self.statements) - 2)  # the last statement is the target itself
        while index >= 0 and _reads(self.statements[index]):
            index -= 1
        return index if index >= 0 else None

    def declared_from(self, index: int) -> set[str]:
        """The locals that the statements from ``index`` on declare: unknown before them."""
        return {name for statement in self.statements[index:] for name, _ in _declared(statement)}

    def exception_types(self) -> list[str]:
        """What the prefix may throw, best evidence first: the type its guards surely throw;
        the declared and documented types of the calls in the statement an exception oracle wraps
        (a workspace method's, else what the JDK documents: ``future.get()``), the focal call's
        first where it is among them, else after them; then the types a ``null`` argument usually
        meets.

        The focal call is one per test, and often not the call that validates: in
        ``CSVFormat.DEFAULT.builder().setEscape('!').build()`` the class under test's
        ``builder()`` is, while ``build()`` throws. And a test that passes ``null`` to check a
        guard rarely reaches a method documenting it: 133 of the 178 realistic train samples
        throwing ``NullPointerException`` with no such candidate pass ``null`` in their last
        statement.
        """
        statement = self.throwing_statement
        index = self._throwing_index
        called_types: list[str] = []
        for call, called in self._throwing_calls:
            if called is not None and called is not self.focal:
                called_types += called.exception_types()
            elif called is None:
                called_types += self._jdk_throws(call)
            built = _on_built_type(call, self.history, self.env, index)
            if built is not None:
                called_types += built.exception_types()
        focal_types = self.focal.exception_types() if self.focal else []
        wraps_focal = self.focal is not None and index == self.focal.statement_index
        found = focal_types + called_types if wraps_focal else called_types + focal_types
        if self.guard_verdict is not None:
            found.insert(0, self.guard_verdict.thrown)
        if passes_null(statement):
            found += NULL_ARGUMENT_TYPES
        found = unique_types(found)
        ordered = by_habit(unique_types(found + exception_ancestors(found, self.env)), self.file_expects)
        if self.guard_verdict is None:
            return ordered
        named = self.guard_verdict.named.rsplit(".", 1)[-1]  # what this file's tests would name
        return sorted(ordered, key=lambda t: t.rsplit(".", 1)[-1] != named)

    def _jdk_throws(self, call: Node) -> list[str]:
        """What the JDK documents ``call`` to throw, where it is made on a local or field of a
        JDK type (``future.get()``), on a JDK class (``Integer.parseInt(s)``) or constructs one
        (``new URI(s)``): the workspace's own methods say what they throw themselves."""
        count = len(call_args(call))
        if call.type == "object_creation_expression":
            created = call.child_by_field_name("type")
            return documented_throws(syntax.text(created), CONSTRUCTOR, count) if created is not None else []
        receiver = call.child_by_field_name("object")
        if receiver is None or receiver.type != "identifier":
            return []
        name = syntax.text(receiver)
        receiver_type = self.env.variable_type(name)
        if receiver_type is None and (not name[:1].isupper() or self.env.resolve_class(name) is not None):
            return []
        if receiver_type is not None and self.env.resolve_class(receiver_type) is not None:
            return []
        return documented_throws(receiver_type or name, syntax.text(call.child_by_field_name("name")), count)

    @cached_property
    def guard_verdict(self) -> GuardVerdict | None:
        """The exception the throwing statement's calls surely throw by their opening guards,
        given the prefix's literal values (:mod:`oracular.java.guard_calls`)."""
        calls = []
        for call, called in self._throwing_calls:
            found = (called.cls, called.method) if called is not None else own_helper(call, self.env)
            if found is not None:
                calls.append((*found, call))
        return trip(calls, self.statements[: self._throwing_index], self.env, self.file_expects)

    @cached_property
    def _throwing_index(self) -> int:
        statement = self.throwing_statement
        return next(i for i, s in enumerate(self.statements) if s == statement)

    @cached_property
    def _throwing_calls(self) -> list[tuple[Node, FocalMethod | None]]:
        """The throwing statement's calls in evaluation order, each with the workspace method it
        reaches (the focal call's is the focal method; a test class's, none), resolved once for
        the exception types and the guard verdict."""
        found: list[tuple[Node, FocalMethod | None]] = []
        for call in _calls_in(self.throwing_statement):
            if self.focal is not None and call == self.focal.call:
                found.append((call, self.focal))
                continue
            resolved = _resolve_focal(call, self.env, self._throwing_index)
            found.append(
                (call, resolved[0] if resolved is not None and not resolved[0].cls.is_test else None)
            )
        return found

    @property
    def throwing_statement(self) -> Node:
        """The statement an exception oracle wraps: the last, where it calls the workspace.

        A throwing test ends where it throws: commons-math3's ``ConjugateGradientTest`` builds
        its solver (the class under test's constructor, the focal call), then its vectors, then
        ``solver.solve(a, b, x)`` throws. Where the last statement calls none of the workspace's
        code (it declares the literals the removed ``assertThrows`` used), the focal call's
        statement is wrapped, unless it is a declaration that later statements use, which cannot
        move into a lambda or ``try`` block without breaking them.
        """
        if self.focal is None:
            return self.last
        statement = self.statements[self.focal.statement_index]
        if statement is not self.last and (
            statement.type == "local_variable_declaration" or self._last_works
        ):
            return self.last
        return statement

    @cached_property
    def _last_works(self) -> bool:
        """The last statement calls the workspace's code (not only the JDK's: ``"abc".charAt(0)``)."""
        index = len(self.statements) - 1
        return any(
            (found := _resolve_focal(call, self.env, index)) is not None and not found[0].cls.is_test
            for call in _calls_in(self.last)
        )

    @property
    def cannot_throw(self) -> bool:
        """The statement an exception oracle would wrap only declares literals (``final double a
        = 1.2345678;``): nothing in it can throw. So it is where a test computes its inputs and
        calls the unit inside the assertion the cut removed (``assertThrows(X.class, () ->
        f(a))``), and an exception oracle wrapping it would fail on any code."""
        statement = self.throwing_statement
        if statement.type != "local_variable_declaration":
            return False
        values = [d.child_by_field_name("value") for d in statement.children_by_field_name("declarator")]
        return all(v is None or is_literal(v) for v in values)


def _reads(statement: Node) -> bool:
    """A bare observer call, or a local holding one: ``s.size();``, ``boolean e = s.isEmpty();``."""
    call = statement_call(statement)
    arguments = call.child_by_field_name("arguments") if call is not None else None
    return (
        call is not None
        and arguments is not None
        and not arguments.named_children
        and OBSERVER_NAME.match(syntax.call_name(call)) is not None
    )


def passes_null(statement: Node) -> bool:
    """Some call or ``new`` in ``statement`` takes a ``null`` literal (or a cast of one) as an argument."""
    for node in syntax.walk(statement):
        if node.type == "argument_list":
            for argument in node.named_children:
                value = argument
                while value.type in ("cast_expression", "parenthesized_expression"):
                    value = value.child_by_field_name("value") or value.named_children[-1]
                if value.type == "null_literal":
                    return True
    return False


def _declared(declaration: Node) -> list[tuple[str, Node | None]]:
    return [
        (syntax.text(d.child_by_field_name("name")), d.child_by_field_name("value"))
        for d in declaration.children_by_field_name("declarator")
    ]


def collect_locals(method: Node, env: TypeEnv, upto: int | None = None) -> set[str]:
    """Fill ``env.locals`` from parameters and declarations (before byte ``upto``).

    Returns the locals assigned after their declaration (not effectively final), which a
    lambda in an ``assertThrows`` oracle must not capture.
    """
    params = method.child_by_field_name("parameters")
    for p in params.named_children if params else []:
        if p.type == "formal_parameter":
            env.locals[syntax.text(p.child_by_field_name("name"))] = syntax.declared_type(p, p)
    body = method.child_by_field_name("body")
    reassigned: set[str] = set()
    if body is None:
        return reassigned
    for node in syntax.walk(body):
        if upto is not None and node.start_byte >= upto:
            continue
        if node.type in ("local_variable_declaration", "enhanced_for_statement"):
            type_text = syntax.text(node.child_by_field_name("type"))
            if node.type == "enhanced_for_statement":
                env.locals[syntax.text(node.child_by_field_name("name"))] = type_text
                continue
            for declarator in node.children_by_field_name("declarator"):
                value = declarator.child_by_field_name("value")
                declared = (
                    env.type_of(value) if type_text == "var" else syntax.declared_type(node, declarator)
                )
                env.locals[syntax.text(declarator.child_by_field_name("name"))] = declared
        elif node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                reassigned.add(syntax.text(left))
        elif node.type == "update_expression":
            operand = next((c for c in node.named_children if c.type == "identifier"), None)
            if operand is not None:
                reassigned.add(syntax.text(operand))
    return reassigned


def _on_built_type(call: Node, history: WriteHistory, env: TypeEnv, index: int) -> FocalMethod | None:
    """The method a call on a variable reaches in the class the prefix built into it, where that
    class is not the variable's declared type: ``CrossoverPolicy cp = new CycleCrossover<>()``,
    then ``cp.crossover(a, b)`` throws what ``CycleCrossover.crossover`` throws, which the
    interface does not document."""
    receiver = call.child_by_field_name("object") if call.type == "method_invocation" else None
    if receiver is None or receiver.type != "identifier":
        return None
    built = history.built.get(syntax.text(receiver))
    declared = split_generic(env.variable_type(syntax.text(receiver)) or "")[0]
    cls = env.resolve_class(built) if built and built != declared else None
    if cls is None or cls.is_test:
        return None
    args = call.child_by_field_name("arguments")
    given = args.named_children if args is not None else []
    found = env.find_method(cls, syntax.call_name(call), len(given), given)
    return FocalMethod(found[0], found[1], call, index, syntax.text(receiver)) if found else None


def _calls_in(statement: Node) -> list[Node]:
    """The statement's calls in the order they run: a call's receiver and arguments before the
    call (``new SimpsonIntegrator()`` before its ``integrate(...)``), by where each call ends."""
    calls = [
        n
        for n in syntax.walk_skipping_classes(statement)
        if n.type in ("method_invocation", "object_creation_expression")
    ]
    return sorted(calls, key=lambda n: n.end_byte)


def focal_name_for(test_class: str) -> str:
    """``FooTest`` / ``FooTests`` / ``TestFoo`` / ``FooIT`` -> ``Foo``."""
    simple = test_class.rsplit(".", 1)[-1]
    for suffix in ("TestCase", "Tests", "Test", "IT"):
        if simple.endswith(suffix) and len(simple) > len(suffix):
            return simple[: -len(suffix)]
    return simple.removeprefix("Test") or simple


def find_focal(statements: list[Node], env: TypeEnv, test_class: str) -> FocalMethod | None:
    """The last call on a workspace class, preferring calls made on the class the test class is
    named after. "Made on" is the receiver's class, not the class declaring the method: in
    ``SimpsonIntegratorTest``, ``new SimpsonIntegrator().integrate(...)`` calls a method its
    abstract superclass declares, and preferring by the declaring class chose the constructor."""
    wanted = focal_name_for(test_class)
    resolved: list[tuple[FocalMethod, str]] = []
    for index, statement in enumerate(statements):
        for call in _calls_in(statement):
            found = _resolve_focal(call, env, index)
            if found is not None and not found[0].cls.is_test:
                resolved.append(found)
    if not resolved:
        return None
    preferred = [focal for focal, on in resolved if wanted in (focal.cls.name, on)]
    return (preferred or [focal for focal, _ in resolved])[-1]


def _resolve_focal(call: Node, env: TypeEnv, index: int) -> tuple[FocalMethod, str] | None:
    """The method ``call`` reaches, and the simple name of the class it is called on."""
    if call.type == "method_invocation":
        resolved: ResolvedCall | None = env.resolve_call(call)
        if resolved is None:
            return None
        receiver = call.child_by_field_name("object")
        on = env.resolve_class(resolved.receiver_type) if resolved.receiver_type else None
        focal = FocalMethod(resolved.cls, resolved.method, call, index, syntax.text(receiver) or None)
        return focal, (on or resolved.cls).name
    cls = env.resolve_class(syntax.text(call.child_by_field_name("type")))
    if cls is None:
        return None
    args = call.child_by_field_name("arguments")
    given = args.named_children if args is not None else []
    ctors = [m for m in cls.constructors() if takes(m, len(given))] or cls.constructors()
    if not ctors:
        return None
    return FocalMethod(cls, best_overload(ctors, given), call, index, None), cls.name


def observers(cls: ClassInfo, env: TypeEnv, receiver: str, receiver_type: str | None) -> list[Target]:
    """The preferred zero-argument observers of the receiver's class (and superclasses)."""
    return workspace_observers(cls, env, receiver, receiver_type)[:MAX_OBSERVERS]


def _receiver_observers(statement_call: Node, env: TypeEnv) -> list[Target]:
    receiver = statement_call.child_by_field_name("object")
    if receiver is None or receiver.type not in ("identifier", "field_access", "this"):
        return []
    receiver_type = env.type_of(receiver)
    cls = env.resolve_class(receiver_type)
    if cls is None:
        return []
    return observers(cls, env, syntax.text(receiver), receiver_type)


def _call_origin(value: Node | None) -> tuple[str | None, str | None]:
    """Receiver and method name of the call a value comes from, if it is a call."""
    if value is None or value.type != "method_invocation":
        return None, None
    return syntax.text(value.child_by_field_name("object")) or None, syntax.call_name(value)


def choose_targets(statements: list[Node], env: TypeEnv) -> tuple[list[Target], bool]:
    """What to assert on, and whether the oracle replaces (wraps) the last statement."""
    last = statements[-1]
    if last.type == "local_variable_declaration":
        declared = _declared(last)
        name, value = declared[-1]
        targets = [Target(name, env.locals.get(name), "variable", *_call_origin(value))]
        if value is not None and value.type == "object_creation_expression":
            cls = env.resolve_class(env.locals.get(name))
            if cls is not None:
                targets += observers(cls, env, name, env.locals.get(name))
        return targets, False
    expr = last.named_children[0] if last.type == "expression_statement" and last.named_children else None
    if expr is not None and expr.type == "assignment_expression":
        left = expr.child_by_field_name("left")
        origin = _call_origin(expr.child_by_field_name("right"))
        return [Target(syntax.text(left), env.type_of(left), "variable", *origin)], False
    if expr is not None and expr.type == "method_invocation":
        value_type = env.type_of(expr)
        resolved = env.resolve_call(expr)
        is_void = resolved is not None and resolved.method.return_type == "void"
        if value_type and value_type != "void" and not is_void:
            return [Target(syntax.text(expr), value_type, "call", *_call_origin(expr))], True
        if resolved is not None and is_void:
            return _receiver_observers(expr, env), False
        return [], False
    # Not a call: look back for the last mutating call on a workspace receiver.
    for statement in reversed(statements):
        inner = (
            statement.named_children[0]
            if statement.type == "expression_statement" and statement.named_children
            else None
        )
        if inner is not None and inner.type == "method_invocation":
            found = _receiver_observers(inner, env)
            if found:
                return found, False
    return [], False


def body_scope(method: Node, env: TypeEnv) -> tuple[list[Node], set[str]] | None:
    """A method's top-level statements and its reassigned locals, filling ``env.locals``.

    ``None`` when the body is missing or empty. This is :func:`analyse_prefix` without choosing
    targets or the focal method, for callers that only read the body (the quality checks).
    """
    body = method.child_by_field_name("body")
    if body is None:
        return None
    statements = syntax.statements(body)
    if not statements:
        return None
    return statements, collect_locals(method, env)


def analyse_prefix(
    method: Node,
    env: TypeEnv,
    test_class: str,
    file_expects: tuple[str, ...] = (),
    file_reads: tuple[str, ...] = (),
) -> PrefixAnalysis | None:
    """Analyse an oracle-free test body; ``None`` when it has no statements to build on.
    ``file_expects``: :attr:`PrefixAnalysis.file_expects`; ``file_reads``: what the file's other
    tests assert on (:mod:`oracular.java.file_reads`)."""
    scope = body_scope(method, env)
    if scope is None:
        return None
    statements, reassigned = scope
    primary, replace_last = choose_targets(statements, env)
    focal = find_focal(statements, env, test_class)
    name = syntax.text(method.child_by_field_name("name"))
    history = write_history(statements)
    enumerator = TargetEnumerator(statements, env, focal.receiver if focal else None, name, history)
    tested = env.resolve_class(focal_name_for(test_class))
    reads = file_read_targets(file_reads, env)
    targets = enumerator.enumerate(primary, focal.cls if focal else None, tested, reads)
    return PrefixAnalysis(statements, targets, focal, env, replace_last, reassigned, file_expects, history)
