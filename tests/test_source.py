"""Bad input is refused with one clear message; positions are LSP-correct (UTF-16)."""

from pathlib import Path

import pytest

from oracular.java.source import SourceError, load_source, parse_text


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
