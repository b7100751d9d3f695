"""The engine-facing ranker: devices, int8 quantisation, live problems, background loading, fallback.

Why: in the editor the model must load without blocking, run on whatever device exists, rank
every candidate of a test in one pass, and, without weights, hand over to the baseline and say
so once instead of failing.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch import nn

from oracular.candidates.strength import cannot_hold
from oracular.candidates.templates import group_by_template
from oracular.engine import EngineSettings, OracleEngine
from oracular.java.source import load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.models import ranker as ranker_module
from oracular.models.calibration import Calibration
from oracular.models.devices import DeviceUnavailable, select_device
from oracular.models.inference import LoadedModel, load_model, quantise
from oracular.models.inputs import Encoded, InputFormatter
from oracular.models.network import OracleNetwork, collate, masked_mean
from oracular.models.ranker import NeuralRanker, default_ranker
from oracular.ranking.baseline import BaselineRanker, value_weights
from oracular.ranking.problem import OracleProblem
from oracular.ranking.steps.file_habits import raise_asserted_alike
from oracular.ranking.weights import RankingWeights

from ..conftest import EXAMPLE, EXAMPLE_TESTS
from .conftest import STACK_CANDIDATES, STACK_FOCAL, STACK_STATEMENTS, engine_problems, tiny_network


@pytest.fixture(scope="module")
def problems(index: WorkspaceIndex) -> list[OracleProblem]:
    """The engine's problems for the Stack example's oracle-free tests."""
    engine = OracleEngine(index, ranker=BaselineRanker(), project_root=EXAMPLE)
    return engine_problems(engine, EXAMPLE_TESTS / "StackTest.java")


# -- devices ------------------------------------------------------------------------------
def test_device_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert select_device("cpu") == "cpu" and select_device("auto") == "cpu"
    with pytest.raises(DeviceUnavailable):
        select_device("cuda")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert (
        select_device("auto") == "cuda" and select_device("cuda") == "cuda" and select_device("cpu") == "cpu"
    )
    with pytest.raises(ValueError):
        select_device("tpu")


def test_the_gpu_gets_half_precision_and_the_cpu_int8(monkeypatch: pytest.MonkeyPatch, formatter) -> None:
    moved: list[str] = []

    class Recorder(OracleNetwork):
        def to(self, device: str):  # type: ignore[override]
            moved.append(device)
            return self

    torch.manual_seed(0)
    network = Recorder(tiny_network().config)
    model = LoadedModel.from_network(network, formatter, Calibration(), "cuda")
    assert moved == ["cuda"] and next(model.network.parameters()).dtype == torch.float16
    cpu = LoadedModel.from_network(tiny_network(), formatter, Calibration(), "cpu")
    assert not any(type(m) is nn.Linear for m in cpu.network.modules())


# -- quantisation -------------------------------------------------------------------------
def _separating_head(network: OracleNetwork, batch) -> None:
    """Make the scorer read the direction in which the candidates differ most, at unit scale.

    A random head scores every candidate within ~0.01 of each other, where no comparison of
    rankings means anything; a trained scorer spreads them over several units along the features
    that tell candidates apart. This gives the random network that property without training.
    """
    with torch.no_grad():
        context = network.bert.encode_context(batch.context_ids, batch.context_mask)
        hidden = network.bert.encode_candidates(context, batch.candidate_ids, batch.candidate_mask)
        pooled = masked_mean(hidden, batch.candidate_mask)[0]
        shared = context.pooled.expand_as(pooled)
        features = network.candidate_head[:3](torch.cat([pooled, shared, pooled * shared], -1))
        _, singular, directions = torch.linalg.svd(features - features.mean(0), full_matrices=False)
        network.candidate_head[3].weight.copy_(directions[:1] * len(pooled) ** 0.5 / singular[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_quantised_model_keeps_the_ranking(formatter: InputFormatter, seed: int) -> None:
    candidates = [*STACK_CANDIDATES, *(f"assertEquals({v}, s.peek())" for v in (0, 7, 42, -1))]
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, candidates)], formatter.pad_id)
    network = tiny_network(seed)
    _separating_head(network, batch)
    with torch.no_grad():
        exception, scores = network(batch)
        exception_q, scores_q = quantise(network)(batch)
    error = (scores - scores_q).abs().max()
    assert error < 0.25 * scores.std()  # only near-ties (closer than the error) can swap
    assert torch.corrcoef(torch.stack([scores[0], scores_q[0]]))[0, 1] > 0.99
    assert (exception - exception_q).abs().max() < 0.1


# -- ranking live problems ----------------------------------------------------------------
def test_a_loaded_model_ranks_engine_problems(tiny_model_dir: Path, problems: list[OracleProblem]) -> None:
    model = load_model(tiny_model_dir, "cpu")
    assert model.device == "cpu"
    for problem in problems:
        ranking = model.rank(problem)
        assert len(ranking.scores) == len(problem.candidates)
        assert all(0.0 <= s <= 1.0 for s in ranking.scores)
        assert sum(ranking.scores) == pytest.approx(1.0, abs=1e-4)
        assert ranking.exception_type in {c.exception for c in problem.candidates if c.kind == "exception"}


def test_both_model_versions_load_and_say_how_they_read_candidates(
    tiny_model_dir: Path, tiny_template_dir: Path, tmp_path: Path
) -> None:
    assert load_model(tiny_model_dir, "cpu").formatter.settings.templates is False
    assert load_model(tiny_template_dir, "cpu").formatter.settings.templates is True
    older = tmp_path / "oracles"  # a version 1 config.json predates the setting
    shutil.copytree(tiny_model_dir, older)
    config = json.loads((older / "config.json").read_text())
    del config["inputs"]["templates"]
    (older / "config.json").write_text(json.dumps(config))
    assert load_model(older, "cpu").formatter.settings.templates is False


def test_a_template_model_scores_each_template_once_and_shares_it_among_its_values(
    tiny_template_dir: Path, problems: list[OracleProblem], monkeypatch: pytest.MonkeyPatch
) -> None:
    model = load_model(tiny_template_dir, "cpu")
    read: list[list[str]] = []
    encode = model.formatter.encode

    def recording(statements: list[str], focal: dict | None, texts: list[str], name: str) -> Encoded:
        read.append(list(texts))
        return encode(statements, focal, texts, name)

    monkeypatch.setattr(model.formatter, "encode", recording)
    problem = max(problems, key=lambda p: len(p.candidates))
    ranking = model.rank(problem)
    texts, group = group_by_template(problem.candidates)
    assert read == [texts] and len(texts) < len(problem.candidates)
    assert sum(ranking.scores) == pytest.approx(1.0, abs=1e-4)
    weights = value_weights(problem)
    shared = [i for i, g in enumerate(group) if group.count(g) > 1]
    assert shared, "the Stack example has several values for one template"
    first, *others = [i for i in shared if group[i] == group[shared[0]]]
    for other in others:
        assert ranking.scores[other] / ranking.scores[first] == pytest.approx(weights[other] / weights[first])
    assert ranking.exception_type in {c.exception for c in problem.candidates if c.kind == "exception"}


def test_the_test_name_does_not_matter(tiny_model_dir: Path, problems: list[OracleProblem]) -> None:
    model = load_model(tiny_model_dir, "cpu")
    problem = problems[0]
    renamed = OracleProblem("testSomethingTotallyDifferent", problem.prefix, problem.candidates)
    assert model.rank(problem).scores == model.rank(renamed).scores


# -- the ranker: background loading and fallback --------------------------------------------
def test_missing_weights_fall_back_to_the_baseline_and_say_so_once(
    tmp_path: Path, problems: list[OracleProblem], caplog: pytest.LogCaptureFixture
) -> None:
    ranker_module._warned.clear()
    ranker = NeuralRanker(tmp_path / "nothing-here")
    assert ranker.name == "baseline" and "no neural model" in (ranker.fallback_reason or "")
    with caplog.at_level(logging.WARNING, logger="oracular.models"):
        for problem in problems:
            assert ranker.rank(problem) == BaselineRanker().rank(problem)
    assert sum("no neural model" in r.getMessage() for r in caplog.records) == 1
    assert ranker.device is None and ranker.abstain_below == BaselineRanker.abstain_below


def test_the_model_loads_in_the_background_and_ranks(
    tiny_model_dir: Path, problems: list[OracleProblem]
) -> None:
    ranker = NeuralRanker(tiny_model_dir, device="cpu")
    assert ranker.device is None  # nothing loaded before it is asked for
    ranker.preload()
    ranker.preload()  # idempotent
    expected = load_model(tiny_model_dir, "cpu")
    for problem in problems:
        assert ranker.rank(problem).scores == pytest.approx(expected.rank(problem).scores, abs=1e-6)
    assert ranker.name == "neural" and ranker.fallback_reason is None
    assert ranker.device == "cpu" and ranker.abstain_below == 0.3


def test_a_broken_model_falls_back_with_its_reason(tmp_path: Path, problems: list[OracleProblem]) -> None:
    (tmp_path / "config.json").write_text("{not json")
    (tmp_path / "model.safetensors").write_bytes(b"garbage")
    ranker = NeuralRanker(tmp_path, device="cpu")
    assert ranker.rank(problems[0]) == BaselineRanker().rank(problems[0])
    assert "cannot load the neural model" in (ranker.fallback_reason or "")


def test_default_ranker_points_at_the_models_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(ranker_module.RANKER_ENV, raising=False)
    monkeypatch.setattr(ranker_module, "default_model_dir", lambda: tmp_path)
    ranker = default_ranker()
    assert isinstance(ranker, NeuralRanker) and ranker.directory == tmp_path
    monkeypatch.setenv(ranker_module.RANKER_ENV, "baseline")
    assert isinstance(default_ranker(), BaselineRanker)


def test_importing_the_engine_does_not_import_torch() -> None:
    code = "import sys, oracular.engine as e; e.OracleEngine(); print('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_loading_a_model_does_not_import_transformers(tiny_model_dir: Path) -> None:
    """transformers is for training (the pretrained backbone); importing it cost the editor 1.7 s."""
    code = (
        "import sys; from oracular.models.inference import load_model; "
        f"load_model(__import__('pathlib').Path({str(tiny_model_dir)!r}), 'cpu'); "
        "print('transformers' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# -- the engine's hook ---------------------------------------------------------------------
def test_the_engine_ranks_with_the_default_ranker_it_is_given(
    monkeypatch: pytest.MonkeyPatch, index: WorkspaceIndex, tiny_model_dir: Path
) -> None:
    monkeypatch.delenv(ranker_module.RANKER_ENV, raising=False)
    monkeypatch.setattr(ranker_module, "default_model_dir", lambda: tiny_model_dir)
    settings = EngineSettings(top_k=64, abstain_below=0.0)
    engine = OracleEngine(index, default_ranker(), settings, project_root=EXAMPLE)
    assert isinstance(engine.ranker, NeuralRanker) and engine.ranker.device is None  # lazy
    report = engine.suggest(load_source(EXAMPLE_TESTS / "StackTest.java"))
    assert engine.ranker_fallback is None and engine.ranker.name == "neural"
    model = load_model(tiny_model_dir, "cpu")
    asserted = engine.analyse(load_source(EXAMPLE_TESTS / "StackTest.java")).asserted
    for test, problem in zip(
        report.tests, engine_problems(engine, EXAMPLE_TESTS / "StackTest.java"), strict=True
    ):
        expected = model.rank(problem)
        assert test.exception_probability == pytest.approx(expected.exception_probability, abs=1e-6)
        # the file's habits reorder the model's scores (candidates/habits.py); the offered order
        # puts oracles that cannot fail last and leaves out those that cannot hold: compare the
        # scores as sets; calls of the suite's helpers (StackTest's assertSize) are scored by the
        # file's habit, not the model
        scores = raise_asserted_alike(
            problem.candidates, expected.scores, asserted, problem.prefix, RankingWeights().asserted_alike
        )
        scores = [
            x for c, x in zip(problem.candidates, scores, strict=True) if not cannot_hold(c, problem.prefix)
        ]
        ranked = (s.score for s in test.suggestions if s.kind != "helper")
        assert sorted(ranked, reverse=True) == pytest.approx(sorted(scores, reverse=True), abs=1e-6)


def test_the_engine_abstains_at_the_models_threshold_unless_the_user_sets_one(
    monkeypatch: pytest.MonkeyPatch, index: WorkspaceIndex, tiny_model_dir: Path, tmp_path: Path
) -> None:
    source = load_source(EXAMPLE_TESTS / "StackTest.java")
    model = load_model(tiny_model_dir, "cpu")
    never = OracleEngine(index, model, EngineSettings(top_k=3, abstain_below=0.0), EXAMPLE)
    tops = sorted(t.suggestions[0].score for t in never.suggest(source).tests)
    assert tops[0] < tops[-1]
    # The same model, calibrated so that its threshold splits this file's tests.
    calibrated = tmp_path / "model"
    shutil.copytree(tiny_model_dir, calibrated)
    config = json.loads((calibrated / "config.json").read_text())
    threshold = (tops[0] + tops[-1]) / 2
    config["calibration"]["abstain_below"] = threshold
    (calibrated / "config.json").write_text(json.dumps(config))
    monkeypatch.delenv(ranker_module.RANKER_ENV, raising=False)
    monkeypatch.setattr(ranker_module, "default_model_dir", lambda: calibrated)

    engine = OracleEngine(index, default_ranker(), EngineSettings(top_k=3), project_root=EXAMPLE)
    report = engine.suggest(source)
    assert engine.abstention_threshold() == pytest.approx(threshold)
    assert {t.abstained for t in report.tests} == {True, False}
    for test in report.tests:
        top = test.suggestions[0].score
        assert test.abstained is (top < threshold)
        if test.abstained:
            assert test.reason == f"no confident oracle (confidence {top:.2f} < {threshold:.2f})"
    engine.settings = EngineSettings(top_k=3, abstain_below=0.0)  # the user's setting wins
    assert engine.abstention_threshold() == 0.0
    assert not any(t.abstained for t in engine.suggest(source).tests)


def test_without_weights_the_engine_flags_its_fallback(
    monkeypatch: pytest.MonkeyPatch, index: WorkspaceIndex, tmp_path: Path
) -> None:
    monkeypatch.delenv(ranker_module.RANKER_ENV, raising=False)
    monkeypatch.setattr(ranker_module, "default_model_dir", lambda: tmp_path)
    engine = OracleEngine(index, default_ranker(), project_root=EXAMPLE)
    assert "baseline" in (engine.ranker_fallback or "")
    assert OracleEngine(index, ranker=BaselineRanker()).ranker_fallback is None  # chosen, not a fallback
    assert OracleEngine(index).ranker.name == "baseline"  # no ranker given: the heuristic, no model
