"""A test-source class written before its interface gained a method is stubbed to compile: the
signature read from the interface's source or, for the JDK's and jars', from ``javap``; never where
the method names the interface's own type parameters."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import OracleChecker
from oracular.execution.stubs import (
    Stub,
    head_from_javap,
    head_from_source,
    shape,
    signatures,
    stub_for,
    with_stubs,
)
from oracular.java.source import load_source

from .conftest import require_toolchain

GENERIC_MESSAGE = (
    "p.Rows is not abstract and does not override abstract method <T>getObject(java.lang.String,"
    "java.lang.Class<T>) in java.sql.CallableStatement"
)
JAVAP = """public interface java.sql.CallableStatement extends java.sql.PreparedStatement {
  public abstract <T> T getObject(int, java.lang.Class<T>) throws java.sql.SQLException;
  public abstract <T> T getObject(java.lang.String, java.lang.Class<T>) throws java.sql.SQLException;
  public default void setObject(int, java.lang.Object, java.sql.SQLType) throws java.sql.SQLException;
}
"""


def test_the_overload_javac_names_is_stubbed_from_javap_listing() -> None:
    head = head_from_javap(JAVAP, "getObject", shape(["java.lang.String", "java.lang.Class<T>"]))
    assert head == (
        "public <T> T getObject(java.lang.String p0, java.lang.Class<T> p1) throws java.sql.SQLException"
    )
    assert head_from_javap(JAVAP, "setObject", shape(["int", "java.lang.Object", "java.sql.SQLType"])) is None

    def listing(owner: str, name: str, types: str) -> str | None:
        assert owner == "java.sql.CallableStatement"
        return head_from_javap(JAVAP, name, types)

    stub = stub_for(GENERIC_MESSAGE, listing)
    assert stub == Stub("Rows", f"{head} {{ throw new UnsupportedOperationException(); }}")


def test_a_project_interface_is_read_from_its_source_with_its_simple_types() -> None:
    source = (
        "package a;\nimport java.net.ServerSocket;\npublic interface Factory {\n"
        "    ServerSocket create(int port) throws java.io.IOException;\n"
        "    ServerSocket create(String host);\n}\n"
    )
    assert head_from_source(source, "a.Factory", "create", shape(["int"])) == (
        "public ServerSocket create(int port) throws java.io.IOException"
    )
    assert head_from_source(source, "a.Factory", "create", shape(["java.lang.String"])) == (
        "public ServerSocket create(String host)"
    )


def test_a_method_naming_a_generic_interfaces_own_parameter_is_not_guessed(tmp_path: Path) -> None:
    require_toolchain()
    javap = shutil.which("javap")
    lookup = signatures([], [], Path(javap) if javap else None)
    assert lookup("java.util.Comparator", "compare", shape(["T", "T"])) is None
    assert lookup("java.sql.Driver", "getParentLogger", "") == (
        "public java.util.logging.Logger getParentLogger() throws java.sql.SQLFeatureNotSupportedException"
    )


def test_stubs_join_the_class_on_its_closing_line() -> None:
    data = b"class A {\n    int x;\n}\nclass B {\n}\n"
    out = with_stubs(data, [Stub("A", "public void f() {}")])
    assert out == b"class A {\n    int x;\n public void f() {} }\nclass B {\n}\n"


DRIVER = """package p;

import java.sql.*;
import java.util.Properties;

public class TesterDriver implements Driver {
    public Connection connect(String url, Properties info) { return null; }
    public boolean acceptsURL(String url) { return url.startsWith("jdbc:tester:"); }
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }
    public int getMajorVersion() { return 1; }
    public int getMinorVersion() { return 4; }
    public boolean jdbcCompliant() { return true; }
}
"""
DRIVER_TEST = """package p;

import org.junit.Test;

public class TesterDriverTest {
    @Test
    public void testAccepts() {
        TesterDriver driver = new TesterDriver();
        boolean accepted = driver.acceptsURL("jdbc:tester:one");
    }
}
"""


@pytest.mark.parametrize("root", ["src/test/java", "src/main/java"])
def test_a_jdbc_driver_written_before_java_7_is_observed(
    root: str, tmp_path: Path, checker: OracleChecker
) -> None:
    """commons-dbcp's ``TesterDriver`` lacks ``getParentLogger()`` (JDBC 4.1): without a stub no test
    of the project compiles; with it the test's value is observed, and the note says what was added;
    the same for a class of the code under test (findbugs' BCEL visitor)."""
    require_toolchain()
    files = ((root, "TesterDriver", DRIVER), ("src/test/java", "TesterDriverTest", DRIVER_TEST))
    for folder, name, text in files:
        path = tmp_path / folder / "p" / f"{name}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "src/main/java/p").mkdir(parents=True, exist_ok=True)
    test = tmp_path / "src/test/java/p/TesterDriverTest.java"
    engine = engine_for([test], EngineSettings(top_k=3))
    report = engine.suggest(load_source(test), observer=ValueObserver(checker))
    (only,) = report.tests
    assert only.observed, only.unobserved
    assert only.suggestions[0].oracle == "assertTrue(accepted);"
    assert any("getParentLogger" in note for note in report.notes)
    assert (tmp_path / root / "p/TesterDriver.java").read_text(encoding="utf-8") == DRIVER
