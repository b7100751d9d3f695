"""The JSON-RPC/LSP protocol as Oracular speaks it: pygls' protocol with its gaps closed.

Every workaround of a pygls behaviour lives in this module, each with a comment naming the
behaviour; ``tests/lsp/test_protocol.py`` checks that pygls still behaves that way, so an upgrade
that fixes (or changes) one fails loudly instead of leaving a dead or wrong workaround:

1. pygls keeps the future of every notification in ``_request_futures`` under a fresh id, never
   removed (``JsonRPCProtocol._execute_handler``, reached from ``_handle_notification``, and for
   the handlers its generator built-ins call): memory grew with every keystroke. Finished
   futures are dropped here (:meth:`OracularProtocol._execute_handler`).
2. pygls forgets nothing about requests *it* sent that the client never answers
   (``send_request``): each stays in ``_request_futures`` and ``_result_types``. They are
   forgotten after :data:`FORGET_UNANSWERED_S`.
3. pygls' ``TextDocument`` splits lines with ``str.splitlines`` (U+2028, form feed... too), so
   incremental edits drifted; the document notifications go to :mod:`oracular.lsp.text` instead.
4. pygls' read loop (``pygls.io_.run_async``) only logs a body that is not JSON; JSON-RPC asks
   for a ``-32700`` reply with a null id. :func:`serve` replaces the loop, for stdio and TCP.
5. pygls answers ``exit`` with ``sys.exit``, which its own transports swallow (``oracular serve``
   exited 0 without ``shutdown``; LSP says 1): :attr:`OracularProtocol.exit_code` records it.
6. pygls logs a full traceback on stderr for every error reply, expected ones included
   (``structure_message``, ``_send_handler_result``): a client's mistake costs one log line here.
7. pygls drops malformed requests and requests after ``shutdown`` without any answer, leaving the
   client waiting, serves requests before ``initialize`` and accepts a second one: each gets the
   LSP error the specification asks for (:meth:`OracularProtocol.handle_message`).
8. pygls chooses the client's first position encoding (UTF-8 for Neovim), while the engine
   computes UTF-16 columns (:meth:`OracularProtocol.lsp_initialize`).
9. pygls warns on stderr about every ``$/cancelRequest`` for a request it already answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import stat
import uuid
from collections.abc import Callable, Generator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.io_ import StdinAsyncReader, StdoutWriter
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, MsgId
from pygls.protocol.language_server import lsp_method

from oracular.lsp.text import TextDocuments

if TYPE_CHECKING:
    from oracular.lsp.server import OracularServer

logger = logging.getLogger(__name__)

FORGET_UNANSWERED_S = 60.0
"""How long a request the server sent waits for the client's answer before it is forgotten."""
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""A larger body is skipped unread (a 50,000-line file, the largest analysed, is a few MB)."""
EXPECTED_ERRORS = frozenset(
    {
        types.ErrorCodes.InvalidParams,
        types.ErrorCodes.InvalidRequest,
        types.LSPErrorCodes.ContentModified,
        types.LSPErrorCodes.RequestCancelled,
    }
)
"""Error replies that answer a client's mistake or a race, not a server bug: no traceback."""


class AsyncReader(Protocol):
    async def readline(self) -> bytes: ...

    async def readexactly(self, n: int) -> bytes: ...


@dataclass(frozen=True)
class Rejected:
    """A message that does not fit its method (or JSON-RPC): answered, or logged if it cannot be."""

    id: MsgId | None
    method: str | None
    error: JsonRpcException
    is_request: bool
    jsonrpc: str = "2.0"


def _is_id(value: Any) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool)


class OracularProtocol(LanguageServerProtocol):
    """pygls' protocol, hardened so that no client mistake goes unanswered, leaks or stops the server."""

    _server: OracularServer
    _initialized = False
    _shutdown_received = False
    exit_code: int | None = None
    """Set by ``exit``: 0 after ``shutdown``, else 1. The read loop stops when it is set."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.documents = TextDocuments()

    # -- lifecycle ---------------------------------------------------------------------------
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Any:
        # (8) The engine computes UTF-16 columns, which every client must support.
        general = params.capabilities.general
        if general is not None:
            general.position_encodings = [types.PositionEncodingKind.Utf16]
        self._initialized = True
        return (yield from super().lsp_initialize(params))

    @property
    def shutdown_requested(self) -> bool:
        """``shutdown`` arrived (pygls sets ``_shutdown`` only once its handler has finished)."""
        return self._shutdown or self._shutdown_received

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> None:
        # (5) Replaces pygls' ``sys.exit``: the read loop stops and the process exits with this.
        self.exit_code = 0 if self.shutdown_requested else 1

    # -- documents (3) -----------------------------------------------------------------------
    def _user_handler(self, method: str, params: Any) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(method)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Any:
        self.documents.open(params.text_document)
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        if not self.documents.change(params):
            self._server.log(f"ignored a change to {params.text_document.uri}, which is not open")
            return
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Any:
        self.documents.close(params.text_document.uri)
        yield from self._user_handler(types.TEXT_DOCUMENT_DID_CLOSE, params)

    # -- bookkeeping (1, 2) ------------------------------------------------------------------
    def pending_requests(self) -> set[MsgId]:
        """The ids of the requests pygls still keeps state for (a future or a result type), in
        either direction: what (1) and (2) keep from growing, for tests and diagnosis."""
        return set(self._request_futures) | set(self._result_types)

    def _forget_soon(self, msg_id: MsgId, future: Future[Any]) -> None:
        """Drop ``future``'s entry on the event loop's next turn, never during an iteration of
        ``_request_futures`` (pygls' ``shutdown`` cancels every pending one in a loop, and a
        ``concurrent.futures`` future runs its callbacks at once)."""

        def forget() -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
                self._result_types.pop(msg_id, None)

        try:
            asyncio.get_running_loop().call_soon(forget)
        except RuntimeError:  # no event loop: nothing can be iterating
            forget()

    def _execute_handler(
        self,
        msg_id: MsgId,
        handler: Any,
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        # (1) pygls stores the future under ``msg_id`` and only a request's reply removes it.
        def done(future: Future[Any]) -> None:
            self._forget_soon(msg_id, future)
            callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)

    def send_request(
        self,
        method: str,
        params: Any | None = None,
        callback: Callable[[Any], None] | None = None,
        msg_id: MsgId | None = None,
    ) -> Future[Any]:
        msg_id = msg_id if msg_id is not None else str(uuid.uuid4())
        future = super().send_request(method, params, callback, msg_id)
        # (2) A request the client never answers is given up (which also forgets it).
        future.add_done_callback(lambda f: self._forget_soon(msg_id, f) if f.cancelled() else None)
        with contextlib.suppress(RuntimeError):  # no event loop: the caller owns the future
            asyncio.get_running_loop().call_later(FORGET_UNANSWERED_S, future.cancel)
        return future

    # -- incoming messages (6, 7) ------------------------------------------------------------
    def structure_message(self, data: Any) -> Any:
        """The typed message for a decoded JSON body, or :class:`Rejected`. Never raises.

        (6) Replaces pygls' ``structure_message``, which logs a traceback for every mismatch
        and raises, so a request with bad params was never answered.
        """
        if not isinstance(data, dict) or data.get("jsonrpc") != self.VERSION:
            msg_id = data.get("id") if isinstance(data, dict) else None
            error = JsonRpcInvalidRequest("not a JSON-RPC 2.0 message")
            return Rejected(msg_id if _is_id(msg_id) else None, None, error, is_request=True)
        method = data.get("method")
        is_request = "method" in data and "id" in data
        if "id" in data and not (_is_id(data["id"]) or (data["id"] is None and "error" in data)):
            return Rejected(
                None, method, JsonRpcInvalidRequest("the id must be a string or an integer"), True
            )
        try:
            if "id" not in data:
                kind = self.get_message_type(method) or JsonRPCNotification
            elif "error" in data:
                kind = types.ResponseErrorMessage
            elif "method" in data:
                kind = self.get_message_type(method) or JsonRPCRequestMessage
            else:
                kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
            return self._converter.structure(data, kind)
        except Exception:
            reason = (
                f"invalid params for {method}"
                if method is not None
                else "a reply that does not fit its request"
            )
            return Rejected(data.get("id"), method, JsonRpcInvalidParams(reason), is_request)

    def handle_message(self, message: Any) -> None:
        # (7) pygls answers none of these, or serves what LSP forbids at this point of the session.
        method = getattr(message, "method", None)
        is_request = method is not None and hasattr(message, "id")
        error: JsonRpcException | None = None
        if isinstance(message, Rejected):
            if message.is_request:
                error = message.error
            elif message.method is None:  # a reply to one of our requests: its waiter learns why
                waiting = self._request_futures.pop(message.id, None) if message.id is not None else None
                if waiting is not None and not waiting.done():
                    waiting.set_exception(message.error)
                return
            else:
                self._server.log(
                    f"ignored {message.method}: {message.error.message}", types.MessageType.Warning
                )
                return
        elif is_request and self._shutdown and method != types.EXIT:
            error = JsonRpcInvalidRequest("the server is shutting down")
        elif is_request and not self._initialized and method != types.INITIALIZE:
            error = JsonRpcServerNotInitialized(f"{method} before initialize")
        elif is_request and self._initialized and method == types.INITIALIZE:
            error = JsonRpcInvalidRequest("the server is already initialized")
        elif not is_request and not self._initialized and method not in (types.EXIT, None):
            return  # notifications before initialize are dropped, as the specification says
        if error is None:
            self._shutdown_received |= is_request and method == types.SHUTDOWN
            super().handle_message(message)
        else:
            self.reply_error(message.id, error)

    def reply_error(self, msg_id: MsgId | None, error: JsonRpcException) -> None:
        """An error reply; ``msg_id`` ``None`` when the request's id could not be read (JSON-RPC's
        ``"id": null``, which lsprotocol's message type would leave out)."""
        self._send_data(
            {"jsonrpc": self.VERSION, "id": msg_id, "error": {"code": error.code, "message": error.message}}
        )

    def _handle_cancel_notification(self, msg_id: MsgId) -> None:
        # (9) pygls warns on stderr for every cancel of a request it already answered: a race
        # that editors lose all the time (VS Code cancels as the cursor moves), not a problem.
        future = self._request_futures.pop(msg_id, None)
        if future is not None and future.cancel():
            logger.info("cancelled request %s", msg_id)

    def _send_handler_result(self, future: Future[Any], *, msg_id: MsgId) -> None:
        # (6) pygls logs ``logger.exception`` (a traceback on stderr) for every error reply.
        error = None if future.cancelled() else future.exception()
        if isinstance(error, JsonRpcException) and error.code in EXPECTED_ERRORS:
            self._request_futures.pop(msg_id, None)
            logger.info("request %s answered with error %s: %s", msg_id, error.code, error.message)
            self._send_response(msg_id, error=error.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)


# -- transports (4) ----------------------------------------------------------------------------
async def read_message(reader: AsyncReader) -> bytes | None:
    """The next framed body (``Content-Length`` header), ``b""`` for one too large to read,
    ``None`` at the end of the stream."""
    length: int | None = None
    while True:
        line = await reader.readline()
        if not line:
            return None
        if not line.strip():
            if length is not None:
                break
            continue  # stray blank lines between messages
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length" and value.strip().isdigit():
            length = int(value.strip())
    if length > MAX_MESSAGE_BYTES:
        while length > 0:
            chunk = await _read(reader, min(length, 1 << 20))
            if chunk is None:
                return None
            length -= len(chunk)
        return b""
    return await _read(reader, length)


async def _read(reader: AsyncReader, n: int) -> bytes | None:
    try:
        data = await reader.readexactly(n)
    except asyncio.IncompleteReadError:
        return None
    return data if len(data) == n else None


def dispatch(protocol: OracularProtocol, body: bytes) -> None:
    """Decode one body and hand it to the protocol; a body that is not JSON gets ``-32700``."""
    if not body:
        protocol.reply_error(None, JsonRpcInvalidRequest(f"message larger than {MAX_MESSAGE_BYTES} bytes"))
        return
    try:
        data = json.loads(body)
    except UnicodeDecodeError as exc:
        protocol.reply_error(None, JsonRpcParseError(f"Parse error: not UTF-8 (byte {exc.start})"))
        return
    except ValueError as exc:
        protocol.reply_error(None, JsonRpcParseError(f"Parse error: {exc}"))
        return
    except RecursionError:
        protocol.reply_error(None, JsonRpcParseError("Parse error: nested too deeply"))
        return
    try:
        protocol.handle_message(protocol.structure_message(data))
    except Exception as exc:  # a bug in a handler must cost one message, not the server
        logger.exception("failed to handle a %s message", type(data).__name__)
        protocol._server.report_server_error(exc, JsonRpcException)


async def serve(reader: AsyncReader, protocol: OracularProtocol) -> int:
    """Handle messages until ``exit`` or the end of the stream; the exit code LSP asks for."""
    while protocol.exit_code is None:
        body = await read_message(reader)
        if body is None:
            break
        dispatch(protocol, body)
    return protocol.exit_code if protocol.exit_code is not None else (0 if protocol.shutdown_requested else 1)


def serve_stdio(server: OracularServer, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Serve on stdio: asyncio's pipe transports for pipes and sockets, pygls' threaded reader and
    blocking writer for anything else (a file, a terminal).

    pygls reads every header line and body through a thread pool (four thread hops per message,
    about a millisecond per request on two cores: most of a cached hover's latency), and writes
    with a blocking ``write`` that stalls the event loop whenever the client is slow to read.
    """

    async def main() -> int:
        if not all(stat.S_ISFIFO(m) or stat.S_ISSOCK(m) for m in (_mode(stdin), _mode(stdout))):
            server.protocol.set_writer(StdoutWriter(stdout))
            return await serve(StdinAsyncReader(stdin, server.thread_pool), server.protocol)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
        transport, flow = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout)
        server.protocol.set_writer(asyncio.StreamWriter(transport, flow, reader, loop))
        return await serve(reader, server.protocol)

    return _run(server, main)


def serve_tcp(server: OracularServer, host: str, port: int) -> int:
    """Serve one client on TCP, then exit; while it is connected, other connections are refused
    (pygls would hand them the same session)."""

    async def main() -> int:
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        busy = False

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nonlocal busy
            if busy:
                logger.warning("refused a second connection from %s", writer.get_extra_info("peername"))
                writer.close()
                return
            busy = True
            server.protocol.set_writer(writer)  # type: ignore[arg-type]
            code = await serve(reader, server.protocol)
            writer.close()
            if not done.done():
                done.set_result(code)

        listener = await asyncio.start_server(connection, host, port, limit=MAX_MESSAGE_BYTES)
        addresses = ", ".join(str(sock.getsockname()) for sock in listener.sockets)
        logger.info("Serving on %s", addresses)
        async with listener:
            return await done

    return _run(server, main)


def _run(server: OracularServer, main: Callable[[], Any]) -> int:
    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 1
    finally:
        server.shutdown()


def _mode(stream: BinaryIO) -> int:
    return os.fstat(stream.fileno()).st_mode
