"""The protocol layer in process (:mod:`oracular.lsp.protocol`): what it fixes, and, for each
pygls behaviour it works around, a check that pygls still behaves that way. When one of those
fails after a pygls upgrade, the workaround it names may be dead or wrong: read the module's
docstring, then remove or adapt the workaround together with its check.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.io_ import StdinAsyncReader, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument as PyglsTextDocument

from oracular.lsp import protocol
from oracular.lsp.protocol import MAX_MESSAGE_BYTES, dispatch, serve
from oracular.lsp.server import OracularServer, create_server
from oracular.lsp.text import TextDocument

from .inprocess import INITIALIZE, Wire, initialized_server, send

pytestmark = pytest.mark.asyncio


def frame(message: dict[str, Any] | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


HOVER_PARAMS = {"textDocument": {"uri": "file:///A.java"}, "position": {"line": 0, "character": 0}}


@pytest_asyncio.fixture
async def server() -> AsyncIterator[tuple[OracularServer, Wire]]:
    server, wire = initialized_server()
    yield server, wire
    server.worker.shutdown()


def notifications(count: int) -> list[dict[str, Any]]:
    """``count`` document notifications: open, edit and close of plain-text documents."""
    messages = []
    for i in range(count // 3):
        uri = f"file:///tmp/notes-{i}.txt"
        item = {"uri": uri, "languageId": "plaintext", "version": 1, "text": "a\nb\n"}
        change = {
            "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}},
            "text": "c",
        }
        messages += [
            {"method": "textDocument/didOpen", "params": {"textDocument": item}},
            {
                "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]},
            },
            {"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}},
        ]
    return [{"jsonrpc": "2.0", **m} for m in messages]


def bookkeeping(server: OracularServer) -> tuple[int, ...]:
    return (
        len(server.protocol.pending_requests()),
        len(server.protocol.documents),
        len(server.worker._jobs),
        len(server.documents._cache),
    )


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def test_ten_thousand_notifications_leave_no_bookkeeping(server: tuple[OracularServer, Wire]) -> None:
    """Regression: every notification left its finished future in ``_request_futures``."""
    oracular, _ = server
    await settle()
    before = bookkeeping(oracular)
    for message in notifications(10_002):
        send(oracular, message)
    await settle()
    assert bookkeeping(oracular) == before


async def test_pygls_still_keeps_every_notifications_future() -> None:
    """Workaround (1): if this fails, pygls drops them itself; remove ``_execute_handler``."""
    plain = LanguageServer("plain", "1")
    plain.protocol.set_writer(Wire())
    plain.protocol.handle_message(plain.protocol.structure_message(INITIALIZE))
    before = len(plain.protocol._request_futures)
    for message in notifications(30):
        plain.protocol.handle_message(plain.protocol.structure_message(message))
    await settle()
    assert len(plain.protocol._request_futures) - before == 30


async def test_an_unanswered_request_is_forgotten(
    server: tuple[OracularServer, Wire], monkeypatch: pytest.MonkeyPatch
) -> None:
    oracular, wire = server
    monkeypatch.setattr(protocol, "FORGET_UNANSWERED_S", 0.01)
    future = oracular.protocol.send_request(types.WORKSPACE_INLAY_HINT_REFRESH, None)
    (msg_id,) = [m["id"] for m in wire.sent if m.get("method") == types.WORKSPACE_INLAY_HINT_REFRESH]
    assert msg_id in oracular.protocol.pending_requests()
    await asyncio.sleep(0.05)
    assert future.cancelled()
    assert msg_id not in oracular.protocol.pending_requests()


async def test_a_reply_that_does_not_fit_fails_its_request_at_once(
    server: tuple[OracularServer, Wire],
) -> None:
    oracular, wire = server
    params = types.ApplyWorkspaceEditParams(edit=types.WorkspaceEdit())
    future = oracular.protocol.send_request(types.WORKSPACE_APPLY_EDIT, params)
    (msg_id,) = [m["id"] for m in wire.sent if m.get("method") == types.WORKSPACE_APPLY_EDIT]
    send(oracular, {"jsonrpc": "2.0", "id": msg_id, "result": {}})  # "applied" is required
    assert "does not fit its request" in str(future.exception(timeout=0))
    await settle()
    assert msg_id not in oracular.protocol.pending_requests()


async def test_pygls_still_keeps_unanswered_requests() -> None:
    """Workaround (2): if this fails, pygls forgets them itself; remove ``send_request``."""
    plain = LanguageServer("plain", "1")
    plain.protocol.set_writer(Wire())
    future = plain.protocol.send_request(types.WORKSPACE_INLAY_HINT_REFRESH, None)
    future.cancel()
    await settle()
    assert future in plain.protocol._request_futures.values() and plain.protocol._result_types


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"x": "\xff"}}',
            "not UTF-8",
        ),
        (b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hov', "Parse error"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
    ids=["invalid-utf8", "truncated", "deep"],
)
async def test_a_body_that_is_not_json_gets_a_parse_error(
    server: tuple[OracularServer, Wire], body: bytes, message: str
) -> None:
    """Regression: such bodies were only logged; JSON-RPC asks for ``-32700`` with a null id."""
    oracular, wire = server
    dispatch(oracular.protocol, body)
    (reply,) = wire.replies()[1:]
    assert reply["id"] is None and reply["error"]["code"] == -32700 and message in reply["error"]["message"]


@pytest.mark.parametrize(
    "body",
    [b"[1, 2, 3]", b'"hello"', b'{"id": 3, "method": "x"}', b'{"jsonrpc": "2.0", "id": [1], "method": "x"}'],
)
async def test_json_that_is_no_message_gets_an_invalid_request(
    server: tuple[OracularServer, Wire], body: bytes
) -> None:
    oracular, wire = server
    dispatch(oracular.protocol, body)
    (reply,) = wire.replies()[1:]
    assert reply["error"]["code"] == types.ErrorCodes.InvalidRequest
    assert reply["id"] in (None, 3)


async def test_the_read_loop_frames_skips_and_exits(server: tuple[OracularServer, Wire]) -> None:
    """Framing: header case and extra headers, a body too large to read (skipped, answered), then
    ``exit`` without ``shutdown``: exit code 1."""
    oracular, wire = server
    reader = asyncio.StreamReader()
    hover = {"jsonrpc": "2.0", "id": 1, "method": "oracular/noSuchMethod", "params": {}}
    body = json.dumps(hover).encode()
    reader.feed_data(b"content-length: %d\r\nContent-Type: x\r\n\r\n%s" % (len(body), body))
    reader.feed_data(b"Content-Length: %d\r\n\r\n" % (MAX_MESSAGE_BYTES + 1) + b" " * (MAX_MESSAGE_BYTES + 1))
    reader.feed_data(frame({"jsonrpc": "2.0", "method": "exit"}))
    reader.feed_data(frame(hover))  # never read: the loop stops at exit
    assert await serve(reader, oracular.protocol) == 1
    codes = [m["error"]["code"] for m in wire.replies()[1:]]
    assert codes == [types.ErrorCodes.MethodNotFound, types.ErrorCodes.InvalidRequest]


async def test_exit_codes_follow_the_specification() -> None:
    async def exit_code(*messages: dict[str, Any], eof: bool = False) -> int:
        server = create_server()
        server.protocol.set_writer(Wire())
        reader = asyncio.StreamReader()
        for message in (INITIALIZE, *messages):
            reader.feed_data(frame(message))
        reader.feed_eof()
        try:
            return await serve(reader, server.protocol)
        finally:
            server.worker.shutdown()

    shutdown = {"jsonrpc": "2.0", "id": 1, "method": "shutdown"}
    exit_ = {"jsonrpc": "2.0", "method": "exit"}
    assert await exit_code(exit_) == 1
    assert await exit_code(shutdown, exit_) == 0
    assert await exit_code() == 1  # the client went away without shutdown
    assert await exit_code(shutdown) == 0


async def test_pygls_still_exits_through_sys_exit() -> None:
    """Workaround (5): if this fails, pygls' ``exit`` changed; revisit ``lsp_exit``."""
    plain = LanguageServer("plain", "1")
    with pytest.raises(SystemExit) as info:
        plain.protocol.handle_message(plain.protocol.structure_message({"jsonrpc": "2.0", "method": "exit"}))
    assert info.value.code == 1


async def test_expected_error_replies_log_no_traceback(
    server: tuple[OracularServer, Wire], caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: every -32602 and -32801 printed a full traceback on stderr."""
    oracular, wire = server
    caplog.set_level(logging.DEBUG)
    send(oracular, {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"bogus": 1}})
    data = {"uri": "file:///tmp/NeverOpenedTest.java", "version": 3}
    send(
        oracular,
        {"jsonrpc": "2.0", "id": 2, "method": "codeAction/resolve", "params": {"title": "x", "data": data}},
    )
    execute = {"command": "oracular.suggest", "arguments": []}
    send(oracular, {"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand", "params": execute})
    for _ in range(20):
        if len(wire.replies()) == 4:
            break
        await asyncio.sleep(0.01)
    codes = {m["id"]: m["error"]["code"] for m in wire.replies()[1:]}
    assert codes == {1: -32602, 2: types.LSPErrorCodes.ContentModified, 3: -32602}
    assert not [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


async def test_pygls_still_logs_a_traceback_for_expected_errors(caplog: pytest.LogCaptureFixture) -> None:
    """Workaround (6): if this fails, pygls stopped; remove ``structure_message`` and
    ``_send_handler_result``."""
    plain = LanguageServer("plain", "1")
    plain.protocol.set_writer(Wire())
    with pytest.raises(Exception):  # noqa: B017 - whichever pygls raises, it has logged first
        plain.protocol.structure_message(
            {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"bogus": 1}}
        )
    assert any("Traceback" in r.getMessage() for r in caplog.records)


def lsp_range(start: tuple[int, int], end: tuple[int, int]) -> types.Range:
    return types.Range(
        start=types.Position(line=start[0], character=start[1]),
        end=types.Position(line=end[0], character=end[1]),
    )


async def test_pygls_still_splits_lines_where_lsp_does_not() -> None:
    """Workaround (3): if this fails, pygls' documents follow LSP's lines; ours could go."""
    text = "class A {\n    // a\u2028b\n    int x;\n}\n"

    def edit() -> types.TextDocumentContentChangePartial:  # pygls changes the positions it is given
        return types.TextDocumentContentChangePartial(range=lsp_range((2, 4), (2, 4)), text="final ")

    theirs = PyglsTextDocument("file:///A.java", text)
    theirs.apply_change(edit())
    ours = TextDocument("file:///A.java", "java", 1, text)
    ours.apply(edit())
    assert ours.text == text.replace("int x", "final int x")
    assert theirs.source != ours.text


async def test_pygls_still_only_logs_a_body_that_is_not_json() -> None:
    """Workaround (4): if this fails, pygls' read loop answers it; ours could go."""
    plain = LanguageServer("plain", "1")
    wire = Wire()
    plain.protocol.set_writer(wire)
    reader = asyncio.StreamReader()
    reader.feed_data(frame(b"{not json"))
    reader.feed_eof()
    await run_async(threading.Event(), reader, plain.protocol)
    assert wire.sent == []


async def test_pygls_still_answers_nothing_after_shutdown() -> None:
    """Workaround (7): if this fails, pygls answers requests after ``shutdown`` itself."""
    plain = LanguageServer("plain", "1")
    wire = Wire()
    plain.protocol.set_writer(wire)
    plain.protocol._shutdown = True
    hover = {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": HOVER_PARAMS}
    plain.protocol.handle_message(plain.protocol.structure_message(hover))
    assert wire.sent == []


async def test_pygls_still_answers_no_malformed_request() -> None:
    """Workaround (7): if this fails, pygls' read loop answers a request whose params do not fit."""
    plain = LanguageServer("plain", "1")
    wire = Wire()
    plain.protocol.set_writer(wire)
    reader = asyncio.StreamReader()
    bad = {"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {"bogus": 1}}
    reader.feed_data(frame(bad))
    reader.feed_eof()
    await run_async(threading.Event(), reader, plain.protocol)
    assert [m for m in wire.sent if "id" in m] == []


async def test_pygls_still_serves_requests_before_initialize_and_initialize_twice() -> None:
    """Workaround (7): if this fails, pygls refuses them itself (``ServerNotInitialized``,
    ``InvalidRequest``)."""
    plain = LanguageServer("plain", "1")
    wire = Wire()
    plain.protocol.set_writer(wire)
    plain.feature(types.TEXT_DOCUMENT_HOVER)(lambda ls, params: None)
    for message in (
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": HOVER_PARAMS},
        {**INITIALIZE, "id": 2},
        {**INITIALIZE, "id": 3},
    ):
        plain.protocol.handle_message(plain.protocol.structure_message(message))
    await settle()
    assert [(m["id"], "result" in m) for m in wire.replies()] == [(1, True), (2, True), (3, True)]


async def test_pygls_still_has_what_the_workarounds_override_and_read() -> None:
    """If this fails, pygls renamed or removed a method :class:`OracularProtocol` overrides (the
    workaround is then never called), grew one with the name of one of ours (which now hides it),
    or renamed private state the workarounds read (which fails only on the rare path reading it)."""
    ours = {
        name
        for name, value in vars(protocol.OracularProtocol).items()
        if not name.startswith("__") and (callable(value) or isinstance(value, property))
    }
    assert {name for name in ours if hasattr(LanguageServerProtocol, name)} == {
        "lsp_initialize",  # (8)
        "lsp_exit",  # (5)
        "lsp_text_document__did_open",  # (3)
        "lsp_text_document__did_change",  # (3)
        "lsp_text_document__did_close",  # (3)
        "_execute_handler",  # (1)
        "send_request",  # (2)
        "structure_message",  # (6, 7)
        "handle_message",  # (7)
        "_handle_cancel_notification",  # (9)
        "_send_handler_result",  # (6)
    }
    plain = LanguageServer("plain", "1").protocol
    for name in (
        "_server",
        "_request_futures",
        "_result_types",
        "_shutdown",
        "_send_response",
        "_send_data",
        "_converter",
    ):
        assert hasattr(plain, name), f"pygls' protocol has no {name} any more"
    assert isinstance(plain.fm.features, dict)


async def test_pygls_still_reads_stdin_through_a_thread_per_read() -> None:
    """:func:`~oracular.lsp.protocol.serve_stdio`: if this fails, pygls' stdin reader no longer
    hands each header line and body to a thread pool, and asyncio's pipe transports may not be
    worth their code any more."""
    reads: list[object] = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            reads.append(fn)
            return super().submit(fn, *args, **kwargs)

    with Recording(1) as pool:
        reader = StdinAsyncReader(io.BytesIO(frame({"jsonrpc": "2.0", "method": "exit"})), pool)
        while (await reader.readline()).strip():
            pass
        await reader.readexactly(2)
    assert len(reads) == 3


async def test_pygls_still_picks_the_clients_first_position_encoding() -> None:
    """Workaround (8): if this fails, pygls prefers UTF-16 itself."""
    utf8_first = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16]
        )
    )
    assert ServerCapabilitiesBuilder.choose_position_encoding(utf8_first) == types.PositionEncodingKind.Utf8


async def test_pygls_still_warns_about_a_late_cancel(caplog: pytest.LogCaptureFixture) -> None:
    """Workaround (9): if this fails, pygls is quiet about it; remove ``_handle_cancel_notification``."""
    plain = LanguageServer("plain", "1")
    plain.protocol._handle_cancel_notification("answered-long-ago")
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
