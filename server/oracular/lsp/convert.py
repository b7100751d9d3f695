"""Engine positions and edits as LSP types.

The engine already speaks LSP coordinates (0-based lines, UTF-16 columns; the server forces the
UTF-16 position encoding), so this is only a change of types, plus the text shortening that
titles and hints share.
"""

from __future__ import annotations

from lsprotocol import types

from oracular.candidates.render import TextEdit

Point = tuple[int, int]
"""A position as the engine gives it: (0-based line, UTF-16 column). Tuples compare in order."""


def position(point: Point) -> types.Position:
    return types.Position(line=point[0], character=point[1])


def lsp_range(start: Point, end: Point) -> types.Range:
    return types.Range(start=position(start), end=position(end))


def point(pos: types.Position) -> Point:
    return pos.line, pos.character


def overlaps(a: tuple[Point, Point], b: tuple[Point, Point]) -> bool:
    """Whether two spans share a position; touching ends count, so a bare cursor matches."""
    return a[0] <= b[1] and b[0] <= a[1]


def contains(span: tuple[Point, Point], where: Point) -> bool:
    return span[0] <= where <= span[1]


def text_edits(edits: list[TextEdit]) -> list[types.TextEdit]:
    return [types.TextEdit(range=lsp_range(e.start, e.end), new_text=e.new_text) for e in edits]


def workspace_edit(
    uri: str, version: int, edits: list[TextEdit], document_changes: bool
) -> types.WorkspaceEdit:
    """Edits for one document version.

    With ``documentChanges`` the version travels with the edit and the client refuses to apply
    it to any other version; without it, the server's stale-result checks are the only guard.
    """
    lsp_edits = text_edits(edits)
    if document_changes:
        document = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=document, edits=list(lsp_edits))]
        )
    return types.WorkspaceEdit(changes={uri: lsp_edits})


def one_line(text: str) -> str:
    """Collapse a (possibly multi-line) oracle into one line for titles and messages."""
    return " ".join(text.split())


def shorten(text: str, width: int) -> str:
    text = one_line(text)
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"
