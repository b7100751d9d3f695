"""END-TO-END WITH THE SHIPPED WEIGHTS: the only tests that load ``models/oracles``.

They check that the default ranker (what the CLI and the server give the engine) picks the
weights up and ranks the bundled example with them, and that CPU int8 quantisation, and CUDA
fp16 where a GPU is present, keep their top choice.
Skipped only in a checkout without the weights (see ``models/MODEL_CARD.md``).
"""

from __future__ import annotations

import pytest
import torch

from oracular.corpus.lists import CorpusLists
from oracular.engine import EngineSettings, OracleEngine
from oracular.java.source import load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.models import store
from oracular.models.inference import LoadedModel
from oracular.models.inputs import InputFormatter
from oracular.models.layout import default_model_dir, weights_present
from oracular.models.ranker import RANKER_ENV, NeuralRanker, default_ranker

from ..conftest import EXAMPLE, EXAMPLE_TESTS
from .conftest import engine_problems

INT8_TOLERANCE = 0.35
"""How far int8 may move a score from the fp32 model's: 0.309 at most on the example's tests with
version 4.6 (``testPopOnEmptyStack``, where int8 moves the probability of throwing, which scales
every assertion's share); one scale per output channel would move it by 0.191 (see ``quantise``
for why the shipped model keeps one per matrix)."""
TOP1_MARGIN = 0.10
"""Above this fp32 margin between the first two scores, int8 keeps the top-1 (11 of the example's
13 tests; none swaps today). Smaller than twice the tolerance on purpose: a tolerance alone would
allow any swap below 0.70."""

pytestmark = pytest.mark.skipif(
    not weights_present(default_model_dir()), reason="no shipped neural model yet (models/oracles)"
)


def test_the_engine_ranks_with_the_shipped_model(
    index: WorkspaceIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(RANKER_ENV, raising=False)
    engine = OracleEngine(index, default_ranker(), EngineSettings(top_k=5), project_root=EXAMPLE)
    assert isinstance(engine.ranker, NeuralRanker)
    report = engine.suggest(load_source(EXAMPLE_TESTS / "StackTest.java"))
    assert engine.ranker_fallback is None and engine.ranker.name == "neural"
    assert report.tests and all(t.suggestions or t.reason for t in report.tests)
    config = store.load_config(default_model_dir())
    assert set(config.stages) == {"exception", "ranker"}
    assert store.size_bytes(default_model_dir()) <= 60e6
    # the learned ranker (fitted on train) ranks both modes; its top-1 probability decides abstention
    learned = config.learned_ranker
    assert learned is not None and learned.covers(True) and learned.covers(False)
    assert engine.learned is not None and engine.learned.thresholds == learned.thresholds
    answered = 0
    for test in report.tests:
        if test.confidence is not None:
            assert test.view is not None and not test.view.observed  # nothing ran here: the static one
            assert engine.abstention_threshold(test.view) == learned.threshold(False)
            assert test.confidence == test.suggestions[0].score
            assert test.abstained is (test.confidence < learned.threshold(False))
            answered += not test.abstained
    assert answered < len(report.tests)  # static answers are few (10% on train): some abstain


def test_int8_keeps_the_shipped_models_ranking(index: WorkspaceIndex) -> None:
    """Dynamic int8 moves scores a little (up to 0.31 on the example): near ties may swap, clear
    decisions may not."""
    network, config, tokenizer = store.load(default_model_dir())
    formatter = InputFormatter(tokenizer, config.inputs)
    exact = LoadedModel(network, formatter, config.calibration, "cpu", config.prior)
    quantised = LoadedModel.from_network(
        network, formatter, config.calibration, "cpu", config.prior, int8=config.int8
    )
    engine = OracleEngine(index, project_root=EXAMPLE)
    problems = [p for file in sorted(EXAMPLE_TESTS.glob("*Test.java")) for p in engine_problems(engine, file)]
    assert len(problems) >= 10
    for problem in problems:
        fp32, int8 = exact.rank(problem).scores, quantised.rank(problem).scores
        assert max(abs(a - b) for a, b in zip(fp32, int8, strict=True)) <= INT8_TOLERANCE, problem.test_name
        first, second = (*sorted(fp32, reverse=True), 0.0)[:2]
        if first - second > TOP1_MARGIN:
            assert _top(fp32) == _top(int8), problem.test_name


def _top(scores: list[float]) -> int:
    return scores.index(max(scores))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_half_precision_keeps_the_shipped_models_ranking(index: WorkspaceIndex) -> None:
    """Runs only where torch sees a GPU (never in CI): the fp16 model on CUDA against fp32 on a CPU."""
    network, config, tokenizer = store.load(default_model_dir())
    formatter = InputFormatter(tokenizer, config.inputs)
    exact = LoadedModel(network, formatter, config.calibration, "cpu", config.prior)
    half = LoadedModel.from_network(
        store.load(default_model_dir())[0], formatter, config.calibration, "cuda", config.prior
    )
    engine = OracleEngine(index, project_root=EXAMPLE)
    problems = [p for file in sorted(EXAMPLE_TESTS.glob("*Test.java")) for p in engine_problems(engine, file)]
    for problem in problems:
        fp32, fp16 = exact.rank(problem).scores, half.rank(problem).scores
        assert max(abs(a - b) for a, b in zip(fp32, fp16, strict=True)) <= 0.02, problem.test_name
        first, second = (*sorted(fp32, reverse=True), 0.0)[:2]
        if first - second > 0.04:
            assert _top(fp32) == _top(fp16), problem.test_name


def test_the_shipped_models_fitted_parts_saw_no_dev_project() -> None:
    """The project's rule: what is fitted on top of the weights (the template prior, the learned
    ranker) is fitted on the train projects; a dev project among them would inflate the report."""
    try:
        dev = set(CorpusLists.load().dev)
    except FileNotFoundError:
        pytest.skip("no corpus lists beside the repository (shared/corpus)")
    config = store.load_config(default_model_dir())
    assert config.learned_ranker is not None
    for part, packages in (
        ("prior", config.metadata["prior"]["packages"]),
        ("learned ranker", config.learned_ranker.metadata["packages"]),
    ):
        assert packages and not dev & set(packages), part
