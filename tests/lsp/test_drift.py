"""The server's copy of a document never drifts from the editor's, and its diagnostics land on the
test names, whatever the edits: a property test over random incremental edit sequences.

The "editor" here is an independent model of LSP's rules: the text as UTF-16 code units (as a
JavaScript editor holds it), lines ending at ``\\n``, ``\\r\\n`` and ``\\r`` only. Edits go through
the real server in process (JSON on the wire, the protocol, the document model, the analysis), with
line terminators of all kinds, characters that ``str.splitlines`` takes for line ends, surrogate
pairs, CRLF and edits spanning lines. ``ORACULAR_DRIFT_EXAMPLES`` sets how many sequences run
(40 in CI; the figures in ``docs/benchmarks.md`` ran 2,000).
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ..conftest import copy_example
from .conftest import STACK_TEST
from .inprocess import notify, started_server

EXAMPLES = int(os.environ.get("ORACULAR_DRIFT_EXAMPLES", "40"))
TERMINATORS = ("\n", "\r\n", "\r")
NOT_TERMINATORS = ("\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c")
"""Line ends for ``str.splitlines``, ordinary characters for LSP (and inside Java comments)."""
FRAGMENTS = (
    *TERMINATORS,
    *NOT_TERMINATORS,
    " ",
    "x",
    "// c",
    "/* é */",
    "😀",
    "\U0001d538b",
    "\t",
    "s.push(1);",
)
UNIT_BREAK = re.compile(r"\r\n|\r|\n")


def lsp_position(where: tuple[int, int]) -> dict[str, int]:
    return {"line": where[0], "character": where[1]}


class Editor:
    """The client's document: UTF-16 code units, LSP lines."""

    def __init__(self, text: str) -> None:
        self.units = text.encode("utf-16-le")

    @property
    def text(self) -> str:
        return self.units.decode("utf-16-le", "surrogatepass")

    def lines(self) -> list[tuple[int, int]]:
        """(start, end) of each line in code units, terminator excluded."""
        text16 = self.units.decode("latin-1")[::2]  # one char per code unit, its low byte
        mask = "".join(c if c in "\r\n" and self.units[2 * i + 1] == 0 else "." for i, c in enumerate(text16))
        spans, start = [], 0
        for match in UNIT_BREAK.finditer(mask):
            spans.append((start, match.start()))
            start = match.end()
        return [*spans, (start, len(self.units) // 2)]

    def unit(self, line: int, character: int) -> int:
        return self.lines()[line][0] + character

    def is_inside_pair(self, unit: int) -> bool:
        low = (
            int.from_bytes(self.units[2 * unit : 2 * unit + 2], "little") if 2 * unit < len(self.units) else 0
        )
        return 0xDC00 <= low <= 0xDFFF

    def replace(self, start: int, end: int, new: str) -> None:
        self.units = self.units[: 2 * start] + new.encode("utf-16-le") + self.units[2 * end :]

    def text_between(self, start: tuple[int, int], end: tuple[int, int]) -> str:
        a, b = self.unit(*start), self.unit(*end)
        return self.units[2 * a : 2 * b].decode("utf-16-le", "surrogatepass")


@st.composite
def positions(draw: st.DrawFn, editor: Editor, at_or_after: tuple[int, int] | None = None) -> tuple[int, int]:
    """A position the editor can send: within a line, never inside a surrogate pair."""
    lines = editor.lines()
    first = at_or_after[0] if at_or_after else 0
    line = draw(st.integers(first, min(first + 3, len(lines) - 1)))
    start, end = lines[line]
    low = at_or_after[1] if at_or_after and line == first else 0
    character = draw(st.integers(low, end - start))
    while editor.is_inside_pair(start + character):
        character -= 1
    return line, max(character, low)


class Session:
    """One in-process server on its own event loop, shared by every example."""

    def __init__(self, project: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.server, self.wire = self.loop.run_until_complete(started_server(project))
        self.opened = 0
        self.edits = 0
        self.diagnostics = 0

    def notify(self, method: str, params: dict[str, Any]) -> None:
        notify(self.server, method, params)

    async def published(self, uri: str, version: int) -> list[dict[str, Any]]:
        await self.server.documents.current(uri)
        for message in reversed(self.wire.sent):
            params = message.get("params", {})
            if message.get("method") == "textDocument/publishDiagnostics" and params.get("uri") == uri:
                assert params.get("version") == version, "diagnostics published for another version"
                return params["diagnostics"]
        return []


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    project = copy_example(tmp_path_factory.mktemp("drift"))
    session = Session(project)
    session.path = project / STACK_TEST  # type: ignore[attr-defined]
    yield session
    session.server.worker.shutdown()
    session.loop.close()
    print(
        f"drift: {session.opened} documents, {session.edits} edits, {session.diagnostics} diagnostics checked"
    )


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data(), endings=st.lists(st.sampled_from(TERMINATORS), min_size=1, max_size=3))
def test_random_edits_never_drift(session: Session, data: st.DataObject, endings: list[str]) -> None:
    lines = session.path.read_text(encoding="utf-8").split("\n")  # type: ignore[attr-defined]
    text = "".join(line + endings[i % len(endings)] for i, line in enumerate(lines[:-1])) + lines[-1]
    session.opened += 1
    uri = session.path.with_name(f"Drift{session.opened}Test.java").as_uri()  # type: ignore[attr-defined]
    editor = Editor(text)
    session.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}},
    )
    version = 1
    for _ in range(data.draw(st.integers(1, 8), label="edits")):
        start = data.draw(positions(editor))
        end = data.draw(positions(editor, at_or_after=start))
        new = "".join(data.draw(st.lists(st.sampled_from(FRAGMENTS), max_size=4)))
        version += 1
        change = {
            "range": {
                "start": lsp_position(start),
                "end": lsp_position(end),
            },
            "text": new,
        }
        session.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        editor.replace(editor.unit(*start), editor.unit(*end), new)
        session.edits += 1
        server_text = session.server.protocol.documents.get(uri).text  # type: ignore[union-attr]
        assert server_text == editor.text, f"drifted after edit {change!r}"
    diagnostics = session.loop.run_until_complete(session.published(uri, version))
    for diagnostic in diagnostics:
        if diagnostic.get("code") != "missing-oracle":
            continue
        where = diagnostic["range"]
        name = editor.text_between(
            (where["start"]["line"], where["start"]["character"]),
            (where["end"]["line"], where["end"]["character"]),
        )
        assert diagnostic["message"].startswith(f"{name} has no oracle"), (name, diagnostic["message"])
        session.diagnostics += 1
    session.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
