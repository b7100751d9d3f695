"""The Oracular language server: the pygls server, protocol hardening, and the document lifecycle.

Feature modules register themselves on the server created by :func:`create_server`; this module
owns what they share: the settings, what the client supports, the open documents, progress
reporting and messages to the user.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import sys
import threading
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import (
    FeatureRequestError,
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.io_ import run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from oracular import __version__
from oracular.lsp import code_actions, commands, hover, inlay_hints
from oracular.lsp.checks import Checks
from oracular.lsp.diagnostics import Publisher
from oracular.lsp.documents import Analysis, Documents, Engines, OpenDocument, ProgressReport
from oracular.lsp.settings import SECTION, ServerSettings, parse_settings, pushed_section, section_of
from oracular.lsp.worker import Worker

logger = logging.getLogger(__name__)

CHANGE_DELAY_S = 0.3
"""Quiet time after an edit before ranking: long enough to skip the keystrokes of a word."""
CLIENT_TIMEOUT_S = 5.0
"""How long to wait for the client's answer to our own requests (configuration, progress)."""


@dataclass(frozen=True)
class ClientSupport:
    """The client capabilities the features depend on, read once at ``initialize``."""

    resolve_edits: bool = False
    disabled_actions: bool = False
    document_changes: bool = False
    inlay_hint_refresh: bool = False
    markdown_hover: bool = False
    work_done_progress: bool = False
    configuration: bool = False
    configuration_registration: bool = False

    @classmethod
    def of(cls, capabilities: types.ClientCapabilities) -> ClientSupport:
        def has(field: str) -> bool:
            return bool(get_capability(capabilities, field, False))

        resolvable = get_capability(capabilities, "text_document.code_action.resolve_support.properties", [])
        hover_formats = get_capability(capabilities, "text_document.hover.content_format", [])
        return cls(
            resolve_edits="edit" in resolvable,
            disabled_actions=has("text_document.code_action.disabled_support"),
            document_changes=has("workspace.workspace_edit.document_changes"),
            inlay_hint_refresh=has("workspace.inlay_hint.refresh_support"),
            markdown_hover=types.MarkupKind.Markdown in hover_formats,
            work_done_progress=has("window.work_done_progress"),
            configuration=has("workspace.configuration"),
            configuration_registration=has("workspace.did_change_configuration.dynamic_registration"),
        )


@dataclass(frozen=True)
class RejectedRequest:
    """A request whose params do not fit its method: answered with ``InvalidParams``."""

    id: int | str
    method: str
    jsonrpc: str = "2.0"


class OracularProtocol(LanguageServerProtocol):
    """pygls' protocol, hardened so that no client mistake goes unanswered or stops the server.

    Out of the box pygls drops requests with malformed params and requests after ``shutdown``
    without any answer, leaving the client waiting forever, and it fails on edits to documents
    that were never opened. Here each gets the LSP error the specification asks for.
    """

    _server: OracularServer
    _initialized = False

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Any:
        # The engine computes UTF-16 columns, which every client must support; without this pygls
        # would pick the client's first preference (UTF-8 for Neovim) and edits would drift on
        # any non-ASCII line.
        general = params.capabilities.general
        if general is not None:
            general.position_encodings = [types.PositionEncodingKind.Utf16]
        self._initialized = True
        return (yield from super().lsp_initialize(params))

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            self._server.log(f"ignored a change to {params.text_document.uri}, which is not open")
            return None
        return (yield from super().lsp_text_document__did_change(params))

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException:
            if "id" in data and isinstance(data.get("method"), str):
                return RejectedRequest(data["id"], data["method"])
            raise

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        is_request = method is not None and hasattr(message, "id")
        error: JsonRpcException | None = None
        if isinstance(message, RejectedRequest):
            error = JsonRpcInvalidParams(f"invalid params for {method}")
        elif is_request and self._shutdown and method != types.EXIT:
            error = JsonRpcInvalidRequest("the server is shutting down")
        elif is_request and not self._initialized and method != types.INITIALIZE:
            error = JsonRpcServerNotInitialized(f"{method} before initialize")
        elif is_request and self._initialized and method == types.INITIALIZE:
            error = JsonRpcInvalidRequest("the server is already initialized")
        elif not is_request and not self._initialized and method not in (types.EXIT, None):
            return  # notifications before initialize are dropped, as the specification says
        if error is None:
            super().handle_message(message)
        else:
            self._send_response(message.id, error=error.to_response_error())


class OracularServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("oracular", __version__, protocol_cls=OracularProtocol)
        self.settings = ServerSettings()
        self.client = ClientSupport()
        self.worker = Worker()
        self.engines = Engines(self.worker, self.progress)
        self.documents = Documents(
            self.worker, self.engines, self.open_document, self._analysed, lambda: self.settings.quality
        )
        self.publisher = Publisher(self)
        self.checks = Checks(self.documents.cached, self._checked, self.log)
        self._initialization_options: Any = None
        self._last_problem: dict[str, str | None] = {}

    # -- documents ---------------------------------------------------------------------------
    def open_document(self, uri: str) -> OpenDocument | None:
        """The open Java document at ``uri``; ``None`` for anything else (the server stays silent)."""
        document = self.workspace.text_documents.get(unquote(uri))
        if document is None or not (document.language_id == "java" or uri.endswith(".java")):
            return None
        fs_path = to_fs_path(uri)
        return OpenDocument(uri, document.version or 0, document.source, Path(fs_path) if fs_path else None)

    def open_uris(self) -> list[str]:
        return [document.uri for document in self.workspace.text_documents.values()]

    def reanalyse(self, uris: list[str]) -> None:
        for uri in uris:
            self.documents.schedule(uri, 0.0)

    def _analysed(self, analysis: Analysis) -> None:
        if self._last_problem.get(analysis.uri) != analysis.problem:
            self._last_problem[analysis.uri] = analysis.problem
            if analysis.problem is not None:
                self.log(analysis.problem, types.MessageType.Warning)
        self.publisher.publish(analysis)
        self.checks.analysed(analysis)
        if analysis.report is not None and self.settings.inlay_hints:
            self.refresh_inlay_hints()

    def _checked(self, analysis: Analysis) -> None:
        """A check of the current version arrived: hints show it (titles and hovers are pulled)."""
        if self.settings.inlay_hints:
            self.refresh_inlay_hints()

    def refresh_inlay_hints(self) -> None:
        """Ask the client to re-request inlay hints, which are only ever served from the cache."""
        if self.client.inlay_hint_refresh:
            self.workspace_inlay_hint_refresh(None)

    async def saved(self, uri: str) -> None:
        """Re-index what changed on disk, then re-rank the open documents of that build root."""
        fs_path = to_fs_path(uri)
        root = await self.engines.refresh(Path(fs_path)) if fs_path else None
        if root is None:
            self.reanalyse([uri])
            return
        self.reanalyse(
            [
                u
                for u in self.open_uris()
                if (doc := self.open_document(u)) is not None and self.engines.root_of(doc.path) == root
            ]
        )

    def closed(self, uri: str) -> None:
        self.documents.close(uri)
        self.checks.discard(uri)
        self.publisher.clear(uri)
        self._last_problem.pop(uri, None)

    # -- settings ----------------------------------------------------------------------------
    async def start(self) -> None:
        """After ``initialized``: read the settings, then load the ranker the engines wait for."""
        self._apply_settings(await self._pull_configuration())
        self.checks.configure(self.settings, self._workspace_root())
        await self.engines.configure(self.settings.engine)
        if self.client.configuration_registration:
            await self._register_for_configuration_changes()
        await self._load_ranker()

    async def reconfigure(self, pushed: Any) -> None:
        """``workspace/didChangeConfiguration``: pull (or take the pushed) settings and apply them."""
        layer = await self._pull_configuration() if self.client.configuration else pushed_section(pushed)
        old = self.settings
        self._apply_settings(layer)
        checks_changed = self.checks.configure(self.settings, self._workspace_root())
        if self.settings.device != old.device:
            await self._load_ranker()
        if self.settings.engine != old.engine or self.settings.device != old.device:
            await self.engines.configure(self.settings.engine)
            self.reanalyse(self.open_uris())
            return
        if self.settings.quality != old.quality:
            self.reanalyse(self.open_uris())
            return
        for analysis in self.documents.all_cached():
            self.publisher.publish(analysis)
            if checks_changed:
                self.checks.analysed(analysis)
        self.refresh_inlay_hints()

    def _workspace_root(self) -> Path | None:
        """Where relative paths in the settings start: the (first) workspace folder."""
        root = self.workspace.root_path
        return Path(root) if root else None

    def _apply_settings(self, configuration: Any) -> None:
        self.settings, problems = parse_settings(self._initialization_options, configuration)
        for problem in problems:
            self.log(problem, types.MessageType.Warning)
        if problems:
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Warning,
                    message="Oracular settings: " + "; ".join(problems),
                )
            )

    async def _pull_configuration(self) -> Any:
        if not self.client.configuration:
            return None
        params = types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        try:
            result = await asyncio.wait_for(self.workspace_configuration_async(params), CLIENT_TIMEOUT_S)
        except Exception as exc:  # a client that cannot answer still gets the initializationOptions
            self.log(
                f"could not read the {SECTION} settings from the client: {exc!r}", types.MessageType.Warning
            )
            return None
        return result[0] if result else None

    async def _register_for_configuration_changes(self) -> None:
        registration = types.Registration(
            id=f"{SECTION}-configuration",
            method=types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            register_options=types.DidChangeConfigurationRegistrationOptions(section=SECTION),
        )
        try:
            await asyncio.wait_for(
                self.client_register_capability_async(types.RegistrationParams(registrations=[registration])),
                CLIENT_TIMEOUT_S,
            )
        except Exception as exc:
            self.log(f"the client refused configuration-change notifications: {exc!r}")

    async def _load_ranker(self) -> None:
        loaded = await self.engines.load_ranker(self.settings.device)
        if loaded.note is not None:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=loaded.note)
            )
        self.log(f"Oracular {__version__}: {loaded.describe()} (device setting {self.settings.device!r})")

    # -- transport ---------------------------------------------------------------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on stdio through asyncio's own pipe transports.

        pygls reads every header line and body through a thread pool (four thread hops per
        message, about a millisecond per request on two cores: most of a cached hover's
        latency), and writes with a blocking ``write`` that stalls the event loop whenever the
        client is slow to read. Anything that is not a pipe or a socket (a file, a terminal)
        keeps pygls' own reader and writer.
        """
        stdin, stdout = stdin or sys.stdin.buffer, stdout or sys.stdout.buffer
        if not all(stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) for mode in _modes(stdin, stdout)):
            super().start_io(stdin, stdout)
            return
        self._stop_event = threading.Event()
        try:
            asyncio.run(self._serve_pipes(stdin, stdout))
        except (KeyboardInterrupt, SystemExit):  # SystemExit: the ``exit`` notification
            pass
        finally:
            self.shutdown()

    async def _serve_pipes(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        assert self._stop_event is not None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
        transport, flow = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout)
        self.protocol.set_writer(asyncio.StreamWriter(transport, flow, reader, loop))
        await run_async(self._stop_event, reader, self.protocol, logger, self.report_server_error)

    # -- messages and progress ---------------------------------------------------------------
    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Internal errors go to the client's log, not to a pop-up for every failing keystroke.

        Failed requests were already answered with an error response.
        """
        if source is not FeatureRequestError:
            self.log(f"Oracular internal error: {error!r}", types.MessageType.Error)

    @asynccontextmanager
    async def progress(self, title: str) -> AsyncIterator[ProgressReport]:
        """``$/progress`` around slow work, when the client shows it; a log line otherwise."""
        token = f"oracular-{uuid.uuid4()}" if self.client.work_done_progress else None
        if token is not None:
            try:
                await asyncio.wait_for(self.work_done_progress.create_async(token), CLIENT_TIMEOUT_S)
            except Exception:
                token = None
        if token is None:
            self.log(title)
            yield lambda message: self.log(f"{title}: {message}")
            return
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title))
        try:
            yield lambda message: self.work_done_progress.report(
                token, types.WorkDoneProgressReport(message=message)
            )
        finally:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd())


def _modes(*streams: BinaryIO) -> list[int]:
    return [os.fstat(stream.fileno()).st_mode for stream in streams]


def _register_lifecycle(server: OracularServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.client = ClientSupport.of(params.capabilities)
        server._initialization_options = section_of(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        await server.start()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.documents.schedule(params.text_document.uri, 0.0)
        if (document := server.open_document(params.text_document.uri)) is not None:
            server.checks.warm(document.path)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        if not server.settings.on_save:
            server.documents.schedule(params.text_document.uri, CHANGE_DELAY_S)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(params: types.DidSaveTextDocumentParams) -> None:
        await server.saved(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        server.closed(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        await server.reconfigure(params.settings)

    @server.feature(types.SHUTDOWN)
    async def shutdown(params: None) -> None:
        server.worker.shutdown()
        await server.checks.close()


def create_server() -> OracularServer:
    server = OracularServer()
    _register_lifecycle(server)
    for feature in (code_actions, inlay_hints, hover, commands):
        feature.register(server)
    return server
