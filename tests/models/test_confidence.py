"""The answer confidence: what it reads, how it is fitted on realistic evaluations, how it travels
in the model's config, and how the engine abstains with it.

Why: whether the engine answers a test decides what the editor inserts; a confidence that
ignored a verdict, lost its weights on the way to the config, or were fitted on evaluations that
cannot say what it read would make the shipped threshold meaningless.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.engine import EngineSettings, OracleEngine
from oracular.evaluation.realistic import Judged, ProjectRun
from oracular.java.source import load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.models.inference import load_model
from oracular.ranking.confidence import (
    FEATURES,
    AnswerConfidence,
    AnswerView,
    Offered,
    features,
    plain_confidence,
)
from oracular.training.confidence import (
    at_threshold,
    choose_thresholds,
    fit_confidence,
    held_out_at_threshold,
    load_answers,
)

from ..conftest import EXAMPLE, EXAMPLE_TESTS


def view(top: float, holds: bool, second: float = 0.1, same_target: bool = False) -> AnswerView:
    first = Offered(top, "assertion", "assertEquals", "observed", "s.pop()", "holds" if holds else None)
    other = Offered(second, "assertion", "assertTrue", None, "s.pop()" if same_target else "s.isEmpty()")
    return AnswerView(True, 0.05, (first, other))


def by_name(v: AnswerView) -> dict[str, float]:
    return dict(zip(FEATURES, features(v), strict=True))


def test_features_read_the_top_1_its_verdict_and_its_rivals() -> None:
    x = by_name(view(0.6, holds=True, second=0.2, same_target=True))
    assert x["top-1 holds"] == 1.0 and x["top-1 fails"] == 0.0 and x["values observed"] == 1.0
    assert x["margin"] == pytest.approx(0.4) and x["top-1 log-odds"] == pytest.approx(math.log(0.6 / 0.4))
    assert x["second on the same target"] == 1.0 and x["top-1 target's share of the scores"] == 1.0
    assert x["method assertEquals"] == 1.0 and x["method assertTrue"] == 0.0 and x["value observed"] == 1.0
    assert x["offered that hold"] == 0.5
    apart = by_name(view(0.6, holds=False, second=0.2))
    assert apart["second on the same target"] == 0.0
    assert apart["top-1 target's share of the scores"] == pytest.approx(0.6 / 0.8)
    assert x["top-1 is a call of the suite's own helper"] == 0.0
    helper = Offered(0.5, "helper", "assertOptionDetected", None, None, "holds", True)
    assert by_name(AnswerView(True, 0.05, (helper,)))["top-1 is a call of the suite's own helper"] == 1.0


def test_without_a_fitted_model_a_top_1_that_holds_is_answered() -> None:
    assert plain_confidence(view(0.2, holds=True)) == 1.0
    assert plain_confidence(view(0.2, holds=False)) == 0.2
    assert plain_confidence(AnswerView(False, 0.0)) == 0.0


def test_a_view_travels_as_json() -> None:
    v = AnswerView(True, 0.2, view(0.6, holds=True).offered, own_helpers=0.25, with_oracle=8)
    assert AnswerView.from_json(json.loads(json.dumps(v.to_json()))) == v
    recorded = v.to_json()
    recorded["offered"][0]["target_kind"] = "observer"  # what another version recorded
    assert AnswerView.from_json(recorded) == v


def only_the_score(threshold: float) -> AnswerConfidence:
    """``sigmoid(top-1 score)``: a hand-made model whose decisions a test can predict."""
    weights = [float(name == "top-1 score") for name in FEATURES]
    return AnswerConfidence(weights, 0.0, [0.0] * len(FEATURES), [1.0] * len(FEATURES), threshold)


def test_a_confidence_round_trips_and_refuses_other_features() -> None:
    model = only_the_score(0.6)
    again = AnswerConfidence.from_json(json.loads(json.dumps(model.to_json())))
    assert again is not None and again.probability(view(0.5, False)) == pytest.approx(
        1 / (1 + math.exp(-0.5))
    )
    assert AnswerConfidence.from_json(None) is None
    with pytest.raises(ValueError, match="fit it again"):
        AnswerConfidence.from_json({**model.to_json(), "names": ["top-1 score"]})
    with pytest.raises(ValueError, match="weights"):
        AnswerConfidence([1.0], 0.0, [0.0], [1.0], 0.5)


def answers(n: int = 200) -> list[tuple[AnswerView, bool]]:
    """Tests whose top-1 is right 80% of the time when it holds, 20% when it does not."""
    return [(view(0.3 + 0.001 * i, holds=i % 2 == 0), (i % 10 < 8) == (i % 2 == 0)) for i in range(n)]


def write_eval(path: Path, items: list[tuple[AnswerView, bool]], with_views: bool = True) -> Path:
    judged = [
        Judged("p", "F.java", f"T.t{i}", "assertion", False, "", True, 1 if right else None,
               top1_score=v.offered[0].score, confidence=plain_confidence(v),
               answer=v.to_json() if with_views else None)
        for i, (v, right) in enumerate(items)
    ]  # fmt: skip
    judged.append(Judged("p", "F.java", "T.none", "assertion", False, "", False, None))  # nothing to answer
    path.write_text(json.dumps([ProjectRun("p", "1.0", judged).to_json()]), encoding="utf-8")
    return path


def test_fitting_learns_that_a_top_1_that_holds_is_more_often_right(tmp_path: Path) -> None:
    loaded = load_answers([write_eval(tmp_path / "fit.json", answers())])
    assert (len(loaded.views), loaded.tests) == (200, 201)
    model = fit_confidence(loaded, target_precision=0.75)
    assert model.probability(view(0.4, holds=True)) > 0.6 > 0.4 > model.probability(view(0.4, holds=False))
    share, precision = at_threshold(model, loaded)
    assert precision is not None and precision >= 0.75 and share >= 100 / 201  # all that hold
    assert model.fitted_on["tests"] == 201 and "fit.json" in model.fitted_on["evaluations"][0]
    with pytest.raises(ValueError, match="some right and some wrong"):
        fit_confidence(load_answers([write_eval(tmp_path / "all.json", [(view(0.5, True), True)] * 5)]), 0.6)


def test_an_evaluation_without_views_is_named(tmp_path: Path) -> None:
    old = write_eval(tmp_path / "old.json", answers(10), with_views=False)
    with pytest.raises(ValueError, match=r"old\.json records no answer views"):
        load_answers([old])


def test_train_confidence_saves_it_in_the_models_config(tmp_path: Path, tiny_model_dir: Path, capsys) -> None:
    model_dir = tmp_path / "model"
    shutil.copytree(tiny_model_dir, model_dir)
    weights = (model_dir / "model.safetensors").read_bytes()
    fit, check = (
        write_eval(tmp_path / "fit.json", answers()),
        write_eval(tmp_path / "check.json", answers(50)),
    )
    args = ["train", "confidence", "--out", str(model_dir), "--eval", str(fit), "--check", str(check), "-q"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "checked on check.json: p (51 tests)" in out and "| 60% |" in out and "at the threshold" in out
    loaded = load_model(model_dir, "cpu")
    assert loaded.answer is not None and loaded.abstain_below == loaded.answer.threshold
    assert loaded.answer_confidence(view(0.4, True)) > loaded.answer_confidence(view(0.4, False))
    assert (model_dir / "model.safetensors").read_bytes() == weights  # the weights stay as they are
    # a confidence fitted on other features stops the model loading, but not its refit
    config = json.loads((model_dir / "config.json").read_text())
    config["answer"]["names"] = config["answer"]["names"][:-1]
    (model_dir / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError, match="fit it again"):
        load_model(model_dir, "cpu")
    assert main(args) == 0 and load_model(model_dir, "cpu").answer is not None
    assert main(["train", "confidence", "--out", str(model_dir), "-q"]) == 2
    assert "--eval" in capsys.readouterr().err


def test_the_engine_abstains_by_the_fitted_confidence(
    index: WorkspaceIndex, tiny_model_dir: Path, tmp_path: Path
) -> None:
    source = load_source(EXAMPLE_TESTS / "StackTest.java")
    model = load_model(tiny_model_dir, "cpu")
    tops = sorted(
        t.suggestions[0].score for t in OracleEngine(index, model, project_root=EXAMPLE).suggest(source).tests
    )
    assert tops[0] < tops[-1]
    split = 1 / (1 + math.exp(-(tops[0] + tops[-1]) / 2))
    model.answer = only_the_score(split)
    engine = OracleEngine(index, model, EngineSettings(top_k=3), EXAMPLE)
    assert engine.abstention_threshold() == split
    report = engine.suggest(source)
    for test in report.tests:
        assert test.confidence == pytest.approx(1 / (1 + math.exp(-test.suggestions[0].score)))
        assert test.abstained is (test.confidence < split)
        assert test.to_json()["confidence"] == round(test.confidence, 4)
    assert {t.abstained for t in report.tests} == {True, False}


HELPER_FILE = """
import static org.junit.Assert.*;
import org.junit.Test;

public class OptionsTest {
    @Test public void plain() { assertEquals(1, new java.util.ArrayList<>(java.util.List.of(1)).size()); }
    @Test public void helped() { assertDetected("a"); }
    @Test public void helpedAgain() { assertDetected("b"); }
    @Test(expected = IllegalStateException.class)
    public void throwing() { throw new IllegalStateException(); }
    @Test public void free() { int x = 1; }

    private void assertDetected(String name) { assertTrue(name.length() == 1); }
}
"""


def test_the_file_habit_of_checking_through_its_own_helpers_is_read() -> None:
    """Two of the four tests with an oracle check through the suite's own helper: a JUnit
    assertion from Oracular is then less likely the one the developer would write."""
    from oracular.java.source import parse_text

    analysis = OracleEngine(WorkspaceIndex()).analyse(parse_text(HELPER_FILE))
    assert [s.test.name for s in analysis.oracle_free] == ["free"]
    assert analysis.own_helpers == 0.5 and analysis.with_oracle == 4
    name = "the file's tests check through their own helpers, shrunk for few tests"
    offered = view(0.5, False).offered
    # half of 4 tests, shrunk as if 2 more had none; half of 40 hardly shrinks
    assert by_name(AnswerView(False, 0.0, offered, own_helpers=0.5, with_oracle=4))[name] == pytest.approx(
        1 / 3
    )
    assert by_name(AnswerView(False, 0.0, offered, own_helpers=0.5, with_oracle=40))[name] == pytest.approx(
        20 / 42
    )


HABIT_FILE = """
import static org.junit.Assert.*;
import org.junit.Test;
import java.util.ArrayList;

public class ListTest {
    @Test public void adds() {
        ArrayList<String> s = new ArrayList<>(); s.add("a"); assertEquals(1, s.size());
    }
    @Test public void addsTwo() { ArrayList<String> s = new ArrayList<>(); s.add("a"); s.add("b"); }
}
"""


def test_the_view_marks_the_suggestions_that_follow_the_files_habit() -> None:
    """``adds`` asserts on ``s.size()``: ``addsTwo``'s suggestions on that path follow the habit."""
    from oracular.java.source import parse_text
    from oracular.ranking.baseline import BaselineRanker

    engine = OracleEngine(WorkspaceIndex(), BaselineRanker(), EngineSettings(top_k=5))
    [test] = engine.suggest(parse_text(HABIT_FILE)).tests
    assert test.view is not None and test.confidence is not None
    offered = test.view.offered
    assert [o.habit for o in offered] == [o.target == "s.size()" for o in offered]
    assert any(o.habit for o in offered) and test.view.own_helpers == 0.0


def static(v: AnswerView) -> AnswerView:
    return AnswerView(False, v.exception_probability, v.offered)


def test_each_mode_has_its_threshold(tmp_path: Path) -> None:
    """Without observed values the same probability is less often right: the static answers get
    their own threshold, and a model without one uses the observed one for both."""
    observed = [(view(0.3 + 0.001 * i, True), i >= 100) for i in range(200)]
    worse = [(static(v), i >= 150) for i, (v, _) in enumerate(observed)]
    loaded = load_answers([write_eval(tmp_path / "both.json", observed + worse)])
    model = only_the_score(0.5)
    choose_thresholds(model, loaded, 0.9)
    assert model.threshold == pytest.approx(1 / (1 + math.exp(-0.39)), abs=0.001)  # the 100 right, some wrong
    assert model.static_threshold == pytest.approx(1 / (1 + math.exp(-0.445)), abs=0.001)
    assert model.threshold_for(view(0.4, True)) == model.threshold
    assert model.threshold_for(static(view(0.4, True))) == model.static_threshold
    assert only_the_score(0.5).threshold_for(static(view(0.4, True))) == 0.5
    again = AnswerConfidence.from_json(json.loads(json.dumps(model.to_json())))
    assert again is not None and again.static_threshold == model.static_threshold


def project_eval(path: Path, projects: dict[str, list[tuple[AnswerView, bool]]]) -> Path:
    runs = [
        ProjectRun(name, "1.0", [
            Judged(name, "F.java", f"T.t{i}", "assertion", False, "", True, 1 if right else None,
                   top1_score=v.offered[0].score, answer=v.to_json())
            for i, (v, right) in enumerate(items)
        ]).to_json()
        for name, items in projects.items()
    ]  # fmt: skip
    path.write_text(json.dumps(runs), encoding="utf-8")
    return path


def test_a_checked_project_is_measured_at_thresholds_chosen_without_it(tmp_path: Path) -> None:
    """A project where every answer is right would lower the threshold chosen with it; left out,
    it is answered at the threshold the others set."""
    easy = [(view(0.2 + 0.002 * i, True), True) for i in range(50)]
    hard = [(view(0.2 + 0.004 * i, True), i >= 25) for i in range(50)]
    both = load_answers([project_eval(tmp_path / "all.json", {"easy": easy, "hard": hard})])
    assert both.per_project == {"easy": 50, "hard": 50} and both.without("hard").tests == 50
    model = only_the_score(0.5)
    choose_thresholds(model, both, 0.9)
    checked = both.only("easy")
    in_sample, _ = at_threshold(model, checked)
    held_out, precision = held_out_at_threshold(model, both, checked, 0.9)
    assert held_out < in_sample and precision == 1.0


def test_train_confidence_can_keep_its_weights_and_choose_thresholds_elsewhere(
    tmp_path: Path, tiny_model_dir: Path, capsys
) -> None:
    model_dir = tmp_path / "model"
    shutil.copytree(tiny_model_dir, model_dir)
    fit = write_eval(tmp_path / "fit.json", answers())
    assert main(["train", "confidence", "--out", str(model_dir), "--eval", str(fit), "-q"]) == 0
    fitted = load_model(model_dir, "cpu").answer
    chosen_on = write_eval(tmp_path / "more.json", answers() + [(static(v), r) for v, r in answers()])
    args = [
        "train",
        "confidence",
        "--out",
        str(model_dir),
        "--keep-weights",
        "--threshold-eval",
        str(chosen_on),
    ]
    assert main([*args, "--check", str(chosen_on), "-q"]) == 0
    out = capsys.readouterr().out
    assert "each project at thresholds chosen without it" in out and "(values observed)" in out
    kept = load_model(model_dir, "cpu").answer
    assert kept is not None and fitted is not None and kept.weights == fitted.weights
    assert kept.static_threshold is not None
    assert main(["train", "confidence", "--out", str(tiny_model_dir), "--keep-weights", "-q"]) == 2


def test_the_neural_ranker_answers_with_the_threshold_of_the_views_mode(tiny_model_dir: Path) -> None:
    from oracular.models.ranker import NeuralRanker

    ranker = NeuralRanker(tiny_model_dir, "cpu")
    assert ranker.abstain_below_for(view(0.4, True)) == ranker.abstain_below  # the baseline's, not loaded
    ranker.preload()
    loaded = ranker._future.result(timeout=60) if ranker._future else None
    assert loaded is not None
    loaded.answer = only_the_score(0.3)
    loaded.answer.static_threshold = 0.7
    assert ranker.abstain_below_for(view(0.4, True)) == 0.3
    assert ranker.abstain_below_for(static(view(0.4, True))) == 0.7
