"""Loading Java source safely and mapping tree-sitter byte offsets to LSP positions.

Every user-facing entry point goes through :func:`load_source` so that bad input (empty,
huge, non-UTF-8, non-Java) fails with one clear :class:`SourceError` instead of a traceback
deep inside the analysis. LSP speaks UTF-16 code units while tree-sitter speaks UTF-8 bytes;
:class:`SourceText` owns that conversion so no other module has to.
"""

from __future__ import annotations

import bisect
import os
import re
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import tree_sitter_java
from tree_sitter import Language, Node, Parser, Tree

LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""Line terminators as LSP (and Java) count them; ``str.splitlines`` also breaks at U+2028, form
feed and others, which editors do not."""
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")
_LONE_CR = re.compile(rb"\r(?!\n)")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""Only a lone surrogate can be one code point in this range; JSON can carry it (``"\\ud800"``),
UTF-8 cannot."""

MAX_LINES = 50_000
"""Files longer than this are refused: no real test class is that long, and parsing plus
analysis time grows with size, so a generated monster should not stall an editor."""


TOP_LEVEL = frozenset(
    {
        "package_declaration", "import_declaration", "class_declaration", "interface_declaration",
        "enum_declaration", "record_declaration", "annotation_type_declaration", "module_declaration",
    }
)  # fmt: skip


class SourceError(ValueError):
    """Input that cannot be analysed, with a message meant for the user."""


@cache
def java_language() -> Language:
    return Language(tree_sitter_java.language())


def new_parser() -> Parser:
    """A fresh parser: tree-sitter parsers are not thread-safe, so callers own theirs."""
    return Parser(java_language())


@dataclass
class SourceText:
    """A decoded Java file, its tree, and the UTF-8 <-> UTF-16 position mapping."""

    text: str
    data: bytes
    tree: Tree
    path: Path | None = None
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        # LSP line semantics: editors number lines at \n, \r\n and \r only.
        self._line_starts = [0, *(m.end() for m in _LINE_BREAK_BYTES.finditer(self.data))]

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def line_of(self, byte_offset: int) -> int:
        """0-based line containing ``byte_offset``."""
        return bisect.bisect_right(self._line_starts, byte_offset) - 1

    def position(self, byte_offset: int) -> tuple[int, int]:
        """LSP position (0-based line, UTF-16 column) of a byte offset."""
        line = self.line_of(byte_offset)
        prefix = self.data[self._line_starts[line] : byte_offset].decode("utf-8", "replace")
        return line, len(prefix.encode("utf-16-le")) // 2

    def offset(self, line: int, character: int) -> int:
        """Byte offset of an LSP position (inverse of :meth:`position`)."""
        line = max(0, min(line, len(self._line_starts) - 1))
        start = self._line_starts[line]
        end = self._line_starts[line + 1] if line + 1 < len(self._line_starts) else len(self.data)
        content = self.data[start:end].rstrip(b"\r\n")  # one terminator at most; a \r is always one
        line_text = content.decode("utf-8", "replace")
        units = 0
        for i, ch in enumerate(line_text):
            if units >= character:
                return start + len(line_text[:i].encode("utf-8"))
            units += 2 if ord(ch) > 0xFFFF else 1
        return start + len(content)

    def line_indent(self, byte_offset: int) -> str:
        """Leading whitespace of the line containing ``byte_offset``."""
        start = self._line_starts[self.line_of(byte_offset)]
        end = start
        while end < len(self.data) and self.data[end : end + 1] in (b" ", b"\t"):
            end += 1
        return self.data[start:end].decode("ascii")


def tree_input(data: bytes) -> bytes:
    """What tree-sitter parses for ``data``: each lone ``\\r`` read as ``\\n``.

    Java ends a line at a lone CR too (JLS 3.4), but tree-sitter-java's ``//`` comment runs to the
    next ``\\n``: in a file saved with classic Mac line ends the first line comment swallowed the
    rest, and no test was found. The copy has the same length, so every byte offset holds for the
    original ``data``.
    """
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


def parse_text(text: str, path: Path | None = None, parser: Parser | None = None) -> SourceText:
    """Parse already-decoded source (an editor buffer, a test string)."""
    data = text.encode("utf-8")
    tree = (parser or new_parser()).parse(tree_input(data))
    return SourceText(text=text, data=data, tree=tree, path=path)


def decode_java(data: bytes, *, lenient: bool = False, name: str = "input") -> str:
    """Decode source bytes; strict UTF-8 for users, Latin-1 fallback for corpus mining."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if lenient:
            return data.decode("latin-1")
        raise SourceError(f"{name}: not valid UTF-8 (byte {exc.start}); re-save the file as UTF-8") from exc


def validate_text(text: str, name: str = "input", max_lines: int = MAX_LINES) -> None:
    """Reject input no analysis can help with, before parsing it."""
    if not text.strip():
        raise SourceError(f"{name}: file is empty")
    if "\x00" in text:
        raise SourceError(f"{name}: looks like a binary file, not Java source")
    if (surrogate := _LONE_SURROGATE.search(text)) is not None:
        line = len(LINE_BREAK.findall(text, 0, surrogate.start()))
        raise SourceError(
            f"{name}: not valid Unicode: a lone surrogate (U+{ord(surrogate.group()):04X}) on line {line + 1}"
        )
    lines = len(LINE_BREAK.findall(text)) + (not text.endswith(("\n", "\r")))
    if lines > max_lines:
        raise SourceError(f"{name}: too large to analyse ({lines} lines; the limit is {max_lines})")


def load_source(
    path: Path, *, lenient: bool = False, max_lines: int = MAX_LINES, parsed: SourceText | None = None
) -> SourceText:
    """Read and parse a Java file from disk, raising :class:`SourceError` on bad input.

    ``parsed``: the same file already parsed (by a workspace index); its tree is used when its
    text is the one read now, so a batch run parses each file once.
    """
    if path.suffix != ".java":
        raise SourceError(f"{path}: not a Java file (expected a .java file)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path}: cannot read file ({exc.strerror or exc})") from exc
    text = decode_java(data, lenient=lenient, name=str(path))
    validate_text(text, str(path), max_lines)
    if parsed is not None and parsed.text == text:
        source = SourceText(text, parsed.data, parsed.tree, path)
    else:
        source = parse_text(text, path)
    if not any(n.type in TOP_LEVEL for n in source.root.children):
        raise SourceError(f"{path}: no Java declarations found (is this Java source?)")
    return source


def write_if_unchanged(path: Path, original: bytes, new_text: str) -> bool:
    """Atomically replace ``path`` with ``new_text``, but only if it still holds ``original``.

    The counterpart of :func:`load_source` for the CLI's ``--write``: the user may have saved the
    file since it was read, and their change must win over an oracle computed for the old text.
    """
    if path.read_bytes() != original:
        return False
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".oracular")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(new_text)
        os.chmod(tmp, path.stat().st_mode & 0o7777)
        if path.read_bytes() != original:
            return False
        os.replace(tmp, path)
        return True
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
