"""``swapped-arguments``: ``assertEquals(list.size(), 3)``, the expected value in the actual slot.

JUnit's order is ``(expected, actual)``. Swapped, a failure reads backwards ("expected <2> but
was <3>" when 3 was the expectation), which misleads whoever debugs it. TestNG's ``Assert``
takes ``(actual, expected)`` while its ``AssertJUnit`` keeps JUnit's order, so the owner of each
call is resolved from the file's imports; a call whose owner cannot be told in a TestNG file is
left alone rather than flagged the wrong way round.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from oracular.candidates.render import TextEdit
from oracular.java import syntax
from oracular.java.assertions import PAIRED
from oracular.java.declarations import Import
from oracular.java.junit import Flavour
from oracular.java.types import is_numeric
from oracular.quality.context import FileContext, TestContext, is_literal
from oracular.quality.finding import Finding, Fix, Severity

CODE = "swapped-arguments"
ON_BY_DEFAULT = True
"""Hand-checked precision on dev: 25 of 25 sampled findings (100%) (``docs/quality.md``); on from 80%."""
SUMMARY = "the expected value in the actual slot: `assertEquals(list.size(), 3)`"
ACTUAL_FIRST = frozenset({"org.testng.Assert"})
MESSAGE_FIRST = frozenset(
    {"org.junit.Assert", "junit.framework.Assert", "junit.framework.TestCase", "org.testng.AssertJUnit"}
)
"""JUnit 3/4 style: ``assertEquals(message, expected, actual[, delta])``."""
KNOWN = ACTUAL_FIRST | MESSAGE_FIRST | {"org.junit.jupiter.api.Assertions"}
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*$")
JDK_CONSTANT_OWNERS = frozenset(
    {
        "Double",
        "Float",
        "Integer",
        "Long",
        "Short",
        "Byte",
        "Character",
        "Boolean",
        "BigInteger",
        "BigDecimal",
    }
)
_EXPECTED_NAME = re.compile(r"^(expected|exp[A-Z_]|want)", re.IGNORECASE)


def owner(call: Node, imports: list[Import], flavour: Flavour) -> str | None:
    """The class an assertion call belongs to, from its qualifier or the static imports."""
    qualifier = call.child_by_field_name("object")
    if qualifier is not None:
        text = syntax.text(qualifier)
        if "." in text:
            return text
        for imp in imports:
            if not imp.is_static and not imp.is_wildcard and imp.simple == text:
                return imp.name
        wildcard = [f"{imp.name}.{text}" for imp in imports if imp.is_wildcard and not imp.is_static]
        found = [name for name in wildcard if name in KNOWN]
        return found[0] if len(found) == 1 else None
    name = syntax.call_name(call)
    for imp in imports:
        if imp.is_static and not imp.is_wildcard and imp.simple == name:
            return imp.name.rpartition(".")[0]
    owners = {imp.name for imp in imports if imp.is_static and imp.is_wildcard and imp.name in KNOWN}
    if len(owners) == 1:
        return owners.pop()
    return "junit.framework.TestCase" if flavour is Flavour.JUNIT3 else None


def _is_message(node: Node, ctx: TestContext) -> bool:
    if node.type in ("string_literal", "text_block"):
        return True
    if node.type == "binary_expression":
        return any(c.type == "string_literal" for c in node.named_children)
    return ctx.env.type_of(node) == "String"


def slots(call: Node, owner_name: str, ctx: TestContext) -> tuple[Node, Node] | None:
    """The (expected, actual) argument nodes, or ``None`` when the call's shape is unclear."""
    args = call.child_by_field_name("arguments")
    values = list(args.named_children) if args is not None else []
    values = [v for v in values if v.type not in ("line_comment", "block_comment")]
    if len(values) < 2:
        return None
    if owner_name in MESSAGE_FIRST:
        if len(values) == 4 or (len(values) == 3 and _is_message(values[0], ctx)):
            values = values[1:]
        elif len(values) == 3 and not is_numeric(ctx.env.type_of(values[2])):
            return None  # (message, expected, actual) with a message we cannot type: unsure
    first, second = values[0], values[1]
    return (second, first) if owner_name in ACTUAL_FIRST else (first, second)


def _is_constant(node: Node) -> bool:
    if is_literal(node) or node.type == "class_literal":
        return True
    if node.type == "identifier":
        return bool(_CONSTANT.match(syntax.text(node)))
    if node.type == "field_access":
        return bool(_CONSTANT.match(syntax.text(node.child_by_field_name("field"))))
    return False


def is_swapped(expected: Node, actual: Node) -> bool:
    """A literal (or a JDK constant such as ``Double.NaN``) where the value under test belongs.

    Other constants are left alone: ``assertEquals(Charset.forName("UTF-8"), Charsets.UTF_8)``
    tests the constant itself, so it is rightly the actual value.
    """
    if _is_constant(expected) or _EXPECTED_NAME.match(syntax.text(expected)):
        return False
    if is_literal(actual) or actual.type == "class_literal":
        return True
    owner_class = syntax.text(actual.child_by_field_name("object")) if actual.type == "field_access" else ""
    return owner_class in JDK_CONSTANT_OWNERS and _is_constant(actual)


def _overloaded_here(ctx: TestContext, call: Node) -> bool:
    """The test class declares its own ``assertEquals(...)``, whose parameters we cannot read."""
    name = syntax.call_name(call)
    return call.child_by_field_name("object") is None and any(
        c.methods_named(name) for c in ctx.status.classes
    )


def _short(node: Node, limit: int = 40) -> str:
    text = " ".join(syntax.text(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check(file: FileContext, ctx: TestContext) -> list[Finding]:
    findings = []
    imports = file.analysis.decls.imports
    for assertion in ctx.assertions:
        for call in syntax.walk_skipping_classes(assertion):
            if call.type != "method_invocation" or syntax.call_name(call) not in PAIRED:
                continue
            owner_name = owner(call, imports, ctx.test.flavour)
            if owner_name is None or owner_name not in KNOWN or _overloaded_here(ctx, call):
                continue
            pair = slots(call, owner_name, ctx)
            if pair is None or not is_swapped(*pair):
                continue
            expected, actual = pair
            findings.append(_finding(file, ctx, call, expected, actual, owner_name))
    return findings


def _finding(
    file: FileContext, ctx: TestContext, call: Node, expected: Node, actual: Node, owner_name: str
) -> Finding:
    order = (
        "TestNG's Assert takes (actual, expected)"
        if owner_name in ACTUAL_FIRST
        else ("JUnit's order is (expected, actual)")
    )
    message = (
        f"{syntax.call_name(call)}: {_short(actual)} is in the actual position and {_short(expected)} "
        f"in the expected one; {order}, so a failure would be reported backwards"
    )
    source = file.source
    swap = Fix(
        "Swap the expected and actual arguments",
        (
            TextEdit(
                source.position(expected.start_byte), source.position(expected.end_byte), syntax.text(actual)
            ),
            TextEdit(
                source.position(actual.start_byte), source.position(actual.end_byte), syntax.text(expected)
            ),
        ),
    )
    first, last = sorted((expected, actual), key=lambda n: n.start_byte)
    return file.finding(CODE, Severity.HINT, message, first, last, ctx.name, [swap])
