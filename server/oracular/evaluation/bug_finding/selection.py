"""Which developer tests the bug-finding evaluation runs, and what each ranker suggests for them.

Every developer test of the compiled test files is cut before its first oracle
(:mod:`oracular.corpus.devtests`) in an oracle-free copy of its file, which the engine answers
as it answers the editor: once per ranker, and once more with the prefixes' values observed.
A test is eligible when its focal method is in the main sources (the mutants are made there);
``max_tests`` of the eligible ones are sampled (seeded).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from oracular.candidates.observed import FileObservation, TestObservation
from oracular.candidates.style import junit4_supports_assert_throws
from oracular.corpus.devtests import DevTest, cut_file, find_status, oracle_free_copy
from oracular.engine import EngineSettings, FileAnalysis, OracleEngine, Suggestion, TestReport, TestStatus
from oracular.evaluation.bug_finding.records import CHECK_TOP_K, OBSERVED, Selected, TestFile
from oracular.evaluation.build import Build
from oracular.execution.observe import ValueObserver
from oracular.execution.scratch import binary_class_name
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.ranking.problem import Ranker


def select_tests(
    root: Path,
    rankers: Sequence[tuple[str, Ranker]],
    observer: ValueObserver | None,
    build: Build,
    max_tests: int,
    seed: int,
    counts: Counter[str],
) -> list[TestFile]:
    """The sampled tests, grouped by file (files by path, tests in file order); ``counts`` tallies
    the tests met, cut, observed, dropped (and why), eligible and selected."""
    selector = _Selector(root, rankers, observer, build, counts)
    eligible = [pair for path in build.test_files for pair in selector.eligible_tests(path)]
    counts["tests_eligible"] = len(eligible)
    rng = random.Random(seed)
    chosen = eligible if len(eligible) <= max_tests else rng.sample(eligible, max_tests)
    by_file: dict[Path, TestFile] = {}
    for test_file, selected in chosen:
        by_file.setdefault(test_file.path, test_file).tests.append(selected)
    files = sorted(by_file.values(), key=lambda f: str(f.path))
    for test_file in files:
        test_file.tests.sort(key=lambda s: s.index)
    counts["tests_selected"] = len(chosen)
    counts["test_files_selected"] = len(files)
    return files


class _Selector:
    """One engine per ranker over the project. The first ranker's engine keeps its top-K (the
    checked row picks among them) and also analyses, cuts and observes."""

    def __init__(
        self,
        root: Path,
        rankers: Sequence[tuple[str, Ranker]],
        observer: ValueObserver | None,
        build: Build,
        counts: Counter[str],
    ) -> None:
        index = WorkspaceIndex([root])
        index.refresh()
        self.engines = {
            label: OracleEngine(
                index, ranker, EngineSettings(top_k=CHECK_TOP_K if i == 0 else 1, abstain_below=0.0), root
            )
            for i, (label, ranker) in enumerate(rankers)
        }
        self.first = next(iter(self.engines.values()))
        self.root = root
        self.observer = observer
        self.main_files = {p.resolve() for p in build.main_files}
        self.counts = counts

    def eligible_tests(self, path: Path) -> list[tuple[TestFile, Selected]]:
        """The file's tests cut before an oracle whose focal method is in the main sources."""
        try:
            source = load_source(path, lenient=True)
        except SourceError:
            return []
        analysis = self.first.analyse(source)
        cuts = cut_file(self.first, analysis)
        self.counts["tests"] += len(analysis.statuses)
        self.counts["tests_cut"] += len(cuts)
        if not cuts:
            return []
        copy = oracle_free_copy(source, analysis, cuts)
        test_file = TestFile(path, copy, self.first.analyse(copy))
        assert_throws = junit4_supports_assert_throws(self.root, copy.text)
        observed = self._observe(test_file.analysis, cuts)
        eligible = []
        for i, cut in enumerate(cuts):
            status = find_status(test_file.analysis, cut)
            if status is None or not status.oracle_free:
                self.counts["cut_not_oracle_free"] += 1
                continue
            observation = observed.tests.get(status.test.line + 1)
            selected = self._suggest(test_file.analysis, cut, i, status, observation, assert_throws)
            if selected is not None:
                eligible.append((test_file, selected))
        return eligible

    def _observe(self, analysis: FileAnalysis, cuts: Sequence[DevTest]) -> FileObservation:
        """The cut tests' prefixes run as the editor runs them (:mod:`oracular.execution.observe`)."""
        if self.observer is None:
            return FileObservation()
        statuses = [s for cut in cuts if (s := find_status(analysis, cut)) is not None and s.oracle_free]
        prefixes = {s.test.line: self.first.prefix_for(analysis, s) for s in statuses}
        return self.first.observe(self.observer, analysis, statuses, prefixes)

    def _suggest(
        self,
        analysis: FileAnalysis,
        cut: DevTest,
        index: int,
        status: TestStatus,
        observation: TestObservation | None,
        assert_throws: bool,
    ) -> Selected | None:
        """Each ranker's answer for one cut test; ``None`` when its focal method is not in the
        main sources (no mutant could tell its oracles apart)."""
        tops: dict[str, Suggestion | None] = {}
        if observation is not None:
            report, _renderer = self.first.suggest_test(
                analysis, status, assert_throws, observation=observation
            )
            tops[OBSERVED] = _top(report)
            self.counts["tests_observed"] += observation.ran
        reports = {
            label: engine.suggest_test(analysis, status, assert_throws)[0]
            for label, engine in self.engines.items()
        }
        tops |= {label: _top(report) for label, report in reports.items()}
        focal = next((r.focal for r in reports.values() if r.focal is not None), None)
        if focal is None or focal.cls.path is None or Path(focal.cls.path).resolve() not in self.main_files:
            self.counts["focal_not_in_main"] += 1
            return None
        top_class = focal.cls.qualified_name.removeprefix(f"{focal.cls.package}.").split(".")[0]
        return Selected(
            cut,
            index,
            tops,
            focal_path=Path(focal.cls.path).resolve(),
            focal_class=binary_class_name(focal.cls.package, top_class),
            target=self._target(analysis, status, [tops[label] for label in reports]),
            candidates=next((list(r.suggestions) for r in reports.values() if r.suggestions), []),
        )

    def _target(
        self, analysis: FileAnalysis, status: TestStatus, tops: Sequence[Suggestion | None]
    ) -> str | None:
        """What the regression oracle records: the first ranker's top-1 target (else the next
        ranker's), else the prefix's own first target."""
        for top in tops:
            if top is not None and top.candidate.target is not None:
                return top.candidate.target.expression
        prefix = self.first.prefix_for(analysis, status)
        return prefix.targets[0].expression if prefix is not None and prefix.targets else None


def _top(report: TestReport) -> Suggestion | None:
    return report.suggestions[0] if report.suggestions else None
