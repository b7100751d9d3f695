"""Read a developer's oracle statement into one canonical form the grammar's candidates share.

Why this module exists: the same oracle is written many ways (``Assert.assertEquals("msg", 5L,
x)``, ``assertThat(x).isEqualTo(5)``, ``assertThat(x, is(5))``, TestNG's ``(actual, expected)``
order), and the corpus statistics ("is the developer's oracle in our candidate set?") are only
meaningful if both sides are compared in one form: JUnit 5 argument order, no qualifier, no
message, no float delta, no ``L``/``f``/``d`` suffixes, and ``assertEquals(true, x)`` read as
``assertTrue(x)``. Everything here is a pure function over tree-sitter nodes.

A fluent or comparison form is read as a JUnit one only where both check exactly the same thing
(issue 15): ``assertThat(xs).hasSize(2)`` is ``assertEquals(2, xs.size())``, ``isEmpty()`` is
``assertTrue(xs.isEmpty())``, ``assertThat(m, hasKey(k))`` is ``assertTrue(m.containsKey(k))``,
``assertTrue(x != null)`` is ``assertNotNull(x)``, ``assertTrue(n == 3)`` (an integer or character
literal: a numeric comparison) is ``assertEquals(3, n)`` and ``assertTrue("a".equals(s))`` is
``assertEquals("a", s)``. Where the asserted value has no such method (``hasSize`` on an array)
the canonical text names a call no candidate makes, so it can never be counted as matched.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.text import canonical_expression
from oracular.java import syntax
from oracular.java.assertions import (
    ASSERT_EQUALS,
    ASSERT_FALSE,
    ASSERT_NOT_EQUALS,
    ASSERT_NOT_NULL,
    ASSERT_NOT_SAME,
    ASSERT_NULL,
    ASSERT_SAME,
    ASSERT_THAT,
    ASSERT_TRUE,
    BINARY,
    GRAMMAR_FORMS,
    UNARY,
)
from oracular.java.junit import Flavour
from oracular.java.oracle_statements import FAIL_NAMES, call_args, call_chain, statement_call
from oracular.java.oracles import is_oracle_call
from oracular.java.types import LITERAL_TYPES

ASSERTJ_UNARY = {
    "isTrue": ASSERT_TRUE,
    "isFalse": ASSERT_FALSE,
    "isNull": ASSERT_NULL,
    "isNotNull": ASSERT_NOT_NULL,
}
HAMCREST_UNARY = {"nullValue": ASSERT_NULL, "notNullValue": ASSERT_NOT_NULL}
ASSERTJ_DESCRIPTIONS = frozenset({"as", "describedAs", "withFailMessage", "overridingErrorMessage"})
"""AssertJ calls between ``assertThat(x)`` and its check that only describe a failure."""
SAME_AS = {
    "isSameAs": ASSERT_SAME, "isSameInstanceAs": ASSERT_SAME, "isNotSameAs": ASSERT_NOT_SAME,
    "isNotSameInstanceAs": ASSERT_NOT_SAME, "isNotEqualTo": ASSERT_NOT_EQUALS,
}  # fmt: skip
"""AssertJ's (and Truth's) identity and inequality checks: JUnit methods outside the grammar."""
OBSERVED_UNARY = {"isEmpty": (ASSERT_TRUE, "isEmpty"), "isNotEmpty": (ASSERT_FALSE, "isEmpty")}
"""AssertJ checks that are one boolean observer of the value: ``isEmpty()`` is ``assertTrue(x.isEmpty())``
(``isEmpty`` of a collection, map, string or ``Optional``)."""
OBSERVED_EQUALS = {"hasSize": "size"}
"""AssertJ checks on an observer: ``hasSize(n)`` is ``assertEquals(n, x.size())``."""
HAMCREST_OBSERVED_UNARY = {"empty": "isEmpty", "anEmptyMap": "isEmpty"}
"""Hamcrest matchers that hold when one boolean observer of the value is true."""
HAMCREST_OBSERVED_EQUALS = {"hasSize": "size", "aMapWithSize": "size"}
HAMCREST_QUERIES = {"hasKey": "containsKey", "hasItem": "contains", "containsString": "contains"}
"""Hamcrest matchers that hold when a one-argument query is true: ``hasKey(k)`` is ``m.containsKey(k)``."""
HAMCREST_SAME = frozenset({"sameInstance", "theInstance"})
IDENTITY = {ASSERT_SAME: ASSERT_EQUALS, ASSERT_NOT_SAME: ASSERT_NOT_EQUALS}
"""Identity checks, and what they are against a class literal (``Class`` compares by identity):
``assertSame(Map.class, t.getErasedType())`` is ``assertEquals(Map.class, t.getErasedType())``,
as ``assertSame(null, x)`` is ``assertNull(x)``."""
_IDENTITY_LITERALS = ("null_literal", "class_literal")
NEGATED = {
    ASSERT_TRUE: ASSERT_FALSE, ASSERT_FALSE: ASSERT_TRUE, ASSERT_NULL: ASSERT_NOT_NULL,
    ASSERT_NOT_NULL: ASSERT_NULL, ASSERT_EQUALS: ASSERT_NOT_EQUALS, ASSERT_SAME: ASSERT_NOT_SAME,
}  # fmt: skip
"""What Hamcrest's ``not(m)`` makes of the assertion ``m`` reads as."""
INTEGER_LITERALS = frozenset(
    {"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
     "character_literal"}
)  # fmt: skip
"""Literals whose ``==`` is a numeric comparison as exact as ``assertEquals`` (floating point is not)."""
RECEIVERS = frozenset(
    {"identifier", "field_access", "method_invocation", "array_access", "parenthesized_expression"}
)
"""Expressions a method can be called on as they are written (``a + b`` would need parentheses)."""


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
        return ASSERT_TRUE
    if text in ("false", "Boolean.FALSE"):
        return ASSERT_FALSE
    if text == "null":
        return ASSERT_NULL
    return None


def _make(method: str, actual: Node, expected: Node | None, family: str) -> GroundTruth:
    if method in IDENTITY and expected is not None:
        if actual.type in _IDENTITY_LITERALS and expected.type not in _IDENTITY_LITERALS:
            actual, expected = expected, actual  # up to argument order
        if expected.type == "null_literal":
            method = ASSERT_NULL if method == ASSERT_SAME else ASSERT_NOT_NULL
            return GroundTruth(
                method, syntax.text(actual), None, family, True, actual.type == "method_invocation"
            )
        if expected.type == "class_literal":
            method = IDENTITY[method]
    return _from_text(method, syntax.text(actual), actual.type == "method_invocation", expected, family)


def _from_text(method: str, actual: str, is_call: bool, expected: Node | None, family: str) -> GroundTruth:
    if method == ASSERT_EQUALS and expected is not None:
        collapsed = _boolean_or_null(expected)
        if collapsed is not None:
            return GroundTruth(collapsed, actual, None, family, True, is_call)
    return GroundTruth(
        method,
        actual,
        syntax.text(expected) if expected is not None else None,
        family,
        expected is None or _is_simple_value(expected),
        is_call,
    )


def _observed(method: str, value: Node, call: str, expected: Node | None, family: str) -> GroundTruth | None:
    """``method`` on ``value.call``: ``hasSize(2)`` -> ``assertEquals(2, value.size())``; ``None`` if
    ``value`` cannot be a receiver as written."""
    if value.type not in RECEIVERS:
        return None
    return _from_text(method, f"{syntax.text(value)}.{call}", True, expected, family)


def _comparison(method: str, condition: Node) -> GroundTruth | None:
    """``assertTrue(x != null)`` -> ``assertNotNull(x)``, ``assertTrue(n == 3)`` -> ``assertEquals(3, n)``,
    ``assertTrue("a".equals(s))`` -> ``assertEquals("a", s)``; ``assertFalse`` negates. Only where the
    check is exactly the same: a comparison with ``null``, an integer or character literal, or
    ``equals`` with a literal (whose ``equals`` is symmetric). ``condition`` comes without its
    parentheses and negations (:func:`_without_negation`)."""
    negated = method == ASSERT_FALSE
    if condition.type == "binary_expression":
        operator = syntax.text(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if operator not in ("==", "!=") or left is None or right is None:
            return None
        negated ^= operator == "!="
        if right.type == "null_literal" or left.type == "null_literal":
            value = left if right.type == "null_literal" else right
            return _make(ASSERT_NOT_NULL if negated else ASSERT_NULL, value, None, method)
        literal, value = (right, left) if right.type in INTEGER_LITERALS else (left, right)
        if literal.type not in INTEGER_LITERALS or value.type in INTEGER_LITERALS:
            return None
    elif condition.type == "method_invocation" and syntax.call_name(condition) == "equals":
        receiver, args = condition.child_by_field_name("object"), call_args(condition)
        if receiver is None or len(args) != 1:
            return None
        literal, value = (receiver, args[0]) if receiver.type in LITERAL_TYPES else (args[0], receiver)
        if literal.type not in LITERAL_TYPES or literal.type == "null_literal" or value.type in LITERAL_TYPES:
            return None
    else:
        return None
    return _make(ASSERT_NOT_EQUALS if negated else ASSERT_EQUALS, value, literal, method)


def _without_negation(method: str, condition: Node) -> tuple[str, Node]:
    """The condition without its parentheses, and ``assertTrue(!x)`` read as ``assertFalse(x)``,
    ``assertFalse(!x)`` as ``assertTrue(x)``: the same check, the negation moved into the method
    (``assertTrue(!key1.equals(key2))`` after a prefix whose keys differ is the
    ``assertFalse(key1.equals(key2))`` the grammar writes)."""
    while True:
        while condition.type == "parenthesized_expression" and condition.named_children:
            condition = condition.named_children[0]
        operand = condition.child_by_field_name("operand") if condition.type == "unary_expression" else None
        if operand is None or syntax.text(condition.child_by_field_name("operator")) != "!":
            return method, condition
        method, condition = (ASSERT_FALSE if method == ASSERT_TRUE else ASSERT_TRUE), operand


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
        condition = args[1] if first else args[0]
        if name in (ASSERT_TRUE, ASSERT_FALSE):
            name, condition = _without_negation(name, condition)
            compared = _comparison(name, condition)
            if compared is not None:
                return compared
        return _make(name, condition, None, name)
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
    family = "assertThat (AssertJ)"
    checks = [c for c in chain[1:] if syntax.call_name(c) not in ASSERTJ_DESCRIPTIONS]
    if len(checks) == 1:
        check, inner, value = syntax.call_name(checks[0]), call_args(checks[0]), args[0]
        found: GroundTruth | None = None
        if check in ASSERTJ_UNARY and not inner:
            found = _make(ASSERTJ_UNARY[check], value, None, family)
        elif check == "isEqualTo" and len(inner) == 1:
            found = _make(ASSERT_EQUALS, value, inner[0], family)
        elif check in SAME_AS and len(inner) == 1:
            found = _make(SAME_AS[check], value, inner[0], family)
        elif check in OBSERVED_UNARY and not inner:
            method, observer = OBSERVED_UNARY[check]
            found = _observed(method, value, f"{observer}()", None, family)
        elif check in OBSERVED_EQUALS and len(inner) == 1:
            found = _observed(ASSERT_EQUALS, value, f"{OBSERVED_EQUALS[check]}()", inner[0], family)
        if found is not None:
            return found
    return GroundTruth(ASSERT_THAT, syntax.text(args[0]), None, family, False)


def _hamcrest(call: Node) -> GroundTruth | None:
    args = call_args(call)
    if len(args) == 3:
        args = args[1:]
    if len(args) != 2:
        return None
    actual, matcher = args
    family = "assertThat (Hamcrest)"
    found = _matcher(actual, matcher, family)
    return found or GroundTruth(ASSERT_THAT, syntax.text(actual), None, family, False)


def _matcher(actual: Node, matcher: Node, family: str) -> GroundTruth | None:
    """What ``assertThat(actual, matcher)`` reads as, or ``None`` when no JUnit form checks the same."""
    # Peel is(...) wrappers: is(equalTo(x)) == is(x) == equalTo(x).
    while matcher.type == "method_invocation" and syntax.call_name(matcher) == "is":
        inner = call_args(matcher)
        if len(inner) != 1 or inner[0].type != "method_invocation":
            break
        matcher = inner[0]
    if matcher.type != "method_invocation":
        return None
    name, inner = syntax.call_name(matcher), call_args(matcher)
    if name in HAMCREST_UNARY and not inner:
        return _make(HAMCREST_UNARY[name], actual, None, family)
    if name in ("is", "equalTo") and len(inner) == 1:
        return _make(ASSERT_EQUALS, actual, inner[0], family)
    if name in HAMCREST_SAME and len(inner) == 1:
        return _make(ASSERT_SAME, actual, inner[0], family)
    if name in HAMCREST_OBSERVED_UNARY and not inner:
        return _observed(ASSERT_TRUE, actual, f"{HAMCREST_OBSERVED_UNARY[name]}()", None, family)
    if name in HAMCREST_OBSERVED_EQUALS and len(inner) == 1 and not _is_matcher(inner[0]):
        return _observed(ASSERT_EQUALS, actual, f"{HAMCREST_OBSERVED_EQUALS[name]}()", inner[0], family)
    if name in HAMCREST_QUERIES and len(inner) == 1 and not _is_matcher(inner[0]):
        query = f"{HAMCREST_QUERIES[name]}({syntax.text(inner[0])})"
        return _observed(ASSERT_TRUE, actual, query, None, family)
    if name == "not" and len(inner) == 1:
        negated = inner[0]
        positive = (
            _matcher(actual, negated, family)
            if negated.type == "method_invocation"
            else _make(ASSERT_EQUALS, actual, negated, family)  # not(x) is not(equalTo(x))
        )
        if positive is not None and positive.method in NEGATED:
            return dataclasses.replace(positive, method=NEGATED[positive.method])
    return None


def _is_matcher(node: Node) -> bool:
    """A matcher factory rather than a value: ``greaterThan(2)``, ``Matchers.startsWith("a")``
    (``hasSize(greaterThan(2))`` compares no value; a static value call is read as one too)."""
    if node.type != "method_invocation":
        return False
    receiver = node.child_by_field_name("object")
    return receiver is None or (receiver.type == "identifier" and syntax.text(receiver)[:1].isupper())


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
    if name == ASSERT_THAT:
        return _hamcrest(root) if len(chain) == 1 else _assertj(chain)
    if len(chain) == 1 and (name in UNARY or name in BINARY):
        return _standard(root, flavour)
    names = [syntax.call_name(c) for c in chain]
    oracle = next((n for n in names if is_oracle_call(n)), None)
    if oracle is None or oracle in FAIL_NAMES:
        return None
    return GroundTruth(oracle, syntax.text(call), None, oracle, False)
