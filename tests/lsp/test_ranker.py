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
        self.asked = threading.Event()
        """Set when something first waits for the model: its load has begun."""
        self.device: str | None = None

    @property
    def loading(self) -> bool:
        return self.device is None

    def wait(self) -> None:
        self.asked.set()
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


async def _replies(wire, request_id: int, timeout_s: float = 15.0) -> dict:
    for _ in range(int(timeout_s / 0.02)):
        found = [m for m in wire.replies() if m.get("id") == request_id]
        if found:
            return found[0]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no reply to request {request_id}")


@pytest.mark.asyncio
async def test_a_quick_fix_asked_while_the_model_loads_waits_for_the_ranking(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No empty lightbulb: right after a fresh start the diagnostics come before the model, and a
    code action request on them is answered once the ranking of that version is there."""
    from oracular.lsp import engines
    from oracular.lsp.ranker import LoadedRanker

    from ..conftest import copy_example
    from .inprocess import initialized_server, notify, open_java, send

    model = SlowModel()
    monkeypatch.setattr(engines, "load_ranker", lambda device: LoadedRanker(model, "cpu"))
    project = copy_example(tmp_path / "stack")
    server, wire = initialized_server(project)
    notify(server, "initialized", {})
    uri = open_java(server, project / "src/test/java/org/example/stack/StackTest.java")
    while (analysis := server.documents.cached(uri)) is None:
        await asyncio.sleep(0.02)
    assert analysis.provisional  # the diagnostics came first
    position = {"line": 15, "character": 10}
    send(server, {"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": uri}, "range": {"start": position, "end": position},
        "context": {"diagnostics": []}}})  # fmt: skip
    await asyncio.sleep(0.3)
    assert not [m for m in wire.replies() if m.get("id") == 7]  # pending: "checking for quick fixes"
    model.loaded.set()
    reply = await _replies(wire, 7)
    titles = [action["title"] for action in reply["result"]]
    assert titles[0] == "Add oracle: assertTrue(empty);"  # ranked


@pytest.mark.asyncio
async def test_the_model_loads_once_the_first_diagnostics_are_out(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The load and the first analysis would share the interpreter: the first diagnostics come
    first, then the load begins; with no document opened it begins after a second anyway."""
    from oracular.lsp import engines, ranker
    from oracular.lsp.ranker import LoadedRanker

    from ..conftest import copy_example
    from .inprocess import initialized_server, notify, open_java

    model = SlowModel()
    monkeypatch.setattr(engines, "load_ranker", lambda device: LoadedRanker(model, "cpu"))
    monkeypatch.setattr(ranker, "START_LOAD_AFTER_S", 30.0)
    project = copy_example(tmp_path / "stack")
    server, wire = initialized_server(project)
    notify(server, "initialized", {})
    for _ in range(250):  # the server is ready once it says which ranker it has
        if wire.logged("ranker on"):
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)
    assert wire.logged("ranker on") and not model.asked.is_set()  # nothing analysed yet: the load waits
    uri = open_java(server, project / "src/test/java/org/example/stack/StackTest.java")
    while server.documents.cached(uri) is None:
        await asyncio.sleep(0.02)
    await asyncio.wait_for(asyncio.to_thread(model.asked.wait), 5)
    model.loaded.set()

    idle = SlowModel()
    monkeypatch.setattr(engines, "load_ranker", lambda device: LoadedRanker(idle, "cpu"))
    monkeypatch.setattr(ranker, "START_LOAD_AFTER_S", 0.2)
    quiet, _ = initialized_server(copy_example(tmp_path / "quiet"))
    notify(quiet, "initialized", {})
    await asyncio.wait_for(asyncio.to_thread(idle.asked.wait), 5)  # no document: it loads anyway
    idle.loaded.set()
