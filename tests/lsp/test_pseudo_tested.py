"""Pseudo-tested methods in the editor, end to end with a real JVM: the command on a test class
(code lens), its JSON answer, the verdicts as code lenses in the main source file, and the killing
oracle as a quick fix offered for the version the run was made for only."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from oracular.execution.toolchain import DEBIAN_JAVA
from oracular.lsp.pseudo_tested import PSEUDO_TESTED, RUN_TITLE

from ..execution.conftest import require_toolchain
from ..mutation.conftest import PSEUDO, PSEUDO_MAIN, PSEUDO_TEST
from .conftest import (
    Document,
    RecordingClient,
    apply_workspace_edit,
    at,
    code_actions,
    error_of,
    initialize,
    opened,
)

JUNIT4 = [str(DEBIAN_JAVA / n) for n in ("junit4.jar", "hamcrest-core.jar")]
RUNNING = {"checkOracles": True, "classpath": JUNIT4}


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Servers started by this module run into a cache of their own (they inherit the variable)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORACULAR_CACHE", str(tmp_path_factory.mktemp("oracular-cache")))
        yield


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "pseudo"
    shutil.copytree(PSEUDO, root)
    return root


@contextlib.asynccontextmanager
async def _running(client: RecordingClient, tmp_path: Path) -> AsyncIterator[Document]:
    """A server that may run code, on a copy of the fixture, with its test class open and analysed."""
    require_toolchain()
    root = _copy(tmp_path)
    await initialize(client, "visual-studio-code", root, RUNNING)
    async with opened(client, root / PSEUDO_TEST) as doc:
        await doc.diagnostics()
        yield doc


async def _lenses(client: RecordingClient, path: Path) -> list[str]:
    params = types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    return [
        lens.command.title
        for lens in await client.text_document_code_lens_async(params) or []
        if lens.command
    ]


@pytest.mark.asyncio
async def test_run_from_the_class_lens_then_verdicts_and_the_killing_quick_fix(
    vscode_client: RecordingClient, tmp_path: Path
) -> None:
    client = vscode_client
    root = tmp_path / "pseudo"
    async with _running(client, tmp_path) as doc:
        lens = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc.identifier))
        (run_lens,) = lens or []
        assert run_lens.command is not None and run_lens.command.title == RUN_TITLE
        assert list(run_lens.command.arguments or []) == [doc.uri]
        assert run_lens.range.start.line == 7  # above the test class
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=PSEUDO_TESTED, arguments=[doc.uri])
        )
        verdicts = {m["method"]: m["verdict"] for m in answer["methods"]}
        assert client.code_lens_refreshes == 1  # the verdicts' lenses are there to be asked for
        assert verdicts["IntStack.size"] == "pseudo-tested" and verdicts["IntStack.pop"] == "tested"
        assert await _lenses(client, root / PSEUDO_MAIN) == [
            "tested: 1 of 1 extreme mutants killed (IntStackTest)",
            "tested: 1 of 1 extreme mutants killed (IntStackTest)",
            "pseudo-tested: 0 of 1 extreme mutants killed (IntStackTest)",
            "partially tested: 1 of 2 extreme mutants killed (IntStackTest)",
            "pseudo-tested: 0 of 1 extreme mutants killed (IntStackTest)",
        ]
        actions = await code_actions(client, doc, at(doc.position_of("s.size();")))
        kill = next(a for a in actions if "kills" in a.title)
        assert (
            kill.title == "Add oracle: assertEquals(2, s.size()); · kills 1 surviving mutant of IntStack.size"
        )
        assert kill.edit is not None
        assert "        assertEquals(2, s.size());\n" in apply_workspace_edit(doc, kill.edit)
        doc.insert(0, 0, "// edited\n")  # a newer version: the run's edit no longer applies
        await doc.diagnostics()
        actions = await code_actions(client, doc, at(doc.position_of("s.size();")))
        assert not any("kills" in a.title for a in actions)


@pytest.mark.asyncio
async def test_the_command_refuses_where_user_code_may_not_run(
    vscode_client: RecordingClient, tmp_path: Path
) -> None:
    root = _copy(tmp_path)
    await initialize(vscode_client, "visual-studio-code", root, {"checkOracles": False})
    request = vscode_client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=PSEUDO_TESTED, arguments=[(root / PSEUDO_TEST).as_uri()])
    )
    error = await error_of(request)
    assert str(error).startswith(f"{PSEUDO_TESTED}: ") and "checkOracles" in str(error), str(error)


@pytest.mark.asyncio
async def test_a_cancelled_run_stops_and_the_next_one_answers(
    vscode_client: RecordingClient, tmp_path: Path
) -> None:
    """``$/cancelRequest`` on a run: its request fails as cancelled, nothing is kept for the
    document, and the next run (same helper JVM) answers in full."""
    client = vscode_client
    async with _running(client, tmp_path) as doc:
        waiter = client.protocol.raw_waiters["run-1"] = asyncio.get_running_loop().create_future()
        request = {"command": PSEUDO_TESTED, "arguments": [doc.uri]}
        client.send_raw(json.dumps(_message("run-1", "workspace/executeCommand", request)).encode())
        await _under_way(client)
        client.send_raw(json.dumps(_message(None, "$/cancelRequest", {"id": "run-1"})).encode())
        with pytest.raises(JsonRpcException):
            await asyncio.wait_for(waiter, 30)
        actions = await code_actions(client, doc, at(doc.position_of("s.size();")))
        assert not any("kills" in a.title for a in actions)  # the cancelled run left nothing
        answer = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=PSEUDO_TESTED, arguments=[doc.uri])
        )
        assert {m["method"]: m["verdict"] for m in answer["methods"]}["IntStack.size"] == "pseudo-tested"


async def _under_way(client: RecordingClient) -> None:
    """Until the run reports its first mutated method: past the baseline, its mutants still to run
    (a fixed sleep raced a warm helper JVM that finished the whole run within it)."""

    async def reported() -> None:
        while not any(
            isinstance(r, types.WorkDoneProgressReport) and "(0/" in (r.message or "")
            for reports in client.progress_reports.values()
            for r in reports
        ):
            await asyncio.sleep(0.005)

    await asyncio.wait_for(reported(), 30)


def _message(msg_id: str | None, method: str, params: object) -> dict:
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    return message if msg_id is None else {**message, "id": msg_id}
