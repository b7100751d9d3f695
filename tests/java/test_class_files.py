"""Reading a compiled class's members from its bytes (the JVM class file format), as javac wrote them."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from oracular.java.class_files import ClassFileError, descriptor_types, read_class, type_text

from ..conftest import require_junit5_javac

SOURCE = """
package com.acme.http;

public class Response extends Message implements java.io.Serializable, Comparable<Response> {
    public static final int OK = 200;
    public String reason;
    private int hidden;
    public Response(int status, String reason) { this.reason = reason; }
    public int getStatusCode() { return 200; }
    public java.util.List<Header> getHeaders() { return null; }
    public Header[] headers(int max, long[] skip) { return null; }
    protected boolean isOk() { return true; }
    public static Response of(String text) { return null; }
    private void secret() { }
    public int compareTo(Response other) { return 0; }
    public static class Header { public String getName() { return ""; } }
}
"""


def compiled(tmp_path: Path, name: str) -> bytes:
    require_junit5_javac()
    folder = tmp_path / "src" / "com" / "acme" / "http"
    folder.mkdir(parents=True)
    (folder / "Response.java").write_text(textwrap.dedent(SOURCE))
    (folder / "Message.java").write_text("package com.acme.http;\npublic class Message { }\n")
    out = tmp_path / "classes"
    subprocess.run(["javac", "-d", str(out), *map(str, folder.glob("*.java"))], check=True, capture_output=True)
    return (out / "com" / "acme" / "http" / name).read_bytes()


def test_a_class_files_name_supertypes_and_visible_members(tmp_path: Path) -> None:
    cls = read_class(compiled(tmp_path, "Response.class"))
    assert (cls.name, cls.qualified_name, cls.package, cls.kind) == (
        "Response", "com.acme.http.Response", "com.acme.http", "class"
    )  # fmt: skip
    assert cls.superclass == "com.acme.http.Message"
    assert cls.interfaces == ("java.io.Serializable", "java.lang.Comparable")
    methods = {(m.name, m.return_type): m for m in cls.methods}
    assert methods["getStatusCode", "int"].params == ()
    assert methods["getHeaders", "List"].modifiers == frozenset({"public"})  # erased, the JDK's by simple name
    assert [t for t, _ in methods["headers", "com.acme.http.Response.Header[]"].params] == ["int", "long[]"]
    assert methods["isOk", "boolean"].modifiers == frozenset({"protected"})
    assert methods["of", "com.acme.http.Response"].modifiers == frozenset({"public", "static"})
    assert methods["Response", None].is_constructor
    # private members and the compiler's bridge compareTo(Object) are not the class's API
    assert ("secret", "void") not in methods
    assert [m.params[0][0] for m in cls.methods if m.name == "compareTo"] == ["com.acme.http.Response"]
    assert set(cls.fields) == {"OK", "reason"}
    assert cls.fields["OK"].is_constant and cls.fields["reason"].type == "String"


def test_a_member_class_is_named_with_a_dot(tmp_path: Path) -> None:
    cls = read_class(compiled(tmp_path, "Response$Header.class"))
    assert (cls.name, cls.qualified_name) == ("Header", "com.acme.http.Response.Header")


def test_descriptors_read_as_a_test_writes_types() -> None:
    assert descriptor_types("(I[JLjava/lang/String;[[Lcom/acme/A$B;)Ljava/util/Map$Entry;") == [
        "int", "long[]", "String", "com.acme.A.B[][]", "Entry"
    ]  # fmt: skip
    assert type_text("javax/xml/stream/XMLStreamReader") == "XMLStreamReader"


def test_bytes_that_are_no_class_file_are_refused() -> None:
    with pytest.raises(ClassFileError):
        read_class(b"PK\x03\x04 a zip, not a class")
    with pytest.raises(ClassFileError):
        read_class(bytes.fromhex("cafebabe0000003d00ff"))  # the constant pool is cut short
