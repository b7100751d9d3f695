"""Bad input is refused with one clear message; positions are LSP-correct (UTF-16)."""

from pathlib import Path

import pytest

from oracular.java.source import SourceError, load_source, parse_text, validate_text


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("Empty.java", b"", "empty"),
        ("Blank.java", b"   \n\n", "empty"),
        ("Latin.java", 'class A { String s = "caf\xe9"; }'.encode("latin-1"), "not valid UTF-8"),
        ("notes.txt", b"class A {}", "not a Java file"),
        ("Binary.java", b"class A {}\x00\x01", "binary"),
        ("Prose.java", b"Dear diary, today I wrote no Java.", "no Java declarations"),
    ],
)
def test_bad_input_gives_clear_error(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        load_source(write(tmp_path, name, data))


def test_huge_file_refused_with_size(tmp_path: Path) -> None:
    body = "class Big {\n" + "  int x;\n" * 60_000 + "}\n"
    with pytest.raises(SourceError, match=r"too large.*60002 lines"):
        load_source(write(tmp_path, "Big.java", body.encode()))


def test_ten_thousand_lines_are_fine(tmp_path: Path) -> None:
    methods = "".join(f"  @Test void t{i}() {{ int a = {i}; }}\n" for i in range(10_000))
    source = load_source(write(tmp_path, "BigTest.java", f"class BigTest {{\n{methods}}}\n".encode()))
    assert source.root.type == "program" and not source.root.has_error


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        load_source(tmp_path / "Nope.java")


def test_utf16_positions_round_trip() -> None:
    text = 'class A { String s = "😀é"; int x; }\n'
    source = parse_text(text)
    byte_offset = text.encode().index(b"int")
    line, character = source.position(byte_offset)
    assert (line, character) == (0, text.index("int") + 1)  # the emoji is 2 UTF-16 units
    assert source.offset(line, character) == byte_offset


def lsp_position(text: str, index: int) -> tuple[int, int]:
    """The LSP position of string index ``index``, counted one character at a time: a line ends at
    ``\\n``, at ``\\r\\n`` and at a ``\\r`` alone, and at nothing else."""
    line = column = 0
    for i, char in enumerate(text[:index]):
        if char == "\n" or (char == "\r" and text[i + 1 : i + 2] != "\n"):
            line, column = line + 1, 0
        elif char != "\r":
            column += 2 if ord(char) > 0xFFFF else 1
    return line, column


ODD_LINES = (
    "package p;\r// a\u2028b \u2029 c\u0085d\x0ce\x0bf\x1cg\r\n"
    'class A {\r  String s = "😀";\n\r  int x;\r\n}\r'
)


def test_lines_end_where_editors_end_them() -> None:
    """Regression: lines were counted at ``\\n`` only, so a CR-only file was one line long."""
    source = parse_text(ODD_LINES)
    for needle in ("class", "String", "int x", "}"):
        index = ODD_LINES.index(needle)
        byte_offset = len(ODD_LINES[:index].encode())
        assert source.position(byte_offset) == lsp_position(ODD_LINES, index), needle
        assert source.offset(*lsp_position(ODD_LINES, index)) == byte_offset, needle
    # A column past the end of a line means its end, before the terminator (\r\n here).
    assert source.offset(1, 999) == len(ODD_LINES[: ODD_LINES.index("\r\nclass")].encode())


def test_a_lone_surrogate_is_refused_with_its_line() -> None:
    with pytest.raises(
        SourceError, match=r"Snippet.java: not valid Unicode: a lone surrogate \(U\+D800\) on line 3"
    ):
        validate_text('class A {\r\n  // x\n  String s = "\ud800";\n}\n', "Snippet.java")
    validate_text('class A { String s = "😀"; }\n')  # a pair is one code point: fine
