"""A test file with no build file and no ``.git`` above it (a ``LooseTest.java`` dropped into a
folder of checkouts) indexes only its own folder, and indexing it holds up no other document.

Regression: the whole folder of checkouts was indexed (7,728 files, 24 s) on the one analysis
thread, and a document of another project waited behind it for its diagnostics.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
from pathlib import Path

import pytest

from oracular.java.workspace import WorkspaceIndex

from ..conftest import FIXTURES, copy_example
from .conftest import STACK_TEST
from .inprocess import open_java, started_server

pytestmark = pytest.mark.asyncio

LOOSE_TEST = FIXTURES.parent / "loose" / "LooseTest.java"


async def test_a_loose_file_indexes_its_folder_alone_and_delays_no_other_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkouts = tmp_path / "checkouts"
    for name in ("one", "two"):
        shutil.copytree(copy_example(tmp_path / name), checkouts / name)
    (checkouts / "Helper.java").write_text("class Helper { static int one() { return 1; } }\n")
    loose = checkouts / "LooseTest.java"
    shutil.copy(LOOSE_TEST, loose)
    other = copy_example(tmp_path / "other")

    released = threading.Event()
    refresh = WorkspaceIndex.refresh

    def slow_refresh(index: WorkspaceIndex) -> object:
        if index.roots == [checkouts.resolve()]:
            assert released.wait(60), "never released"
        return refresh(index)

    monkeypatch.setattr(WorkspaceIndex, "refresh", slow_refresh)
    server, wire = await started_server(other)
    try:
        loose_uri = open_java(server, loose)
        other_uri = open_java(server, other / STACK_TEST)
        # The other project's diagnostics come while the loose folder is still being indexed.
        analysis = await asyncio.wait_for(server.documents.current(other_uri), 30)
        assert analysis is not None and len(analysis.tests) == 6
        assert not released.is_set() and server.documents.cached(loose_uri) is None
        released.set()
        loose_analysis = await asyncio.wait_for(server.documents.current(loose_uri), 30)
        assert loose_analysis is not None and [t.test.name for t in loose_analysis.tests] == ["sizeAfterAdd"]
        engine = server.engines._built(checkouts.resolve())
        assert engine is not None
        assert sorted(p.name for p in engine.index._files) == ["Helper.java", "LooseTest.java"]
        assert wire.logged("only the files in that folder")
    finally:
        released.set()
        server.worker.shutdown()
        server.engines.close()
