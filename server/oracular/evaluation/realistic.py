"""``oracular eval --realistic``: the engine's answers for real tests cut right before their oracle.

Why a mode of its own: the dev figures of ``oracular eval`` replay mined samples, and many of
those end with the asserted call appended to the prefix (the corpus does that so that every
sample has a target), which hands the ranker its target. A user's oracle-free test has no such
hint. Here each developer test is cut before its first oracle with nothing appended
(:func:`~oracular.corpus.devtests.cut_test` with ``append_call=False``), the file is rewritten
with the chosen tests cut (an oracle-free copy, same path), and the engine answers it exactly as
it answers an editor, observation of the running code included when a JDK and a classpath
are found. The tests whose asserted call the prefix does not compute are reported apart.

An answer is right when it is the developer's oracle up to argument order (``assertEquals(a, b)``
equals ``assertEquals(b, a)``), compared in the corpus' canonical form (no qualifier, message,
delta or numeric suffix; ``assertEquals(true, x)`` is ``assertTrue(x)``); an exception oracle is
right when it names the type the developer expects.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from oracular.candidates.grammar import Candidate
from oracular.candidates.text import candidate_text, canonical_expression
from oracular.corpus.devtests import DevTest, cut_file, oracle_free_copy
from oracular.corpus.fetch import MARKER_NAME
from oracular.corpus.normalise import GroundTruth
from oracular.corpus.realistic import is_developers
from oracular.engine import FileReport, OracleEngine, Suggestion, TestReport
from oracular.evaluation.ranking import AssertionOutcome, most_confident
from oracular.java.assertions import ASSERT_NOT_NULL, ASSERT_THAT, BINARY, UNARY
from oracular.java.source import SourceError, SourceText, load_source
from oracular.java.workspace import WorkspaceIndex, iter_java_files

logger = logging.getLogger("oracular.eval")

TOP_K = 5

FeatureSink = Callable[[dict[str, Any]], None]
"""Takes each judged test's labelled candidates (:func:`labelled`)."""
Suggester = Callable[[OracleEngine, SourceText], FileReport]
"""Answers an oracle-free copy as the editor would (static ranking, or with observed values)."""
TopChecker = Callable[[FileReport], dict[tuple[int, int], str]]
"""Runs each test's top-1 on the correct code: ``(test line, rank) -> status``."""


def answer_keys(cut: DevTest) -> frozenset[str]:
    """The canonical texts that count as the developer's oracle (both argument orders)."""
    if cut.kind == "exception":
        return frozenset({f"assertThrows({cut.exception}.class)"}) if cut.exception else frozenset()
    truth = cut.truth
    if truth is None:
        return frozenset()
    if not is_junit(truth):  # the suite's own helper, say: its call, as a helper candidate reads
        return frozenset({canonical_expression(truth.actual)})
    keys = {truth.key}
    if truth.expected is not None:
        keys.add(canonical_expression(f"{truth.method}({truth.actual}, {truth.expected})"))
    return frozenset(keys)


def is_junit(truth: GroundTruth) -> bool:
    """One of JUnit's (or TestNG's) assertions, or ``assertThat``: not a call of the suite's own,
    which the corpus keeps whole (``actual`` is the call, ``helper(a, "b")``)."""
    return truth.method in UNARY or truth.method in BINARY or truth.method == ASSERT_THAT


def suggestion_key(suggestion: Suggestion) -> str:
    return candidate_key(suggestion.candidate)


def candidate_key(candidate: Candidate) -> str:
    """A candidate as :func:`answer_keys` spells the developer's oracle."""
    if candidate.kind == "exception":
        return f"assertThrows({(candidate.exception or 'Exception').rsplit('.', 1)[-1]}.class)"
    return canonical_expression(candidate_text(candidate))


@dataclass
class Judged:
    """One cut developer test and what the engine answered."""

    project: str
    file: str
    test: str
    kind: str
    appended: bool
    developer: str
    offered: bool
    """The engine offers an oracle (it did not abstain)."""
    rank: int | None
    """1-based rank of the first suggestion that is the developer's oracle, within the top-K."""
    top1: str | None = None
    top1_method: str | None = None
    top1_source: str | None = None
    """Where the top-1's expected value came from (``observed``, ``literal``...)."""
    observed: bool = False
    """Values of this test's running prefix were observed."""
    top1_status: str | None = None
    """What the top-1 did on the correct code: ``holds``, ``fails``, ``does-not-compile``..."""
    top1_score: float | None = None
    """The ranker's score of the top-1 (what an abstention threshold compares); ``None`` where
    the top-1 cannot fail, which the engine never offers at any threshold."""
    template_rank: int | None = None
    """1-based rank of the first suggestion asserting what the developer asserted, on their
    target, whatever its value (for exception tests: :attr:`rank`). Tells choosing *what* to
    assert from finding the value."""
    type_right: bool | None = None
    """Exception tests: the first exception oracle listed names the developer's type (one not
    listed counts as wrong), whatever ranks above it; ``None`` for assertion tests."""
    top: list[tuple[str, float]] = field(default_factory=list)
    """The first :data:`TOP_K` suggestions' oracle keys and scores, for reading a test's losses."""
    confidence: float | None = None
    """The engine's answer confidence (what abstention compares); ``None`` as for :attr:`top1_score`,
    and in evaluations that predate it."""
    answer: dict[str, Any] | None = None
    """What the confidence read (:class:`~oracular.ranking.confidence.AnswerView`), so that
    ``oracular train confidence`` can fit one on this evaluation."""
    alarm: bool = False
    """A suggestion among the first :data:`TOP_K` is shown as a possible bug: on the developer's
    correct code, a false alarm."""
    unobserved: str | None = None
    """Why the prefix was not observed, where running it was tried."""
    ended_early: str | None = None
    """What an observed prefix threw before its end (it ran; nothing at the cut was read)."""

    @property
    def answer_score(self) -> float | None:
        """What orders the tests by how sure the engine is: the confidence, or, in evaluations
        that predate it, the top-1's score."""
        return self.confidence if self.confidence is not None else self.top1_score

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def template_rank(cut: DevTest, report: TestReport, rank: int | None) -> int | None:
    truth = cut.truth
    if cut.kind == "exception":
        return rank
    top = report.suggestions[:TOP_K]
    if truth is None:
        return None
    if not is_junit(truth):  # the same helper, whatever its arguments
        name = truth.actual.split("(", 1)[0].strip()  # as called: ``TestUtils.assertX``
        return next(
            (s.rank for s in top if s.candidate.kind == "helper" and s.candidate.assertion == name), None
        )
    return next(
        (s.rank for s in top if s.candidate.kind == "assertion" and is_developers(s.candidate, truth)), None
    )


def type_right(cut: DevTest, report: TestReport, keys: frozenset[str]) -> bool | None:
    if cut.kind != "exception":
        return None
    first = next((s for s in report.suggestions if s.candidate.kind == "exception"), None)
    return first is not None and suggestion_key(first) in keys


def labelled(judged: Judged, cut: DevTest, report: TestReport) -> dict[str, Any]:
    """One test's candidates for a learned ranker: their features (``report.features``), which are
    the developer's, and the ones the engine offered, in order (what a learned one is compared with);
    each candidate's key as well, so that a collection can be read by what its rows are."""
    keys = answer_keys(cut)
    features = report.features or []
    position = {candidate.key: i for i, (candidate, _) in enumerate(features)}
    return {
        "project": judged.project, "file": judged.file, "test": judged.test, "kind": judged.kind,
        "observed": judged.observed, "rows": [row for _, row in features],
        "labels": [candidate_key(candidate) in keys for candidate, _ in features],
        "keys": [candidate_key(candidate) for candidate, _ in features],
        "offered": [position[s.candidate.key] for s in report.suggestions if s.candidate.key in position],
    }  # fmt: skip


def judge(project: str, file: str, cut: DevTest, report: TestReport) -> Judged:
    keys = answer_keys(cut)
    rank = next((s.rank for s in report.suggestions[:TOP_K] if keys and suggestion_key(s) in keys), None)
    top = report.suggestions[0] if report.suggestions else None
    expected = top.candidate.expected if top is not None else None
    return Judged(
        project,
        file,
        f"{cut.class_name}.{cut.name}",
        cut.kind,
        cut.appended,
        cut.oracle,
        report.confident,
        rank,
        top.oracle if top is not None else None,
        top.candidate.assertion if top is not None else None,
        expected.source if expected is not None else None,
        observed=report.observed,
        top1_score=top.score if top is not None and not top.vacuous else None,
        template_rank=template_rank(cut, report, rank),
        type_right=type_right(cut, report, keys),
        top=[(suggestion_key(s), s.score) for s in report.suggestions[:TOP_K]],
        confidence=report.confidence,
        answer=report.view.to_json() if report.view is not None else None,
        alarm=any(s.possible_bug for s in report.suggestions[:TOP_K]),
        unobserved=report.unobserved,
        ended_early=report.ended_early,
    )


# -- one project ------------------------------------------------------------------------------
@dataclass
class ProjectRun:
    name: str
    version: str
    judged: list[Judged] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    """What the run said about the project: the classpath used, why nothing was observed."""
    elapsed_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "counts": dict(self.counts),
            "notes": self.notes,
            "elapsed_s": round(self.elapsed_s, 1),
            "judged": [j.to_json() for j in self.judged],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProjectRun:
        run = cls(data["name"], data["version"], counts=Counter(data["counts"]), notes=data["notes"])
        run.elapsed_s = data["elapsed_s"]
        run.judged = [Judged(**j) for j in data["judged"]]
        return run


def _version(root: Path) -> str:
    try:
        return json.loads((root / MARKER_NAME).read_text(encoding="utf-8")).get("version", "")
    except (OSError, ValueError, AttributeError):
        return ""


def evaluate_project(
    root: Path,
    engine_for: Callable[[WorkspaceIndex, Path], OracleEngine],
    suggest: Suggester,
    max_tests: int,
    seed: int,
    check_top: TopChecker | None = None,
    progress: bool = True,
    one_cut: bool = False,
    kind: str | None = None,
    features: FeatureSink | None = None,
) -> ProjectRun:
    """Cut ``max_tests`` (seeded) of the project's tests (those of ``kind`` only, if given:
    ``assertion`` or ``exception``), answer them, and judge the answers.

    A file's chosen tests are cut together, in one copy; ``one_cut``: each in a copy of its own,
    the file's other tests as written, as a user's oracle-free test sits among tests with oracles
    (their habits, :mod:`oracular.java.neighbours`, all there; one suggestion run per test).
    ``features``: each judged test's candidates, labelled, for a learned ranker (the engine must
    record them: ``EngineSettings.record_features``)."""
    start = time.monotonic()
    root = root.resolve()
    run = ProjectRun(root.name, _version(root))
    index = WorkspaceIndex([root])
    index.refresh()
    engine = engine_for(index, root)
    cuts: list[tuple[Path, DevTest]] = []
    for path in iter_java_files([root]):
        if not index.is_test_file(path):
            continue
        try:
            analysis = engine.analyse(load_source(path, lenient=True))
        except (SourceError, RecursionError, ValueError):
            run.counts["files_unreadable"] += 1
            continue
        run.counts["tests"] += len(analysis.statuses)
        found = cut_file(engine, analysis, append_call=False)
        cuts += [(path, cut) for cut in found if kind is None or cut.kind == kind]
    run.counts["tests_cut"] = len(cuts)
    chosen = cuts if len(cuts) <= max_tests else random.Random(seed).sample(cuts, max_tests)
    by_file: dict[Path, list[DevTest]] = {}
    for path, cut in chosen:
        by_file.setdefault(path, []).append(cut)
    bar = tqdm(total=len(chosen), desc=f"{root.name}", unit="test", disable=not progress)
    for path, file_cuts in sorted(by_file.items()):
        for together in [[cut] for cut in file_cuts] if one_cut else [file_cuts]:
            run.judged += _evaluate_file(root, path, together, engine, suggest, check_top, run, features)
            bar.update(len(together))
    bar.close()
    run.counts["tests_judged"] = len(run.judged)
    run.elapsed_s = time.monotonic() - start
    return run


def _evaluate_file(
    root: Path,
    path: Path,
    cuts: list[DevTest],
    engine: OracleEngine,
    suggest: Suggester,
    check_top: TopChecker | None,
    run: ProjectRun,
    features: FeatureSink | None = None,
) -> list[Judged]:
    source = load_source(path, lenient=True)
    copy = oracle_free_copy(source, engine.analyse(source), cuts)
    report = suggest(engine, copy)
    for note in report.notes:
        if note not in run.notes:
            run.notes.append(note)
    reports = {(t.test.class_name, t.test.name): t for t in report.tests}
    pairs: list[tuple[Judged, TestReport]] = []
    for cut in cuts:
        test_report = reports.get(cut.key)
        if test_report is None:
            run.counts["cut_not_oracle_free"] += 1
            continue
        pairs.append((judge(root.name, str(path.relative_to(root)), cut, test_report), test_report))
        if features is not None and test_report.features is not None:
            features(labelled(pairs[-1][0], cut, test_report))
    tops = [dataclasses.replace(t, suggestions=t.suggestions[:1]) for _, t in pairs if t.suggestions]
    if check_top is not None and tops:
        statuses = check_top(dataclasses.replace(report, tests=tops))
        for item, test_report in pairs:
            item.top1_status = statuses.get((test_report.line, 1))
    return [item for item, _ in pairs]


# -- figures ----------------------------------------------------------------------------------
def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def figures(judged: Sequence[Judged]) -> dict[str, Any]:
    """Top-1, top-5, offered, holds and ``assertNotNull`` shares over ``judged``."""
    n = len(judged)
    offered = [j for j in judged if j.offered]
    checked = [j for j in offered if j.top1_status is not None]
    # a right oracle asserts the right thing: without a template rank beside it, the evaluation
    # predates the template rank (its JSON has none), and the template figures are unknown
    recorded = all(j.template_rank is not None for j in judged if j.rank is not None)
    typed = [j for j in judged if j.type_right is not None]
    return {
        "tests": n,
        "top1": _ratio(sum(j.rank == 1 for j in judged), n),
        "same_check": _ratio(sum(same_check(j) for j in judged), n),
        "top5": _ratio(sum(j.rank is not None for j in judged), n),
        "template_top1": _ratio(sum(j.template_rank == 1 for j in judged), n) if recorded else None,
        "template_top5": _ratio(sum(j.template_rank is not None for j in judged), n) if recorded else None,
        "offered": _ratio(len(offered), n),
        "top1_offered": _ratio(sum(j.rank == 1 for j in offered), len(offered)),
        "observed": _ratio(sum(j.observed for j in judged), n),
        "checked": len(checked),
        "holds": _ratio(sum(j.top1_status == "holds" for j in checked), len(checked)),
        "fails": _ratio(sum(j.top1_status == "fails" for j in checked), len(checked)),
        "not_null": _ratio(sum(j.top1_method == ASSERT_NOT_NULL for j in offered), len(offered)),
        "type_accuracy": _ratio(sum(j.type_right is True for j in typed), len(typed)),
        "exception_tests": len(typed),
        "alarms": _ratio(sum(j.alarm for j in judged if j.observed), sum(j.observed for j in judged)),
    }


def same_check(judged: Judged) -> bool:
    """The top-1 is the developer's oracle, or checks the same: it asserts what the developer
    asserts on their target and holds on the correct code, where the developer's oracle holds too,
    so both pin one value (``assertEquals("\\r", f.getRecordSeparator())`` for the developer's
    ``assertEquals(CR, ...)``, ``0.7071067811865475`` for ``FastMath.sqrt(0.5)``). Only known where
    the top-1 was run; the strict top-1 stays the headline figure."""
    return judged.rank == 1 or (judged.template_rank == 1 and judged.top1_status == "holds")


GROUPS: dict[str, Callable[[Judged], bool]] = {
    "all": lambda j: True,
    "prefix computes the asserted value": lambda j: not j.appended,
    "asserted call not in the prefix": lambda j: j.appended,
    "assertion tests": lambda j: j.kind == "assertion",
    "exception tests": lambda j: j.kind == "exception",
    "observed tests": lambda j: j.observed,
}


def percent(x: float | None) -> str:
    """``42.3%``, or ``—`` for an unknown share."""
    return "—" if x is None else f"{100 * x:.1f}%"


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


COLUMNS = ("tests", "top-1", "top-5", "what top-1", "what top-5", "offered", "top-1 when offered",
           "top-1 holds", "top-1 fails", "assertNotNull top-1")  # fmt: skip


def _cells(f: dict[str, Any]) -> list[str]:
    shares = ("top1", "top5", "template_top1", "template_top5", "offered", "top1_offered", "holds", "fails",
              "not_null")  # fmt: skip
    return [str(f["tests"]), *(percent(f[name]) for name in shares)]


def abstention_curve(judged: Sequence[Judged]) -> list[dict[str, float]]:
    """Top-1 precision when answering only the most confident tests (by :attr:`Judged.answer_score`),
    over every test judged (also those the grammar cannot answer); a test without a suggestion is
    never answered, so ``coverage`` is the share actually answered."""
    outcomes = [AssertionOutcome(j.rank, j.answer_score) for j in judged if j.answer_score is not None]
    if not outcomes:
        return []
    return [
        {**level, "coverage": level["answered"] / len(judged)}
        for level in most_confident(outcomes, len(judged))
    ]


def abstention_table(judged: Sequence[Judged]) -> list[str]:
    curve = abstention_curve(judged)
    if not curve:
        return []
    lines = ["", "## Answering only the most confident tests", ""]
    lines += [_row("answered", "confidence at least", "top-1 precision"), _row("---", "---", "---")]
    lines += [_row(percent(c["coverage"]), f"{c['threshold']:.3f}", percent(c["precision"])) for c in curve]
    return lines


def markdown(runs: Sequence[ProjectRun], header: dict[str, Any]) -> str:
    """The report: the groups over all projects, then one row per project, then the notes."""
    judged = [j for run in runs for j in run.judged]
    lines = ["# Realistic evaluation: tests cut right before their oracle, nothing appended", ""]
    lines += [f"- {k}: {v}" for k, v in header.items()]
    lines += ["", "## All projects", "", _row("tests", *COLUMNS[1:]).replace("| tests", "| group | tests", 1)]
    lines.append(_row(*["---"] * (len(COLUMNS) + 1)))
    for name, keep in GROUPS.items():
        f = figures([j for j in judged if keep(j)])
        if f["tests"]:
            lines.append(_row(name, *_cells(f)))
    lines += ["", "## Per project", ""]
    lines += [_row("project", *COLUMNS, "observed"), _row(*["---"] * (len(COLUMNS) + 2))]
    for run in runs:
        f = figures(run.judged)
        lines.append(_row(f"{run.name} {run.version}".strip(), *_cells(f), percent(f["observed"])))
    lines += [
        "",
        "Top-1/top-5: the developer's oracle (up to argument order) is the first / among the first five "
        "suggestions, over all tests. What top-1/top-5: the same for what is asserted (the developer's "
        "assertion on their target, whatever the value). Offered: the engine did not abstain. "
        "Holds/fails: the top-1 run on the correct code, over the offered tests it could be run for. "
        "Observed: the share of tests whose prefix ran and whose values were observed.",
    ]
    typed = figures(judged)
    if any(j.top1_status is not None for j in judged):
        lines += [
            "",
            f"Top-1 checks what the developer's oracle checks for {percent(typed['same_check'])} of the "
            f"tests (top-1 {percent(typed['top1'])}): the developer's oracle, or one asserting what they "
            "assert, on their target, that holds on the correct code (a literal for their constant).",
        ]
    if typed["alarms"] is not None:
        lines += [
            "",
            f"False alarms: a possible bug is shown among the first {TOP_K} suggestions for "
            f"{percent(typed['alarms'])} of the observed tests (the developer's code is correct: "
            "every one is a false alarm).",
        ]
    if typed["exception_tests"]:
        lines += [
            "",
            f"Exception type accuracy: the first exception oracle listed names the developer's type "
            f"for {percent(typed['type_accuracy'])} of the {typed['exception_tests']} exception tests.",
        ]
    lines += abstention_table(judged)
    notes = [(run.name, note) for run in runs for note in run.notes]
    if notes:
        lines += ["", "## Notes", ""]
        lines += [f"- {name}: {note}" for name, note in notes]
    return "\n".join(lines) + "\n"
