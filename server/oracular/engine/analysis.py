"""A test file analysed: which tests have an oracle, and the file's habits (what its tests assert
on, expect, check first, and check through), which the ranking of an oracle-free test reads."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from oracular.candidates.helpers import (
    HelperHabit,
)
from oracular.candidates.text import canonical_expression
from oracular.incremental import MemoKey, MethodKey, MethodKeys
from oracular.java.assertions import JUNIT_ORACLES
from oracular.java.declarations import ClassInfo, FileDeclarations
from oracular.java.junit import Flavour, TestMethod
from oracular.java.neighbours import FirstCheck, PathMemo
from oracular.java.oracle_statements import closing_calls
from oracular.java.oracles import HelperScope, OracleEvidence, find_oracle
from oracular.java.source import SourceText
from oracular.java.workspace import WorkspaceIndex

if TYPE_CHECKING:
    pass


FIRST_HABIT_TESTS = 3
FIRST_HABIT_SHARE = 0.5
"""A file's first-check habit (:attr:`FileAnalysis.first_habit`) is one of at least three of its
tests with an oracle, and of more than half of them."""


@dataclass(frozen=True)
class EvidenceKey(MemoKey):
    """A test's oracle evidence: it depends on the method and the file's facts alone."""


@dataclass(frozen=True)
class ReportKey(MemoKey):
    """A test's static report: also on what the file's other tests assert on, read, expect and
    check with (:mod:`oracular.java.neighbours`, :mod:`oracular.candidates.helpers`)."""

    asserted: frozenset[str]
    asserted_reads: tuple[str, ...]
    expected_exceptions: tuple[str, ...]
    own_helpers: float
    with_oracle: int
    helper_habits: tuple[HelperHabit, ...]
    first_habit: FirstCheck | None


@dataclass(frozen=True)
class ObservedReportKey(MemoKey):
    """A test's report ranked with what running its prefix showed: on the static report's inputs
    and on that observation (:meth:`~oracular.candidates.observed.TestObservation.fingerprint`;
    ``None``: none), or why there is none."""

    report: ReportKey
    observation: tuple | None
    unobserved: str | None


@dataclass
class TestStatus:
    test: TestMethod
    evidence: OracleEvidence | None
    incomplete: bool
    classes: list[ClassInfo] = field(default_factory=list)
    """The test's class, enclosing classes and their superclasses (see ``_class_scope``)."""

    @property
    def oracle_free(self) -> bool:
        return not self.incomplete and self.evidence is None


def is_junits(name: str, flavour: Flavour, scope: HelperScope) -> bool:
    """Whether a call by this name reaches JUnit's assertion: one of its names, unless the suite
    declares its own where JUnit's are static imports, which a method of the class shadows
    (commons-csv's CSVFormatTest has an ``assertNotEquals(right, left)`` that checks both ways).
    In a JUnit 3 class JUnit's are members too, and a suite's overload (xom's XOMTestCase's
    ``assertEquals(Element, Element)``) takes only the calls its types fit."""
    simple = name.rsplit(".", 1)[-1]
    return simple in JUNIT_ORACLES and (flavour is Flavour.JUNIT3 or not scope[name.removeprefix("this.")])


@dataclass
class FileAnalysis:
    source: SourceText
    decls: FileDeclarations
    statuses: list[TestStatus]
    extra_assertion_methods: frozenset[str] = frozenset()
    paths: PathMemo = field(default_factory=PathMemo)
    """The engine's, shared by the versions of a document."""
    index: WorkspaceIndex | None = None
    """Where the suite's helpers are found (:attr:`helper_habits`)."""
    method_keys: MethodKeys = field(default_factory=dict)
    """Each test's key in this version, where it was analysed with a memo (the editor): what its
    results computed later, off this analysis, are kept under (:class:`~oracular.incremental.KeptResults`)."""

    def method_key(self, test: TestMethod) -> MethodKey | None:
        return self.method_keys.get(test.node.id)

    @cached_property
    def asserted(self) -> frozenset[str]:
        """The member paths this version's tests with an oracle assert on
        (:mod:`oracular.java.neighbours`): read once, when a test is ranked."""
        tests = (s.test for s in self.statuses if s.evidence is not None)
        return self.paths.asserted(self.source.data, tests, self.extra_assertion_methods)

    @cached_property
    def asserted_reads(self) -> tuple[str, ...]:
        """The expressions this version's tests with an oracle assert on, those most tests assert
        on first (:mod:`oracular.java.file_reads`)."""
        tests = (s.test for s in self.statuses if s.evidence is not None)
        return self.paths.reads(self.source.data, tests, self.extra_assertion_methods)

    @cached_property
    def expected_exceptions(self) -> tuple[str, ...]:
        """The exception types this version's tests with an oracle expect, the most often first."""
        tests = (s.test for s in self.statuses if s.evidence is not None)
        return self.paths.expected(self.source.data, tests, self.extra_assertion_methods)

    @cached_property
    def first_habit(self) -> FirstCheck | None:
        """The family and member path (:func:`oracular.java.neighbours.first_check`) most of this
        version's tests with an oracle check first, if at least :data:`FIRST_HABIT_TESTS` and
        over :data:`FIRST_HABIT_SHARE` of them do."""
        tests = [s.test for s in self.statuses if s.evidence is not None]
        counts = self.paths.first_checks(self.source.data, tests, self.extra_assertion_methods)
        if not counts:
            return None
        habit, count = counts.most_common(1)[0]
        return habit if count >= FIRST_HABIT_TESTS and count > FIRST_HABIT_SHARE * len(tests) else None

    @cached_property
    def with_oracle(self) -> int:
        """How many of this version's tests have an oracle."""
        return sum(s.evidence is not None for s in self.statuses)

    @cached_property
    def helper_habits(self) -> tuple[HelperHabit, ...]:
        """The suite's assertion helpers this version's tests call, each counted once per test with
        an oracle that calls it, the one most tests check with first leading
        (:mod:`oracular.candidates.helpers`).

        Read from the calls, not the oracle evidence: a test calling ``assertOptionDetected`` and
        ``assertEquals`` has the latter as its evidence (the first by name), yet checks through both.
        Only the calls a test closes with count (:func:`~oracular.java.oracle_statements.closing_calls`):
        one that opens a test, or comes before its next action, prepares it.
        """
        if self.index is None:
            return ()
        asserting: dict[tuple[str, str], bool] = {}
        scopes: dict[str, HelperScope] = {}
        uses: Counter[str] = Counter()
        first: Counter[str] = Counter()
        passed: dict[str, set[tuple[int, str]]] = {}
        for status in self.statuses:
            if status.evidence is None:
                continue
            scope = scopes.get(status.test.class_name)
            if scope is None:
                scope = HelperScope(status.classes, self.index, self.decls.package, self.decls.imports)
                scopes[status.test.class_name] = scope
            checked = False
            for name, calls in closing_calls(status.test.node).items():
                key = (status.test.class_name, name.removeprefix("this."))
                if is_junits(name, status.test.flavour, scope):
                    checked = True  # the test checks with JUnit's first
                    continue
                if key not in asserting:
                    asserting[key] = any(
                        find_oracle(m, scope, self.extra_assertion_methods) is not None for m in scope[key[1]]
                    )
                if asserting[key]:
                    uses[key[1]] += 1
                    first[key[1]] += not checked
                    checked = True
                    found = passed.setdefault(key[1], set())
                    found.update((i, canonical_expression(a)) for call in calls for i, a in enumerate(call))
        # the one most tests check with first (commons-math's distribution tests close with
        # verifyDensities(), then the probabilities; joptsimple's tokenizer tests with
        # assertNextToken...(), then assertNoMoreTokens()), then the most used
        ranked = sorted(uses, key=lambda name: (first[name], uses[name]), reverse=True)
        return tuple(HelperHabit(name, uses[name], frozenset(passed[name]), first[name]) for name in ranked)

    @cached_property
    def own_helpers(self) -> float:
        """The share of this version's tests with an oracle that check through none of JUnit's own
        assertions (a helper of the suite, AssertJ, Hamcrest): Oracular writes JUnit's, so where
        the file's habit is another, its answer is less likely the one the developer would write."""
        reasons = [s.evidence.reason for s in self.statuses if s.evidence is not None]
        own = [
            r for r in reasons if not r.startswith("expected=") and r.rsplit(".", 1)[-1] not in JUNIT_ORACLES
        ]
        return len(own) / self.with_oracle if self.with_oracle else 0.0

    @property
    def report_key(self) -> ReportKey:
        """What an oracle-free test's report depends on in the rest of the file."""
        return ReportKey(
            self.asserted, self.asserted_reads, self.expected_exceptions, self.own_helpers, self.with_oracle,
            self.helper_habits, self.first_habit,
        )  # fmt: skip

    @property
    def oracle_free(self) -> list[TestStatus]:
        return [s for s in self.statuses if s.oracle_free]

    @property
    def skipped(self) -> list[TestStatus]:
        return [s for s in self.statuses if s.incomplete]
