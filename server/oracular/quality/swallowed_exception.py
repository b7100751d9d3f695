"""``swallowed-exception``: checks that a test can skip, so it passes without checking anything.

Two shapes, both Warnings because the test passes vacuously:

- ``try { call(); } catch (X e) { }`` with no ``fail()`` after the call: if ``X`` is the expected
  outcome, nothing fails when it is not thrown; if it is not, a real failure is hidden. The same
  holds when the assertions sit inside the ``catch``: they run only if ``X`` is thrown.
  Not flagged: cleanup (``close()`` in a ``try``), ``InterruptedException`` around sleeps,
  ``UnsupportedOperationException`` from optional operations, ``finally`` blocks and lambdas,
  catches that rethrow, fail, return (a deliberate skip), pass the exception on or record it for
  a later assertion, catch variables named ``tolerated``/``optional`` or a comment saying either
  outcome is tolerated, an overriding test
  wrapping ``super.testX()``, and a narrow catch around assertions (``try { assertEquals(..) }
  catch (IllegalArgumentException e) {}``): all ways of accepting either outcome on purpose.
- every assertion of the test runs inside one ``if (result != null)`` on what the unit
  returned: a unit that wrongly returns ``null`` passes. (A guarded ``fail()`` is itself the
  check; for guards that are not flagged see :func:`_guarded_only`.)

Fixes: insert ``fail("Expected X")`` after the call, or convert to ``assertThrows`` when the
framework has it and the ``catch`` is empty; for an ``if``, assert the value is not null first.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from oracular.candidates.grammar import Candidate
from oracular.candidates.render import TextEdit, indent_unit
from oracular.java import syntax
from oracular.java.assertions import ASSERT_NOT_NULL, ASSERT_THROWS, FAIL
from oracular.java.oracle_statements import caught_types, contains_fail, is_fail
from oracular.java.prefix import Target
from oracular.quality.context import FileContext, TestContext, name_of, within
from oracular.quality.finding import Finding, Fix, Severity

CODE = "swallowed-exception"
ON_BY_DEFAULT = True
"""Hand-checked precision on dev: 22 of 25 sampled findings (88%) (``docs/quality.md``); on from 80%."""
SUMMARY = "a `try`/`catch` that lets the test pass without checking anything"
CLEANUP = re.compile(
    r"^(close\w*|delete\w*|forceDelete\w*|shutdown\w*|stop|dispose|destroy|release|clean[uU]p|tearDown|"
    r"join|sleep|await\w*|interrupt|flush|unlock|disconnect)$"
)
IGNORED = frozenset({"InterruptedException", "UnsupportedOperationException"})
"""Sleeps get interrupted; optional operations (``Collection.retainAll``) may be unsupported."""
_TOLERATED = re.compile(r"^(tolerated|optional|ok|allowed|acceptable)\w*$", re.IGNORECASE)
"""Catch variables that say the exception is one acceptable outcome (Guava's testlib idiom)."""
_TOLERANCE_NOTE = re.compile(r"tolerat|either way|not ideal|may or may not|optional", re.IGNORECASE)
BROAD = frozenset({"Exception", "Throwable", "RuntimeException", "Error", "AssertionError"})
"""Types that hide real failures; a narrower one around assertions is a tolerated outcome."""
REPORTING = re.compile(r"^(printStackTrace|print\w*|log|trace|debug|info|warn\w*|error)$")
TRY_TYPES = ("try_statement", "try_with_resources_statement")
LOOPS = frozenset({"for_statement", "enhanced_for_statement", "while_statement", "do_statement"})


def _documented_tolerance(try_node: Node) -> bool:
    """A comment in the ``try`` that says either outcome is fine ("returning is tolerated")."""
    return any(
        n.type in ("line_comment", "block_comment") and _TOLERANCE_NOTE.search(syntax.text(n))
        for n in syntax.walk_skipping_classes(try_node)
    )


def _calls(block: Node) -> list[Node]:
    return [
        n
        for n in syntax.walk_skipping_classes(block)
        if n.type in ("method_invocation", "object_creation_expression")
    ]


def _calls_super(block: Node) -> bool:
    """``try { super.testX(); } catch (...)``: an overriding test tolerating a known deviation."""
    return any(
        n.type == "method_invocation" and syntax.text(n.child_by_field_name("object")) == "super"
        for n in syntax.walk_skipping_classes(block)
    )


def _is_cleanup(block: Node) -> bool:
    calls = _calls(block)
    return not calls or all(
        c.type == "method_invocation" and CLEANUP.match(syntax.call_name(c)) for c in calls
    )


def _swallows(ctx: TestContext, try_node: Node, catch: Node) -> bool:
    types = caught_types(catch)
    body = catch.child_by_field_name("body")
    if not types or set(types) & IGNORED or body is None or contains_fail(body):
        return False
    nodes = list(syntax.walk_skipping_classes(body))
    if any(n.type == "throw_statement" for n in nodes) or _hands_on(catch, nodes):
        return False
    block = try_node.child_by_field_name("body")
    if block is not None and ctx.asserts_in(block) and not set(types) & BROAD:
        return False  # ``try { assertEquals(...) } catch (IllegalArgumentException e) {}``: either is fine
    recorded = {name_of(n.child_by_field_name("left")) for n in nodes if n.type == "assignment_expression"}
    if any(name is not None and ctx.reach.checks(name) for name in recorded):
        return False  # ``thrown = true`` (or ``caught = e``), asserted afterwards
    # ``catch (X e) { return; }`` bails out (the platform lacks a feature): a deliberate skip.
    return not any(n.type == "return_statement" for n in nodes) and not _TOLERATED.match(_variable(catch))


def _variable(catch: Node) -> str:
    param = next((c for c in catch.named_children if c.type == "catch_formal_parameter"), None)
    return syntax.text(param.child_by_field_name("name")) if param is not None else ""


def _hands_on(catch: Node, nodes: list[Node]) -> bool:
    """The catch passes the exception on (to another thread, a collector), not just prints it."""
    variable = _variable(catch)
    for node in nodes:
        if node.type != "method_invocation" or REPORTING.match(syntax.call_name(node)):
            continue
        args = node.child_by_field_name("arguments")
        if args is not None and any(syntax.text(a) == variable for a in args.named_children):
            return True
    return False


def _outside_main_flow(node: Node, body: Node) -> bool:
    """Inside a ``finally`` (cleanup) or a lambda (code that runs elsewhere, maybe never)."""
    parent = node.parent
    while parent is not None and not (parent.start_byte == body.start_byte and parent.type == body.type):
        if parent.type in ("finally_clause", "lambda_expression"):
            return True
        parent = parent.parent
    return False


def check(file: FileContext, ctx: TestContext) -> list[Finding]:
    findings = []
    body = ctx.test.body
    assert body is not None
    for node in ctx.nodes:
        if node.type not in TRY_TYPES:
            continue
        block = node.child_by_field_name("body")
        if (
            block is None
            or contains_fail(block)
            or _is_cleanup(block)
            or _outside_main_flow(node, body)
            or _calls_super(block)
            or _documented_tolerance(node)
        ):
            continue
        swallowing = [c for c in node.named_children if c.type == "catch_clause" and _swallows(ctx, node, c)]
        if swallowing:
            findings.append(_try_finding(file, ctx, node, block, swallowing[0]))
    guarded = _guarded_only(ctx)
    if guarded is not None:
        findings.append(_if_finding(file, ctx, guarded))
    return findings


# -- try/catch ----------------------------------------------------------------------------
def _try_finding(file: FileContext, ctx: TestContext, try_node: Node, block: Node, catch: Node) -> Finding:
    exception = caught_types(catch)[0]
    catch_body = catch.child_by_field_name("body")
    statements = syntax.statements(catch_body) if catch_body is not None else []
    calls = _calls(block)
    call = f"{syntax.call_name(calls[-1]) if calls[-1].type == 'method_invocation' else 'new'}(...)"
    if any(ctx.asserts_in(s) for s in statements):
        message = (
            f"the assertions in this catch run only if {exception} is thrown: nothing fails when "
            f"{call} does not throw it (no fail() after the call)"
        )
    else:
        verb = "ignored" if not statements else "swallowed"
        message = f"{exception} is caught and {verb}: the test passes whether or not {call} throws it"
    fixes = _try_fixes(file, ctx, try_node, block, catch, exception) if file.fixes else []
    param = next((c for c in catch.named_children if c.type == "catch_formal_parameter"), catch)
    return file.finding(CODE, Severity.WARNING, message, param, test=ctx.name, fixes=fixes)


def _try_fixes(
    file: FileContext, ctx: TestContext, try_node: Node, block: Node, catch: Node, exception: str
) -> list[Fix]:
    renderer = file.renderer(ctx.test)
    source = file.source
    inner = syntax.statements(block)
    fixes = []
    if inner:
        last = inner[-1]
        end = source.position(last.end_byte)
        text = f'fail("Expected {exception}");'
        imports = renderer.needed_imports(Candidate("assertion", FAIL))
        edit = TextEdit(end, end, f"\n{source.line_indent(last.start_byte)}{text}")
        fixes.append(Fix(f"Insert {text} after the call", (edit, *renderer.import_edits(imports))))
    catches = [c for c in try_node.named_children if c.type == "catch_clause"]
    catch_body = catch.child_by_field_name("body")
    convertible = (
        try_node.type == "try_statement"
        and len(inner) == 1
        and len(catches) == 1
        and len(caught_types(catch)) == 1
        and not any(c.type == "finally_clause" for c in try_node.named_children)
        and catch_body is not None
        and not syntax.statements(catch_body)
    )
    if convertible and renderer.style.supports_assert_throws:
        candidate = Candidate("exception", ASSERT_THROWS, exception=exception)
        prefix = ctx.prefix_of(inner)
        indent = source.line_indent(try_node.start_byte)
        text = renderer.exception_text(
            candidate, prefix, indent, indent_unit(source, ctx.test.node, inner[0])
        )
        if text.startswith(ASSERT_THROWS):
            edit = TextEdit(source.position(try_node.start_byte), source.position(try_node.end_byte), text)
            imports = renderer.import_edits(renderer.needed_imports(candidate))
            fixes.append(Fix(f"Convert to assertThrows({exception}.class, ...)", (edit, *imports)))
    return fixes


# -- assertions only under an if ------------------------------------------------------------
def _guard(ctx: TestContext, assertion: Node) -> Node | None:
    """The outermost ``if`` or ``catch`` an assertion depends on, ``None`` if it always runs."""
    body = ctx.test.body
    assert body is not None
    guard = None
    child, parent = assertion, assertion.parent
    while parent is not None and not within(body, parent):
        if parent.type == "catch_clause":
            guard = parent
        elif parent.type == "if_statement" and not within(
            child, parent.child_by_field_name("condition") or child
        ):
            alternative = parent.child_by_field_name("alternative")
            consequence = parent.child_by_field_name("consequence")
            both = (
                alternative is not None
                and consequence is not None
                and ctx.asserts_in(alternative)
                and ctx.asserts_in(consequence)
            )
            if not both:
                guard = parent
        child, parent = parent, parent.parent
    return guard


def _guarded_only(ctx: TestContext) -> Node | None:
    """The one ``if (x != null)`` on what the unit returned that guards every assertion of the test.

    That guard lets a unit that wrongly returns ``null`` pass. Not flagged: assertions under
    different guards (``if (IS_OS_WINDOWS) ... if (IS_OS_LINUX)``, an either/or), a guard inside a
    loop (it picks the iterations to check), a guard on the test's own set-up or environment
    (``if (stat instanceof SecondMoment)`` in an abstract test: it does not apply, on purpose), and
    other guards on the unit's results (``if (sizeIfKnown.isPresent())``, ``if (size >= 2)``),
    which on the dev projects always marked a case the test deliberately does not cover.
    """
    guards = []
    for assertion in ctx.assertions:
        guard = _guard(ctx, assertion)
        if guard is None or is_fail(assertion):
            return None
        guards.append(guard)
    if not guards or len({(g.start_byte, g.type) for g in guards}) != 1:
        return None
    guard = guards[0]
    if guard.type != "if_statement" or _in_loop(ctx, guard):
        return None
    condition = guard.child_by_field_name("condition")
    inner = condition.named_children[0] if condition is not None and condition.named_children else None
    return guard if inner is not None and _is_null_check(inner) and _from_unit(ctx, inner) else None


def _is_null_check(condition: Node) -> bool:
    right = condition.child_by_field_name("right")
    return (
        condition.type == "binary_expression"
        and syntax.text(condition.child_by_field_name("operator")) == "!="
        and right is not None
        and right.type == "null_literal"
    )


def _in_loop(ctx: TestContext, node: Node) -> bool:
    body = ctx.test.body
    assert body is not None
    parent = node.parent
    while parent is not None and not within(body, parent):
        if parent.type in LOOPS:
            return True
        parent = parent.parent
    return False


def _unit_call(ctx: TestContext, node: Node) -> bool:
    """A call of a workspace class that is not a test (the unit, or its collaborators)."""
    if node.type == "method_invocation":
        resolved = ctx.env.resolve_call(node)
        return resolved is not None and not resolved.cls.is_test
    if node.type == "object_creation_expression":
        cls = ctx.env.resolve_class(syntax.text(node.child_by_field_name("type")))
        return cls is not None and not cls.is_test
    return False


def _from_unit(ctx: TestContext, condition: Node) -> bool:
    """Whether a condition reads something the unit computed, directly or through a local."""
    for node in syntax.walk_skipping_classes(condition):
        if _unit_call(ctx, node):
            return True
        name = name_of(node)
        if name is not None and name in ctx.env.locals:
            values = [v for v in ctx.flows.get(name, []) if v.type != "argument_list"]
            if any(_unit_call(ctx, n) for v in values for n in syntax.walk_skipping_classes(v)):
                return True
    return False


def _if_finding(file: FileContext, ctx: TestContext, guard: Node) -> Finding:
    condition = guard.child_by_field_name("condition") or guard
    inner = condition.named_children[0] if condition.type == "parenthesized_expression" else condition
    shown = " ".join(syntax.text(inner).split())
    message = (
        f"every assertion in {ctx.name} runs only when {shown} holds: "
        "otherwise the test passes without checking anything"
    )
    fixes = []
    if file.fixes and guard.child_by_field_name("alternative") is None:
        renderer = file.renderer(ctx.test)
        checked = inner.child_by_field_name("left") or inner  # ``x`` of ``x != null``
        candidate = Candidate("assertion", ASSERT_NOT_NULL, Target(syntax.text(checked), None, "call"))
        text = renderer.assertion_text(candidate)
        start = file.source.position(guard.start_byte)
        edit = TextEdit(start, start, f"{text}\n{file.source.line_indent(guard.start_byte)}")
        imports = renderer.import_edits(renderer.needed_imports(candidate))
        fixes.append(Fix(f"Assert it first: {text}", (edit, *imports)))
    return file.finding(CODE, Severity.WARNING, message, condition, test=ctx.name, fixes=fixes)
