"""The oracle engine: from a parsed test file to ranked, rendered oracles per oracle-free test.

Everything the CLI and the language server show comes from here, through two calls:
:meth:`OracleEngine.analyse` (cheap: which tests lack an oracle) and :meth:`OracleEngine.suggest`
(ranked oracles with their edits). Both are pure over one document version."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tree_sitter import Node

from oracular.candidates.equal_reads import equal_reads
from oracular.candidates.grammar import Candidate, build_candidates
from oracular.candidates.helpers import (
    HelperHabit,
    HelperOffer,
    callable_overloads,
    helper_candidates,
    helper_reads,
    named_by,
    resolve_lines,
    resolve_read_offs,
)
from oracular.candidates.merged import merge_observed
from oracular.candidates.observed import (
    FileObservation,
    ObservationPlan,
    Observer,
    TestObservation,
    observed_candidates,
    value_reads,
)
from oracular.candidates.render import Renderer
from oracular.candidates.style import FORCED_STYLES, AssertionStyle, junit4_supports_assert_throws, style_for
from oracular.candidates.type_names import TypeNamer
from oracular.candidates.values import (
    Value,
    load_global_dictionary,
    named_literals,
)
from oracular.engine.analysis import EvidenceKey, FileAnalysis, ObservedReportKey, TestStatus, is_junits
from oracular.engine.answers import decide_abstention
from oracular.engine.expected_values import expected_values
from oracular.engine.reports import FileReport, Suggestion, TestReport, moved_report
from oracular.engine.scope import class_scope, env_for_test, junit3_bases
from oracular.engine.settings import EngineSettings
from oracular.java.assertions import ASSERT_THROWS
from oracular.java.declarations import FileDeclarations, MethodInfo, extract, method_info
from oracular.java.junit import Flavour, file_flavour, find_test_methods
from oracular.java.neighbours import PathMemo
from oracular.java.oracles import HelperScope, find_oracle
from oracular.java.prefix import FocalMethod, PrefixAnalysis, analyse_prefix
from oracular.java.source import SourceText
from oracular.java.types import TypeEnv
from oracular.java.workspace import WorkspaceIndex
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.confidence import AnswerView
from oracular.ranking.features import candidate_features
from oracular.ranking.learned import LearnedRanker
from oracular.ranking.offering import flagged, offer
from oracular.ranking.pipeline import RankingPipeline
from oracular.ranking.problem import OracleProblem, Ranker
from oracular.ranking.scored import Ranked, RankingContext
from oracular.ranking.weights import RankingWeights

if TYPE_CHECKING:
    from oracular.incremental import KeptResults, MethodMemo, Reuse


class RankingCancelled(Exception):
    """Raised by :meth:`OracleEngine.suggest` when its caller no longer wants the result."""


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
        self._hand = RankingPipeline().without(self.settings.ablate)
        self._learned: tuple[LearnedRanker, RankingPipeline] | None = None
        self._paths = PathMemo()

    @property
    def learned(self) -> LearnedRanker | None:
        """The ranker's model's learned ranker, unless the settings ask for the hand-set steps."""
        return None if self.settings.ranking == "hand" else self.ranker.learned_ranker

    def learned_for(self, observed: bool) -> LearnedRanker | None:
        """The learned ranker where it was fitted for the test's mode (observed or not)."""
        model = self.learned
        return model if model is not None and model.covers(observed) else None

    def pipeline_for(self, model: LearnedRanker | None) -> RankingPipeline:
        """The pipeline of ``model`` (:meth:`learned_for` the test's mode), else the hand-set steps
        (less any ablated)."""
        if model is None:
            return self._hand
        if self._learned is None or self._learned[0] is not model:
            self._learned = (model, RankingPipeline.learned(model))
        return self._learned[1]

    @property
    def weights(self) -> RankingWeights:
        """The settings' weights, else the ranker's model's, else the defaults."""
        return self.settings.weights or self.ranker.ranking_weights or RankingWeights()

    def abstention_threshold(self, view: AnswerView | None = None) -> float:
        """The user's ``abstain_below`` if set, else, for ``view``'s mode (values observed or
        not), the learned ranker's threshold where it covers the mode, else the ranker's own."""
        if self.settings.abstain_below is not None:
            return self.settings.abstain_below
        if view is None:
            return self.ranker.abstain_below
        learned = self.learned_for(view.observed)
        if learned is not None:
            return learned.threshold(view.observed)
        return self.ranker.abstain_below_for(view)

    @property
    def ranker_fallback(self) -> str | None:
        """Why oracles are ranked by the baseline heuristic instead of the neural model, if they are.

        ``None`` when the model ranks (or is still loading), or when the caller chose the ranker.
        """
        return self.ranker.fallback_reason

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
        tests = find_test_methods(source, decls.imports, junit3_bases(self.index, decls))
        if memo is not None:
            memo.begin(source, tests, self.memo_context())
        statuses = []
        for test in tests:
            if test.is_incomplete:
                statuses.append(TestStatus(test, None, True))
                continue
            classes = class_scope(self.index, decls, test.class_name)
            if memo is not None and (reuse := memo.get(EvidenceKey(), test)) is not None:
                evidence = reuse.value
            else:
                scope = HelperScope(classes, self.index, decls.package, decls.imports)
                info = extracted.get((test.name, test.node.start_point[0])) or method_info(test.node)
                evidence = find_oracle(
                    info, scope, self.settings.extra_assertion_methods, test.expected_exception
                )
                if memo is not None:
                    memo.put(EvidenceKey(), test, evidence)
            statuses.append(TestStatus(test, evidence, False, classes))
        keys = memo.keys if memo is not None else {}
        return FileAnalysis(
            source, decls, statuses, self.settings.extra_assertion_methods, self._paths, self.index, keys
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

    def prefix_for(
        self, analysis: FileAnalysis, status: TestStatus, method: Node | None = None
    ) -> PrefixAnalysis | None:
        """Analyse ``method`` (default: the test itself) in the test's class scope.

        Corpus mining passes a synthesised method (a developer's test cut before its oracle),
        so that datasets are built by exactly the analysis the editor runs.
        """
        env = env_for_test(self.index, analysis, status)
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
        return expected_values(prefix, status, dictionary)

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
            self.index.resolve(name, decls.package, decls.imports, origin=cls.path)
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
            found = self.index.resolve(simple, origin=focal.cls.path if focal is not None else "")
            return found.qualified_name if found is not None else None

        return qualify

    def type_namer(self, analysis: FileAnalysis) -> TypeNamer:
        """How the test file spells a class an observed value names (an enum constant's type)."""
        decls = analysis.decls
        prefix = f"{decls.package}." if decls.package else ""
        tops = [c.name for c in decls.classes if c.qualified_name == prefix + c.name]
        env = TypeEnv(self.index, decls.package, decls.imports)
        return TypeNamer.of(env, tops[0] if len(tops) == 1 else None)

    def observed_candidates(
        self, analysis: FileAnalysis, prefix: PrefixAnalysis, observation: TestObservation
    ) -> list[Candidate]:
        """The candidates that hold now by construction: each target's observed value, the thrown
        type, two reads of the prefix's objects that agree (:mod:`oracular.candidates.equal_reads`)."""
        namer = self.type_namer(analysis)
        found: list[Candidate] = []
        if observation.thrown is not None:
            thrown = observation.thrown.replace("$", ".").removeprefix("java.lang.")
            found.append(Candidate("exception", ASSERT_THROWS, exception=thrown))
        for target in prefix.targets:
            value = observation.values.get(target.expression)
            if value is not None:
                found += observed_candidates(target, value, namer)
        return found + equal_reads(prefix.targets, observation)

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
        ran = observation if observation is not None and observation.ran else None
        if ran is not None:
            found = self.observed_candidates(analysis, prefix, ran)
            candidates = merge_observed(found, candidates, ran)
        ranking = self.ranker.rank(OracleProblem(test.name, prefix, candidates, analysis.asserted))
        context = self._ranking_context(analysis, status, prefix, ran, ranking.habits)
        learned = self.learned_for(ran is not None)
        ranked = self.pipeline_for(learned)(
            Ranked.of(candidates, ranking.scores, ranking.exception_probability), context
        )
        report = TestReport(
            test, prefix.focal, ranked.exception_probability, ranking.exception_type, False, [],
            observed=ran is not None,
        )  # fmt: skip
        if self.settings.record_features:
            judged = flagged(ranked, context)
            report.features = list(zip(judged.candidates, candidate_features(judged, context), strict=True))
        offered = offer(ranked, context, self.settings.top_k, tiers=learned is None)
        for rank, scored in enumerate(offered, start=1):
            rendered = renderer.render(scored.candidate, prefix, test.node)
            edits = [rendered.statement_edit, *renderer.import_edits(rendered.imports)]
            suggestion = Suggestion(rank, scored.score, scored.candidate, rendered, edits, scored.verdict)
            suggestion.possible_bug, suggestion.vacuous = scored.possible_bug, scored.vacuous
            report.suggestions.append(suggestion)
        self._decide(report, analysis, learned)
        if observation is not None and observation.thrown_before is not None:
            report.ended_early = observation.thrown_before
            report.reason = (
                f"the test throws {observation.thrown_before.rsplit('.', 1)[-1]} before its last "
                "statements, so no oracle at its end can hold"
            )
        return report, renderer

    def _decide(self, report: TestReport, analysis: FileAnalysis, model: LearnedRanker | None) -> None:
        """Whether to answer: the ranker's answer confidence, or the learned ranker's (``model``)
        top-1 probability against its threshold for the test's mode (the user's ``abstain_below``
        first)."""
        if model is None:
            decide_abstention(report, analysis, self.ranker.answer_confidence, self.abstention_threshold)
            return

        def top_probability(_view: AnswerView) -> float:  # read once there is a top-1
            return report.suggestions[0].score

        decide_abstention(report, analysis, top_probability, self.abstention_threshold)

    def _ranking_context(
        self,
        analysis: FileAnalysis,
        status: TestStatus,
        prefix: PrefixAnalysis,
        ran: TestObservation | None,
        ranker_weighed_habits: bool,
    ) -> RankingContext:
        """What the ranking steps read of one test: the file's habits, the run, the suite's helpers."""
        helpers = resolve_read_offs(self.helpers_for(analysis, status, prefix), ran)
        if any(h.candidate.lines_of is not None for h in helpers):  # the constants only then
            names = named_literals(prefix.env, status.classes)
            helpers = resolve_lines(helpers, ran, names)
        return RankingContext(
            prefix,
            self.weights,
            analysis.asserted,
            analysis.first_habit,
            analysis.expected_exceptions,
            ran,
            tuple(helpers),
            ranker_weighed_habits,
        )

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
        kind = analysis.report_key  # what else a report depends on
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
        learned = id(self.learned) if self.learned is not None else None
        return (
            id(self.ranker),
            self.settings,
            self.weights,
            learned,
            self.index.generation,
            str(self.project_root),
        )

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
                report, renderer = moved_report(reuse, status.test), None
            else:
                report, renderer = self.suggest_test(
                    analysis,
                    status,
                    junit4_assert_throws,
                    observation=observation.tests.get(status.test.line + 1),
                    prefix=prefixes[status.test.line],
                )
                report.unobserved = observation.unobserved(status.test.line + 1)
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
                offers = self.helpers_for(analysis, status, prefix)
                helpers = (h.candidate for h in offers if h.compares is None)  # no call before it ran
                reads = [
                    *prefix.targets, *value_reads(self.candidates_for(prefix, status)), *helper_reads(helpers)
                ]  # fmt: skip
                plans.append(
                    ObservationPlan(status.test, prefix, tuple(reads), analysis.method_key(status.test))
                )
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
        self,
        report: FileReport,
        observation: FileObservation,
        cancelled: Callable[[], bool] | None = None,
        kept: KeptResults | None = None,
    ) -> FileReport:
        """``report`` ranked again with ``observation`` (same document version, same tests).

        With ``kept`` (one document's, in the editor), a test whose method, file and observation
        are those of a ranking kept there is not ranked again: after an edit in one test of a file,
        the others' observed rankings are reused (:class:`~oracular.engine.analysis.ObservedReportKey`).
        Only this version's rankings stay in it (each holds its test's parse tree).
        """
        analysis = report.analysis
        statuses = self._statuses(report)
        kinds: dict[int, ObservedReportKey] = {}
        reused: dict[int, Reuse] = {}
        if kept is not None:
            report_key = analysis.report_key
            for status in statuses:
                line = status.test.line
                seen = observation.tests.get(line + 1)
                fingerprint = seen.fingerprint() if seen is not None else None
                why = observation.unobserved(line + 1)
                kinds[line] = kind = ObservedReportKey(report_key, fingerprint, why)
                if (reuse := kept.get(kind, analysis.method_key(status.test))) is not None:
                    reused[line] = reuse
        prefixes = {s.test.line: self.prefix_for(analysis, s) for s in statuses if s.test.line not in reused}
        reranked = self._report(analysis, statuses, prefixes, observation, cancelled, reused)
        if kept is not None:
            for status, test in zip(statuses, reranked.tests, strict=True):
                if status.test.line not in reused:
                    kept.put(kinds[status.test.line], analysis.method_key(status.test), test)
            kept.retain(analysis.method_keys.values())
        return reranked
