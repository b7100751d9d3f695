"""A document closed and opened again is analysed as an edit is: its unchanged methods' results
are reused from before the close (``documents.CLOSED_KEPT`` closed documents keep theirs), and the
diagnostics are the same as a first open's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from oracular.lsp import documents

from ..conftest import copy_example
from .conftest import STACK_TEST
from .inprocess import notify, open_java, started_server

pytestmark = pytest.mark.asyncio


def close_java(server, uri: str) -> None:
    notify(server, "textDocument/didClose", {"textDocument": {"uri": uri}})


async def analysed(server, uri: str):
    analysis = await asyncio.wait_for(server.documents.current(uri), 60)
    assert analysis is not None and analysis.report is not None
    return analysis


def summary(analysis) -> list[tuple[str, int, str | None]]:
    return [(t.test.name, t.line, t.suggestions[0].oracle if t.suggestions else None) for t in analysis.tests]


async def test_a_reopened_document_reuses_its_methods_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(documents, "CLOSED_KEPT", 1)
    project = copy_example(tmp_path)
    server, _ = await started_server(project)
    try:
        uri = open_java(server, project / STACK_TEST)
        first = await analysed(server, uri)
        memo = server.documents._history[uri].memo
        assert memo.hits == 0 and memo.misses > 0
        close_java(server, uri)
        assert server.documents.cached(uri) is None

        uri = open_java(server, project / STACK_TEST)
        again = await analysed(server, uri)
        assert server.documents._history[uri].memo is memo
        assert memo.hits > 0, "the reopened document's methods were analysed again"
        assert summary(again) == summary(first)

        # Only CLOSED_KEPT closed documents keep their history: another close pushes this one out.
        other = project / STACK_TEST.parent / "Other.java"
        other.write_text((project / STACK_TEST).read_text().replace("class StackTest", "class Other"))
        close_java(server, uri)
        other_uri = open_java(server, other)
        await analysed(server, other_uri)
        close_java(server, other_uri)
        uri = open_java(server, project / STACK_TEST)
        await analysed(server, uri)
        assert server.documents._history[uri].memo is not memo
    finally:
        server.worker.shutdown()
        server.engines.close()
