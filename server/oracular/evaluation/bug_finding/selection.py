"""Which developer tests the bug-finding evaluation runs, and what each ranker suggests for them.

Every developer test of the compiled test files is cut before its first oracle
(:mod:`oracular.corpus.devtests`) in an oracle-free copy of its file. A test is eligible when its
focal method is in the main sources (the mutants are made there), which the prefix's analysis
says without ranking anything; ``max_tests`` of the eligible ones are sampled (seeded). Only the
sampled tests are then answered as the editor answers them: once per ranker, and once more with
their prefixes' values observed. (Answering every test before sampling made a project of
thousands of tests, commons-math3's, spend most of an hour before its first mutant.)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from oracular.candidates.observed import FileObservation, TestObservation
from oracular.candidates.style import junit4_supports_assert_throws
from oracular.corpus.devtests import DevTest, cut_file, find_status, oracle_free_copy
from oracular.engine import EngineSettings, FileAnalysis, OracleEngine, Suggestion, TestReport, TestStatus
from oracular.evaluation.bug_finding.records import CHECK_TOP_K, OBSERVED, Selected, TestFile
from oracular.evaluation.build import Build
from oracular.execution.observe import ValueObserver
from oracular.execution.scratch import binary_class_name
from oracular.java.prefix import FocalMethod, PrefixAnalysis
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
    progress: bool = False,
) -> list[TestFile]:
    """The sampled tests, grouped by file (files by path, tests in file order); ``counts`` tallies
    the tests met, cut, observed, dropped (and why), eligible and selected."""
    selector = _Selector(root, rankers, observer, build, counts)
    eligible = [test for path in build.test_files for test in selector.eligible_tests(path)]
    counts["tests_eligible"] = len(eligible)
    rng = random.Random(seed)
    chosen = eligible if len(eligible) <= max_tests else rng.sample(eligible, max_tests)
    by_file: dict[Path, list[_Eligible]] = {}
    for test in chosen:
        by_file.setdefault(test.file.path, []).append(test)
    files = []
    with tqdm(total=len(chosen), desc="suggestions", unit="test", disable=not progress) as bar:
        for path in sorted(by_file, key=str):
            group = sorted(by_file[path], key=lambda t: t.index)
            test_file = group[0].file
            observed = selector.observe(test_file.analysis, group)
            for test in group:
                test_file.tests.append(selector.suggest(test, observed.tests.get(test.status.test.line + 1)))
                bar.update()
            files.append(test_file)
    counts["tests_selected"] = len(chosen)
    counts["test_files_selected"] = len(files)
    return files


@dataclass
class _Eligible:
    """A cut test whose focal method is in the main sources, before any ranker answers it."""

    file: TestFile
    cut: DevTest
    index: int
    status: TestStatus
    prefix: PrefixAnalysis
    focal: FocalMethod
    focal_path: Path
    assert_throws: bool


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

    def eligible_tests(self, path: Path) -> list[_Eligible]:
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
        eligible = []
        for i, cut in enumerate(cuts):
            status = find_status(test_file.analysis, cut)
            if status is None or not status.oracle_free:
                self.counts["cut_not_oracle_free"] += 1
                continue
            prefix = self.first.prefix_for(test_file.analysis, status)
            focal = prefix.focal if prefix is not None else None
            focal_path = Path(focal.cls.path).resolve() if focal is not None and focal.cls.path else None
            if prefix is None or focal is None or focal_path not in self.main_files:
                self.counts["focal_not_in_main"] += 1
                continue
            eligible.append(_Eligible(test_file, cut, i, status, prefix, focal, focal_path, assert_throws))
        return eligible

    def observe(self, analysis: FileAnalysis, tests: Sequence[_Eligible]) -> FileObservation:
        """The tests' prefixes run as the editor runs them (:mod:`oracular.execution.observe`)."""
        if self.observer is None:
            return FileObservation()
        prefixes = {t.status.test.line: t.prefix for t in tests}
        return self.first.observe(self.observer, analysis, [t.status for t in tests], prefixes)

    def suggest(self, test: _Eligible, observation: TestObservation | None) -> Selected:
        """Each ranker's answer for one eligible test, and with its prefix's values observed."""
        analysis, status, prefix = test.file.analysis, test.status, test.prefix
        tops: dict[str, Suggestion | None] = {}
        if observation is not None:
            report, _renderer = self.first.suggest_test(
                analysis, status, test.assert_throws, observation=observation, prefix=prefix
            )
            tops[OBSERVED] = _top(report)
            self.counts["tests_observed"] += observation.ran
        reports = {
            label: engine.suggest_test(analysis, status, test.assert_throws, prefix=prefix)[0]
            for label, engine in self.engines.items()
        }
        tops |= {label: _top(report) for label, report in reports.items()}
        focal = test.focal
        top_class = focal.cls.qualified_name.removeprefix(f"{focal.cls.package}.").split(".")[0]
        return Selected(
            test.cut,
            test.index,
            tops,
            focal_path=test.focal_path,
            focal_class=binary_class_name(focal.cls.package, top_class),
            target=self._target(prefix, [tops[label] for label in reports]),
            candidates=next((list(r.suggestions) for r in reports.values() if r.suggestions), []),
        )

    def _target(self, prefix: PrefixAnalysis, tops: Sequence[Suggestion | None]) -> str | None:
        """What the regression oracle records: the first ranker's top-1 target (else the next
        ranker's), else the prefix's own first target."""
        for top in tops:
            if top is not None and top.candidate.target is not None:
                return top.candidate.target.expression
        return prefix.targets[0].expression if prefix.targets else None


def _top(report: TestReport) -> Suggestion | None:
    return report.suggestions[0] if report.suggestions else None
