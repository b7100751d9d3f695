"""``discarded-result``: ``parser.parse(input);`` in a test that never looks at what came back.

A non-void method of the unit is called for its value, the value is dropped, and nothing the
call touched (its receiver, its arguments, or a variable they exchange data with, such as the
buffer a stream wraps) is asserted on afterwards: whatever the call computed, the test cannot
tell. Only top-level statements of tests that do assert are checked (an oracle-free test already
has its own diagnostic).

Most dropped values in real tests are not the point of the test: set-up (``map.put(k, v)``),
copies, smoke calls in a "does not throw" test, warm-ups repeated later and checked. So the call
must be what the test is about: the test's name shares a word with the method's
(``testSubstitute`` and ``substituteMostRecentElement``), and nothing it touched may be used in
a later statement that checks something (a ``try``/``fail`` around another call counts). Also
skipped: tests that expect the body to throw, tests that check inside callbacks they hand to the
unit (an anonymous class or a lambda with assertions), builder-style calls returning their
receiver, and setters.

The quick fix is the engine's own ranked oracles for that value: the test is cut right after
the call (in a copy of the document, so byte offsets and hence edits stay valid) and ranked as
if it ended there.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.source import SourceText, parse_text
from oracular.java.types import ResolvedCall, base_name
from oracular.quality.context import FileContext, TestContext, name_of
from oracular.quality.finding import Finding, Fix, Severity

CODE = "discarded-result"
ON_BY_DEFAULT = False
"""Hand-checked precision on dev: 3 of 14 findings (21%) (``docs/quality.md``); on from 80%."""
SUMMARY = "a non-void call of the unit whose value is dropped, with nothing it touched asserted afterwards"
MAX_FIXES = 3
_SETTER = re.compile(r"^set[A-Z]")
"""Setters that return something return ``this`` or the old value: not a result to check."""
_GENERIC_WORDS = frozenset(
    {"test", "tests", "should", "when", "with", "from", "that", "this", "file", "files", "value", "values",
     "data", "null", "empty", "simple", "basic", "default", "works", "throws", "exception", "create", "new"}
)  # fmt: skip
"""Words shared by too many test and method names to tie one to the other."""


def words(name: str) -> set[str]:
    """``testSubstituteMostRecent`` -> ``{"substitute", "most", "recent"}`` (4+ letters, not generic)."""
    found = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)}
    return {w for w in found if len(w) >= 4 and w not in _GENERIC_WORDS}


def is_about(test_name: str, method_name: str) -> bool:
    """Whether a test's name points at a method (a shared word, or the whole name if not tiny)."""
    whole = len(method_name) >= 4 and method_name.lower() in test_name.lower()
    return whole or bool(words(test_name) & words(method_name))


def checks_in_callbacks(ctx: TestContext) -> bool:
    """The test asserts inside code it hands over (an anonymous class, a lambda argument)."""
    body = ctx.test.body
    assert body is not None
    if any(n.type == "class_body" for n in syntax.walk(body)):
        return True
    owners = (syntax.enclosing(a, "lambda_expression", "method_declaration") for a in ctx.assertions)
    return any(owner is not None and owner.type == "lambda_expression" for owner in owners)


def _returns_itself(resolved: ResolvedCall) -> bool:
    """Fluent calls (``builder.add(x)``) and identity-returning checks (``checkNotNull(x)``)."""
    ret = resolved.return_type or resolved.method.return_type or ""
    own = {resolved.cls.name, base_name(resolved.receiver_type or "")}
    return base_name(ret) in own or ret in resolved.cls.type_params or ret in resolved.method.type_params


def subjects(call: Node) -> list[str]:
    """The variables a call works on: its receiver chain's root and its plain-name arguments."""
    names = []
    receiver = call.child_by_field_name("object")
    while receiver is not None and name_of(receiver) is None:
        if receiver.type in ("method_invocation", "field_access"):
            receiver = receiver.child_by_field_name("object")
        elif receiver.type == "parenthesized_expression" and receiver.named_children:
            receiver = receiver.named_children[0]
        elif receiver.type == "cast_expression":
            receiver = receiver.child_by_field_name("value")
        else:
            break
    root = name_of(receiver)
    if root is not None:
        names.append(root)
    args = call.child_by_field_name("arguments")
    for arg in args.named_children if args is not None else []:
        name = name_of(arg)
        if name is not None:
            names.append(name)
    return names


def cut_after(source: SourceText, method: Node, statement: Node) -> Node:
    """``method`` parsed from a copy of the document in which its body ends after ``statement``.

    Everything up to the statement keeps its byte offsets, so the engine's edits for the cut
    method apply to the real document.
    """
    body = method.child_by_field_name("body")
    assert body is not None
    data = source.data[: statement.end_byte] + b"\n" + source.data[body.end_byte - 1 :]
    cut = parse_text(data.decode("utf-8"), source.path)
    return next(
        n for n in syntax.walk(cut.root) if n.type == method.type and n.start_byte == method.start_byte
    )


def _fixes(file: FileContext, ctx: TestContext, statement: Node) -> list[Fix]:
    method = cut_after(file.source, ctx.test.node, statement)
    report, _ = file.engine.suggest_test(file.analysis, ctx.status, file.junit4_assert_throws, method)
    return [
        Fix(f"Assert the result: {s.oracle}", tuple(s.edits))
        for s in report.suggestions
        if s.kind == "assertion"
    ][:MAX_FIXES]


def _repeated_later(ctx: TestContext, statement: Node, call: Node) -> bool:
    """The same call appears again further on (a warm-up whose twin is the one checked)."""
    text = " ".join(syntax.text(call).split())
    return any(
        text in " ".join(syntax.text(s).split()) for s in ctx.statements if s.start_byte > statement.end_byte
    )


def _checked_after(ctx: TestContext, statement: Node) -> set[str]:
    """Variables checked after ``statement``: by the later assertions, or used inside a later
    statement that checks something (``try { graph.removeEdge(...); fail(); } catch ...``)."""
    later = [a for a in ctx.assertions if a.start_byte > statement.end_byte]
    checked = ctx.reach_of(later)
    found = checked.whole | set(checked.observed)
    for other in ctx.statements:
        if other.start_byte > statement.end_byte and ctx.asserts_in(other):
            found |= {n for n in map(name_of, syntax.walk_skipping_classes(other)) if n is not None}
    return found


def check(file: FileContext, ctx: TestContext) -> list[Finding]:
    findings = []
    if ctx.throws_by_design or checks_in_callbacks(ctx):
        return findings
    for statement in ctx.statements:
        call = statement.named_children[0] if statement.type == "expression_statement" else None
        if call is None or call.type != "method_invocation" or ctx.asserts_in(statement):
            continue
        resolved = ctx.env.resolve_call(call)
        if (
            resolved is None
            or resolved.cls.is_test
            or resolved.method.return_type in (None, "void")
            or _returns_itself(resolved)
            or _SETTER.match(resolved.method.name)
            or not is_about(ctx.name, resolved.method.name)
            or _repeated_later(ctx, statement, call)
        ):
            continue
        names = [n for n in subjects(call) if ctx.is_variable(n)]
        if ctx.connected(names) & _checked_after(ctx, statement):
            continue
        what = f"{resolved.cls.name}.{resolved.method.name}(...)"
        untouched = (
            f" and {', '.join(names)} {'is' if len(names) == 1 else 'are'} not asserted on afterwards"
            if names
            else ""
        )
        message = f"the result of {what} is discarded{untouched}: the test cannot tell what it returned"
        fixes = _fixes(file, ctx, statement) if file.fixes else []
        findings.append(file.finding(CODE, Severity.HINT, message, call, test=ctx.name, fixes=fixes))
    return findings
