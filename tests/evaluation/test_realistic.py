"""``oracular eval --realistic`` on a copy of the example: real tests cut before their oracle with
nothing appended, answered as the editor answers them, judged up to argument order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.corpus.devtests import DevTest
from oracular.corpus.normalise import GroundTruth
from oracular.engine import FileReport, OracleEngine
from oracular.evaluation.realistic import (
    Judged,
    ProjectRun,
    abstention_curve,
    answer_keys,
    evaluate_project,
    figures,
    markdown,
)
from oracular.java.junit import Flavour
from oracular.java.source import SourceText
from oracular.java.workspace import WorkspaceIndex
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.features import FEATURES
from oracular.training.learned_ranker import load_tests

from ..execution.conftest import TEST_PACKAGE, require_toolchain
from ..execution.test_bug_finding import DEVELOPER_TESTS


def cut(kind: str, truth: GroundTruth | None = None, exception: str | None = None) -> DevTest:
    return DevTest("T", "t", 1, Flavour.JUNIT5, kind, (), (), None, "", truth=truth, exception=exception)


def test_answers_count_up_to_argument_order() -> None:
    equals = GroundTruth("assertEquals", "c.value()", "1", "assertEquals", True, True)
    assert answer_keys(cut("assertion", equals)) == {"assertEquals(1,c.value())", "assertEquals(c.value(),1)"}
    unary = GroundTruth("assertTrue", "c.isAtMax()", None, "assertTrue", True, True)
    assert answer_keys(cut("assertion", unary)) == {"assertTrue(c.isAtMax())"}
    assert answer_keys(cut("exception", exception="IllegalArgumentException")) == {
        "assertThrows(IllegalArgumentException.class)"
    }
    assert answer_keys(cut("assertion")) == frozenset()  # a custom helper: nothing can match


def test_figures_and_groups() -> None:
    def judged(rank: int | None, offered: bool = True, method: str = "assertEquals", **kw) -> Judged:
        return Judged("p", "F.java", "T.t", "assertion", False, "", offered, rank, top1_method=method, **kw)

    items = [
        judged(1, top1_status="holds", observed=True, template_rank=1),
        judged(3, top1_status="holds", observed=True, template_rank=1),  # the value was third
        judged(None, method="assertNotNull", top1_status="fails", template_rank=2),  # no right value
        judged(None, offered=False),
    ]
    f = figures(items)
    assert (f["tests"], f["top1"], f["top5"], f["offered"]) == (4, 0.25, 0.5, 0.75)
    assert (f["template_top1"], f["template_top5"]) == (0.5, 0.75)
    assert (f["holds"], f["fails"], f["not_null"], f["observed"]) == (2 / 3, 1 / 3, 1 / 3, 0.5)
    run = ProjectRun("p", "1.0", items)
    text = markdown([run], {"ranker": "baseline"})
    # the second's top-1 asserts on the developer's target and holds on the correct code: the
    # same check; the third's asserts on another target; the first is the developer's own
    assert f["same_check"] == 0.5 and "checks what the developer's oracle checks for 50.0%" in text
    assert "| all | 4 | 25.0% | 50.0% | 50.0% | 75.0% | 75.0% |" in text and "| p 1.0 | 4 |" in text
    # an evaluation written before the template rank was recorded still reads
    old = {k: v for k, v in run.to_json().items()}
    old["judged"] = [{k: v for k, v in j.items() if k != "template_rank"} for j in old["judged"]]
    assert figures(ProjectRun.from_json(old).judged)["template_top5"] is None  # unknown, not 0%


def test_the_template_rank_is_the_developers_assertion_on_their_target_whatever_the_value() -> None:
    from oracular.candidates.grammar import Candidate
    from oracular.candidates.values import Value
    from oracular.engine import Suggestion, TestReport
    from oracular.evaluation.realistic import template_rank
    from oracular.java.targets import Target

    size = Target("s.size()", "int", "observer")

    def suggestion(rank: int, candidate: Candidate) -> Suggestion:
        return Suggestion(rank, 0.5, candidate, None, [], None, False, False)  # type: ignore[arg-type]

    report = TestReport(None, None, 0.0, "Exception", False, [  # type: ignore[arg-type]
        suggestion(1, Candidate("assertion", "assertTrue", Target("s.isEmpty()", "boolean", "observer"))),
        suggestion(2, Candidate("assertion", "assertEquals", size, Value("3", "int", "observed"))),
    ])  # fmt: skip
    truth = GroundTruth("assertEquals", "s.size()", "2", "assertEquals", True, True)
    assert template_rank(cut("assertion", truth), report, None) == 2  # the value differs: not the oracle
    other = GroundTruth("assertFalse", "s.isEmpty()", None, "assertFalse", True, True)
    assert template_rank(cut("assertion", other), report, None) is None
    assert template_rank(cut("exception", exception="X"), report, 4) == 4


def test_type_accuracy_reads_the_first_exception_oracle_listed_whatever_ranks_above_it() -> None:
    from oracular.candidates.grammar import Candidate
    from oracular.engine import Suggestion, TestReport
    from oracular.evaluation.realistic import type_right
    from oracular.java.targets import Target

    def suggestion(rank: int, candidate: Candidate) -> Suggestion:
        return Suggestion(rank, 0.5, candidate, None, [], None, False, False)  # type: ignore[arg-type]

    report = TestReport(None, None, 0.6, "IllegalStateException", False, [  # type: ignore[arg-type]
        suggestion(1, Candidate("assertion", "assertTrue", Target("s.isEmpty()", "boolean", "observer"))),
        suggestion(2, Candidate("exception", "assertThrows", exception="java.lang.IllegalStateException")),
        suggestion(3, Candidate("exception", "assertThrows", exception="IllegalArgumentException")),
    ])  # fmt: skip
    wanted = cut("exception", exception="IllegalStateException")
    assert type_right(wanted, report, answer_keys(wanted)) is True
    other = cut("exception", exception="IllegalArgumentException")
    assert type_right(other, report, answer_keys(other)) is False  # listed, but not first
    assert type_right(cut("assertion"), report, frozenset()) is None
    report.suggestions = report.suggestions[:1]
    assert type_right(wanted, report, answer_keys(wanted)) is False  # none listed: wrong, not skipped

    def judged(right: bool | None) -> Judged:
        kind = "assertion" if right is None else "exception"
        return Judged("p", "F.java", "T.t", kind, False, "", True, None, type_right=right)

    items = [judged(True), judged(False), judged(True), judged(None)]
    f = figures(items)
    assert (f["type_accuracy"], f["exception_tests"]) == (2 / 3, 3)
    assert "names the developer's type for 66.7% of the 3 exception tests" in markdown(
        [ProjectRun("p", "1.0", items)], {}
    )


def test_a_top_1_that_cannot_fail_is_never_answered_whatever_its_score() -> None:
    """The engine abstains where its top oracle cannot fail, at any threshold: the abstention
    curve must not answer such a test with its score."""
    from oracular.candidates.grammar import Candidate
    from oracular.candidates.render import RenderedOracle
    from oracular.candidates.values import Value
    from oracular.engine import Suggestion, TestReport
    from oracular.evaluation.realistic import judge
    from oracular.java.targets import Target

    restated = Candidate(
        "assertion", "assertEquals", Target("a", "double", "variable"), Value("2.9", "double", "literal")
    )
    rendered = RenderedOracle("assertEquals(2.9, a, 0.0001);", None, frozenset())  # type: ignore[arg-type]

    def report(vacuous: bool) -> TestReport:
        top = Suggestion(1, 0.7, restated, rendered, [], None, False, vacuous)
        return TestReport(None, None, 0.0, "Exception", False, [top])  # type: ignore[arg-type]

    truth = GroundTruth("assertEquals", "f(a)", "3", "assertEquals", True, True)
    assert judge("p", "F.java", cut("assertion", truth), report(True)).top1_score is None
    assert judge("p", "F.java", cut("assertion", truth), report(False)).top1_score == 0.7


def test_a_possible_bug_shown_on_the_developers_correct_code_is_a_false_alarm() -> None:
    from oracular.candidates.grammar import Candidate
    from oracular.candidates.observed import FAILS, Verdict
    from oracular.candidates.render import RenderedOracle
    from oracular.engine import Suggestion, TestReport
    from oracular.evaluation.realistic import judge
    from oracular.java.targets import Target

    failing = Candidate("assertion", "assertTrue", Target("b", "boolean", "variable"))
    rendered = RenderedOracle("assertTrue(b);", None, frozenset())  # type: ignore[arg-type]

    def judged(bug: bool, observed: bool) -> Judged:
        shown = Suggestion(1, 0.7, failing, rendered, [], Verdict(FAILS, "false"), bug)
        report = TestReport(None, None, 0.0, "Exception", False, [shown])  # type: ignore[arg-type]
        report.observed = observed
        truth = GroundTruth("assertFalse", "b", None, "assertFalse", True, True)
        return judge("p", "F.java", cut("assertion", truth), report)

    items = [judged(True, True), judged(False, True), judged(False, True), judged(True, False)]
    assert [j.alarm for j in items] == [True, False, False, True]
    text = markdown([ProjectRun("p", "1.0", items)], {})
    assert "possible bug is shown among the first 5 suggestions for 33.3% of the observed tests" in text
    assert "False alarms" not in markdown([ProjectRun("p", "1.0", items[3:])], {})  # none observed


def test_the_abstention_curve_answers_the_most_confident_tests_first() -> None:
    def judged(rank: int | None, score: float | None) -> Judged:
        return Judged("p", "F.java", "T.t", "assertion", False, "", True, rank, top1_score=score)

    items = [judged(None, 0.9), judged(1, 0.8), judged(1, 0.7), judged(None, 0.2), judged(None, None)]
    curve = {round(c["coverage"], 2): c for c in abstention_curve(items)}
    assert curve[0.2]["precision"] == 0.0 and curve[0.2]["threshold"] == 0.9  # the most confident was wrong
    assert curve[0.6]["precision"] == pytest.approx(2 / 3) and curve[0.6]["threshold"] == 0.7
    assert curve[0.8]["precision"] == 0.5  # a test without a suggestion is never answered
    assert 1.0 not in curve or curve[1.0]["coverage"] < 1.0
    text = markdown([ProjectRun("p", "1.0", items)], {})
    assert "| 60.0% | 0.700 | 66.7% |" in text
    # where the engine recorded its answer confidence, that orders the tests, not the score
    items[0].confidence, items[1].confidence, items[2].confidence, items[3].confidence = 0.1, 0.9, 0.8, 0.2
    curve = {round(c["coverage"], 2): c for c in abstention_curve(items)}
    assert curve[0.4]["precision"] == 1.0 and curve[0.4]["threshold"] == 0.8


def test_eval_realistic_on_the_example(project: Path, tmp_path: Path, capsys) -> None:
    require_toolchain()
    (project / TEST_PACKAGE / "CounterOracleTest.java").write_text(DEVELOPER_TESTS, encoding="utf-8")
    out, raw = tmp_path / "realistic.md", tmp_path / "realistic.json"
    assert main(["eval", "--realistic", str(project), "-q", "-o", str(out), "--json", str(raw)]) == 0
    assert "evaluation written to" in capsys.readouterr().out
    [run] = json.loads(raw.read_text(encoding="utf-8"))
    judged = {j["test"]: j for j in run["judged"]}
    # The three tests above, and StackTest's two with an oracle (one through a helper).
    counter = {f"CounterOracleTest.{name}" for name in ("incrementOnce", "reachesMax", "rejectsNegativeMax")}
    assert set(judged) >= {*counter, "StackTest.testPeekReturnsLastPushed"}
    once = judged["CounterOracleTest.incrementOnce"]
    # c.value() is not computed by the prefix: the corpus would have appended it, a user's test does not
    assert once["appended"] and once["kind"] == "assertion" and once["observed"]
    assert once["rank"] is not None  # assertEquals(1, c.value()) is among the first five, observed
    assert once["template_rank"] is not None and once["template_rank"] <= once["rank"]
    # what the engine's answer confidence read is recorded, for 'oracular train confidence'
    assert once["confidence"] is not None and once["answer"]["observed"] and once["answer"]["offered"]
    negative = judged["CounterOracleTest.rejectsNegativeMax"]
    assert negative["kind"] == "exception" and negative["rank"] == 1 and negative["top1_status"] == "holds"
    assert all(j["top1_status"] in ("holds", None) for j in judged.values())  # observed: nothing fails
    text = out.read_text(encoding="utf-8")
    assert "| asserted call not in the prefix |" in text and "| exception tests |" in text


def test_observed_training_features_of_a_project(project: Path, tmp_path: Path) -> None:
    """What the learned ranker is fitted on, as ``scripts/train_features.sh`` makes it for the train
    projects: each cut test's candidates with the features of its observed run, labelled with the
    developer's oracle, read back by the trainer."""
    require_toolchain()
    (project / TEST_PACKAGE / "CounterOracleTest.java").write_text(DEVELOPER_TESTS, encoding="utf-8")
    features = tmp_path / "features.jsonl"
    args = ["eval", "--realistic", str(project), "--one-cut", "--features", str(features), "-q"]
    assert main([*args, "-o", str(tmp_path / "r.md")]) == 0
    lines = [json.loads(line) for line in features.read_text(encoding="utf-8").splitlines()]
    by_test = {line["test"]: line for line in lines}
    once = by_test["CounterOracleTest.incrementOnce"]
    assert once["observed"] and once["project"] and len(once["rows"]) == len(once["labels"]) > 1
    assert all(len(row) == len(FEATURES) for row in once["rows"])
    right = [row for row, label in zip(once["rows"], once["labels"], strict=True) if label]
    assert right and all(row[FEATURES.index("holds")] == 1.0 for row in right)  # the developer's holds
    # each row says which candidate it is, in the canonical form the labels compare
    assert len(once["keys"]) == len(once["rows"])
    assert [k for k, label in zip(once["keys"], once["labels"], strict=True) if label] == [
        "assertEquals(1,c.value())"
    ]
    tests = load_tests([features, features])  # twice: each test counted once
    assert len(tests) == sum(1 for line in lines if line["rows"])
    assert any(t.observed and bool(t.labels.any()) for t in tests)


@pytest.mark.parametrize("mode", ["--realistic", "--mutants"])
def test_an_unknown_project_is_named_and_nothing_runs(mode: str, tmp_path: Path, capsys) -> None:
    assert main(["eval", mode, "no-such-project", "--cache", str(tmp_path), "-q"]) == 2
    err = capsys.readouterr().err
    assert "no-such-project: neither a folder nor a package in" in err


@pytest.mark.parametrize("one_cut", [False, True])
def test_one_cut_answers_each_test_beside_the_files_other_oracles(project: Path, one_cut: bool) -> None:
    """Cut together, the three tests of a file are answered in one copy with no oracle left; one
    cut at a time, each is answered beside the two others as written, as in the editor."""
    (project / TEST_PACKAGE / "CounterOracleTest.java").write_text(DEVELOPER_TESTS, encoding="utf-8")
    seen: list[str] = []

    def suggest(engine: OracleEngine, source: SourceText) -> FileReport:
        if source.path.name == "CounterOracleTest.java":
            seen.append(source.text)
        return engine.suggest(source)

    def engine_for(index: WorkspaceIndex, root: Path) -> OracleEngine:
        return OracleEngine(index, BaselineRanker(), project_root=root)

    run = evaluate_project(project, engine_for, suggest, 100, 13, progress=False, one_cut=one_cut)
    counter = {j.test for j in run.judged if j.test.startswith("CounterOracleTest.")}
    assert counter == {"CounterOracleTest.incrementOnce", "CounterOracleTest.reachesMax",
                       "CounterOracleTest.rejectsNegativeMax"}  # fmt: skip
    oracles = [
        sum(text.count(f"{name}(") for name in ("assertEquals", "assertTrue", "assertThrows"))
        for text in seen
    ]
    assert oracles == ([2, 2, 2] if one_cut else [0])


def test_kind_keeps_only_the_tests_whose_developer_oracle_is_of_that_kind(project: Path) -> None:
    """``--kind exception`` measures the exception type over every throwing test, not a draw."""
    (project / TEST_PACKAGE / "CounterOracleTest.java").write_text(DEVELOPER_TESTS, encoding="utf-8")

    def engine_for(index: WorkspaceIndex, root: Path) -> OracleEngine:
        return OracleEngine(index, BaselineRanker(), project_root=root)

    def suggest(engine: OracleEngine, source: SourceText) -> FileReport:
        return engine.suggest(source)

    every = evaluate_project(project, engine_for, suggest, 100, 13, progress=False)
    throwing = evaluate_project(project, engine_for, suggest, 100, 13, progress=False, kind="exception")
    assert {j.kind for j in every.judged} == {"assertion", "exception"}
    assert [j.test for j in throwing.judged] == [j.test for j in every.judged if j.kind == "exception"]
    assert throwing.counts["tests_cut"] == len(throwing.judged)
