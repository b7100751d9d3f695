"""The JDK's documented exceptions: the committed table, its lookup through supertypes, and the
types a throwing statement's JDK calls add after the workspace's evidence."""

from pathlib import Path

import pytest

from oracular.java.jdk_throws import CONSTRUCTOR, documented_throws


@pytest.mark.parametrize(
    ("type_text", "method", "first"),
    [
        ("Future<String>", "get", "CancellationException"),
        ("java.util.concurrent.CompletableFuture<Void>", "get", "CancellationException"),
        ("Iterator<String>", "next", "NoSuchElementException"),
        ("Integer", "parseInt", "NumberFormatException"),
        ("PreparedStatement", "executeQuery", "SQLException"),  # declared by Statement
        ("ArrayList<String>", "get", "IndexOutOfBoundsException"),
        ("URI", CONSTRUCTOR, "URISyntaxException"),
    ],
)
def test_documented_types_of_a_class_or_its_supertypes(type_text: str, method: str, first: str) -> None:
    assert documented_throws(type_text, method)[0] == first


def test_the_overloads_a_call_can_reach() -> None:
    """By the number of arguments: ``parseInt(s)`` is not ``parseInt(s, begin, end, radix)``."""
    assert documented_throws("Integer", "parseInt", 1) == ["NumberFormatException"]
    four = documented_throws("Integer", "parseInt", 4)
    assert four == ["IndexOutOfBoundsException", "NumberFormatException"]
    assert documented_throws("ArrayList<String>", CONSTRUCTOR, 0) == []
    assert documented_throws("Future<String>", "get", 0) == [
        "CancellationException",
        "ExecutionException",
        "InterruptedException",
    ]
    assert "IllegalFormatException" in documented_throws("String", "format", 3)  # varargs


def test_what_the_table_leaves_out() -> None:
    """Unknown types and methods have nothing; a constructor is never inherited; the null and cast
    failures the JDK documents on nearly every method are not offered from it."""
    assert documented_throws("org.acme.Widget", "get") == []
    assert documented_throws("Future<String>", "frobnicate") == []
    assert documented_throws("ArrayList<String>", CONSTRUCTOR) == ["IllegalArgumentException"]
    assert documented_throws("LinkedHashMap<String, String>", CONSTRUCTOR) == ["IllegalArgumentException"]
    put = documented_throws("Map<String, String>", "put")
    assert "UnsupportedOperationException" in put
    assert not {"NullPointerException", "ClassCastException"} & set(put)


def test_a_throwing_jdk_call_offers_what_the_jdk_documents_after_the_workspace(tmp_path: Path) -> None:
    from .test_targets import analysed_workspace

    files = {
        "Jobs.java": "package org.example.app;\nimport java.util.concurrent.*;\npublic class Jobs {\n"
        " public Future<String> submit(String n) {\n"
        "  if (n.isEmpty()) throw new IllegalArgumentException();\n"
        "  return new CompletableFuture<>();\n }\n}\n",
        "JobsTest.java": "package org.example.app;\nimport java.util.concurrent.Future;\n"
        "class JobsTest {\n"
        " @org.junit.jupiter.api.Test\n void failed() throws Exception {\n"
        '  Future<String> f = new Jobs().submit("x");\n  f.get();\n }\n'
        " @org.junit.jupiter.api.Test\n void submitted() throws Exception {\n"
        '  Jobs jobs = new Jobs();\n  Integer.parseInt(jobs.submit("").get());\n }\n'
        ' @org.junit.jupiter.api.Test\n void parse() {\n  Integer.parseInt("x");\n }\n}\n',
    }
    engine, analysis = analysed_workspace(tmp_path, files, "JobsTest.java")
    prefixes = {s.test.name: engine.prefix_for(analysis, s) for s in analysis.statuses}
    assert prefixes["failed"].exception_types()[:2] == ["CancellationException", "ExecutionException"]
    # the workspace's own guard first, the JDK's static call after it
    submitted = prefixes["submitted"].exception_types()
    assert submitted[0] == "IllegalArgumentException" and "NumberFormatException" in submitted
    assert prefixes["parse"].exception_types() == ["NumberFormatException"]
