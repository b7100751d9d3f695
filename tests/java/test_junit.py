"""Test discovery for each framework flavour, nested classes, and broken code."""

import pytest

from oracular.java.declarations import extract
from oracular.java.junit import Flavour, file_flavour, find_test_methods

from ..conftest import fixture_source, java


def discover(source, bases=frozenset()):
    return find_test_methods(source, extract(source).imports, bases)


def test_junit3_methods_need_public_void_test_prefix() -> None:
    found = discover(fixture_source("Junit3StyleTest.java"))
    assert {t.name for t in found} == {"testPushOnly", "testPushThenSize"}
    assert all(t.flavour is Flavour.JUNIT3 for t in found)


def test_junit3_through_workspace_base_class() -> None:
    source = java(
        """
        class FooTest extends MyBaseCase {
            public void testA() { int a = 1; }
            public void helper() { }
            public void testWithArg(int x) { }
        }
        """
    )
    assert [t.name for t in discover(source, frozenset({"MyBaseCase"}))] == ["testA"]
    assert discover(source) == []


def test_junit4_expected_annotation() -> None:
    found = {t.name: t for t in discover(fixture_source("Junit4StyleTest.java"))}
    assert found["parseRejectsGarbage"].expected_exception == "IllegalArgumentException"
    assert found["parseNumberNoOracle"].expected_exception is None
    assert {t.flavour for t in found.values()} == {Flavour.JUNIT4}


def test_junit5_parameterized_repeated_and_nested() -> None:
    found = discover(fixture_source("Junit5StyleTest.java"))
    names = {t.name: t for t in found}
    assert {"parameterizedNoOracle", "repeatedNoOracle", "innerNoOracle"} <= names.keys()
    assert names["innerNoOracle"].class_name == "Junit5StyleTest.Inner"
    assert all(t.flavour is Flavour.JUNIT5 for t in found)


def test_testng_expected_exceptions_and_class_level_test() -> None:
    found = {t.name: t for t in discover(fixture_source("TestNgStyleTest.java"))}
    assert any(t.expected_exception == "IllegalStateException" for t in found.values())
    source = java(
        """
        import org.testng.annotations.Test;
        import org.testng.annotations.BeforeMethod;
        @Test
        public class ClassLevelTest {
            @BeforeMethod public void setUp() { }
            public void runsAsTest() { int a = 1; }
            private void helper() { }
        }
        """
    )
    assert [t.name for t in discover(source)] == ["runsAsTest"]


@pytest.mark.parametrize(
    ("imports", "flavour"),
    [
        ("import org.junit.jupiter.api.Test;", Flavour.JUNIT5),
        ("import org.junit.Test;", Flavour.JUNIT4),
        ("import org.testng.Assert;", Flavour.TESTNG),
        ("import junit.framework.TestCase;", Flavour.JUNIT3),
        ("", None),
    ],
)
def test_flavour_from_imports(imports: str, flavour: Flavour | None) -> None:
    assert file_flavour(extract(java(f"{imports} class A {{}}")).imports) is flavour


def test_methods_in_anonymous_classes_are_not_tests() -> None:
    source = java(
        """
        import org.junit.jupiter.api.Test;
        class A {
            @Test void outer() { Runnable r = new Runnable() { @Test public void run() { } }; }
        }
        """
    )
    assert [t.name for t in discover(source)] == ["outer"]


def test_half_typed_method_is_incomplete_and_good_ones_survive() -> None:
    found = {t.name: t for t in discover(fixture_source("SyntaxErrorsTest.java"))}
    assert not found["pushNoOracle"].is_incomplete
    assert not found["pushWithOracle"].is_incomplete
    assert found["typing"].is_incomplete
