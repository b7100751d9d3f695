"""Before the model has loaded: diagnostics at once, without a ranking; ranked once it is there."""

from __future__ import annotations

import asyncio
import threading

import pytest

from oracular.engine import OracleEngine
from oracular.lsp.documents import OpenDocument, analyse
from oracular.lsp.ranker import WAITING, when_loaded
from oracular.quality import QualitySettings
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import OracleProblem, Ranker, Ranking

from ..conftest import EXAMPLE_TESTS


class SlowModel(Ranker):
    """A model whose weights arrive when the test says so (``loaded``)."""

    name = "neural"
    abstain_below = 0.0

    def __init__(self) -> None:
        self.loaded = threading.Event()
        self.device: str | None = None

    @property
    def loading(self) -> bool:
        return self.device is None

    def wait(self) -> None:
        self.loaded.wait()
        self.device = "cpu"

    def rank(self, problem: OracleProblem) -> Ranking:
        assert self.device is not None, "nothing may rank before the model is loaded"
        return BaselineRanker().rank(problem)


def example(engine: OracleEngine, version: int = 1):
    path = EXAMPLE_TESTS / "StackTest.java"
    document = OpenDocument(path.as_uri(), version, path.read_text(encoding="utf-8"), path)
    return analyse(engine, document, QualitySettings(), lambda: False)


def test_a_loading_model_gives_unranked_diagnostics_then_ranked_ones(engine: OracleEngine) -> None:
    model = SlowModel()
    engine.ranker = model
    assert model.loading
    first = example(engine)
    assert first is not None and first.provisional
    assert first.tests and all(t.suggestions == [] and t.reason == WAITING for t in first.tests)
    model.loaded.set()
    model.wait()
    assert not model.loading
    ranked = example(engine, 2)
    assert ranked is not None and not ranked.provisional
    assert any(t.suggestions for t in ranked.tests)


def test_other_rankers_are_never_waited_for() -> None:
    assert not BaselineRanker().loading


@pytest.mark.asyncio
async def test_open_documents_are_analysed_again_once_loaded() -> None:
    model = SlowModel()
    called = asyncio.Event()
    waiting = asyncio.ensure_future(when_loaded(model, called.set))
    await asyncio.sleep(0.05)
    assert not called.is_set()
    model.loaded.set()
    await asyncio.wait_for(waiting, 5)
    assert called.is_set()
