"""The template prior: stored with the weights, applied to live problems, fitted on samples.

Why: the prior changes what the editor ranks first, so it must travel in ``config.json`` with the
weights it was fitted for, leave the exception stage alone, reach the live ranking (where the
test's name then matters), and its fitting must find a feature that predicts the developer's
template.
"""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
from pathlib import Path

import pytest
import torch

from oracular.candidates.template_features import FEATURES, TemplateContext, named_failure
from oracular.cli.main import main
from oracular.engine import OracleEngine
from oracular.java.workspace import WorkspaceIndex
from oracular.models import store
from oracular.models.inference import load_model
from oracular.models.prior import TemplatePrior
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import OracleProblem
from oracular.training.prior import (
    ExceptionBonuses,
    LogitCache,
    TemplateSample,
    exception_type_accuracy,
    fit_exception_bonuses,
    fit_prior,
    template_accuracy,
    template_samples,
    write_prior,
)

from ..conftest import EXAMPLE, EXAMPLE_TESTS
from ..corpus.test_mine import TRAIN, read_jsonl
from ..corpus.test_realistic import mine_fixture_corpus
from .conftest import engine_problems

NAMED = TemplatePrior(1.0, {"name_mentions": 3.0, "built_fresh": -2.0})


@pytest.fixture(scope="module")
def problems(index: WorkspaceIndex) -> list[OracleProblem]:
    engine = OracleEngine(index, ranker=BaselineRanker(), project_root=EXAMPLE)
    return engine_problems(engine, EXAMPLE_TESTS / "StackTest.java")


@pytest.fixture(scope="module")
def realistic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mine_fixture_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture
def prior_dir(tiny_template_dir: Path, tmp_path: Path) -> Path:
    directory = tmp_path / "oracles"
    shutil.copytree(tiny_template_dir, directory)
    write_prior(directory, NAMED, {"train_samples": 3})
    return directory


def test_the_prior_travels_in_the_config_and_only_when_there_is_one(
    prior_dir: Path, tiny_template_dir: Path
) -> None:
    config = json.loads((prior_dir / "config.json").read_text())
    assert config["prior"] == {
        "scale": 1.0,
        "weights": {"name_mentions": 3.0, "built_fresh": -2.0},
        "exception_first": 0.0,
        "exception_named": 0.0,
        "exception_condition": 0.0,
    }
    assert config["metadata"]["prior"] == {"train_samples": 3}
    assert store.load_config(prior_dir).prior == NAMED
    assert "prior" not in json.loads((tiny_template_dir / "config.json").read_text())
    assert not store.load_config(tiny_template_dir).prior.active
    assert (prior_dir / "model.safetensors").read_bytes() == (
        tiny_template_dir / "model.safetensors"
    ).read_bytes()


def test_a_prior_naming_an_unknown_feature_is_refused(prior_dir: Path) -> None:
    config = json.loads((prior_dir / "config.json").read_text())
    config["prior"]["weights"]["gone"] = 1.0
    (prior_dir / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError, match=r"unknown template features.*gone"):
        store.load_config(prior_dir)


def test_the_prior_moves_assertion_logits_and_only_the_first_exception_type() -> None:
    context = TemplateContext(["Stack<Integer> s = new Stack<>();", "s.push(1);"], "testSize")
    templates = [
        "assertNotNull(s)",
        "assertEquals(?, s.size())",
        "assertThrows(EmptyStackException.class)",
        "assertThrows(NullPointerException.class)",
    ]
    flags = [False, False, True, True]
    logits = torch.tensor([1.0, 1.0, 0.5, 0.5])
    assert NAMED.adjust(logits, templates, flags, context).tolist() == pytest.approx(
        [1.0 - 2.0, 1.0 + 3.0, 0.5, 0.5]
    )
    first = dataclasses.replace(NAMED, exception_first=0.7)
    assert first.adjust(logits, templates, flags, context).tolist() == pytest.approx([-1.0, 4.0, 1.2, 0.5])
    assert TemplatePrior().adjust(logits, templates, flags, context) is logits
    assert TemplatePrior(exception_first=0.7).active
    # each exception type by the share of its words the test's name says
    named = TemplatePrior(exception_named=2.0)
    assert named.active
    stack = TemplateContext([], "testEmptyStackPop")
    assert named.adjust(logits, templates, flags, stack).tolist() == pytest.approx([1.0, 1.0, 2.5, 0.5])
    assert named_failure("assertThrows(java.util.EmptyStackException.class)", {"stack"}) == 0.5
    assert named_failure("assertThrows(IllegalArgumentException.class)", {"illegal", "argument"}) == 0.0
    assert named_failure("assertEquals(?, s.size())", {"size"}) == 0.0


def test_with_a_prior_the_live_ranking_reads_the_test_name(
    prior_dir: Path, tiny_template_dir: Path, problems: list[OracleProblem]
) -> None:
    plain, named = load_model(tiny_template_dir, "cpu"), load_model(prior_dir, "cpu")
    assert named.prior == NAMED
    problem = max(problems, key=lambda p: len(p.candidates))
    renamed = OracleProblem("testSomethingTotallyDifferent", problem.prefix, problem.candidates)
    assert plain.rank(problem).scores == plain.rank(renamed).scores
    ranking = named.rank(problem)
    assert ranking.scores != named.rank(renamed).scores
    assert sum(ranking.scores) == pytest.approx(1.0, abs=1e-4)
    assert ranking.exception_probability == plain.rank(problem).exception_probability


def _synthetic(count: int, seed: int) -> list[TemplateSample]:
    """Samples whose developer's template is the one the test's name mentions; logits are noise."""
    rng = random.Random(seed)
    mentions = FEATURES.index("name_mentions")
    samples = []
    for _ in range(count):
        size = rng.randint(3, 8)
        features = torch.zeros((size, len(FEATURES)))
        features[:, FEATURES.index("position")] = torch.rand(size)
        label = rng.randrange(size)
        features[label, mentions] = 1.0
        if rng.random() < 0.3:  # a decoy mentioned too
            features[(label + 1) % size, mentions] = 1.0
        samples.append(TemplateSample(features, torch.randn(size), [label]))
    return samples


def test_fitting_finds_the_feature_that_predicts_the_developers_template() -> None:
    train, dev = _synthetic(300, 0), _synthetic(200, 1)
    prior = fit_prior(train)
    assert max(prior.weights, key=lambda name: abs(prior.weights[name])) == "name_mentions"
    assert prior.weights["name_mentions"] > 1.0
    assert abs(prior.scale) < 0.5  # the logits are noise here
    before, after = template_accuracy(dev), template_accuracy(dev, prior)
    assert after["top1"] > before["top1"] + 0.3 and after["nll"] < before["nll"]
    assert dataclasses.replace(prior) == TemplatePrior.from_json(prior.to_json())


def test_fitting_finds_how_much_the_first_exception_type_is_worth() -> None:
    """The first candidate is the thrown type for 70% of samples; the logits are noise."""
    rng = random.Random(0)
    samples = []
    for _ in range(300):
        size = rng.randint(2, 4)
        features = torch.zeros((size, 3))
        features[0, 0] = 1.0
        label = 0 if rng.random() < 0.7 else rng.randrange(1, size)
        samples.append(TemplateSample(features, torch.randn(size), [label]))
    unoffered = TemplateSample(torch.tensor([[1.0, 0.0, 0.0]]), torch.zeros(1), [])
    fitted = fit_exception_bonuses([*samples, unoffered])
    assert fitted.first > 1.0 and fitted.named == fitted.condition == 0.0  # nothing else says the type
    before, after = exception_type_accuracy(samples), exception_type_accuracy(samples, fitted)
    assert after["type_accuracy_all"] > before["type_accuracy_all"] + 0.15
    assert exception_type_accuracy([unoffered], fitted)["type_accuracy_all"] == 0.0
    assert fit_exception_bonuses([unoffered]) == ExceptionBonuses()  # nothing to gain: the smallest
    # where the type head is right and the order is not, no bonus
    head_knows = [
        TemplateSample(s.features, torch.eye(len(s.logits))[s.labels[0]], s.labels) for s in samples
    ]
    assert fit_exception_bonuses(head_knows) == ExceptionBonuses()
    # the thrown type is the one the test's name says, wherever it stands
    for s in samples[:150]:
        s.features[s.labels[0], 1] = 1.0
    named = fit_exception_bonuses(samples)
    assert named.named > 0.0
    assert exception_type_accuracy(samples, named)["type_accuracy_all"] > after["type_accuracy_all"]
    # ... and for others the documented condition the arguments meet says it, or rules a type out
    for s in samples[150:]:
        s.features[s.labels[0], 2] = 1.0
        s.features[[i for i in range(len(s.logits)) if i != s.labels[0]], 2] = -1.0
    conditions = fit_exception_bonuses(samples)
    assert conditions.condition > 0.0
    assert (
        exception_type_accuracy(samples, conditions)["type_accuracy_all"]
        > exception_type_accuracy(samples, named)["type_accuracy_all"]
    )
    prior = TemplatePrior(1.0, {}, conditions.first, conditions.named, conditions.condition)
    assert TemplatePrior.from_json(prior.to_json()) == prior
    old = TemplatePrior.from_json({"scale": 1.0, "weights": {}})  # version 2.1's
    assert old.exception_first == old.exception_named == old.exception_condition == 0.0


class _Unscored:
    """A model that must not be asked: every logit has to come from the cache."""

    @property
    def formatter(self) -> None:
        raise AssertionError("the network scored a sample the cache holds")


def test_the_network_scores_a_sample_once_across_fits(
    realistic: Path, prior_dir: Path, tmp_path: Path
) -> None:
    samples = read_jsonl(realistic / "train" / "assertion.jsonl")
    cache = LogitCache.for_model(prior_dir, tmp_path)
    scored = template_samples(load_model(prior_dir, "cpu", 1), samples, progress=False, cache=cache)
    reloaded = LogitCache.for_model(prior_dir, tmp_path)
    assert reloaded.path == cache.path and len(reloaded.entries) == len(samples)
    again = template_samples(_Unscored(), samples, progress=False, cache=reloaded)  # type: ignore[arg-type]
    assert all(
        torch.equal(a.logits, b.logits) and torch.equal(a.features, b.features)
        for a, b in zip(scored, again, strict=True)
    )


def test_other_weights_have_a_cache_of_their_own(prior_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(prior_dir, other)
    network, config, _ = store.load(other)
    with torch.no_grad():
        next(network.parameters()).add_(1.0)
    store.save(other, network, config)
    assert LogitCache.for_model(other, tmp_path).path != LogitCache.for_model(prior_dir, tmp_path).path


def test_the_command_fits_the_prior_on_train_then_recalibrates_on_dev(
    realistic: Path,
    prior_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ORACULAR_CACHE", str(tmp_path / "cache"))
    data = tmp_path / "data"  # the fixture's dev projects never throw: their exception samples from train
    shutil.copytree(realistic, data)
    shutil.copy(data / "train" / "exception.jsonl", data / "dev" / "exception.jsonl")
    # an answer confidence fitted on other features (or on the ranking the prior replaces) goes
    stale = json.loads((prior_dir / "config.json").read_text())
    stale["answer"] = {"weights": [1.0], "bias": 0.0, "mean": [0.0], "scale": [1.0], "threshold": 0.5,
                       "names": ["gone"]}  # fmt: skip
    (prior_dir / "config.json").write_text(json.dumps(stale))
    args = ["train", "prior", "--data", str(data), "--out", str(prior_dir), "--device", "cpu", "-q"]
    assert main(args) == 0
    config = store.load_config(prior_dir)
    assert config.answer is None and "answer" not in json.loads((prior_dir / "config.json").read_text())
    assert config.inputs.templates, "re-calibrating (no --templates) must not turn the model into version 1"
    assert config.prior != NAMED and set(config.prior.weights) == set(FEATURES)
    fitted = config.metadata["prior"]
    assert fitted["train_samples"] == len(read_jsonl(realistic / "train" / "assertion.jsonl"))
    assert fitted["packages"] and set(fitted["packages"]) <= set(TRAIN)  # recorded, and train's only
    assert {"top1", "top5", "nll"} <= set(fitted["dev_with"]) and fitted["dev_with"]["samples"] > 0
    throwing = [s for s in read_jsonl(data / "dev" / "exception.jsonl") if s["label"] and s["exception"]]
    assert fitted["types_dev_with"]["samples"] == len(throwing) > 0
    # the calibration's dev report ranks the types as the engine does: with the first type's bonus
    calibrated = config.metadata["dev"]["exception"]
    assert calibrated["type_accuracy_all"] == pytest.approx(fitted["types_dev_with"]["type_accuracy_all"])
    assert config.metadata["last_calibrate_run"]["steps"] == 0
    assert "calibration" in capsys.readouterr().out
    assert len(list((tmp_path / "cache" / "prior-logits").glob("*.pt"))) == 1, (
        "the logits are kept for a refit"
    )


def test_a_value_full_model_has_no_template_prior(
    realistic: Path, tiny_model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "oracles"
    shutil.copytree(tiny_model_dir, out)
    args = ["train", "prior", "--data", str(realistic), "--out", str(out), "--device", "cpu", "-q"]
    assert main(args) == 2
    assert "needs version 2" in capsys.readouterr().err
