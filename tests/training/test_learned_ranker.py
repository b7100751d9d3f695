"""Fitting the learned ranker: a feature that tells the developer's candidate gets the weight,
every figure is out of fold (a project scored by a model fitted without it), the thresholds reach
the target precision, and ``oracular train learned-ranker`` saves the model in the config."""

from __future__ import annotations

import json
import random
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from oracular.cli.main import main
from oracular.models.store import ModelConfig, load_config, save_config
from oracular.ranking.features import FEATURES
from oracular.ranking.learned import LearnedRanker
from oracular.training.learned_ranker import (
    LabelledTest,
    OutOfFold,
    choose_threshold,
    cross_validate,
    fit,
    load_tests,
    train_learned_ranker,
)

HOLDS, SCORE = FEATURES.index("holds"), FEATURES.index("ranker_logit")
VACUOUS, CANNOT_HOLD = FEATURES.index("vacuous"), FEATURES.index("cannot_hold")
FAILS = FEATURES.index("fails")


def write_features(path: Path, projects: int = 6, tests: int = 20, seed: int = 1, name: str = "p") -> Path:
    """Tests whose developer's candidate holds when observed (and is the ranker's second guess):
    ``holds`` decides in observed mode, the ranker's score alone is misleading."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for p in range(projects):
            for t in range(tests):
                observed = t % 2 == 0
                rows = [[0.0] * len(FEATURES) for _ in range(4)]
                right = rng.randrange(4)
                for i, row in enumerate(rows):
                    row[SCORE] = 1.0 if i == (right + 1) % 4 else rng.random() * 0.5
                    row[HOLDS] = float(observed and i == right)
                labels = [i == right for i in range(4)]
                data = {"project": f"{name}{p}", "file": "F.java", "test": f"T.t{t}", "kind": "assertion",
                        "observed": observed, "rows": rows, "labels": labels,
                        "offered": [(right + 1) % 4]}  # fmt: skip
                out.write(json.dumps(data) + "\n")
    return path


def test_the_weight_goes_to_the_feature_that_tells(tmp_path: Path) -> None:
    tests = load_tests([write_features(tmp_path / "f.jsonl")])
    observed = fit([t for t in tests if t.observed])
    assert observed.weights[HOLDS] > 1 and observed.weights[HOLDS] > abs(observed.weights[SCORE])
    scored = cross_validate(tests, folds=3)
    assert len(scored) == len(tests)
    by_mode = {m: [s for s in scored if s.test.mode == m] for m in ("static", "observed")}
    assert sum(s.right_at(1) for s in by_mode["observed"]) == len(by_mode["observed"])  # out of fold
    assert sum(s.right_at(1, s.test.offered) for s in by_mode["observed"]) == 0  # the hand order's guess
    assert choose_threshold(by_mode["observed"], 0.9) <= min(
        max(s.probabilities) for s in by_mode["observed"]
    )


def test_uncovered_tests_lower_the_confidence_not_the_order(tmp_path: Path) -> None:
    """Every other test of each mode has no right candidate: the null then takes about half the
    mass (the mean top-1 probability falls from near 1 to near a half), and the weights are those
    fitted on the covered tests alone."""
    path = write_features(tmp_path / "f.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for n, data in enumerate(lines):
        if n % 4 >= 2:  # the lines alternate the modes
            data["labels"] = [False] * len(data["labels"])
    path.write_text("".join(json.dumps(data) + "\n" for data in lines), encoding="utf-8")
    observed = [t for t in load_tests([path]) if t.observed]
    model = fit(observed)
    ranker = LearnedRanker(FEATURES, {"observed": model}, {"observed": 0.0}, {})
    confidence = [max(ranker.probabilities(t.rows.tolist(), True)) for t in observed]
    assert model.null is not None and 0.4 < sum(confidence) / len(confidence) < 0.6
    covered = fit([t for t in observed if bool(t.labels.any())])
    assert covered.weights == pytest.approx(model.weights) and covered.null is not None
    assert covered.null < model.null - 2  # with nothing uncovered, "none" is all but ruled out


def test_the_cli_fits_and_saves_it_in_the_models_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    features = write_features(tmp_path / "f.jsonl")
    save_config(tmp_path, ModelConfig({"hidden_size": 8}))
    fit_args = ["train", "learned-ranker", "--out", str(tmp_path), "--features", str(features)]
    assert main([*fit_args, "--min-tests", "60"]) == 0
    printed = capsys.readouterr().out
    assert '"out_of_fold"' in printed
    learned = load_config(tmp_path).learned_ranker
    assert learned is not None and learned.metadata["projects"] == 6
    _, report = train_learned_ranker([features], min_tests=60)
    assert report["observed"]["top1"] == 1.0 and report["observed"]["hand_top1"] == 0.0
    assert main(["train", "learned-ranker", "--out", str(tmp_path)]) == 2  # no --features
    other = write_features(tmp_path / "g.jsonl", seed=2, name="q")  # another split's features
    script = Path(__file__).parents[2] / "scripts" / "score_features.py"
    scored = subprocess.run(
        [sys.executable, str(script), str(other), "--model", str(tmp_path)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "60 tests, top-1 100.0%" in scored  # holds tells there too
    again = subprocess.run(
        [sys.executable, str(script), str(other), "--model", str(tmp_path), "--model", str(tmp_path)],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "top-1 against the first: 0 gained, 0 lost, net change's sd 0.0 tests" in again


def test_the_tests_a_model_turned_say_how_large_a_chance_difference_is() -> None:
    script = Path(__file__).parents[2] / "scripts" / "score_features.py"
    turned = runpy.run_path(str(script))["turned"]
    before, after = [True, True, False, False, False], [True, False, True, True, False]
    assert turned(before, after) == "top-1 against the first: 2 gained, 1 lost, net change's sd 1.7 tests"


def test_a_mode_with_too_few_tests_gets_no_model(tmp_path: Path) -> None:
    """60 tests of each mode, then 3 more static and 2 more observed ones (a line copied from the
    first file is the same test: counted once): asked for 63, only the static mode gets a model;
    asked for 61 of 60 each, none."""
    features = write_features(tmp_path / "f.jsonl")
    more_static = write_features(tmp_path / "g.jsonl", projects=1, tests=4, seed=2, name="q")  # 2 and 2
    with more_static.open("a", encoding="utf-8") as out:
        for line in (tmp_path / "f.jsonl").read_text(encoding="utf-8").splitlines()[:2]:
            out.write(line.replace('"observed": true', '"observed": false') + "\n")
    model, report = train_learned_ranker([features, more_static], min_tests=63)
    assert model.covers(False) and not model.covers(True) and set(report) == {"static"}
    with pytest.raises(ValueError, match="too few labelled tests in the features"):
        train_learned_ranker([features], min_tests=61)
    assert len(load_tests([features, features])) == len(load_tests([features])) == 120


def test_a_kept_mode_keeps_the_models_fitted_weights_and_threshold(tmp_path: Path) -> None:
    """Static features collected again (a new int8 scheme) refit the static mode only; the observed
    model and threshold stay those of the fit before, and the metadata says what they rest on."""
    save_config(tmp_path, ModelConfig({"hidden_size": 8}))
    first = write_features(tmp_path / "f.jsonl")
    assert (
        main(
            ["train", "learned-ranker", "--out", str(tmp_path), "--features", str(first), "--min-tests", "60"]
        )
        == 0
    )
    before = load_config(tmp_path).learned_ranker
    static = tmp_path / "static.jsonl"
    lines = write_features(tmp_path / "g.jsonl", seed=5, name="s").read_text(encoding="utf-8").splitlines()
    static.write_text("".join(line.replace('"observed": true', '"observed": false') + "\n" for line in lines))
    refit = [
        "train",
        "learned-ranker",
        "--out",
        str(tmp_path),
        "--features",
        str(static),
        "--min-tests",
        "60",
    ]
    assert main([*refit, "--keep-mode", "observed"]) == 0
    after = load_config(tmp_path).learned_ranker
    assert before is not None and after is not None
    assert after.models["observed"] == before.models["observed"]
    assert after.thresholds["observed"] == before.thresholds["observed"]
    assert after.models["static"] != before.models["static"]
    kept = after.metadata["kept"]["observed"]
    assert kept["out_of_fold"] == before.metadata["out_of_fold"]["observed"] and "p0" in kept["packages"]
    assert {"p0", "s0"} <= set(after.metadata["packages"]) and after.metadata["projects"] == 6
    save_config(tmp_path, ModelConfig({"hidden_size": 8}))  # nothing fitted to keep
    assert main([*refit, "--keep-mode", "observed"]) == 2


def test_the_out_of_fold_order_is_the_engines_offering() -> None:
    """Never one that cannot fail, or fails on the code, first (the engine abstains where only
    those are left), those that cannot hold left out: the figures and the threshold are of what a
    user is offered."""
    rows = torch.zeros(4, len(FEATURES), dtype=torch.float64)
    rows[0, VACUOUS], rows[1, CANNOT_HOLD] = 1.0, 1.0
    test = LabelledTest("p", True, rows, torch.tensor([False, False, True, False]), [])
    scored = OutOfFold(test, [0.5, 0.3, 0.15, 0.05])
    assert scored.order == [2, 0, 3] and scored.right_at(1) and scored.confidence == 0.15
    only_vacuous = LabelledTest("p", True, rows[:1], torch.tensor([True]), [])
    assert OutOfFold(only_vacuous, [0.9]).order == [0] and not OutOfFold(only_vacuous, [0.9]).answerable
    assert scored.answerable and choose_threshold([OutOfFold(only_vacuous, [0.9]), scored], 0.5) == 0.15
    rows[0, VACUOUS], rows[0, FAILS] = 0.0, 1.0  # the likeliest fails where the run went
    assert OutOfFold(test, [0.5, 0.3, 0.15, 0.05]).order == [2, 0, 3]
    only_failing = LabelledTest("p", True, rows[:1], torch.tensor([False]), [])
    assert OutOfFold(only_failing, [0.9]).order == [0] and not OutOfFold(only_failing, [0.9]).answerable


def test_with_a_share_to_answer_the_threshold_balances_the_two_margins() -> None:
    """Ten tests, the more confident the likelier right: the lowest threshold at 60% precision
    answers all ten (6 right); asked to answer 40% as well, the one whose smaller margin is the
    largest answers six (5 right: margins 23 and 20 points)."""
    rights = [True, True, True, True, False, True, False, False, True, False]
    items = [
        OutOfFold(LabelledTest("p", True, torch.zeros(1, len(FEATURES), dtype=torch.float64),
                               torch.tensor([right]), []), [1.0 - i / 10])
        for i, right in enumerate(rights)
    ]  # fmt: skip
    assert choose_threshold(items, 0.6) == pytest.approx(0.1)
    assert choose_threshold(items, 0.6, 0.4) == pytest.approx(0.5)
    # where no threshold meets both, the precision decides as before
    assert choose_threshold(items, 0.6, 1.1) == pytest.approx(0.1)
    assert choose_threshold(items, 0.95, 0.5) == pytest.approx(0.7)
