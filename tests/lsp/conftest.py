"""End-to-end fixtures: ``oracular serve`` over stdio, driven by pytest-lsp with real client profiles.

Every feature test runs once as VS Code and once as Neovim (pytest-lsp's recorded capabilities),
because the server adapts to them: resolve or eager edits, ``documentChanges`` or ``changes``,
disabled actions, inlay hint refresh. Servers are module-scoped where tests only read, so the
suite starts few processes; tests that change settings get a server of their own.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pytest_lsp.protocol import LanguageClientProtocol

from oracular.candidates.render import TextEdit, apply_edits
from oracular.java.source import parse_text
from oracular.lsp.diagnostics import PENDING_DATA

from ..conftest import copy_example

PROFILES = ("visual-studio-code", "neovim")
SERVE = [sys.executable, "-m", "oracular", "serve"]
SERVER_COMMAND = [*SERVE, "--stdio"]
"""As VS Code's language client starts it."""
STACK_TEST = Path("src/test/java/org/example/stack/StackTest.java")
STACK = Path("src/main/java/org/example/stack/Stack.java")
TIMEOUT_S = 15.0
"""Generous: CI machines are slow and shared, and a hang should fail, not stall the suite."""


class RecordingProtocol(LanguageClientProtocol):
    """pytest-lsp's protocol, which also hands the replies to :meth:`RecordingClient.raw_request`
    to their waiters (pygls knows nothing of those requests: it did not send them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.raw_waiters: dict[str, asyncio.Future[Any]] = {}

    def handle_message(self, message: Any) -> None:
        is_reply = not hasattr(message, "method")
        waiter = self.raw_waiters.pop(getattr(message, "id", None), None) if is_reply else None
        if waiter is None:
            super().handle_message(message)
        elif getattr(message, "error", None) is not None:
            waiter.set_exception(JsonRpcException.from_error(message.error))
        else:
            waiter.set_result(message.result)


class RecordingClient(LanguageClient):
    """pytest-lsp's client, also recording what the server pushes (with versions) and asks, and
    sending what a typed client cannot."""

    protocol: RecordingProtocol

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, protocol_cls=RecordingProtocol, **kwargs)
        self.profile = ""
        self.published: list[types.PublishDiagnosticsParams] = []
        self.inlay_hint_refreshes = 0
        self.code_lens_refreshes = 0
        self.registrations: list[types.Registration] = []
        self.exit_code: int | None = None
        """The server process's exit code once it has exited (stdio only)."""

    def latest(self, uri: str) -> types.PublishDiagnosticsParams | None:
        return next((p for p in reversed(self.published) if p.uri == uri), None)

    async def server_exit(self, server: asyncio.subprocess.Process) -> None:
        """pygls' hook for the end of the server process it started."""
        self.exit_code = server.returncode
        await super().server_exit(server)

    def send_raw(self, body: bytes) -> None:
        """Bytes straight to the server, framed but otherwise unchecked."""
        assert self.protocol.writer is not None
        self.protocol.writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    async def raw_request(self, method: str, params: object) -> object:
        """A request pygls' typed client would refuse to send (its params do not fit the method);
        the answer's error is raised as pygls raises it for its own requests."""
        msg_id = f"raw-{uuid.uuid4()}"
        waiter = self.protocol.raw_waiters[msg_id] = asyncio.get_running_loop().create_future()
        request = {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}
        self.send_raw(json.dumps(request).encode())
        return await asyncio.wait_for(waiter, TIMEOUT_S)


def _record_diagnostics(client: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    client.published.append(params)
    DEFAULT_CLIENT_FEATURES[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS](client, params)


def _inlay_hint_refresh(client: RecordingClient, params: None) -> None:
    client.inlay_hint_refreshes += 1


def _code_lens_refresh(client: RecordingClient, params: None) -> None:
    client.code_lens_refreshes += 1


def _register_capability(client: RecordingClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)


def make_client() -> RecordingClient:
    client = RecordingClient(converter_factory=default_converter)
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record_diagnostics,
            types.WORKSPACE_INLAY_HINT_REFRESH: _inlay_hint_refresh,
            types.WORKSPACE_CODE_LENS_REFRESH: _code_lens_refresh,
            types.CLIENT_REGISTER_CAPABILITY: _register_capability,
        },
    )
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client)


async def initialize(
    client: RecordingClient,
    profile: str,
    root: Path,
    options: dict[str, Any] | None = None,
    capabilities: types.ClientCapabilities | None = None,
    trusted: bool | None = None,
) -> types.InitializeResult:
    """Initialize like ``profile`` would, on ``root``, with ``device: cpu`` unless ``options`` say.

    ``cpu`` spares each server the seconds torch takes to import just to look for a GPU; the
    device tests ask for ``auto`` and ``cuda`` explicitly. ``capabilities`` replaces the profile's.
    ``trusted`` is sent as ``workspaceTrusted``, as the VS Code extension does.
    """
    client.profile = profile
    initialization_options: dict[str, Any] = {"oracular": {"device": "cpu", **(options or {})}}
    if trusted is not None:
        initialization_options["workspaceTrusted"] = trusted
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or client_capabilities(profile),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=initialization_options,
        )
    )
    # The server is ready once it has read its settings and loaded the ranker, which it logs.
    await until(lambda: any("ranker on" in m.message for m in client.log_messages), what="the ranker")
    return result


async def until(condition: Callable[[], Any], timeout: float = TIMEOUT_S, what: str = "condition") -> Any:
    """Poll ``condition`` until it is truthy (the server's pushes arrive on the same event loop)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.005)
    return value


async def error_of(request: Awaitable[Any]) -> JsonRpcException:
    """The LSP error a request fails with (pygls maps only some codes to their own classes)."""
    with pytest.raises(JsonRpcException) as info:
        await request
    return info.value


async def diagnostics(
    client: RecordingClient, uri: str, version: int, since: int = 0, timeout: float = TIMEOUT_S
) -> list[types.Diagnostic]:
    """The complete diagnostics published for ``version`` of ``uri`` after the ``since``-th
    publication: not a first look, whose tests are still to be ranked (``pending``). ``timeout``
    bounds the wait only; how fast they come is measured in ``bench/``."""
    params = await until(
        lambda: next(
            (
                p
                for p in client.published[since:]
                if p.uri == uri and p.version == version and not any(pending(d) for d in p.diagnostics)
            ),
            None,
        ),
        timeout=timeout,
        what=f"diagnostics for {uri} version {version}",
    )
    return list(params.diagnostics)


def pending(diagnostic: types.Diagnostic) -> bool:
    """A diagnostic of a test not ranked yet (a complete set of the same version follows)."""
    return diagnostic.data == PENDING_DATA


class Document:
    """An open document, kept in sync with the edits the test sends."""

    def __init__(self, client: RecordingClient, path: Path, text: str) -> None:
        self.client = client
        self.path = path
        self.uri = path.as_uri()
        self.text = text
        self.version = 1
        self.opened_at = len(client.published)
        """Publications before this belong to earlier opens of the same file (same versions)."""

    def change(self, text: str) -> None:
        """Replace the whole text (a full-text change), bumping the version."""
        self.version += 1
        self.text = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def insert(self, line: int, character: int, text: str) -> None:
        """An incremental change, as editors send while typing."""
        self.version += 1
        source = parse_text(self.text)
        self.text = apply_edits(source, [TextEdit((line, character), (line, character), text)])
        where = types.Position(line=line, character=character)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=where, end=where), text=text
                    )
                ],
            )
        )

    def save(self) -> None:
        self.path.write_text(self.text, encoding="utf-8")
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=self.uri))
        )

    async def diagnostics(
        self, since: int | None = None, code: str | None = "missing-oracle", timeout: float = TIMEOUT_S
    ) -> list[types.Diagnostic]:
        """This version's diagnostics with ``code`` (``None``: all of them), published since this
        document was opened (or ``since``)."""
        found = await diagnostics(
            self.client, self.uri, self.version, self.opened_at if since is None else since, timeout
        )
        return [d for d in found if code is None or d.code == code]

    @property
    def identifier(self) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=self.uri)

    def position_of(self, needle: str, offset: int = 0) -> types.Position:
        """The position of the first ``needle`` (plus ``offset`` characters); ASCII text only."""
        for number, line in enumerate(self.text.splitlines()):
            if needle in line:
                return types.Position(line=number, character=line.index(needle) + offset)
        raise AssertionError(f"{needle!r} not in {self.path.name}")


@asynccontextmanager
async def opened(client: RecordingClient, path: Path, text: str | None = None) -> AsyncIterator[Document]:
    """Open ``path`` (with ``text``, else its content) for the duration of the block."""
    document = Document(client, path, path.read_text(encoding="utf-8") if text is None else text)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=document.uri, language_id="java", version=document.version, text=document.text
            )
        )
    )
    try:
        yield document
    finally:
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=document.identifier))


def apply_workspace_edit(document: Document, edit: types.WorkspaceEdit) -> str:
    """The document's text after ``edit``, checking the edit targets this document and version."""
    if edit.document_changes is not None:
        (change,) = edit.document_changes
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == document.uri
        assert change.text_document.version == document.version
        edits = change.edits
    else:
        assert edit.changes is not None and set(edit.changes) == {document.uri}
        edits = edit.changes[document.uri]
    engine_edits = []
    for e in edits:
        assert isinstance(e, types.TextEdit)
        start, end = e.range.start, e.range.end
        engine_edits.append(TextEdit((start.line, start.character), (end.line, end.character), e.new_text))
    return apply_edits(parse_text(document.text), engine_edits)


async def code_actions(
    client: RecordingClient,
    doc: Document,
    where: types.Range,
    only: list[str] | None = None,
    diags: tuple[types.Diagnostic, ...] | list[types.Diagnostic] = (),
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc.identifier,
            range=where,
            context=types.CodeActionContext(diagnostics=list(diags), only=only),
        )
    )
    actions = list(result or [])
    assert all(isinstance(a, types.CodeAction) for a in actions)
    return actions  # type: ignore[return-value]


async def resolved_edit(client: RecordingClient, action: types.CodeAction) -> types.WorkspaceEdit:
    """The action's edit: resolved lazily (both profiles support resolve), never sent eagerly."""
    assert action.edit is None and action.data is not None
    resolved = await client.code_action_resolve_async(action)
    assert resolved.edit is not None
    return resolved.edit


def at(position: types.Position) -> types.Range:
    """An empty range: a bare cursor at ``position``."""
    return types.Range(start=position, end=position)


def full_range(text: str) -> types.Range:
    return types.Range(
        start=types.Position(line=0, character=0),
        end=types.Position(line=len(text.splitlines()) + 1, character=0),
    )


@asynccontextmanager
async def tcp_server(*flags: str) -> AsyncIterator[tuple[RecordingClient, asyncio.subprocess.Process]]:
    """``oracular serve --tcp 127.0.0.1:0 FLAGS...``, and a client connected to it (not initialized)."""
    server = await asyncio.create_subprocess_exec(
        *SERVE, "--tcp", "127.0.0.1:0", *flags, "--log-level", "info", stderr=asyncio.subprocess.PIPE
    )
    client = make_client()
    drain = None
    try:
        assert server.stderr is not None
        port = None
        while port is None:
            line = (await asyncio.wait_for(server.stderr.readline(), TIMEOUT_S)).decode()
            assert line, "the server exited before listening"
            if match := re.search(r"Serving on \('127\.0\.0\.1', (\d+)\)", line):
                port = int(match.group(1))
        drain = asyncio.ensure_future(server.stderr.read())  # keep the pipe from filling up
        await client.start_tcp("127.0.0.1", port)
        yield client, server
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
        if drain is not None:
            drain.cancel()
        await client.stop()


def server_process(client: LanguageClient) -> asyncio.subprocess.Process:
    """The server process pytest-lsp started for ``client``.

    pytest-lsp (1.0) offers no public way to it: pygls' ``JsonRPCClient.start_io`` keeps it in
    ``_server``. This is the one place the tests read that attribute;
    ``test_the_server_process_is_the_one_the_client_talks_to`` fails first if an upgrade moves it.
    """
    process = getattr(client, "_server", None)
    assert isinstance(process, asyncio.subprocess.Process), (
        "pygls' client no longer keeps the server process in _server: update server_process()"
    )
    return process


async def stop(client: LanguageClient) -> None:
    """Shut the server down politely, or kill it: a test that failed half-way must not hang
    (pytest-lsp's own teardown waits for the process without a time limit)."""
    try:
        await asyncio.wait_for(client.shutdown_session(), TIMEOUT_S)
    finally:
        process = server_process(client)
        if process.returncode is None:
            process.kill()


@pytest.fixture(scope="module")
def module_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_example(tmp_path_factory.mktemp("lsp"))


@pytest_lsp.fixture(config=CONFIG, params=PROFILES, scope="module")
async def shared_client(request: pytest.FixtureRequest, lsp_client: RecordingClient, module_project: Path):
    """One initialized server per profile for a whole module, on ``module_project``."""
    await initialize(lsp_client, request.param, module_project)
    yield
    await stop(lsp_client)


@pytest_lsp.fixture(config=CONFIG, params=PROFILES)
async def fresh_client(request: pytest.FixtureRequest, lsp_client: RecordingClient):
    """A started but not yet initialized server: the test initializes it with its own options."""
    lsp_client.profile = request.param
    yield
    await stop(lsp_client)


@pytest_lsp.fixture(config=CONFIG)
async def vscode_client(lsp_client: RecordingClient):
    """A started, not yet initialized server for tests whose subject does not depend on the client."""
    lsp_client.profile = "visual-studio-code"
    yield
    await stop(lsp_client)
