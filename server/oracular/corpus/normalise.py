"""Read a developer's oracle statement into one canonical form the grammar's candidates share.

Why this module exists: the same oracle is written many ways (``Assert.assertEquals("msg", 5L,
x)``, ``assertThat(x).isEqualTo(5)``, ``assertThat(x, is(5))``, TestNG's ``(actual, expected)``
order), and the corpus statistics ("is the developer's oracle in our candidate set?") are only
meaningful if both sides are compared in one form: JUnit 5 argument order, no qualifier, no
message, no float delta, no ``L``/``f``/``d`` suffixes, and ``assertEquals(true, x)`` read as
``assertTrue(x)``. Everything here is a pure function over tree-sitter nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.text import canonical_expression
from oracular.java import syntax
from oracular.java.junit import Flavour
from oracular.java.oracle_statements import FAIL_NAMES, call_args, call_chain, statement_call
from oracular.java.oracles import is_oracle_call
from oracular.java.types import LITERAL_TYPES

GRAMMAR_FORMS = frozenset(
    {"assertTrue", "assertFalse", "assertNull", "assertNotNull", "assertEquals", "assertArrayEquals"}
)
"""The assertion methods the candidate grammar can produce."""
UNARY = frozenset({"assertTrue", "assertFalse", "assertNull", "assertNotNull"})
BINARY = frozenset(
    {
        "assertEquals", "assertNotEquals", "assertSame", "assertNotSame", "assertArrayEquals",
        "assertIterableEquals", "assertLinesMatch",
    }
)  # fmt: skip
ASSERTJ_UNARY = {
    "isTrue": "assertTrue",
    "isFalse": "assertFalse",
    "isNull": "assertNull",
    "isNotNull": "assertNotNull",
}
HAMCREST_UNARY = {"nullValue": "assertNull", "notNullValue": "assertNotNull"}


@dataclass(frozen=True)
class GroundTruth:
    """A developer's assertion in canonical form."""

    method: str
    """``assertEquals``..., or the unmapped entry point (``assertThat``) for other forms."""
    actual: str
    expected: str | None
    family: str
    """How it was written: the JUnit/TestNG method, ``assertThat (AssertJ)`` or ``assertThat (Hamcrest)``."""
    simple_expected: bool
    """The expected value is a literal, a name or a constant (what the value dictionaries hold)."""
    actual_is_call: bool = False
    """The asserted value is a method call, which a prefix can end with as a bare statement."""

    @property
    def text(self) -> str:
        if self.expected is None:
            return f"{self.method}({self.actual})"
        return f"{self.method}({self.expected}, {self.actual})"

    @property
    def key(self) -> str:
        return canonical_expression(self.text)

    @property
    def in_grammar(self) -> bool:
        """Whether the grammar can express this oracle at all (TOGA's RQ1 "covered")."""
        if self.method not in GRAMMAR_FORMS:
            return False
        return self.expected is None or self.simple_expected


def _is_stringish(node: Node) -> bool:
    if node.type in ("string_literal", "text_block", "lambda_expression"):
        return True
    if node.type == "binary_expression":
        return any(_is_stringish(c) for c in node.named_children)
    return node.type == "method_invocation" and syntax.call_name(node) in ("format", "toString", "formatted")


def _is_simple_value(node: Node) -> bool:
    kind = node.type
    if kind in LITERAL_TYPES or kind == "identifier":
        return True
    if kind == "unary_expression":
        return syntax.text(node)[:1] in "-+" and all(_is_simple_value(c) for c in node.named_children)
    if kind == "field_access":
        return all(c.type in ("identifier", "field_access") for c in node.named_children)
    return False


def _boolean_or_null(node: Node) -> str | None:
    text = syntax.text(node)
    if text in ("true", "Boolean.TRUE"):
        return "assertTrue"
    if text in ("false", "Boolean.FALSE"):
        return "assertFalse"
    if text == "null":
        return "assertNull"
    return None


def _make(method: str, actual: Node, expected: Node | None, family: str) -> GroundTruth:
    is_call = actual.type == "method_invocation"
    if method == "assertEquals" and expected is not None:
        collapsed = _boolean_or_null(expected)
        if collapsed is not None:
            return GroundTruth(collapsed, syntax.text(actual), None, family, True, is_call)
    return GroundTruth(
        method,
        syntax.text(actual),
        syntax.text(expected) if expected is not None else None,
        family,
        expected is None or _is_simple_value(expected),
        is_call,
    )


def _message_first(flavour: Flavour, call: Node) -> bool:
    """JUnit 3/4 put the message first; JUnit 5 and TestNG last. The qualifier overrides the file."""
    qualifier = syntax.text(call.child_by_field_name("object")).rsplit(".", 1)[-1]
    if qualifier == "Assertions":
        return False
    if qualifier in ("Assert", "TestCase") and "testng" not in syntax.text(
        call.child_by_field_name("object")
    ):
        return flavour is not Flavour.TESTNG
    return flavour in (Flavour.JUNIT3, Flavour.JUNIT4)


def _standard(call: Node, flavour: Flavour) -> GroundTruth | None:
    name = syntax.call_name(call)
    args = call_args(call)
    if name in UNARY:
        if not args:
            return None
        first = _message_first(flavour, call) and len(args) >= 2
        return _make(name, args[1] if first else args[0], None, name)
    if name not in BINARY or len(args) < 2:
        return None
    if _message_first(flavour, call):
        if len(args) == 4 or (len(args) == 3 and _is_stringish(args[0])):
            args = args[1:]
        expected, actual = args[0], args[1]
    else:
        expected, actual = args[0], args[1]
        if flavour is Flavour.TESTNG and syntax.text(call.child_by_field_name("object")) != "Assertions":
            expected, actual = actual, expected
    return _make(name, actual, expected, name)


def _assertj(chain: list[Node]) -> GroundTruth | None:
    root = chain[0]
    args = call_args(root)
    if len(args) != 1:
        return None
    if len(chain) == 2:
        check = syntax.call_name(chain[1])
        if check in ASSERTJ_UNARY and not call_args(chain[1]):
            return _make(ASSERTJ_UNARY[check], args[0], None, "assertThat (AssertJ)")
        if check == "isEqualTo" and len(call_args(chain[1])) == 1:
            return _make("assertEquals", args[0], call_args(chain[1])[0], "assertThat (AssertJ)")
    return GroundTruth("assertThat", syntax.text(args[0]), None, "assertThat (AssertJ)", False)


def _hamcrest(call: Node) -> GroundTruth | None:
    args = call_args(call)
    if len(args) == 3:
        args = args[1:]
    if len(args) != 2:
        return None
    actual, matcher = args
    # Peel is(...) wrappers: is(equalTo(x)) == is(x) == equalTo(x).
    while matcher.type == "method_invocation" and syntax.call_name(matcher) == "is":
        inner = call_args(matcher)
        if len(inner) != 1 or inner[0].type != "method_invocation":
            break
        matcher = inner[0]
    name = syntax.call_name(matcher) if matcher.type == "method_invocation" else ""
    inner = call_args(matcher) if matcher.type == "method_invocation" else []
    family = "assertThat (Hamcrest)"
    if name in HAMCREST_UNARY and not inner:
        return _make(HAMCREST_UNARY[name], actual, None, family)
    if name == "not" and len(inner) == 1 and syntax.text(inner[0]).endswith("nullValue()"):
        return _make("assertNotNull", actual, None, family)
    if name in ("is", "equalTo") and len(inner) == 1:
        return _make("assertEquals", actual, inner[0], family)
    return GroundTruth("assertThat", syntax.text(actual), None, family, False)


def normalise_assertion(statement: Node, flavour: Flavour) -> GroundTruth | None:
    """The canonical oracle of an assertion statement, or ``None`` if it is not one.

    Oracles outside the grammar's reach (``assertThat(list).contains(x)``, ``verify(...)``) are
    returned with their entry point as ``method`` so that coverage statistics can count them.
    """
    call = statement_call(statement)
    if call is None:
        return None
    chain = call_chain(call)
    root = chain[0]
    name = syntax.call_name(root)
    if name == "assertThat":
        return _hamcrest(root) if len(chain) == 1 else _assertj(chain)
    if len(chain) == 1 and (name in UNARY or name in BINARY):
        return _standard(root, flavour)
    names = [syntax.call_name(c) for c in chain]
    oracle = next((n for n in names if is_oracle_call(n)), None)
    if oracle is None or oracle in FAIL_NAMES:
        return None
    return GroundTruth(oracle, syntax.text(call), None, oracle, False)
