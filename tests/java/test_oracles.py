"""Oracle detection: assertion APIs, expected exceptions, and helpers followed two+ levels."""

import pytest

from oracular.engine import EngineSettings, OracleEngine
from oracular.java.oracles import is_oracle_call
from oracular.java.source import SourceText, load_source

from ..conftest import fixture_source, indexed, java, oracle_free_names


def one_test(body: str) -> SourceText:
    """A JUnit 5 class with one test, ``t``, whose body is ``int x = 1;`` then ``body``."""
    return java(
        f"import org.junit.jupiter.api.Test;\nclass ApiTest {{ @Test void t() {{ int x = 1; {body} }} }}"
    )


@pytest.mark.parametrize(
    ("fixture", "oracle_free"),
    [
        ("Junit3StyleTest.java", ["testPushOnly"]),
        ("Junit4StyleTest.java", ["parseNumberNoOracle"]),
        ("TestNgStyleTest.java", ["incrementNoOracle"]),
        ("HelperOracleTest.java", ["onlyNonAssertingHelper", "recursiveHelpers"]),
        ("SubclassHelperTest.java", ["describeOnly"]),
        ("SyntaxErrorsTest.java", ["pushNoOracle"]),
    ],
)
def test_fixture_oracle_free_tests(engine: OracleEngine, fixture: str, oracle_free: list[str]) -> None:
    assert oracle_free_names(engine, fixture_source(fixture)) == oracle_free


def test_junit5_fixture(engine: OracleEngine) -> None:
    names = oracle_free_names(engine, fixture_source("Junit5StyleTest.java"))
    assert "innerNoOracle" in names and "lambdaAndGenerics" in names
    assert not {"assertjHasSize", "assertThrowsLambda", "assertjThrownBy"} & set(names)


def test_helper_evidence_names_the_helper(engine: OracleEngine) -> None:
    statuses = {s.test.name: s for s in engine.analyse(fixture_source("HelperOracleTest.java")).statuses}
    assert statuses["stateViaTwoLevels"].evidence is not None
    assert statuses["sumViaOneLevelHelper"].evidence.via_helper == "checkSum"
    assert statuses["throwsAssertionError"].evidence.reason == "throws AssertionError"


def test_superclass_helper_found_through_workspace(tmp_path) -> None:
    tests_dir = tmp_path / "src" / "test" / "java" / "p"
    tests_dir.mkdir(parents=True)
    (tests_dir / "Base.java").write_text(
        "package p; abstract class Base extends Root { void ensureSane(Object o) { deeper(o); } }"
    )
    (tests_dir / "Root.java").write_text(
        "package p; abstract class Root { void deeper(Object o) { assertNotNull(o); } void log() { } }"
    )
    test_file = tests_dir / "ChildTest.java"
    test_file.write_text(
        "package p; import org.junit.jupiter.api.Test;\n"
        "class ChildTest extends Base { @Test void a() { ensureSane(1); } @Test void b() { log(); } }"
    )
    analysis = OracleEngine(indexed(tmp_path)).analyse(load_source(test_file))
    statuses = {s.test.name: s for s in analysis.statuses}
    assert statuses["a"].evidence.via_helper == "ensureSane"
    assert statuses["b"].evidence is None


@pytest.mark.parametrize(
    "body",
    [
        "assertThat(x).isEqualTo(1);",  # AssertJ
        "assertThat(x, is(1));",  # Hamcrest
        'assertWithMessage("m").that(x).isEqualTo(1);',  # Truth
        "verify(mock).call();",  # Mockito
        "then(mock).should().call();",  # BDD Mockito
        "softly.assertThat(x).isOne();",
        "expect.that(x).isEqualTo(1);",  # Truth Expect rule
        "thrown.expect(IllegalStateException.class); run();",  # ExpectedException rule
        "Assertions.assertThrows(X.class, () -> run());",
        "assertThatThrownBy(() -> run()).isInstanceOf(X.class);",
        'fail("boom");',
        'if (x != 1) { throw new AssertionError("x"); }',
        "collector.checkThat(x, is(1));",
    ],
)
def test_assertion_apis_count_as_oracles(engine: OracleEngine, body: str) -> None:
    assert oracle_free_names(engine, one_test(body)) == []


@pytest.mark.parametrize(
    "body",
    [
        "int expected = compute(); expectedValue();",
        "Preconditions.checkArgument(x > 0);",
        "list.add(1);",
        "assertion();",
    ],
)
def test_lookalikes_are_not_oracles(engine: OracleEngine, body: str) -> None:
    assert oracle_free_names(engine, one_test(body)) == ["t"]


def test_extra_assertion_methods_setting(index) -> None:
    source = java("import org.junit.jupiter.api.Test;\nclass A { @Test void t() { ensureValid(3); } }")
    plain = OracleEngine(index)
    custom = OracleEngine(index, settings=EngineSettings(extra_assertion_methods=frozenset({"ensureValid"})))
    assert oracle_free_names(plain, source) == ["t"]
    assert oracle_free_names(custom, source) == []


def test_helper_in_enclosing_class_reaches_nested_test(engine: OracleEngine) -> None:
    source = java(
        """
        import org.junit.jupiter.api.*;
        class OuterTest {
            void check(int v) { Assertions.assertEquals(1, v); }
            @Nested class Inner { @Test void t() { check(1); } @Test void u() { int a = 1; } }
        }
        """
    )
    assert oracle_free_names(engine, source) == ["u"]


def test_helpers_three_levels_deep(engine: OracleEngine) -> None:
    source = java(
        """
        import org.junit.jupiter.api.Test;
        class DeepTest {
            void a() { b(); } void b() { c(); } void c() { assertTrue(true); }
            void p() { q(); } void q() { fine(); } void fine() { }
            void d() { e(); } void e() { f(); } void f() { g(); } void g() { assertTrue(true); }
            @Test void three() { a(); }
            @Test void none() { p(); }
            @Test void four() { d(); }
        }
        """
    )
    assert oracle_free_names(engine, source) == ["none", "four"]


def test_oracle_name_rules() -> None:
    assert (
        is_oracle_call("assertEquals")
        and is_oracle_call("fail")
        and is_oracle_call("verifyNoMoreInteractions")
    )
    assert (
        not is_oracle_call("assertion")
        and not is_oracle_call("failure")
        and not is_oracle_call("checkNotNull")
    )


def test_static_helper_class_and_static_import(tmp_path) -> None:
    tests_dir = tmp_path / "src" / "test" / "java" / "p"
    tests_dir.mkdir(parents=True)
    (tests_dir / "TestUtils.java").write_text(
        "package p; public final class TestUtils {\n"
        "  public static void checkFile(Object f) { if (f == null) { org.junit.Assert.fail(); } }\n"
        "  public static void close(Object f) { }\n"
        "}"
    )
    test_file = tests_dir / "UsesHelpersTest.java"
    test_file.write_text(
        "package p; import org.junit.jupiter.api.Test; import static p.TestUtils.checkFile;\n"
        "class UsesHelpersTest {\n"
        "  @Test void qualified() { TestUtils.checkFile(1); }\n"
        "  @Test void imported() { checkFile(1); }\n"
        "  @Test void notAnOracle() { TestUtils.close(1); }\n"
        "}"
    )
    names = oracle_free_names(OracleEngine(indexed(tmp_path)), load_source(test_file))
    assert names == ["notAnOracle"]


@pytest.mark.parametrize(
    ("body", "has_oracle"),
    [
        ("new NullPointerTester().testAllPublicStaticMethods(A.class);", True),
        (
            "var npTester = new NullPointerTester(); npTester.testAllPublicConstructors(A.class);",
            True,
        ),
        ("tester.test();", True),
        ("runner.testConnection();", False),
        ("tester.run();", False),
    ],
)
def test_tester_objects_carry_the_oracle(engine: OracleEngine, body: str, has_oracle: bool) -> None:
    source = java(f"import org.junit.jupiter.api.Test;\nclass T {{ @Test void t() {{ {body} }} }}")
    assert oracle_free_names(engine, source) == ([] if has_oracle else ["t"])
