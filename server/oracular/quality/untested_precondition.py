"""``untested-precondition``: the unit documents (or checks) a precondition no test here exercises.

Swami's observation: a documented ``@throws X if id is null`` is a ready-made oracle, and the
violating input is in the sentence. The methods considered are those of the class the test class
is named after (``FooTest`` -> ``Foo``) that its tests call; a test class named otherwise
(``FooGwtTest``, ``FooIntPredicateTest``) is a side view of its unit, whose preconditions belong
to the main one. A precondition is

- a Javadoc ``@throws`` clause that says how to violate it: a precondition-style exception
  (``IllegalArgumentException``, ``NullPointerException``, ``IndexOutOfBoundsException``...)
  whose clause names a parameter or a violation (``is null``, ``is negative``, ``is empty``), or
  any other exception whose clause names both (``@throws IOException if an I/O error occurs``
  is a failure mode, not an input; ``if any parameters are invalid`` is too vague to act on);
- or a guard opening the body that throws on a parameter (``if (n < 0) throw new ...``).
  Defensive ``checkNotNull(x)`` calls are not: they are not documented contract.

It is tested when some test in the file (or a helper method of the file it calls, such as
``assertCastFails(value)``) expects that exception (``assertThrows``, ``expected=``, a ``catch``,
``ExpectedException``, AssertJ) and calls the method; Guava's ``NullPointerTester`` in the file
covers every null check.

The Hint sits on the test class. Its code action writes a new test next to one that calls the
method: that test's set-up, then the call with the violating input named by the clause (``null``,
``-1``, an empty string or array) wrapped in the framework's exception oracle. When the clause
names no such input the call keeps its arguments and a TODO says what to change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.grammar import Candidate
from oracular.candidates.render import TextEdit, indent_unit
from oracular.engine import TestStatus
from oracular.incremental import MemoKey
from oracular.java import syntax
from oracular.java.assertions import ASSERT_THROWS
from oracular.java.declarations import ClassInfo, MethodInfo
from oracular.java.method_text import parse_method, synthesise_method
from oracular.java.oracle_statements import expected_exception_types
from oracular.java.prefix import focal_name_for
from oracular.java.types import base_name, is_numeric, is_primitive
from oracular.quality.context import FileContext, TestContext, parsed_file, within
from oracular.quality.finding import Finding, Fix, Severity

CODE = "untested-precondition"
ON_BY_DEFAULT = True
"""Hand-checked precision on dev: 29 of 30 sampled findings (97%) (``docs/quality.md``); on from 80%."""
SUMMARY = "a documented `@throws` of the unit that no test in the file expects"
PRECONDITION_EXCEPTIONS = frozenset(
    {
        "IllegalArgumentException", "NullPointerException", "IndexOutOfBoundsException",
        "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException", "NumberFormatException",
        "IllegalStateException", "NoSuchElementException", "ArithmeticException", "EmptyStackException",
        "NegativeArraySizeException",
    }
)  # fmt: skip
"""Exceptions that signal a violated precondition (not ``ClassCastException``: provoking it takes
raw types)."""
ANY_EXCEPTION = frozenset({"Exception", "RuntimeException", "Throwable"})
_WORDS = frozenset(
    {"the", "and", "not", "any", "all", "one", "two", "are", "was", "has", "its", "for", "off"}
)
"""Parameter names too common in English to count as "the clause names this parameter"."""


@dataclass(frozen=True)
class Precondition:
    exception: str
    condition: str
    parameter: int | None
    """Index of the parameter the condition constrains, when known."""
    violating: str | None
    """A Java expression that violates it (``null``, ``-1``, ``""``...), when the condition names one."""

    @property
    def simple(self) -> str:
        return self.exception.rsplit(".", 1)[-1]


@dataclass
class Tested:
    """A workspace method the file's tests call, with the first call that can seed a new test."""

    cls: ClassInfo
    method: MethodInfo
    exemplar: tuple[TestStatus, Call] | None = None
    """The first call at the top level of a test with no parameters, and that test."""

    @property
    def name(self) -> str:
        return self.cls.name if self.method.is_constructor else self.method.name


@dataclass(frozen=True)
class Call:
    """A call of a method of the class under test in a test's body."""

    cls: ClassInfo
    method: MethodInfo
    statement: int | None
    """Index of the top-level statement holding it, if it can seed a new test (see ``_new_test``)."""
    span: tuple[int, int]
    """Its bytes, relative to the start of the test method."""


@dataclass(frozen=True)
class Summary:
    """What one test contributes to the file's verdict: no positions, no tree nodes, so it is kept
    per method across versions (:mod:`oracular.incremental`)."""

    expected: frozenset[str]
    """Exception names it (or a helper it calls) expects."""
    invoked: frozenset[str]
    """Names of the methods it and its helpers call."""
    created: frozenset[str]
    """Simple names of the types it and its helpers construct."""
    calls: tuple[Call, ...]
    """Its calls of the class under test's methods, in order."""


# -- violating inputs -------------------------------------------------------------------------
def _value_for(kind: str, param_type: str) -> str | None:
    if kind == "null":
        return None if is_primitive(param_type) else "null"
    if kind in ("negative", "zero"):
        return ("-1" if kind == "negative" else "0") if is_numeric(param_type) else None
    if param_type.endswith(("[]", "...")):
        return f"new {param_type.removesuffix('...').removesuffix('[]')}[0]"
    return '""' if base_name(param_type) in ("String", "CharSequence") else None


def _kind_of_clause(condition: str) -> str | None:
    text = condition.lower()
    if re.search(r"\bnull\b", text):
        return "null"
    if "negative" in text or re.search(r"<\s*0\b|less than (0|zero)\b", text):
        return "negative"
    if re.search(r"\bempty\b", text):
        return "empty"
    if re.search(r"\b(is|equals?|==)\s*(0|zero)\b", text):
        return "zero"
    return None


def _violation(
    kind: str | None, params: tuple[tuple[str, str], ...], mentioned: list[int]
) -> tuple[int | None, str | None]:
    """The first parameter (mentioned ones first) the kind of violation applies to, and its value."""
    if kind is None:
        return (mentioned[0] if mentioned else None), None
    for index in [*mentioned, *(i for i in range(len(params)) if i not in mentioned)]:
        value = _value_for(kind, params[index][0])
        if value is not None:
            return index, value
    return None, None


def javadoc_preconditions(method: MethodInfo) -> list[Precondition]:
    if method.javadoc is None:
        return []
    found = []
    for clause in method.javadoc.throws:
        mentioned = [
            i
            for i, (_, name) in enumerate(method.params)
            if len(name) >= 3
            and name not in _WORDS
            and re.search(rf"\b{re.escape(name)}\b", clause.condition)
        ]
        kind = _kind_of_clause(clause.condition)
        actionable = (mentioned or kind) if clause.simple in PRECONDITION_EXCEPTIONS else (mentioned and kind)
        if not actionable:
            continue
        if clause.simple == "NullPointerException" and kind != "null":
            continue  # "unless load() was called first": misuse, not an input to test
        index, value = _violation(kind, method.params, mentioned)
        found.append(Precondition(clause.exception, clause.condition, index, value))
    return found


def _condition_kind(condition: Node, param: str) -> str | None:
    """What a guard condition rejects about ``param``: ``p == null``, ``p < 0``, ``p.isEmpty()``."""
    for node in syntax.walk(condition):
        if node.type == "binary_expression":
            left, right = (
                syntax.text(node.child_by_field_name("left")),
                syntax.text(node.child_by_field_name("right")),
            )
            operator = syntax.text(node.child_by_field_name("operator"))
            if operator == "==" and {left, right} == {param, "null"}:
                return "null"
            if (left, operator, right) in (
                (param, "<", "0"),
                (param, "<=", "0"),
                ("0", ">", param),
                ("0", ">=", param),
            ):
                return "negative"
        elif (
            node.type == "method_invocation"
            and syntax.text(node.child_by_field_name("object")) == param
            and syntax.call_name(node) == "isEmpty"
        ):
            return "empty"
    return None


def _throw_in(consequence: Node | None) -> str | None:
    if consequence is not None and consequence.type == "block":
        inner = syntax.statements(consequence)
        consequence = inner[0] if len(inner) == 1 else None
    if consequence is None or consequence.type != "throw_statement" or not consequence.named_children:
        return None
    created = consequence.named_children[0]
    if created.type != "object_creation_expression":
        return None
    return syntax.text(created.child_by_field_name("type"))


def body_preconditions(method: MethodInfo, node: Node) -> list[Precondition]:
    """Guards at the top of the body that throw on a parameter: ``if (x == null) throw ...``."""
    body = node.child_by_field_name("body")
    names = [name for _, name in method.params]
    found = []
    for statement in syntax.statements(body) if body is not None else []:
        exception, condition = None, None
        if statement.type == "if_statement":
            exception = _throw_in(statement.child_by_field_name("consequence"))
            condition = statement.child_by_field_name("condition")
        if exception is None or condition is None:
            continue
        identifiers = {syntax.text(n) for n in syntax.walk(condition) if n.type == "identifier"}
        checked = [i for i, name in enumerate(names) if name in identifiers]
        if not checked:
            continue
        kind = _condition_kind(condition, names[checked[0]])
        index, value = _violation(kind, method.params, checked)
        shown = " ".join(syntax.text(condition).split())
        found.append(
            Precondition(exception, f"when {shown.removeprefix('(').removesuffix(')')}", index, value)
        )
    return found


def method_node(cls: ClassInfo, method: MethodInfo) -> Node | None:
    """The declaration of a workspace method, for the body the index does not keep."""
    parsed = parsed_file(cls.path) if cls.path else None
    return parsed.declarations.get((method.line, method.name)) if parsed is not None else None


def preconditions(cls: ClassInfo, method: MethodInfo) -> list[Precondition]:
    """Javadoc first; the body adds guards on parameters the Javadoc says nothing about."""
    found = javadoc_preconditions(method)
    documented = {p.simple for p in found} | {p.parameter for p in found if p.parameter is not None}
    node = method_node(cls, method)
    if node is not None:
        found += [
            p
            for p in body_preconditions(method, node)
            if p.simple not in documented and p.parameter not in documented
        ]
    return found


# -- what the file tests ------------------------------------------------------------------------
def _called(ctx: TestContext, call: Node) -> tuple[ClassInfo, MethodInfo] | None:
    if call.type == "method_invocation":
        resolved = ctx.env.resolve_call(call)
        return (resolved.cls, resolved.method) if resolved is not None else None
    cls = ctx.env.resolve_class(syntax.text(call.child_by_field_name("type")))
    args = call.child_by_field_name("arguments")
    arity = len(args.named_children) if args is not None else 0
    constructors = [c for c in cls.constructors() if len(c.params) == arity] if cls is not None else []
    return (cls, constructors[0]) if cls is not None and len(constructors) == 1 else None


def _top_level_index(ctx: TestContext, call: Node) -> int | None:
    """The index of the top-level statement that holds ``call`` outside any block or lambda."""
    for index, statement in enumerate(ctx.statements):
        if within(call, statement):
            parent = call.parent
            while parent is not None and not (
                parent.start_byte == statement.start_byte and parent.type == statement.type
            ):
                if parent.type in ("block", "lambda_expression"):
                    return None
                parent = parent.parent
            return index
    return None


def unit_name(file: FileContext, test_class: str) -> str | None:
    """The class a test class is about, ``FooTest`` -> ``Foo``, if the workspace has it."""
    name = focal_name_for(test_class)
    cls = file.engine.index.resolve(name)
    return name if cls is not None and not cls.is_test else None


def unit_calls(file: FileContext, ctx: TestContext) -> tuple[Call, ...]:
    """The test's calls of non-private workspace methods of the class its class is named after."""
    wanted = unit_name(file, ctx.test.class_name)
    if wanted is None:
        return ()
    params = ctx.test.node.child_by_field_name("parameters")
    seeds = params is None or not params.named_children
    start = ctx.test.node.start_byte
    found = []
    for call in ctx.nodes:
        if call.type not in ("method_invocation", "object_creation_expression"):
            continue
        hit = _called(ctx, call)
        if hit is None or hit[0].is_test or "private" in hit[1].modifiers or hit[0].name != wanted:
            continue
        index = _top_level_index(ctx, call) if seeds else None
        found.append(Call(hit[0], hit[1], index, (call.start_byte - start, call.end_byte - start)))
    return tuple(found)


def tested_methods(calls: list[tuple[TestStatus, Summary]]) -> list[Tested]:
    """Workspace methods of the class under test that these tests call, in order of first call."""
    found: dict[tuple[str, str, int], Tested] = {}
    for status, summary in calls:
        for call in summary.calls:
            key = (call.cls.qualified_name, call.method.name, call.method.line)
            tested = found.setdefault(key, Tested(call.cls, call.method))
            if tested.exemplar is None and call.statement is not None:
                tested.exemplar = (status, call)
    return list(found.values())


def method_bodies(file: FileContext) -> dict[str, list[Node]]:
    """The bodies of the file's methods by name: a test's own helpers (``assertCastFails(v)``)."""
    found: dict[str, list[Node]] = {}
    for member in syntax.member_declarations(file.source.root):
        body = member.child_by_field_name("body") if member.type == "method_declaration" else None
        if body is not None:
            found.setdefault(syntax.text(member.child_by_field_name("name")), []).append(body)
    return found


def test_nodes(
    ctx: TestContext, helpers: dict[str, list[Node]], walked: dict[tuple[int, int], list[Node]]
) -> list[Node]:
    """The nodes of a test's body and of the file's methods it calls directly (one level).

    ``walked`` keeps each helper body's nodes, so a helper many tests call is walked once.
    """
    body = ctx.test.body
    called = {
        syntax.call_name(n)
        for n in ctx.nodes
        if n.type == "method_invocation" and syntax.text(n.child_by_field_name("object")) in ("", "this")
    }
    nodes = ctx.nodes
    for helper in (b for name in sorted(called) for b in helpers.get(name, []) if b != body):
        key = (helper.start_byte, helper.end_byte)
        if key not in walked:
            walked[key] = list(syntax.walk_skipping_classes(helper))
        nodes = nodes + walked[key]
    return nodes


def expected_exceptions(ctx: TestContext, nodes: list[Node]) -> set[str]:
    """Exception names a test expects, generously: any way of saying "this throws X" counts."""
    return set(expected_exception_types(ctx.test, nodes, any_catch=True))


def _covers(file: FileContext, expected: frozenset[str], precondition: Precondition) -> bool:
    if expected & ANY_EXCEPTION or precondition.simple in expected:
        return True
    cls = file.engine.index.resolve(precondition.exception)
    return cls is not None and any(base_name(s.name) in expected for s in file.engine.index.superclasses(cls))


def _calls_method(summary: Summary, tested: Tested) -> bool:
    if tested.method.is_constructor:
        return tested.cls.name in summary.created
    return tested.method.name in summary.invoked


def summarise(
    file: FileContext,
    ctx: TestContext,
    helpers: dict[str, list[Node]],
    walked: dict[tuple[int, int], list[Node]],
) -> Summary:
    nodes = test_nodes(ctx, helpers, walked)
    return Summary(
        frozenset(expected_exceptions(ctx, nodes)),
        frozenset(syntax.call_name(n) for n in nodes if n.type == "method_invocation"),
        frozenset(
            base_name(syntax.text(n.child_by_field_name("type")))
            for n in nodes
            if n.type == "object_creation_expression"
        ),
        unit_calls(file, ctx),
    )


def summaries(file: FileContext) -> dict[str, list[tuple[TestStatus, Summary]]]:
    """Each complete test's summary by test class, kept ones reused (see :class:`Summary`)."""
    helpers: dict[str, list[Node]] | None = None
    walked: dict[tuple[int, int], list[Node]] = {}
    by_class: dict[str, list[tuple[TestStatus, Summary]]] = {}
    for status in file.analysis.statuses:
        reuse = file.memo.get(SummaryKey(), status.test) if file.memo is not None else None
        if reuse is not None:
            summary = reuse.value
        else:
            ctx = file.context_of(status)
            if ctx is None:
                continue
            if helpers is None:
                helpers = method_bodies(file)
            summary = summarise(file, ctx, helpers, walked)
            if file.memo is not None:
                file.memo.put(SummaryKey(), status.test, summary)
        by_class.setdefault(status.test.class_name, []).append((status, summary))
    return by_class


def check(file: FileContext) -> list[Finding]:
    findings = []
    null_tester = "NullPointerTester" in file.source.text
    for tests in summaries(file).values():
        for tested in tested_methods(tests):
            untested = [
                p
                for p in preconditions(tested.cls, tested.method)
                if not (null_tester and p.simple == "NullPointerException")
                and not any(
                    _calls_method(summary, tested) and _covers(file, summary.expected, p)
                    for _, summary in tests
                )
            ]
            if untested:
                findings.append(_finding(file, tests[0][0], tested, untested))
    return findings


def _finding(file: FileContext, status: TestStatus, tested: Tested, untested: list[Precondition]) -> Finding:
    clauses = "; ".join(f"{p.simple} ({p.condition})" if p.condition else p.simple for p in untested)
    message = (
        f"{tested.cls.name}.{tested.name} throws {clauses} but no test in this file expects "
        f"{'it' if len(untested) == 1 else 'them'}"
    )
    fixes = []
    if file.fixes and tested.exemplar is not None:
        fixes = [_kept_new_test(file, tested, p) for p in untested]
    name = status.test.class_node.child_by_field_name("name") or status.test.class_node
    return file.finding(CODE, Severity.HINT, message, name, test=None, fixes=fixes)


# -- the generated test ------------------------------------------------------------------------
def _violating_call(file: FileContext, tested: Tested, call: Node, precondition: Precondition) -> str | None:
    """The exemplar call's text with the constrained argument replaced, ``None`` if it cannot be."""
    args = call.child_by_field_name("arguments")
    values = list(args.named_children) if args is not None else []
    index, value = precondition.parameter, precondition.violating
    if index is None or value is None or len(values) != len(tested.method.params):
        return None
    if (
        value == "null"
        and sum(len(m.params) == len(values) for m in tested.cls.methods_named(tested.method.name)) > 1
    ):
        value = f"({tested.method.params[index][0]}) null"  # overloads: say which one
    data = file.source.data
    argument = values[index]
    text = (
        data[call.start_byte : argument.start_byte] + value.encode() + data[argument.end_byte : call.end_byte]
    )
    return text.decode("utf-8")


def _test_name(ctx: TestContext, tested: Tested, precondition: Precondition) -> str:
    base = f"test{tested.name[:1].upper()}{tested.name[1:]}Throws{precondition.simple}"
    taken = {m.name for c in ctx.status.classes for m in c.methods}
    name, number = base, 2
    while name in taken:
        name, number = f"{base}{number}", number + 1
    return name


@dataclass(frozen=True)
class SummaryKey(MemoKey):
    """A test's summary (what it calls, with what, and what it expects): its method alone."""


@dataclass(frozen=True)
class NewTestKey(MemoKey):
    """A new test for an untested precondition, made from an exemplar test: the method whose
    precondition it is, the precondition, and the names its own name must avoid."""

    owner: str
    method: str
    line: int
    precondition: Precondition
    names: tuple[str, ...]


def _kept_new_test(file: FileContext, tested: Tested, precondition: Precondition) -> Fix:
    """:func:`_new_test`, kept with its exemplar test across versions (it is the costly part of the
    check: a prefix analysis and a rendering per fix). Its name avoids every method name of the
    class, so those names are part of the key."""
    assert tested.exemplar is not None
    status = tested.exemplar[0]
    if file.memo is None:
        return _new_test(file, tested, precondition)
    names = tuple(sorted({m.name for c in status.classes for m in c.methods}))
    kind = NewTestKey(tested.cls.qualified_name, tested.method.name, tested.method.line, precondition, names)
    reuse = file.memo.get(kind, status.test)
    if reuse is not None:
        fix: Fix = reuse.value
        return Fix(fix.title, tuple(reuse.edit(e) for e in fix.edits))
    fix = _new_test(file, tested, precondition)
    file.memo.put(kind, status.test, fix)
    return fix


def _new_test(file: FileContext, tested: Tested, precondition: Precondition) -> Fix:
    assert tested.exemplar is not None
    status, seed = tested.exemplar
    ctx = file.context_of(status)
    assert ctx is not None and seed.statement is not None  # summarised, so it has a context
    index, start = seed.statement, ctx.test.node.start_byte
    call = next(
        n
        for n in ctx.nodes
        if (n.start_byte - start, n.end_byte - start) == seed.span
        and n.type in ("method_invocation", "object_creation_expression")
    )
    source, test = file.source, ctx.test
    statements = [syntax.text(s) for s in ctx.statements[:index] if not ctx.asserts_in(s)]
    violating = _violating_call(file, tested, call, precondition)
    statements.append(f"{violating or syntax.text(call)};")
    prefix = file.engine.prefix_for(
        file.analysis, ctx.status, parse_method(synthesise_method(test, 0, statements))
    )
    assert prefix is not None  # it has at least the call
    renderer = file.renderer(test, prefix.focal)
    candidate = Candidate("exception", ASSERT_THROWS, exception=precondition.exception)
    indent = source.line_indent(test.node.start_byte)
    unit = indent_unit(source, test.node, ctx.statements[0])
    inner = indent + unit
    lines = [f"{inner}{s}" for s in statements[:-1]]
    if violating is None:
        condition = precondition.condition or precondition.simple
        lines.append(f"{inner}// TODO: arguments that violate the precondition: {condition}")
    lines.append(inner + renderer.exception_text(candidate, prefix, inner, unit))
    annotation = next((a for a in syntax.annotations(test.node) if syntax.annotation_name(a) == "Test"), None)
    head = (
        f"{indent}@{syntax.text(annotation.child_by_field_name('name'))}\n" if annotation is not None else ""
    )
    public = "public " if "public" in syntax.modifiers(test.node) else ""
    throws = next((f" {syntax.text(c)}" for c in test.node.children if c.type == "throws"), "")
    name = _test_name(ctx, tested, precondition)
    method = f"{head}{indent}{public}void {name}(){throws} {{\n" + "\n".join(lines) + f"\n{indent}}}"
    end = source.position(test.node.end_byte)
    edits = (
        TextEdit(end, end, f"\n\n{method}"),
        *renderer.import_edits(renderer.needed_imports(candidate, prefix)),
    )
    return Fix(f"Add {name}(): {tested.name} must throw {precondition.simple}", edits)
