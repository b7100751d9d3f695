"""The server in process, on the test's event loop: JSON goes in through :func:`dispatch` (the read
loop's own entry) and what the server sends is kept by a :class:`Wire`. Faster than a subprocess,
and the server's state can be looked at directly."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from oracular.lsp.protocol import dispatch
from oracular.lsp.server import OracularServer, create_server

INITIALIZE: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"capabilities": {}},
}


class Wire:
    """A writer that keeps what the server sends, decoded."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.sent.append(json.loads(data.partition(b"\r\n\r\n")[2]))

    def close(self) -> None:
        pass

    def replies(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if "method" not in m]

    def logged(self, text: str) -> list[str]:
        messages = [m["params"]["message"] for m in self.sent if m.get("method") == "window/logMessage"]
        return [m for m in messages if text in m]


def send(server: OracularServer, message: dict[str, Any]) -> None:
    dispatch(server.protocol, json.dumps(message).encode())


def notify(server: OracularServer, method: str, params: dict[str, Any]) -> None:
    send(server, {"jsonrpc": "2.0", "method": method, "params": params})


def open_java(server: OracularServer, path: Path, text: str | None = None) -> str:
    text = path.read_text(encoding="utf-8") if text is None else text
    uri = path.as_uri()
    notify(
        server,
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}},
    )
    return uri


def initialized_server(root: Path | None = None) -> tuple[OracularServer, Wire]:
    """A server that answered ``initialize`` (documents are taken; nothing is analysed yet)."""
    server = create_server()
    wire = Wire()
    server.protocol.set_writer(wire)
    params = {**INITIALIZE["params"], "initializationOptions": {"device": "cpu"}}
    if root is not None:
        params["rootUri"] = root.as_uri()
    send(server, {**INITIALIZE, "params": params})
    return server, wire


async def started_server(root: Path | None = None) -> tuple[OracularServer, Wire]:
    """A server past ``initialized``, with its ranker loaded: it analyses what is opened."""
    server, wire = initialized_server(root)
    notify(server, "initialized", {})
    while not wire.logged("ranker on"):
        await asyncio.sleep(0.01)
    return server, wire
