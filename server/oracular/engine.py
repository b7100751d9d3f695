"""The oracle engine: from a parsed test file to ranked, rendered oracles per oracle-free test.

Everything the CLI and the language server show comes from here, through two calls:
:meth:`OracleEngine.analyse` (cheap: which tests lack an oracle) and :meth:`OracleEngine.suggest`
(ranked oracles with their edits). Both are pure over one document version.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from tree_sitter import Node

from oracular.candidates.grammar import MAX_CANDIDATES, Candidate, build_candidates
from oracular.candidates.helpers import (
    HelperHabit,
    HelperOffer,
    callable_overloads,
    helper_candidates,
    helper_reads,
    named_by,
    resolve_lines,
)
from oracular.candidates.observed import (
    FileObservation,
    ObservationPlan,
    Observer,
    TestObservation,
    TypeNamer,
    Verdict,
    observed_candidates,
    value_reads,
)
from oracular.candidates.render import ImportLine, RenderedOracle, Renderer, TextEdit
from oracular.candidates.style import FORCED_STYLES, AssertionStyle, junit4_supports_assert_throws, style_for
from oracular.candidates.text import canonical_expression
from oracular.candidates.values import (
    Value,
    constant_values,
    global_values,
    imported_constants,
    load_global_dictionary,
    local_values,
    named_literals,
    plausible,
)
from oracular.java.assertions import ASSERT_THROWS, JUNIT_ORACLES
from oracular.java.declarations import ClassInfo, FileDeclarations, MethodInfo, extract, method_info
from oracular.java.junit import Flavour, TestMethod, file_flavour, find_test_methods
from oracular.java.neighbours import FirstCheck, PathMemo, member_path
from oracular.java.oracle_statements import closing_calls
from oracular.java.oracles import HelperScope, OracleEvidence, find_oracle
from oracular.java.prefix import FocalMethod, PrefixAnalysis, analyse_prefix
from oracular.java.source import SourceText
from oracular.java.targets import visible
from oracular.java.types import TypeEnv, split_generic, substitute
from oracular.java.workspace import WorkspaceIndex
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.confidence import VIEW_SIZE, AnswerView, Offered
from oracular.ranking.offering import offer
from oracular.ranking.pipeline import RankingPipeline
from oracular.ranking.problem import OracleProblem, Ranker
from oracular.ranking.scored import Ranked, RankingContext
from oracular.ranking.weights import RankingWeights

if TYPE_CHECKING:
    from oracular.incremental import MethodMemo, Reuse

GLOBAL_KEPT = 4
"""Global dictionary values kept for a target whose value was observed (see ``_merge``)."""
FIRST_HABIT_TESTS = 3
FIRST_HABIT_SHARE = 0.5
"""A file's first-check habit (:attr:`FileAnalysis.first_habit`) is one of at least three of its
tests with an oracle, and of more than half of them."""


class RankingCancelled(Exception):
    """Raised by :meth:`OracleEngine.suggest` when its caller no longer wants the result."""


@dataclass(frozen=True)
class EngineSettings:
    top_k: int = 5
    abstain_below: float | None = None
    """Below this answer confidence (:mod:`oracular.ranking.confidence`) the engine says "no
    confident oracle" instead of guessing; ``None``: the ranker's own threshold (the neural
    model's is chosen on dev projects for a stated top-1 precision, see ``models/MODEL_CARD.md``)."""
    assertion_style: str = "auto"
    """One of :data:`~oracular.candidates.style.ASSERTION_STYLES`: ``auto`` (from the file's imports),
    ``junit4`` or ``junit5``."""
    extra_assertion_methods: frozenset[str] = frozenset()
    weights: RankingWeights | None = None
    """The ranking pipeline's weights; ``None``: those saved with the ranker's model, else the
    hand-set defaults (:class:`~oracular.ranking.weights.RankingWeights`)."""
    ablate: frozenset[str] = frozenset()
    """Ranking steps left out, by name (:data:`~oracular.ranking.pipeline.STEP_NAMES`), to measure
    what each does (``oracular eval --realistic --ablate STEP``)."""


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
    def oracle_free(self) -> list[TestStatus]:
        return [s for s in self.statuses if s.oracle_free]

    @property
    def skipped(self) -> list[TestStatus]:
        return [s for s in self.statuses if s.incomplete]


@dataclass
class Suggestion:
    rank: int
    score: float
    candidate: Candidate
    rendered: RenderedOracle
    edits: list[TextEdit]
    """The statement edit followed by the import edits it needs."""
    verdict: Verdict | None = None
    """What the observed run says of it: ``holds`` or ``fails`` (with the value seen)."""
    possible_bug: bool = False
    """It fails now although the ranker was confident in it: the code may be wrong."""
    vacuous: bool = False
    """It cannot fail (``assertNotNull`` on a ``new`` object...): offered last."""

    @property
    def kind(self) -> str:
        return self.candidate.kind

    @property
    def oracle(self) -> str:
        return self.rendered.oracle

    @property
    def source(self) -> str:
        """Where the expected value came from (``observed``, ``literal``...), or the oracle's kind."""
        expected = self.candidate.expected
        return expected.source if expected is not None else self.kind

    @property
    def observed_holds(self) -> bool:
        """Running the test showed that this oracle holds on the code as it is."""
        return self.verdict is not None and self.verdict.status == "holds"

    def observed_summary(self) -> str | None:
        """``holds now (observed)``, ``fails now: was 2 — possible bug``, or ``None`` when unknown."""
        if self.verdict is None:
            return None
        if self.verdict.status == "holds":
            return "holds now (observed)"
        why = "possible bug" if self.possible_bug else "likely wrong guess"
        seen = self.verdict.observed
        seen = seen if seen.startswith(("threw ", "nothing thrown", "the helper")) else f"was {seen}"
        return f"fails now: {seen} — {why}"

    def to_json(self) -> dict:
        document = {
            "rank": self.rank,
            "kind": self.kind,
            "oracle": self.oracle,
            "score": round(self.score, 4),
            "source": self.source,
            "edits": [e.to_lsp() for e in self.edits],
        }
        if self.verdict is not None:
            document["observed"] = {
                "status": self.verdict.status,
                "value": self.verdict.observed,
                "possibleBug": self.possible_bug,
            }
        if self.vacuous:
            document["vacuous"] = True
        return document


@dataclass
class TestReport:
    test: TestMethod
    focal: FocalMethod | None
    exception_probability: float
    exception_type: str
    abstained: bool
    suggestions: list[Suggestion]
    reason: str | None = None
    """Why nothing is suggested (empty body, no target), when that is the case."""
    observed: bool = False
    """The test's prefix was run and its targets' values observed (see ``execution.observe``)."""
    confidence: float | None = None
    """How sure the ranker is of the top-1 (what abstention compares); ``None``: not asked,
    there is no top-1 that can fail."""
    view: AnswerView | None = None
    """What :attr:`confidence` was computed from (:mod:`oracular.ranking.confidence`)."""

    @property
    def line(self) -> int:
        """1-based line of the method name."""
        return self.test.line + 1

    @property
    def confident(self) -> bool:
        """Whether there is an oracle to offer as the answer: the editor inserts only these."""
        return not self.abstained and bool(self.suggestions)

    def to_json(self) -> dict:
        focal = None
        if self.focal is not None:
            focal = {
                "class": self.focal.cls.name,
                "method": self.focal.name,
                "signature": self.focal.signature,
                "path": self.focal.cls.path,
            }
        return {
            "method": self.test.name,
            "line": self.line,
            "focal": focal,
            "exception": {"probability": round(self.exception_probability, 4), "type": self.exception_type},
            "abstained": self.abstained,
            **({"confidence": round(self.confidence, 4)} if self.confidence is not None else {}),
            "observed": self.observed,
            "suggestions": [s.to_json() for s in self.suggestions],
        }


@dataclass
class FileReport:
    path: str
    tests: list[TestReport]
    analysis: FileAnalysis
    renderer: Renderer | None = None
    notes: list[str] = field(default_factory=list)
    """What the user should know about how the answers were made (why values were not observed)."""

    def to_json(self) -> dict:
        return {"file": self.path, "tests": [t.to_json() for t in self.tests], "notes": self.notes}

    def top_edits(self) -> list[TextEdit]:
        """The top-1 oracle of every non-abstaining test, with their imports merged."""
        edits: list[TextEdit] = []
        imports: set[ImportLine] = set()
        for report in self.tests:
            if not report.confident:
                continue
            edits.append(report.suggestions[0].rendered.statement_edit)
            imports |= report.suggestions[0].rendered.imports
        if self.renderer is not None:
            edits = self.renderer.import_edits(imports) + edits
        return edits


class OracleEngine:
    """Finds oracle-free tests and ranks oracles for them, over a workspace index."""

    def __init__(
        self,
        index: WorkspaceIndex | None = None,
        ranker: Ranker | None = None,
        settings: EngineSettings | None = None,
        project_root: Path | None = None,
        global_dictionary: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.index = index or WorkspaceIndex()
        self.ranker = ranker or BaselineRanker()
        self.settings = settings or EngineSettings()
        self.project_root = project_root
        self.global_dictionary = global_dictionary
        """``None``: the shipped ``models/global_dictionary.json`` (re-mined with the corpus)."""
        self.pipeline = RankingPipeline().without(self.settings.ablate)
        self._paths = PathMemo()

    @property
    def weights(self) -> RankingWeights:
        """The settings' weights, else the ranker's model's, else the defaults."""
        return self.settings.weights or self.ranker.ranking_weights or RankingWeights()

    def abstention_threshold(self, view: AnswerView | None = None) -> float:
        """The user's ``abstain_below`` if set, else the ranker's own (for ``view``'s mode, where
        given: values observed or not)."""
        if self.settings.abstain_below is not None:
            return self.settings.abstain_below
        return self.ranker.abstain_below_for(view) if view is not None else self.ranker.abstain_below

    @property
    def ranker_fallback(self) -> str | None:
        """Why oracles are ranked by the baseline heuristic instead of the neural model, if they are.

        ``None`` when the model ranks (or is still loading), or when the caller chose the ranker.
        """
        return self.ranker.fallback_reason

    # -- oracle detection -------------------------------------------------------------------
    def _junit3_bases(self, decls: FileDeclarations) -> frozenset[str]:
        bases = set()
        for cls in decls.classes:
            for ancestor in self.index.superclasses(cls):
                if (ancestor.superclass or "").split("<")[0].endswith("TestCase"):
                    bases.add((cls.superclass or "").split("<")[0].rsplit(".", 1)[-1])
        return frozenset(bases)

    def _class_scope(self, decls: FileDeclarations, class_name: str) -> list[ClassInfo]:
        """The test's class, its enclosing classes, and all their workspace superclasses."""
        prefix = f"{decls.package}." if decls.package else ""
        by_dotted = {c.qualified_name.removeprefix(prefix): c for c in decls.classes}
        parts = class_name.split(".")
        chain = [
            by_dotted[".".join(parts[:i])]
            for i in range(len(parts), 0, -1)
            if ".".join(parts[:i]) in by_dotted
        ]
        scope = list(chain)
        for cls in chain:
            scope += list(self.index.superclasses(cls))
        return scope

    def analyse(self, source: SourceText, memo: MethodMemo | None = None) -> FileAnalysis:
        """Which tests have no oracle. Cheap: parsing and tree walks only.

        ``memo`` (:mod:`oracular.incremental`) is begun on this version's tests, and the oracle
        verdicts of the tests that did not change are taken from it.
        """
        path = str(source.path) if source.path else ""
        decls = extract(source, path, openings=False)  # a test file: no guards of its own are walked
        # ``extract`` already read every method body; reading each test's again cost about a
        # fifth of the analysis (the editor re-analyses on every pause in typing).
        extracted: dict[tuple[str, int], MethodInfo | None] = {}
        for cls in decls.classes:
            for info in cls.methods:
                key = (info.name, info.line)
                extracted[key] = None if key in extracted else info  # same name and line: ambiguous
        tests = find_test_methods(source, decls.imports, self._junit3_bases(decls))
        if memo is not None:
            memo.begin(source, tests, self.memo_context())
        statuses = []
        for test in tests:
            if test.is_incomplete:
                statuses.append(TestStatus(test, None, True))
                continue
            classes = self._class_scope(decls, test.class_name)
            if memo is not None and (reuse := memo.get("oracle", test)) is not None:
                evidence = reuse.value
            else:
                scope = HelperScope(classes, self.index, decls.package, decls.imports)
                info = extracted.get((test.name, test.node.start_point[0])) or method_info(test.node)
                evidence = find_oracle(
                    info, scope, self.settings.extra_assertion_methods, test.expected_exception
                )
                if memo is not None:
                    memo.put("oracle", test, evidence)
            statuses.append(TestStatus(test, evidence, False, classes))
        return FileAnalysis(
            source, decls, statuses, self.settings.extra_assertion_methods, self._paths, self.index
        )

    # -- suggestions ------------------------------------------------------------------------
    def style_for(
        self, decls: FileDeclarations, flavour: Flavour, junit4_assert_throws: bool
    ) -> AssertionStyle:
        forced = self.settings.assertion_style
        if forced in FORCED_STYLES and flavour is not Flavour.JUNIT3:
            flavour = Flavour(forced)
        elif flavour is not Flavour.JUNIT3:
            flavour = file_flavour(decls.imports) or flavour
        return style_for(flavour, junit4_assert_throws=junit4_assert_throws)

    def env_for(self, analysis: FileAnalysis, status: TestStatus) -> TypeEnv:
        """What a test's body can see: its class scope's fields, the file's imports, the workspace.

        No locals yet: :func:`~oracular.java.prefix.collect_locals` adds them.
        """
        decls = analysis.decls
        own = status.classes[0].qualified_name if status.classes else ""
        env = TypeEnv(self.index, decls.package, decls.imports, scope=own)
        bindings = self._type_bindings(status.classes)
        for cls in reversed(status.classes):
            mapping = bindings.get(cls.qualified_name, {})
            enclosing = own == cls.qualified_name or own.startswith(f"{cls.qualified_name}.")
            # a superclass's private fields are not the test's (commons-math3's abstract test
            # classes keep `cumulativeTestValues` private: `cumulativeTestValues.length` did not
            # compile); its protected ones are, wherever it lives
            fields = {
                name: f
                for name, f in cls.fields.items()
                if enclosing or visible(cls, f.modifiers, decls.package, inherited=True)
            }
            env.fields.update({name: substitute(f.type, mapping) for name, f in fields.items()})
            env.instance_fields.update(name for name, f in fields.items() if "static" not in f.modifiers)
            for method in cls.methods:
                env.helpers[method.name] = env.helpers.get(method.name, frozenset()) | method.handed
        literals = (text for cls in status.classes for m in cls.methods for text in m.set_up_literals)
        env.set_up_literals = list(dict.fromkeys(literals))
        return env

    def _type_bindings(self, classes: list[ClassInfo]) -> dict[str, dict[str, str]]:
        """Each superclass's type variables as the test class's ``extends`` binds them: args4j's
        ``AtOptionTest extends Args4JTestBase<AtOption>`` makes the inherited fixture ``T testObject``
        an ``AtOption``, whose fields and observers are then targets like any other's."""
        found: dict[str, dict[str, str]] = {}
        for cls in classes:
            mapping = found.get(cls.qualified_name, {})
            current = cls
            for parent in self.index.superclasses(cls):
                _, args = split_generic(substitute(current.superclass or "", mapping))
                mapping = (
                    dict(zip(parent.type_params, args, strict=True))
                    if len(args) == len(parent.type_params)
                    else {}
                )
                found.setdefault(parent.qualified_name, mapping)
                current = parent
        return found

    def prefix_for(
        self, analysis: FileAnalysis, status: TestStatus, method: Node | None = None
    ) -> PrefixAnalysis | None:
        """Analyse ``method`` (default: the test itself) in the test's class scope.

        Corpus mining passes a synthesised method (a developer's test cut before its oracle),
        so that datasets are built by exactly the analysis the editor runs.
        """
        env = self.env_for(analysis, status)
        method = method if method is not None else status.test.node
        return analyse_prefix(
            method, env, status.test.class_name, analysis.expected_exceptions, analysis.asserted_reads
        )

    def values_for(
        self,
        prefix: PrefixAnalysis,
        status: TestStatus,
        dictionary: dict[str, tuple[str, ...]] | None = None,
    ) -> dict[str, list[Value]]:
        """Expected values per target; ``dictionary`` overrides the engine's global dictionary."""
        if dictionary is None:
            dictionary = self.global_dictionary
        if dictionary is None:
            dictionary = load_global_dictionary()
        test_constants = [
            Value(name, f.type, "constant", rank)
            for rank, (name, f) in enumerate(
                (name, f) for cls in status.classes for name, f in cls.fields.items() if f.is_constant
            )
        ]
        test_constants += imported_constants(prefix.env)
        classes = [prefix.focal.cls] if prefix.focal else []
        values_for: dict[str, list[Value]] = {}
        for target in prefix.targets:
            owners = list(classes)
            if target.type:
                owner = prefix.env.resolve_class(target.type)
                if owner is not None and owner not in owners:
                    owners.append(owner)
            values = local_values(prefix.statements, prefix.env, target)
            values += constant_values(owners) + test_constants
            if target.type:
                values += global_values(target.type, dictionary)
            values_for[target.expression] = plausible(target, values)
        return values_for

    def candidates_for(
        self,
        prefix: PrefixAnalysis,
        status: TestStatus,
        dictionary: dict[str, tuple[str, ...]] | None = None,
    ) -> list[Candidate]:
        """The candidate set a ranker is given for ``prefix`` (``dictionary`` as in :meth:`values_for`)."""
        return build_candidates(
            prefix.targets, self.values_for(prefix, status, dictionary), prefix.exception_types()
        )

    def helpers_for(
        self, analysis: FileAnalysis, status: TestStatus, prefix: PrefixAnalysis
    ) -> list[HelperOffer]:
        """Calls of the file's own assertion helpers, scored (:mod:`oracular.candidates.helpers`):
        those its tests check with, and those of the test's class the test's name names, which no
        other test may call (xmlunit's ``testCompareComment`` alone calls ``assertDifferentComments``)."""
        decls = analysis.decls
        scope = HelperScope(status.classes, self.index, decls.package, decls.imports)
        named = named_by(status.test.name)
        tests = {s.test.name for s in analysis.statuses}
        known = {h.name for h in analysis.helper_habits}
        extra = self.settings.extra_assertion_methods
        unused = {
            m.name: HelperHabit(m.name, 0)
            for cls in status.classes
            for m in callable_overloads(cls.methods)
            if m.name not in known and m.name not in tests and named(m.name)
            and not is_junits(m.name, status.test.flavour, scope)
            and find_oracle(m, scope, extra) is not None
        }  # fmt: skip
        habits = (*analysis.helper_habits, *unused.values())
        if not habits:
            return []
        # the test class's constants, and those of the interfaces it implements (xmlunit's tests
        # implement DifferenceConstants to name COMMENT_VALUE)
        interfaces = (
            self.index.resolve(name, decls.package, decls.imports)
            for cls in status.classes
            for name in cls.interfaces
        )
        owners = [*status.classes, *(i for i in interfaces if i is not None)]
        constants = [(name, f.type) for cls in owners for name, f in cls.fields.items() if f.is_constant]
        weights = self.weights
        return helper_candidates(
            habits, analysis.with_oracle, scope, prefix, constants, status.test.name,
            weights.call_decay, weights.named_helper_share,
        )  # fmt: skip

    def _qualifier(self, focal: FocalMethod | None):
        def qualify(simple: str) -> str | None:
            if focal is not None:
                for imp in self.index.imports_of(focal.cls):
                    if not imp.is_static and imp.simple == simple:
                        return imp.name
            found = self.index.resolve(simple)
            return found.qualified_name if found is not None else None

        return qualify

    def type_namer(self, analysis: FileAnalysis) -> TypeNamer:
        """How the test file spells a class an observed value names (an enum constant's type)."""
        decls = analysis.decls
        explicit = [i.name for i in decls.imports if not i.is_static and not i.is_wildcard]
        env = TypeEnv(self.index, decls.package, decls.imports)
        return TypeNamer(decls.package, explicit, lambda simple: env.resolve_class(simple) is not None)

    def observed_candidates(
        self, analysis: FileAnalysis, prefix: PrefixAnalysis, observation: TestObservation
    ) -> list[Candidate]:
        """The candidates that hold now by construction: each target's observed value, the thrown type."""
        namer = self.type_namer(analysis)
        found: list[Candidate] = []
        if observation.thrown is not None:
            thrown = observation.thrown.replace("$", ".").removeprefix("java.lang.")
            found.append(Candidate("exception", ASSERT_THROWS, exception=thrown))
        for target in prefix.targets:
            value = observation.values.get(target.expression)
            if value is not None:
                found += observed_candidates(target, value, namer)
        return found

    def renderer_for(
        self,
        analysis: FileAnalysis,
        flavour: Flavour,
        junit4_assert_throws: bool = False,
        focal: FocalMethod | None = None,
    ) -> Renderer:
        """A renderer for one test of ``analysis``: its framework's style, exception imports via ``focal``."""
        decls = analysis.decls
        style = self.style_for(decls, flavour, junit4_assert_throws)
        return Renderer(analysis.source, style, decls.imports, decls.package, self._qualifier(focal))

    def suggest_test(
        self,
        analysis: FileAnalysis,
        status: TestStatus,
        junit4_assert_throws: bool = False,
        method: Node | None = None,
        observation: TestObservation | None = None,
        prefix: PrefixAnalysis | None = None,
    ) -> tuple[TestReport, Renderer]:
        """Ranked oracles for one test; ``method`` replaces its body (see :meth:`prefix_for`).

        A ``method`` parsed from a copy of the document cut after some statement keeps that
        statement's byte offsets, so the edits still apply to the real document (the quality
        checks rank oracles for a call's discarded result this way). With an ``observation`` of
        the running prefix, its values join the candidates and every candidate is told to hold
        or fail now. The ranker's scores go through the ranking pipeline's steps
        (:mod:`oracular.ranking.pipeline`), then the offering (:mod:`oracular.ranking.offering`).
        """
        test = status.test
        prefix = prefix or self.prefix_for(analysis, status, method)
        renderer = self.renderer_for(
            analysis, test.flavour, junit4_assert_throws, prefix.focal if prefix else None
        )
        if prefix is None:
            return TestReport(
                test, None, 0.0, "Exception", True, [], reason="the test body is empty"
            ), renderer
        candidates = self.candidates_for(prefix, status)
        observed = observation is not None and observation.ran
        if observed:
            assert observation is not None
            found = self.observed_candidates(analysis, prefix, observation)
            candidates = _merge(found, candidates, observation)
        ranking = self.ranker.rank(OracleProblem(test.name, prefix, candidates, analysis.asserted))
        helpers = self.helpers_for(analysis, status, prefix)
        if any(h.candidate.lines_of is not None for h in helpers):  # the constants only then
            names = named_literals(prefix.env, status.classes)
            helpers = resolve_lines(helpers, observation if observed else None, names)
        context = RankingContext(
            prefix,
            self.weights,
            analysis.asserted,
            analysis.first_habit,
            analysis.expected_exceptions,
            observation if observed else None,
            tuple(helpers),
            ranking.habits,
        )
        ranked = self.pipeline(Ranked.of(candidates, ranking.scores, ranking.exception_probability), context)
        report = TestReport(
            test, prefix.focal, ranked.exception_probability, ranking.exception_type, False, [],
            observed=observed,
        )  # fmt: skip
        for rank, scored in enumerate(offer(ranked, context, self.settings.top_k), start=1):
            rendered = renderer.render(scored.candidate, prefix, test.node)
            edits = [rendered.statement_edit, *renderer.import_edits(rendered.imports)]
            suggestion = Suggestion(rank, scored.score, scored.candidate, rendered, edits, scored.verdict)
            suggestion.possible_bug, suggestion.vacuous = scored.possible_bug, scored.vacuous
            report.suggestions.append(suggestion)
        self._decide_abstention(report, analysis)
        if observation is not None and observation.thrown_before is not None:
            report.reason = (
                f"the test throws {observation.thrown_before.rsplit('.', 1)[-1]} before its last "
                "statements, so no oracle at its end can hold"
            )
        return report, renderer

    def _decide_abstention(self, report: TestReport, analysis: FileAnalysis) -> None:
        """Offer the top oracle when it can fail and the ranker is confident enough in it."""
        top = report.suggestions[0] if report.suggestions else None
        if top is None:
            report.abstained = True
            return
        if top.vacuous:
            report.abstained = True
            report.reason = "no oracle that can fail (only vacuous ones hold)"
            return
        report.view = answer_view(report, analysis)
        report.confidence = self.ranker.answer_confidence(report.view)
        threshold = self.abstention_threshold(report.view)
        if report.confidence < threshold:
            report.abstained = True
            report.reason = f"no confident oracle (confidence {report.confidence:.2f} < {threshold:.2f})"

    def suggest(
        self,
        source: SourceText,
        line: int | None = None,
        cancelled: Callable[[], bool] | None = None,
        observer: Observer | None = None,
        memo: MethodMemo | None = None,
    ) -> FileReport:
        """Ranked oracles for every oracle-free test (or the one containing 1-based ``line``).

        ``cancelled`` is polled between tests, so an editor that has moved on to a newer version
        of a large file stops paying for the old one (:class:`RankingCancelled` is raised).
        ``observer``, when given, runs the tests' prefixes first (:meth:`plans`), so that the
        ranking sees their values. An editor does the same in two steps, a static report at once,
        then :meth:`rerank` with the observation when it arrives.

        ``memo`` (see :mod:`oracular.incremental` and :meth:`analyse`) keeps the static report of
        each test and hands back those of unchanged tests instead of ranking
        them again; it is for static ranking only (an ``observer`` changes the candidates).
        """
        self.ranker.preload()  # a model loads in the background while the file is analysed
        analysis = self.analyse(source, memo)
        chosen = [s for s in analysis.oracle_free if line is None or s.test.spans_line(line)]
        # a report depends on what the other tests assert and expect too (java/neighbours.py)
        habits = (
            analysis.asserted, analysis.expected_exceptions, analysis.own_helpers, analysis.with_oracle,
            analysis.helper_habits, analysis.first_habit,
        )  # fmt: skip
        habits = hash(habits)
        kind = f"report {habits}" if chosen else "report"
        reused = {s.test.line: r for s in chosen if memo is not None and (r := memo.get(kind, s.test))}
        prefixes = {s.test.line: self.prefix_for(analysis, s) for s in chosen if s.test.line not in reused}
        observation = FileObservation()
        if observer is not None and (plans := self._plans(analysis, chosen, prefixes)):
            observation = observer.observe(analysis.source, plans, cancelled)
        report = self._report(analysis, chosen, prefixes, observation, cancelled, reused)
        if memo is not None:
            for status, test in zip(chosen, report.tests, strict=True):
                memo.put(kind, status.test, test)
        return report

    def memo_context(self) -> tuple:
        """What a test's results depend on outside its file (:meth:`MethodMemo.begin`'s context)."""
        return (id(self.ranker), self.settings, self.index.generation, str(self.project_root))

    def _report(
        self,
        analysis: FileAnalysis,
        statuses: list[TestStatus],
        prefixes: dict[int, PrefixAnalysis | None],
        observation: FileObservation,
        cancelled: Callable[[], bool] | None = None,
        reused: dict[int, Reuse] | None = None,
    ) -> FileReport:
        # Read the build file once per document, not once per test.
        junit4_assert_throws = junit4_supports_assert_throws(self.project_root, analysis.source.text)
        reports = []
        renderer = None
        for status in statuses:
            if cancelled is not None and cancelled():
                raise RankingCancelled
            if reused is not None and (reuse := reused.get(status.test.line)) is not None:
                report, renderer = _moved(reuse, status.test), None
            else:
                report, renderer = self.suggest_test(
                    analysis,
                    status,
                    junit4_assert_throws,
                    observation=observation.tests.get(status.test.line + 1),
                    prefix=prefixes[status.test.line],
                )
            reports.append(report)
        if renderer is None and reports:
            last = reports[-1]
            renderer = self.renderer_for(analysis, last.test.flavour, junit4_assert_throws, last.focal)
        path = str(analysis.source.path or "")
        return FileReport(path, reports, analysis, renderer, list(observation.notes))

    def _plans(
        self, analysis: FileAnalysis, statuses: list[TestStatus], prefixes: dict[int, PrefixAnalysis | None]
    ) -> list[ObservationPlan]:
        plans = []
        for status in statuses:
            prefix = prefixes.get(status.test.line)
            if prefix is not None:  # with no target at all, running it still says whether it throws
                helpers = (h.candidate for h in self.helpers_for(analysis, status, prefix))
                reads = [
                    *prefix.targets, *value_reads(self.candidates_for(prefix, status)), *helper_reads(helpers)
                ]  # fmt: skip
                plans.append(ObservationPlan(status.test, prefix, tuple(reads)))
        return plans

    def _statuses(self, report: FileReport) -> list[TestStatus]:
        """The analysis statuses of ``report``'s tests, in its order."""
        by_node = {s.test.node.id: s for s in report.analysis.statuses}
        return [by_node[t.test.node.id] for t in report.tests]

    def plans(self, report: FileReport) -> list[ObservationPlan]:
        """What to run and read for ``report``'s tests: their prefixes, targets and expected values."""
        statuses = self._statuses(report)
        prefixes = {s.test.line: self.prefix_for(report.analysis, s) for s in statuses}
        return self._plans(report.analysis, statuses, prefixes)

    def observe(
        self,
        observer: Observer,
        analysis: FileAnalysis,
        statuses: list[TestStatus],
        prefixes: dict[int, PrefixAnalysis | None],
        cancelled: Callable[[], bool] | None = None,
    ) -> FileObservation:
        """Run the prefixes of ``statuses`` and read their targets (tests without a prefix skipped)."""
        plans = self._plans(analysis, statuses, prefixes)
        return observer.observe(analysis.source, plans, cancelled) if plans else FileObservation()

    def rerank(
        self, report: FileReport, observation: FileObservation, cancelled: Callable[[], bool] | None = None
    ) -> FileReport:
        """``report`` ranked again with ``observation`` (same document version, same tests)."""
        statuses = self._statuses(report)
        prefixes = {s.test.line: self.prefix_for(report.analysis, s) for s in statuses}
        return self._report(report.analysis, statuses, prefixes, observation, cancelled)


def answer_view(report: TestReport, analysis: FileAnalysis) -> AnswerView:
    """What the answer confidence reads of a ranked test (:mod:`oracular.ranking.confidence`)."""
    expected = {_simple(e) for e in analysis.expected_exceptions}

    def habit(candidate: Candidate) -> bool:
        """The file's other tests assert on its member path, or expect its exception type."""
        if candidate.kind == "exception":
            return _simple(candidate.exception) in expected
        if candidate.kind == "helper":
            return True  # offered only as the file's habit
        target = candidate.target
        return target is not None and member_path(target.expression) in analysis.asserted

    offered = tuple(
        Offered(
            s.score,
            s.kind,
            s.candidate.assertion,
            s.candidate.expected.source if s.candidate.expected is not None else None,
            s.candidate.target.expression if s.candidate.target is not None else None,
            s.verdict.status if s.verdict is not None else None,
            habit(s.candidate),
        )
        for s in report.suggestions[:VIEW_SIZE]
    )
    return AnswerView(
        report.observed, report.exception_probability, offered, analysis.own_helpers, analysis.with_oracle
    )


def _moved(reuse: Reuse, test: TestMethod) -> TestReport:
    """A kept static report for ``test`` of a new version, its edits moved with the method."""
    kept: TestReport = reuse.value
    suggestions = [
        replace(
            s,
            rendered=replace(s.rendered, statement_edit=reuse.edit(s.rendered.statement_edit)),
            edits=[reuse.edit(e) for e in s.edits],
        )
        for s in kept.suggestions
    ]
    return replace(kept, test=test, suggestions=suggestions)


def _merge(first: list[Candidate], then: list[Candidate], observation: TestObservation) -> list[Candidate]:
    """``first`` (observed, all kept) then ``then`` without duplicates, capped as the grammar caps.

    A target whose value was observed keeps the static values the test or the unit suggest (its
    literals, variables, constants) and the global dictionary's :data:`GLOBAL_KEPT` most common
    values, any of which the ranker may expect confidently against the observation (a possible
    bug); its rarer global values are guesses the observation has made moot, and ranking them
    costs time (every candidate is a pass of the model).
    """
    seen = {c.key for c in first}
    merged = list(first)
    thrown = {_simple(c.exception) for c in first if c.kind == "exception"}
    exceptions = [c for c in then if c.kind == "exception" and _simple(c.exception) not in thrown]
    room = MAX_CANDIDATES - len(merged) - len(exceptions)
    for candidate in then:
        moot = (
            candidate.expected is not None
            and candidate.expected.source == "global"
            and candidate.expected.rank >= GLOBAL_KEPT
            and candidate.target is not None
            and candidate.target.expression in observation.values
        )
        if candidate.kind == "assertion" and candidate.key not in seen and room > 0 and not moot:
            seen.add(candidate.key)
            merged.append(candidate)
            room -= 1
    return merged + exceptions


def _simple(exception: str | None) -> str:
    return (exception or "Exception").rsplit(".", 1)[-1]
