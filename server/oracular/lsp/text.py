"""The server's copy of each open document, kept exactly as the editor has it.

LSP counts lines at ``\\n``, ``\\r\\n`` and ``\\r`` only, and columns in UTF-16 code units (the
server forces that encoding at ``initialize``). pygls' own ``TextDocument`` splits lines with
``str.splitlines``, which also breaks at U+2028, U+2029, U+0085, form feed, vertical tab and
``\\x1c``-``\\x1e``: one of them in a comment was enough for every later incremental edit to land on
the wrong line, so the server analysed text the editor did not have. This model follows the
specification and nothing else; :mod:`oracular.lsp.protocol` routes the document notifications
here instead of to pygls' workspace.

Positions past the end of a line mean the end of that line, and lines past the end of the
document mean its end, as the specification asks. A column that falls inside a surrogate pair
(no client sends one) means the end of that character.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from lsprotocol import types

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""The only line terminators LSP knows."""


def line_spans(text: str) -> list[tuple[int, int]]:
    """Each line's ``(start, end)`` string offsets, the terminator excluded."""
    spans = []
    start = 0
    for match in LINE_BREAK.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def utf16_offset(segment: str, character: int) -> int:
    """The string index in ``segment`` (one line) of UTF-16 column ``character``, clamped to its end."""
    if segment.isascii():
        return min(character, len(segment))
    units = 0
    for index, char in enumerate(segment):
        if units >= character:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(segment)


class TextDocument:
    """One open document: its text, version and language, changed by ``didChange`` events."""

    def __init__(self, uri: str, language_id: str, version: int, text: str) -> None:
        self.uri = uri
        self.language_id = language_id
        self.version = version
        self._text = text
        self._spans: list[tuple[int, int]] | None = None

    @property
    def text(self) -> str:
        return self._text

    def offset_at(self, position: types.Position) -> int:
        """The string index of an LSP position."""
        if self._spans is None:
            self._spans = line_spans(self._text)
        if position.line >= len(self._spans):
            return len(self._text)
        start, end = self._spans[position.line]
        return start + utf16_offset(self._text[start:end], position.character)

    def apply(self, change: types.TextDocumentContentChangeEvent) -> None:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start, end = sorted((self.offset_at(change.range.start), self.offset_at(change.range.end)))
            self._text = self._text[:start] + change.text + self._text[end:]
        else:
            self._text = change.text
        self._spans = None


class TextDocuments:
    """The open documents by URI (compared unquoted: clients differ in what they percent-encode)."""

    def __init__(self) -> None:
        self._documents: dict[str, TextDocument] = {}

    def get(self, uri: str) -> TextDocument | None:
        return self._documents.get(unquote(uri))

    def all(self) -> list[TextDocument]:
        return list(self._documents.values())

    def open(self, item: types.TextDocumentItem) -> None:
        self._documents[unquote(item.uri)] = TextDocument(item.uri, item.language_id, item.version, item.text)

    def change(self, params: types.DidChangeTextDocumentParams) -> bool:
        """Apply the changes in order; ``False`` if the document is not open."""
        document = self.get(params.text_document.uri)
        if document is None:
            return False
        for change in params.content_changes:
            document.apply(change)
        document.version = params.text_document.version
        return True

    def close(self, uri: str) -> None:
        self._documents.pop(unquote(uri), None)

    def __len__(self) -> int:
        return len(self._documents)
