"""What the file's other tests assert on, as member paths (``.getDeltas().size()``, ``.str``,
``.has()``), and which exception types they expect.

Why: the tests of one file check the same unit the same way. Where its other tests assert
``options.has(...)``, ``diff.similar()`` or a bean's field, an oracle-free test beside them most
likely wants the same read, and the ranker, which sees one test at a time, cannot know it. A path
keeps the members read after the base variable, without their arguments, so that it matches a
target of another test whatever its variable and arguments are called. Likewise a file whose
tests expect ``MathIllegalArgumentException`` where the code throws its subclasses names that
type again.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

from oracular.java import syntax
from oracular.java.assertions import FAMILIES
from oracular.java.junit import TestMethod
from oracular.java.oracle_statements import expected_exception_types
from oracular.java.oracles import is_oracle_call

_BASE = re.compile(r"\s*(?:this\s*\.\s*)?[A-Za-z_$][\w$]*")
_PATH = re.compile(r"^(?:\.[A-Za-z_$][\w$]*(?:\(\))?)+$")


def member_path(expression: str) -> str | None:
    """``a.getB(x).size()`` -> ``.getB().size()``; ``None`` for anything but members read off a
    variable (a literal, a plain variable, an operator, an array element, a cast)."""
    base = _BASE.match(expression)
    if base is None:
        return None
    kept: list[str] = []
    depth = 0
    for ch in "".join(expression[base.end() :].split()):
        if ch == "(":
            depth += 1
            if depth == 1:
                kept.append(ch)
        elif ch == ")":
            depth -= 1
            if depth == 0:
                kept.append(ch)
        elif depth == 0:
            kept.append(ch)
    path = "".join(kept)
    return path if depth == 0 and _PATH.match(path) else None


def _reads_of(test: TestMethod, extra: frozenset[str]) -> dict[str, str]:
    """The arguments of every assertion call in the test's body that read members off a variable
    or class, as written, with their member paths (``assertEquals(1, p.getDeltas().size())``:
    ``{"p.getDeltas().size()": ".getDeltas().size()"}``; AssertJ's ``assertThat(bean.str)``)."""
    body = test.node.child_by_field_name("body")
    if body is None:
        return {}
    found: dict[str, str] = {}
    for node in syntax.walk_skipping_classes(body):
        if node.type != "method_invocation" or not is_oracle_call(syntax.call_name(node), extra):
            continue
        arguments = node.child_by_field_name("arguments")
        for argument in arguments.named_children if arguments is not None else ():
            text = syntax.text(argument)
            path = member_path(text)
            if path is not None:
                found[text] = path
    return found


FirstCheck = tuple[str, str]
"""A test's first JUnit assertion: its family (:data:`FAMILIES`) and the member path it reads."""


def read_base(expression: str) -> str | None:
    """The variable a member read starts from: ``patch`` of ``patch.getDeltas().size()`` (and of
    ``this.patch.size()``), ``xs`` of ``xs[0]``; ``None`` for a plain variable or anything else."""
    base = _BASE.match(expression)
    if base is None or expression[base.end() :].lstrip()[:1] not in (".", "["):
        return None
    return base.group(0).rsplit(".", 1)[-1].strip()


def read_path(expression: str) -> str | None:
    """:func:`member_path`, or ``""`` for a plain variable (``patch``): what an assertion reads."""
    path = member_path(expression)
    if path is None and _VARIABLE.fullmatch(expression.strip()) and expression.strip() not in _KEYWORDS:
        return ""
    return path


_VARIABLE = re.compile(r"[A-Za-z_$][\w$]*")
_KEYWORDS = frozenset({"true", "false", "null", "this"})


def first_check(test: TestMethod) -> FirstCheck | None:
    """The family and what the first JUnit assertion in the test's body reads: a member path
    (``assertTrue(abbreviations.contains("box"))``: ``("truth", ".contains()")``), else a plain
    variable (java-diff-utils' ``assertNotNull(patch)``: ``("null", "")``)."""
    body = test.node.child_by_field_name("body")
    if body is None:
        return None
    for node in syntax.walk_skipping_classes(body):
        if node.type != "method_invocation":
            continue
        family = FAMILIES.get(syntax.call_name(node))
        arguments = node.child_by_field_name("arguments")
        if family is None or arguments is None:
            continue
        paths = [read_path(syntax.text(a)) for a in arguments.named_children]
        path = next((p for p in reversed(paths) if p), "" if "" in paths else None)
        return (family, path) if path is not None else None
    return None


def expected_types(test: TestMethod) -> tuple[str, ...]:
    """The exception types (simple names) a test's oracles expect
    (:func:`~oracular.java.oracle_statements.expected_exception_types`: a catch counts only in a
    try/``fail``/catch)."""
    body = test.node.child_by_field_name("body")
    nodes = syntax.walk_skipping_classes(body) if body is not None else ()
    return tuple(expected_exception_types(test, nodes, any_catch=False))


Habits = tuple[dict[str, str], tuple[str, ...], FirstCheck | None]
"""One test's reads asserted on (with their member paths), exception types expected, and first check."""


class PathMemo:
    """What a file's tests assert on and expect, each method's remembered by its text.

    Why: these are read at every version an editor ranks, and an edit changes one method;
    walking every test body again doubled the time from an edit to its diagnostics on a
    2,000-line file. At most ``limit`` methods are remembered (then it starts afresh).
    """

    def __init__(self, limit: int = 5_000) -> None:
        self.limit = limit
        self._known: dict[tuple[bytes, frozenset[str]], Habits] = {}

    def _habits(self, data: bytes, tests: Iterable[TestMethod], extra: frozenset[str]) -> Iterator[Habits]:
        for test in tests:
            key = (data[test.node.start_byte : test.node.end_byte], extra)
            habits = self._known.get(key)
            if habits is None:
                if len(self._known) >= self.limit:
                    self._known.clear()
                habits = self._known[key] = (_reads_of(test, extra), expected_types(test), first_check(test))
            yield habits

    def asserted(self, data: bytes, tests: Iterable[TestMethod], extra: frozenset[str]) -> frozenset[str]:
        """Of ``tests`` of the document whose bytes are ``data``; ``extra``: assertion methods
        besides the standard ones. An oracle-free test has no paths of its own."""
        return frozenset(path for reads, _, _ in self._habits(data, tests, extra) for path in reads.values())

    def reads(self, data: bytes, tests: Iterable[TestMethod], extra: frozenset[str]) -> tuple[str, ...]:
        """The expressions ``tests`` assert on (:func:`_reads_of`), those most tests assert on first
        (however each spaces it: ``has( "c" )`` is ``has("c")``), each as first written."""
        written: dict[str, str] = {}
        counts: Counter[str] = Counter()
        for reads, _, _ in self._habits(data, tests, extra):
            for text in reads:
                key = "".join(text.split())
                written.setdefault(key, text)
                counts[key] += 1
        return tuple(written[key] for key, _ in counts.most_common())

    def expected(self, data: bytes, tests: Iterable[TestMethod], extra: frozenset[str]) -> tuple[str, ...]:
        """The exception types ``tests`` expect, the most often expected (by tests) first."""
        counts = Counter(t for _, types, _ in self._habits(data, tests, extra) for t in types)
        return tuple(t for t, _ in counts.most_common())

    def first_checks(
        self, data: bytes, tests: Iterable[TestMethod], extra: frozenset[str]
    ) -> Counter[FirstCheck]:
        """How many of ``tests`` check first with each family and member path (:func:`first_check`)."""
        return Counter(first for _, _, first in self._habits(data, tests, extra) if first is not None)
