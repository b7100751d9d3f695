"""A misbehaving client gets LSP errors, never a dead or silent server; a long session does not
leak; and the server also speaks TCP.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from oracular.lsp.diagnostics import PENDING_DATA

from .conftest import (
    SERVER_COMMAND,
    STACK_TEST,
    TIMEOUT_S,
    RecordingClient,
    apply_workspace_edit,
    at,
    code_actions,
    error_of,
    full_range,
    initialize,
    opened,
    server_process,
    tcp_server,
    until,
)


@pytest.mark.asyncio
async def test_the_server_process_is_the_one_the_client_talks_to(vscode_client: RecordingClient) -> None:
    """Pins :func:`~.conftest.server_process`, the tests' one reach into pytest-lsp's client: if this
    fails, an upgrade moved the process, and a hung server would no longer be killed at teardown."""
    process = server_process(vscode_client)
    assert process.returncode is None and vscode_client.protocol.writer is process.stdin


async def still_answers(client: RecordingClient, project: Path) -> None:
    async with opened(client, project / STACK_TEST) as doc:
        assert len(await doc.diagnostics()) == 6
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=doc.identifier, position=doc.position_of("testPushSize", 2))
        )
        assert hover is not None


@pytest.mark.asyncio
async def test_requests_before_initialize_and_after_shutdown(
    vscode_client: RecordingClient, project: Path
) -> None:
    client = vscode_client
    client.capabilities = types.ClientCapabilities()  # lets pytest-lsp send before initialize
    hover = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=(project / STACK_TEST).as_uri()),
        position=types.Position(line=0, character=0),
    )
    early = await error_of(client.text_document_hover_async(hover))
    assert early.code == types.ErrorCodes.ServerNotInitialized
    client.text_document_did_open(  # notifications before initialize are dropped
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=hover.text_document.uri, language_id="java", version=1, text=""
            )
        )
    )
    await initialize(client, client.profile, project)
    again = await error_of(
        client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    )
    assert again.code == types.ErrorCodes.InvalidRequest
    await still_answers(client, project)
    await client.shutdown_async(None)
    late = await error_of(client.text_document_hover_async(hover))
    assert late.code == types.ErrorCodes.InvalidRequest
    client.exit(None)
    await until(lambda: client.exit_code is not None, what="the server's exit")
    assert client.exit_code == 0
    client.capabilities = None  # already shut down: the fixture must not do it again


@pytest.mark.asyncio
async def test_malformed_and_out_of_order_messages(vscode_client: RecordingClient, project: Path) -> None:
    client = vscode_client
    await initialize(client, client.profile, project)
    uri = (project / STACK_TEST).as_uri()
    # Params that do not fit the method.
    for params in ({"bogus": 1}, [1, 2], {"textDocument": {"uri": 5}, "position": {"line": "x"}}):
        bad = await error_of(client.raw_request(types.TEXT_DOCUMENT_HOVER, params))
        assert (
            bad.code == types.ErrorCodes.InvalidParams
            and bad.message == "invalid params for textDocument/hover"
        )
    # Unknown methods, commands and code actions that are not ours.
    unknown = await error_of(client.protocol.send_request_async("oracular/noSuchMethod", {}))
    assert unknown.code == types.ErrorCodes.MethodNotFound
    command = await error_of(
        client.workspace_execute_command_async(types.ExecuteCommandParams(command="oracular.nope"))
    )
    assert command.code == types.ErrorCodes.InvalidParams
    for data in (None, {"uri": uri}, {"uri": uri, "version": 1, "method": "x"}):
        foreign = await error_of(client.code_action_resolve_async(types.CodeAction(title="x", data=data)))
        assert foreign.code == types.ErrorCodes.InvalidParams
    # Requests and edits for documents that were never opened.
    nowhere = types.TextDocumentIdentifier(uri=(project / "src" / "NeverOpenedTest.java").as_uri())
    assert (
        await client.text_document_hover_async(
            types.HoverParams(text_document=nowhere, position=types.Position(line=0, character=0))
        )
        is None
    )
    assert not await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=nowhere, range=full_range(""), context=types.CodeActionContext([])
        )
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=nowhere.uri, version=7),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="class X {}")],
        )
    )
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=nowhere))
    # Bytes that are not JSON at all.
    client.send_raw(b"{not json")
    client.send_raw(b"[1, 2, 3]")
    await still_answers(client, project)
    assert any("not open" in m.message for m in client.log_messages)


class RawSession:
    """A minimal JSON-RPC peer on the server's stdio: for a soak, the client must cost less than
    the server, and pytest-lsp's typed client costs more per request than the server does."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process, self.stdin, self.stdout = process, process.stdin, process.stdout

    def send(self, method: str, params: object, msg_id: int | None = None) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if msg_id is not None:
            message["id"] = msg_id
        body = json.dumps(message).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    async def receive(self) -> dict:
        length = 0
        while (line := await self.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(await self.stdout.readexactly(length))

    async def until(self, predicate: Callable[[dict], bool]) -> dict:
        while not predicate(message := await asyncio.wait_for(self.receive(), TIMEOUT_S)):
            pass
        return message


@asynccontextmanager
async def raw_server() -> AsyncIterator[RawSession]:
    """``oracular serve`` on stdio with a bare peer; killed at the end if it has not exited."""
    process = await asyncio.create_subprocess_exec(
        *SERVER_COMMAND, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    try:
        yield RawSession(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def complete_diagnostics(message: dict) -> bool:
    """A publication of diagnostics that is no first look (whose tests are not ranked yet)."""
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    return not any(d.get("data") == PENDING_DATA for d in message["params"]["diagnostics"])


@pytest.mark.asyncio
async def test_soak_10k_requests_without_leaking(project: Path) -> None:
    async with raw_server() as session:
        process = session.process
        options = {"oracular": {"device": "cpu"}}
        session.send("initialize", {"capabilities": {}, "initializationOptions": options}, 0)
        await session.until(lambda m: m.get("id") == 0)
        session.send("initialized", {})
        await session.until(lambda m: "ranker on" in m.get("params", {}).get("message", ""))
        path = project / STACK_TEST
        uri, text = path.as_uri(), path.read_text()
        document = {"uri": uri, "languageId": "java", "version": 1, "text": text}
        session.send("textDocument/didOpen", {"textDocument": document})
        await session.until(complete_diagnostics)
        line = text.splitlines().index("    void testPopOnEmptyStack() {")
        name = {"line": line, "character": 10}
        where = {"textDocument": {"uri": uri}}
        requests = [
            ("textDocument/hover", {**where, "position": name}),
            (
                "textDocument/inlayHint",
                {**where, "range": {"start": {"line": 0, "character": 0}, "end": name}},
            ),
            (
                "textDocument/codeAction",
                {**where, "range": {"start": name, "end": name}, "context": {"diagnostics": []}},
            ),
        ]

        async def burst(first: int, count: int) -> None:
            for start in range(first, first + count, 500):  # 500 in flight at a time
                for msg_id in range(start, start + 500):
                    session.send(*requests[msg_id % 3], msg_id)
                answered = [await session.until(lambda m: "id" in m) for _ in range(500)]
                assert all(m.get("result") for m in answered), next(
                    m for m in answered if not m.get("result")
                )

        def rss_kib() -> int:
            status = Path(f"/proc/{process.pid}/status").read_text()
            return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]

        await burst(1, 1000)  # warm up: caches, allocator arenas
        before = rss_kib()
        started = time.perf_counter()
        await burst(1001, 10_000)
        elapsed = time.perf_counter() - started
        after = rss_kib()
        session.send("shutdown", None, 0)
        await session.until(lambda m: m.get("id") == 0)
        session.send("exit", None)
        assert await asyncio.wait_for(process.wait(), TIMEOUT_S) == 0
    print(f"soak: 10000 requests in {elapsed:.1f} s; server RSS {before} -> {after} KiB")
    assert after - before < 16 * 1024, f"server RSS grew from {before} to {after} KiB"


@pytest.mark.asyncio
async def test_serves_over_tcp(project: Path) -> None:
    async with tcp_server() as (client, server):
        await initialize(client, "neovim", project)
        await still_answers(client, project)
        await client.shutdown_async(None)
        client.exit(None)
        assert await asyncio.wait_for(server.wait(), 10) == 0


def test_serve_rejects_a_bad_tcp_address(capsys: pytest.CaptureFixture[str]) -> None:
    from oracular.cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--tcp", "localhost"])
    assert exit_info.value.code == 2
    assert "expected HOST:PORT" in capsys.readouterr().err


def test_serve_takes_the_stdio_flag_language_clients_add(capsys: pytest.CaptureFixture[str]) -> None:
    from oracular.cli.main import build_parser, main

    assert build_parser().parse_args(["serve", "--stdio"]).stdio is True
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--stdio", "--tcp", "127.0.0.1:0"])
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_a_client_with_no_optional_capabilities(vscode_client: RecordingClient, project: Path) -> None:
    """Eager edits without ``documentChanges``, plain-text hover, progress as log lines."""
    client = vscode_client
    await initialize(client, "bare", project, capabilities=types.ClientCapabilities())
    async with opened(client, project / STACK_TEST) as doc:
        await doc.diagnostics()
        assert "Oracular: indexing stack: 6 Java files" in [m.message for m in client.log_messages]
        first = (await code_actions(client, doc, at(doc.position_of("s.push(a);"))))[0]
        assert first.data is None and first.edit is not None
        assert "assertTrue(empty);" in apply_workspace_edit(doc, first.edit)
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=doc.identifier, position=doc.position_of("testPushSize", 2))
        )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.PlainText


@pytest.mark.asyncio
async def test_eager_edits_carry_the_version(vscode_client: RecordingClient, project: Path) -> None:
    """VS Code without ``codeAction/resolve``: the edit comes at once, pinned to the version."""
    capabilities = client_capabilities("visual-studio-code")
    assert capabilities.text_document is not None and capabilities.text_document.code_action is not None
    capabilities.text_document.code_action.resolve_support = None
    await initialize(vscode_client, "visual-studio-code", project, capabilities=capabilities)
    async with opened(vscode_client, project / STACK_TEST) as doc:
        doc.change(doc.text + "\n")
        await doc.diagnostics()
        (action,) = await code_actions(
            vscode_client, doc, full_range(doc.text), only=[types.CodeActionKind.Source]
        )
    assert action.edit is not None
    (change,) = action.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 2


@pytest.mark.asyncio
async def test_a_lone_surrogate_gets_a_clear_error_and_stays_out_of_the_log(
    vscode_client: RecordingClient, project: Path
) -> None:
    """Regression: ``"\\ud800"`` in a document gave an internal error whose log line held the whole
    document, and ``oracular.suggest`` answered -32603 with a traceback."""
    client = vscode_client
    await initialize(client, client.profile, project)
    path = project / STACK_TEST
    text = path.read_text().replace("class StackTest {", 'class StackTest {\n    String secret = "\ud800";')
    item = {"uri": path.as_uri(), "languageId": "java", "version": 1, "text": text}
    client.send_raw(
        json.dumps(
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": item}}
        ).encode(),
    )
    line = text[: text.index("\ud800")].count("\n") + 1
    problem = await until(
        lambda: next((m for m in client.log_messages if "lone surrogate" in m.message), None),
        what="the problem",
    )
    assert problem.message == f"{path}: not valid Unicode: a lone surrogate (U+D800) on line {line}"
    assert problem.type == types.MessageType.Warning
    error = await error_of(
        client.raw_request(
            types.WORKSPACE_EXECUTE_COMMAND,
            {"command": "oracular.suggest", "arguments": [item["uri"]]},
        )
    )
    assert error.code == types.ErrorCodes.InvalidParams and "lone surrogate (U+D800)" in error.message
    assert not [m for m in client.log_messages if "secret" in m.message or "internal error" in m.message]


@pytest.mark.asyncio
async def test_exit_without_shutdown_exits_1() -> None:
    async with raw_server() as session:
        session.send("initialize", {"capabilities": {}}, 0)
        await session.until(lambda m: m.get("id") == 0)
        session.send("exit", None)
        assert await asyncio.wait_for(session.process.wait(), TIMEOUT_S) == 1


def test_serve_listens_on_loopback_unless_told_otherwise(capsys: pytest.CaptureFixture[str]) -> None:
    """Regression: ``--tcp 0.0.0.0:PORT`` served anyone who could reach the machine."""
    from oracular.cli.main import main
    from oracular.cli.serve import is_loopback

    assert main(["serve", "--tcp", "0.0.0.0:0"]) == 2
    assert "0.0.0.0 is not a loopback address" in capsys.readouterr().err
    assert all(is_loopback(host) for host in ("127.0.0.1", "127.8.9.1", "::1", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "10.1.2.3", "::"))
