"""The Oracular language server: the pygls server and the document lifecycle.

Feature modules register themselves on the server created by :func:`create_server`; this module
owns what they share: the settings, what the client supports, the open documents, progress
reporting and messages to the user.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import FeatureRequestError
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from oracular import __version__
from oracular.engine import OracleEngine
from oracular.lsp import code_actions, commands, hover, inlay_hints, pseudo_tested
from oracular.lsp.code_runs import CodeRuns
from oracular.lsp.diagnostics import Publisher
from oracular.lsp.documents import Analysis, Documents, OpenDocument, internal_error
from oracular.lsp.engines import Engines, ProgressReport
from oracular.lsp.execution_policy import (
    TRUST_NOTIFICATION,
    Launch,
    Verdict,
    may_run_user_code,
    trust_params,
    trusted_option,
)
from oracular.lsp.protocol import OracularProtocol, serve_stdio, serve_tcp
from oracular.lsp.ranker import load_after_first
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
    code_lens_refresh: bool = False
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
            code_lens_refresh=has("workspace.code_lens.refresh_support"),
            markdown_hover=types.MarkupKind.Markdown in hover_formats,
            work_done_progress=has("window.work_done_progress"),
            configuration=has("workspace.configuration"),
            configuration_registration=has("workspace.did_change_configuration.dynamic_registration"),
        )


class OracularServer(LanguageServer):
    protocol: OracularProtocol
    pseudo_tested: pseudo_tested.PseudoTested
    """Set by the feature's ``register``."""

    def __init__(self, launch: Launch | None = None) -> None:
        super().__init__("oracular", __version__, protocol_cls=OracularProtocol)
        self.launch = launch or Launch()
        self.workspace_trusted = False
        """What the client last said of the workspace (:mod:`oracular.lsp.execution_policy`)."""
        self._verdict: Verdict | None = None
        self.exit_code: int | None = None
        self.settings = ServerSettings()
        self.client = ClientSupport()
        self.worker = Worker()
        self.engines = Engines(self.worker, self.progress)
        self.documents = Documents(
            self.worker, self.engines, self.open_document, self._analysed, lambda: self.settings.quality
        )
        self.publisher = Publisher(self)
        self.code_runs = CodeRuns(
            self.documents.cached,
            self._checked,
            self.log,
            self._engine_of,
            lambda fn: self.worker.run(fn),
            lambda uri, version: self.pseudo_tested.kills(uri, version),
        )
        self._initialization_options: Any = None
        self._ranked: asyncio.Future[None] | None = None
        self._first_analysis = asyncio.Event()
        """Set once an analysis is out: the model's load waits for it (:func:`load_after_first`)."""
        self._last_problem: dict[str, str | None] = {}

    # -- documents ---------------------------------------------------------------------------
    def open_document(self, uri: str) -> OpenDocument | None:
        """The open Java document at ``uri``; ``None`` for anything else (the server stays silent)."""
        document = self.protocol.documents.get(uri)
        if document is None or not (document.language_id == "java" or uri.endswith(".java")):
            return None
        fs_path = to_fs_path(uri)
        return OpenDocument(uri, document.version, document.text, Path(fs_path) if fs_path else None)

    def open_uris(self) -> list[str]:
        return [document.uri for document in self.protocol.documents.all()]

    def _rank_open_documents(self) -> None:
        self.reanalyse(self.open_uris())

    def reanalyse(self, uris: list[str]) -> None:
        for uri in uris:
            self.documents.schedule(uri, 0.0)

    def _analysed(self, analysis: Analysis) -> None:
        self._first_analysis.set()
        if self._last_problem.get(analysis.uri) != analysis.problem:
            self._last_problem[analysis.uri] = analysis.problem
            if analysis.problem is not None:
                self.log(analysis.problem, types.MessageType.Warning)
        self.publisher.publish(analysis)
        self.code_runs.analysed(analysis)  # not a provisional one: observing re-ranks, with the model
        if analysis.report is not None and self.settings.inlay_hints:
            self.refresh_inlay_hints()

    def _engine_of(self, analysis: Analysis) -> OracleEngine | None:
        report = analysis.report
        return self.engines.built_for(report.analysis.source.path) if report is not None else None

    def _checked(self, analysis: Analysis) -> None:
        """Observed values or a check of the current version arrived: diagnostics and hints show
        it (titles and hovers are pulled)."""
        self.publisher.publish(analysis, self.code_runs.state(analysis))
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
        self.code_runs.closed(uri)
        self.pseudo_tested.closed(uri)
        self.publisher.clear(uri)
        self._last_problem.pop(uri, None)

    # -- settings ----------------------------------------------------------------------------
    async def start(self) -> None:
        """After ``initialized``: read the settings, then load the ranker the engines wait for."""
        self._apply_settings(await self._pull_configuration())
        self._configure_checks()
        await self.engines.configure(self.settings.engine)
        if self.client.configuration_registration:
            await self._register_for_configuration_changes()
        await self._load_ranker()

    async def reconfigure(self, pushed: Any) -> None:
        """``workspace/didChangeConfiguration``: pull (or take the pushed) settings and apply them."""
        layer = await self._pull_configuration() if self.client.configuration else pushed_section(pushed)
        old = self.settings
        self._apply_settings(layer)
        checks_changed = self._configure_checks()
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
                self.code_runs.analysed(analysis)
        self.refresh_inlay_hints()

    def trust_changed(self, trusted: bool) -> None:
        """The client says the workspace's trust changed: checks start or stop at once."""
        self.workspace_trusted = trusted
        if self._configure_checks():
            for analysis in self.documents.all_cached():
                self.code_runs.analysed(analysis)
            self.refresh_inlay_hints()

    def _configure_checks(self) -> bool:
        """Ask the policy whether user code may run, tell the user once why not, and configure the
        checks; ``True`` if they changed."""
        verdict = may_run_user_code(self.launch, self.settings.check_oracles, self.workspace_trusted)
        if verdict != self._verdict:
            self._verdict = verdict
            self.log(f"Oracular: {verdict.reason}", types.MessageType.Info)
            if verdict.asked:
                self.window_show_message(
                    types.ShowMessageParams(
                        type=types.MessageType.Warning, message=f"Oracular: {verdict.reason}"
                    )
                )
        return self.code_runs.configure(self.settings, self._workspace_root(), verdict.allowed)

    def may_run_reason(self) -> str:
        """Why user code may not run now (the policy's words), for a command that needs it."""
        return self._verdict.reason if self._verdict is not None else "the server is not initialised yet"

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
        # Documents analysed while the model loads show no ranking yet: rank them once it is loaded.
        self._ranked = asyncio.ensure_future(
            load_after_first(self._first_analysis, loaded.ranker, lambda: self.reanalyse(self.open_uris()))
        )
        if loaded.note is not None:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=loaded.note)
            )
        self.log(f"Oracular {__version__}: {loaded.describe()} (device setting {self.settings.device!r})")

    # -- transport ---------------------------------------------------------------------------
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.exit_code = serve_stdio(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)

    def start_tcp(self, host: str, port: int) -> None:
        self.exit_code = serve_tcp(self, host, port)

    # -- messages and progress ---------------------------------------------------------------
    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Internal errors go to the client's log, not to a pop-up for every failing keystroke.

        Failed requests were already answered with an error response.
        """
        if source is not FeatureRequestError:
            self.log(f"Oracular {internal_error(error)}", types.MessageType.Error)

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


def _register_lifecycle(server: OracularServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        server.client = ClientSupport.of(params.capabilities)
        server._initialization_options = section_of(params.initialization_options)
        server.workspace_trusted, problem = trusted_option(params.initialization_options)
        if problem is not None:
            server.log(problem, types.MessageType.Warning)

    @server.feature(types.INITIALIZED)
    async def initialized(params: types.InitializedParams) -> None:
        await server.start()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        server.documents.schedule(params.text_document.uri, 0.0)
        if (document := server.open_document(params.text_document.uri)) is not None:
            server.code_runs.warm(document.path)

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

    @server.feature(TRUST_NOTIFICATION)
    def workspace_trust(params: Any) -> None:
        trusted = trust_params(params)
        if trusted is None:
            server.log(
                f'ignored {TRUST_NOTIFICATION}: expected {{"trusted": true|false}}', types.MessageType.Warning
            )
            return
        server.trust_changed(trusted)

    @server.feature(types.SHUTDOWN)
    async def shutdown(params: None) -> None:
        server.worker.shutdown()
        server.engines.close()
        await server.code_runs.close()
        server.pseudo_tested.close()


def create_server(launch: Launch | None = None) -> OracularServer:
    server = OracularServer(launch)
    _register_lifecycle(server)
    for feature in (code_actions, inlay_hints, hover, commands, pseudo_tested):
        feature.register(server)
    return server
