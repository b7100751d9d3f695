"""Library classes read from their archives: what a test can ask an object of a type no source of
the workspace declares, and the targets that gives."""

from __future__ import annotations

import subprocess
import textwrap
import zipfile
from pathlib import Path

import pytest

from oracular.execution.libraries import jdk_modules, system_library
from oracular.java.declarations import Import, extract
from oracular.java.junit import find_test_methods
from oracular.java.library import Archive, LibraryIndex
from oracular.java.prefix import analyse_prefix
from oracular.java.types import TypeEnv
from oracular.java.workspace import WorkspaceIndex

from ..conftest import java, require_junit5_javac

LIBRARY = {
    "Message.java": "public class Message { public String getBody() { return \"\"; } }",
    "Response.java": """
        public class Response extends Message {
            public static Response of(String text) { return new Response(); }
            public int getStatusCode() { return 200; }
            public boolean isRedirect() { return false; }
            public String next() { return ""; }
            public boolean matches(String pattern) { return true; }
            public String getHeader(String name) { return ""; }
        }""",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``com.acme.http``'s classes in a jar, as a library ships them."""
    require_junit5_javac()
    root = tmp_path_factory.mktemp("library")
    sources = []
    for name, body in LIBRARY.items():
        path = root / "src" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text("package com.acme.http;\n" + textwrap.dedent(body))
        sources.append(path)
    subprocess.run(["javac", "-d", str(root / "classes"), *map(str, sources)], check=True, capture_output=True)
    jar = root / "acme-http.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        for compiled in (root / "classes").rglob("*.class"):
            archive.write(compiled, compiled.relative_to(root / "classes").as_posix())
    return jar


def library_of(jar: Path) -> LibraryIndex:
    return LibraryIndex(lambda package: (Archive(jar),) if package == "com.acme.http" else ())


def test_a_class_is_found_by_import_wildcard_or_qualified_name(jar: Path) -> None:
    library = library_of(jar)
    explicit = library.resolve("Response", [Import("com.acme.http.Response", False, False)])
    assert explicit is not None and explicit.qualified_name == "com.acme.http.Response"
    assert library.resolve("Response", [Import("com.acme.http.*", False, True)]) is explicit  # read once
    assert library.resolve("com.acme.http.Message", []) is not None
    assert library.resolve("Response", []) is None  # not imported: another class of that name
    assert library.resolve("com.acme.http.Missing", []) is None
    assert library.holds(explicit)
    assert [c.name for c in library.supertypes(explicit)] == ["Message"]  # Object's are no observers


def test_a_broken_archive_finds_nothing() -> None:
    broken = LibraryIndex(lambda package: (Archive(Path("/nonexistent/broken.jar")),))
    assert broken.find("com.acme.http.Response") is None


def prefix_targets(library: LibraryIndex | None) -> dict[str, str]:
    source = java(
        """
        package org.example;
        import com.acme.http.Response;
        class ClientTest {
            @org.junit.jupiter.api.Test
            void fetches() {
                Response response = Response.of("GET /");
            }
        }
        """
    )
    decls = extract(source)
    test = find_test_methods(source, decls.imports)[0]
    env = TypeEnv(WorkspaceIndex([], library=library), decls.package, decls.imports)
    prefix = analyse_prefix(test.node, env, test.class_name)
    assert prefix is not None
    return {t.expression: t.kind for t in prefix.targets}


def test_a_library_receiver_offers_its_observers_actions_and_predicates(jar: Path) -> None:
    found = prefix_targets(library_of(jar))
    assert found["response.getStatusCode()"] == "observer"
    assert found["response.isRedirect()"] == "observer"
    assert found["response.getBody()"] == "observer"  # declared by its superclass
    assert found["response.next()"] == "action"  # may change state: observed alone
    assert not any(t.startswith(("response.getClass", "response.hashCode")) for t in found)
    assert set(prefix_targets(None)) == {"response"}  # without the library, the local alone


def test_a_librarys_targets_come_after_the_workspaces(jar: Path, tmp_path: Path) -> None:
    """The unit's own classes first: a library's targets never push theirs past the caps."""
    (tmp_path / "Counter.java").write_text(
        "package org.example;\npublic class Counter { public int getCount() { return 0; } }\n"
    )
    index = WorkspaceIndex([tmp_path], library=library_of(jar))
    index.refresh()
    source = java(
        """
        package org.example;
        import com.acme.http.Response;
        class CounterTest {
            @org.junit.jupiter.api.Test
            void counts() {
                Counter counter = new Counter();
                Response response = Response.of("GET /");
            }
        }
        """
    )
    decls = extract(source)
    test = find_test_methods(source, decls.imports)[0]
    prefix = analyse_prefix(test.node, TypeEnv(index, decls.package, decls.imports), test.class_name)
    assert prefix is not None
    order = [t.expression for t in prefix.targets]
    library = [i for i, e in enumerate(order) if e.startswith("response.")]
    assert library and order.index("counter.getCount()") < min(library)
    assert order[-len(library) :] == [order[i] for i in library]


def test_the_machines_library_holds_the_jdk_without_replacing_the_table_of_common_types() -> None:
    if jdk_modules() is None:
        pytest.skip("this JDK has no jmods")
    library = system_library()
    uuid = library.resolve("UUID", [Import("java.util.UUID", False, False)])
    assert uuid is not None and any(m.name == "getMostSignificantBits" for m in uuid.methods)
    source = java(
        """
        import java.util.*;
        class T {
            @org.junit.jupiter.api.Test
            void t() {
                UUID id = UUID.randomUUID();
                List<String> names = new ArrayList<>();
            }
        }
        """
    )
    decls = extract(source)
    test = find_test_methods(source, decls.imports)[0]
    env = TypeEnv(WorkspaceIndex([], library=library), decls.package, decls.imports)
    prefix = analyse_prefix(test.node, env, test.class_name)
    assert prefix is not None
    found = {t.expression for t in prefix.targets}
    assert "id.getMostSignificantBits()" in found
    assert {"names.size()", "names.isEmpty()"} <= found and "names.hashCode()" not in found
