"""The oracle grammar (TOGA's, extended): type-correct candidates for each target.

boolean -> assertTrue/assertFalse; reference -> assertNull/assertNotNull; any typed value ->
assertEquals(v, t) with v from the local, constant and global dictionaries (with a delta for
floating point, assertArrayEquals for arrays); plus the expected-exception oracle, whose type
comes from the focal method's Javadoc, ``throws`` clause, or ``throw new`` statements.
"""

from __future__ import annotations

from dataclasses import dataclass

from oracular.candidates.values import Value, compatible
from oracular.java.assertions import (
    ASSERT_ARRAY_EQUALS,
    ASSERT_EQUALS,
    ASSERT_FALSE,
    ASSERT_NOT_NULL,
    ASSERT_NULL,
    ASSERT_THROWS,
    ASSERT_TRUE,
)
from oracular.java.prefix import Target
from oracular.java.types import is_array, is_boolean, is_floating, is_primitive

MAX_CANDIDATES = 64
LINES = "oracular.exec.Observe.lines"
"""The observing helper's method that splits a text into lines (``execution/java``)."""
MAX_EQUALS_PER_TARGET = 24
FLOAT_DELTA = "0.0001"


@dataclass(frozen=True)
class Candidate:
    kind: str
    """``assertion``, ``exception``, or ``helper`` (a call of the suite's own assertion helper,
    :mod:`oracular.candidates.helpers`)."""
    assertion: str
    """The assertion method (``assertEquals``...), ``assertThrows`` for exceptions, the helper's
    name as the test calls it (``assertOptionDetected``, ``TestUtils.assertEqualsIgnoreCase``)."""
    target: Target | None = None
    expected: Value | None = None
    exception: str | None = None
    arguments: tuple[str, ...] = ()
    """A helper call's arguments, as written."""
    lines_of: str | None = None
    """A helper taking expected lines: the text whose lines it is given (``sink.toString()``);
    running the code fills :attr:`arguments` (:func:`oracular.candidates.helpers.resolve_lines`)."""
    ran_as: str | None = None
    """The call the run judged, where :attr:`arguments` write the values it read in place of the
    expressions it ran (``check(names, "s")`` judged as ``check(names, names[0])``:
    :func:`oracular.candidates.helpers.resolve_read_offs`)."""

    @property
    def key(self) -> tuple:
        return (self.kind, self.assertion, self.target.expression if self.target else None,
                self.expected.text if self.expected else None, self.exception, self.arguments,
                self.lines_of)  # fmt: skip

    @property
    def call(self) -> str:
        """A helper candidate's call expression: ``assertOptionDetected(options, "a")``."""
        return f"{self.assertion}({', '.join(self.arguments)})"

    @property
    def read(self) -> str:
        """The call run to judge a helper candidate: :attr:`call`, or for expected lines, the call
        given the lines of the text at run time (``assertHelpLines(Observe.lines(sink.toString()))``),
        or the call it was before its read-off arguments became the values read (:attr:`ran_as`)."""
        if self.ran_as is not None:
            return self.ran_as
        if self.lines_of is None:
            return self.call
        return f"{self.assertion}({lines_read(self.lines_of)})"


def lines_read(text: str) -> str:
    """What running the code reads for the lines of ``text``."""
    return f"{LINES}({text})"


def assertion_candidates(target: Target, values: list[Value]) -> list[Candidate]:
    t = target.type
    if is_boolean(t):
        return [Candidate("assertion", ASSERT_TRUE, target), Candidate("assertion", ASSERT_FALSE, target)]
    result: list[Candidate] = []
    if not is_primitive(t) and target.method != "toString":  # a text is never null
        result += [
            Candidate("assertion", ASSERT_NOT_NULL, target),
            Candidate("assertion", ASSERT_NULL, target),
        ]
    if t is None:
        return result
    method = ASSERT_ARRAY_EQUALS if is_array(t) else ASSERT_EQUALS
    equals = [
        Candidate("assertion", method, target, v)
        for v in values
        if v.text != target.expression and compatible(v.type, t)
    ]
    return result + equals[:MAX_EQUALS_PER_TARGET]


def exception_candidates(exception_types: list[str]) -> list[Candidate]:
    """One candidate per documented or thrown type; ``Exception`` only as the last resort."""
    types = exception_types or ["Exception"]
    return [Candidate("exception", ASSERT_THROWS, exception=e) for e in types]


def build_candidates(
    targets: list[Target], values_for: dict[str, list[Value]], exception_types: list[str]
) -> list[Candidate]:
    """All candidates for a prefix, deduplicated, capped at :data:`MAX_CANDIDATES`.

    Exception candidates are always kept: the exception classifier decides between them and
    the assertions, so the cap applies to assertions only.
    """
    exceptions = exception_candidates(exception_types)
    seen: set[tuple] = set()
    assertions: list[Candidate] = []
    for target in targets:
        for candidate in assertion_candidates(target, values_for.get(target.expression, [])):
            if candidate.key not in seen:
                seen.add(candidate.key)
                assertions.append(candidate)
    return assertions[: MAX_CANDIDATES - len(exceptions)] + exceptions


def uses_delta(candidate: Candidate) -> bool:
    """Floating point compares within a delta, arrays of it too (JUnit 4 has no exact form)."""
    if candidate.target is None:
        return False
    if candidate.assertion == ASSERT_EQUALS:
        return is_floating(candidate.target.type)
    if candidate.assertion == ASSERT_ARRAY_EQUALS:
        expected = candidate.expected.text if candidate.expected is not None else ""
        element = (candidate.target.type or "").removesuffix("[]")
        return is_floating(element) or expected.startswith(("new double[]", "new float[]"))
    return False
