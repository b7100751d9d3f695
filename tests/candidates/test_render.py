"""Rendering: text per framework, imports never duplicated, edits at the right place."""

from pathlib import Path

import pytest
from lsprotocol import types

from oracular.candidates.render import TextEdit, apply_edits
from oracular.candidates.style import Flavour, junit4_supports_assert_throws, style_for
from oracular.engine import EngineSettings, OracleEngine
from oracular.lsp.text import TextDocument

from ..conftest import EXAMPLE, java, javac, require_junit5_javac


def top_oracles(engine: OracleEngine, source) -> dict[str, list[str]]:
    return {t.test.name: [s.oracle for s in t.suggestions] for t in engine.suggest(source).tests}


STACK_TEST = """
package org.example.stack;
{imports}
class StackTest {{
    @Test
    void popEmpty() {{
        Stack<Integer> s = new Stack<>();
        s.pop();
    }}

    @Test
    void pushPop() {{
        Stack<Integer> s = new Stack<>();
        s.push(4);
        Integer top = s.pop();
    }}
}}
"""


def chosen_edits(engine: OracleEngine, source, *oracles: str) -> list:
    """The edits of the named oracles (whatever their rank), imports merged as ``top_edits`` does."""
    report = engine.suggest(source)
    offered = [s for t in report.tests for s in t.suggestions]
    picked = [next(s for s in offered if s.oracle == oracle) for oracle in oracles]
    imports = frozenset().union(*(s.rendered.imports for s in picked))
    assert report.renderer is not None
    return report.renderer.import_edits(imports) + [s.rendered.statement_edit for s in picked]


def test_junit5_assert_throws_and_imports(engine: OracleEngine) -> None:
    source = java(STACK_TEST.format(imports="import org.junit.jupiter.api.Test;"))
    report = engine.suggest(source)
    text = apply_edits(
        source,
        chosen_edits(
            engine, source, "assertThrows(EmptyStackException.class, () -> s.pop());", "assertEquals(4, top);"
        ),
    )
    assert "assertThrows(EmptyStackException.class, () -> s.pop());" in text
    assert "assertEquals(4, top);" in text
    assert "import static org.junit.jupiter.api.Assertions.assertThrows;" in text
    assert "import static org.junit.jupiter.api.Assertions.assertEquals;" in text
    assert "import java.util.EmptyStackException;" in text
    # applying again to the result adds nothing twice
    again = java(text)
    assert text.count("import static org.junit.jupiter.api.Assertions.assertEquals;") == 1
    assert engine.suggest(again).tests == []
    assert report.tests[0].suggestions[0].oracle.startswith("assertThrows(EmptyStackException")


def test_existing_wildcard_static_import_is_reused(engine: OracleEngine) -> None:
    imports = (
        "import org.junit.jupiter.api.Test;\n"
        "import static org.junit.jupiter.api.Assertions.*;\n"
        "import java.util.*;"
    )
    source = java(STACK_TEST.format(imports=imports))
    edits = engine.suggest(source).top_edits()
    assert not any("import" in e.new_text for e in edits)


def test_junit4_uses_try_fail_catch_and_casts_boxed(engine: OracleEngine) -> None:
    source = java(STACK_TEST.format(imports="import org.junit.Test;"))
    exception = (
        'try {\n            s.pop();\n            fail("Expected EmptyStackException");\n        } catch'
    )
    report = engine.suggest(source)
    oracles = [s.oracle for s in report.tests[0].suggestions if s.oracle.startswith(exception)][:1]
    text = apply_edits(source, chosen_edits(engine, source, *oracles, "assertEquals(4, (int) top);"))
    assert (
        "        try {\n"
        "            s.pop();\n"
        '            fail("Expected EmptyStackException");\n'
        "        } catch (EmptyStackException expected) {\n"
        "            // expected\n"
        "        }\n"
    ) in text
    assert "assertEquals(4, (int) top);" in text  # assertEquals(long, Integer) is ambiguous in JUnit 4
    assert "import static org.junit.Assert.fail;" in text


def test_try_fail_catch_keeps_the_statements_inner_indentation(engine: OracleEngine) -> None:
    """Regression: a multi-line throwing statement had every continuation line flattened to the
    same indentation."""
    source = java(
        """
        package org.example.stack;
        import org.junit.Test;
        class StackTest {
            @Test
            public void popInside() {
                Stack<Integer> s = new Stack<>();
                s.pop(new Object() {
                    int depth() {
                        return 1;
                    }
                }.depth());
            }
        }
        """
    )
    (test,) = engine.suggest(source).tests
    wrapped = next(s for s in test.suggestions if s.oracle.startswith("try {"))
    assert (
        "        try {\n"
        "            s.pop(new Object() {\n"
        "                int depth() {\n"
        "                    return 1;\n"
        "                }\n"
        "            }.depth());\n"
        '            fail("Expected '
    ) in apply_edits(source, wrapped.edits)


def test_junit413_detected_from_pom(tmp_path: Path) -> None:
    (tmp_path / "pom.xml").write_text("<dependency><artifactId>junit</artifactId>\n<version>4.13.2</version>")
    assert junit4_supports_assert_throws(tmp_path)
    (tmp_path / "pom.xml").write_text("<dependency><artifactId>junit</artifactId><version>4.12</version>")
    assert not junit4_supports_assert_throws(tmp_path)
    assert junit4_supports_assert_throws(tmp_path, "x = assertThrows(A.class, () -> f());")


def test_testng_order_is_actual_expected(engine: OracleEngine) -> None:
    source = java(STACK_TEST.format(imports="import org.testng.annotations.Test;"))
    assert "assertEquals((int) top, 4);" in top_oracles(engine, source)["pushPop"]
    assert style_for(Flavour.TESTNG).expected_first is False


def test_junit3_compares_arrays_with_arrays_equals() -> None:
    """``junit.framework.TestCase`` has no ``assertArrayEquals``: args4j's JUnit 3 tests got top
    oracles that did not compile."""
    from oracular.candidates.grammar import Candidate
    from oracular.candidates.render import Renderer
    from oracular.candidates.values import Value
    from oracular.java.targets import Target

    source = java(
        """
        import junit.framework.TestCase;
        public class ArgsTest extends TestCase {
            public void testArgs() {
                String[] args = {"-a"};
            }
        }
        """
    )
    candidate = Candidate(
        "assertion", "assertArrayEquals", Target("args", "String[]", "variable"),
        Value('new String[] {"-a"}', "String[]", "observed"),
    )  # fmt: skip
    renderer = Renderer(source, style_for(Flavour.JUNIT3), [], "", lambda simple: None)
    text = renderer.assertion_text(candidate)
    assert text == 'assertTrue(java.util.Arrays.equals(new String[] {"-a"}, args));'
    assert not renderer.needed_imports(candidate)
    junit4 = Renderer(source, style_for(Flavour.JUNIT4), [], "", lambda simple: None)
    assert junit4.assertion_text(candidate) == 'assertArrayEquals(new String[] {"-a"}, args);'


def test_assertion_style_setting_overrides_flavour(index) -> None:
    engine = OracleEngine(index, settings=EngineSettings(assertion_style="junit5"))
    source = java(STACK_TEST.format(imports="import org.junit.Test;"))
    assert (
        top_oracles(engine, source)["popEmpty"][0]
        == "assertThrows(EmptyStackException.class, () -> s.pop());"
    )


def test_reassigned_local_falls_back_to_try_catch(engine: OracleEngine) -> None:
    source = java(
        """
        package org.example.stack;
        import org.junit.jupiter.api.Test;
        class StackTest {
            @Test void t() {
                Stack<Integer> s = new Stack<>();
                s = new Stack<>();
                s.pop();
            }
        }
        """
    )
    assert top_oracles(engine, source)["t"][0].startswith("try {")


REASSIGNED_JUNIT5 = """package org.example.stack;

import org.junit.jupiter.api.Test;

class ReassignedTest {
    @Test
    void popAfterReassign() {
        Stack<Integer> s = new Stack<>();
        s = new Stack<>();
        s.pop();
    }
}
"""


def test_junit5_try_catch_fallback_imports_fail_and_compiles(
    engine: OracleEngine, tmp_path: Path, project: Path
) -> None:
    """Regression: the JUnit 5 try/``fail``/catch fallback (a reassigned capture) imported
    ``assertThrows`` instead of ``fail``, so the oracle did not compile."""
    source = java(REASSIGNED_JUNIT5)
    (test,) = engine.suggest(source).tests
    top = test.suggestions[0]
    assert top.kind == "exception" and top.oracle.startswith("try {")
    assert {line.text() for line in top.rendered.imports} == {
        "import static org.junit.jupiter.api.Assertions.fail;",
        "import java.util.EmptyStackException;",
    }
    text = apply_edits(source, top.edits)
    assert "Assertions.assertThrows" not in text

    require_junit5_javac()
    written = project / "src/test/java/org/example/stack/ReassignedTest.java"
    written.write_text(text, encoding="utf-8")
    result = javac(tmp_path / "classes", [*sorted((project / "src/main").rglob("*.java")), written])
    assert result.returncode == 0, result.stderr


def test_edit_inserted_after_last_statement_with_indentation(engine: OracleEngine) -> None:
    source = java(
        """
        import org.junit.jupiter.api.Test;
        import static org.junit.jupiter.api.Assertions.assertTrue;
        class T {
        \t@Test void t() {
        \t\tboolean b = "x".isEmpty();
        \t}
        }
        """
    )
    edit = engine.suggest(source).tests[0].suggestions[0].edits[0]
    assert edit.new_text == "\n\t\tassertTrue(b);"
    assert edit.start == edit.end == (4, 28)


def test_imports_go_after_package_when_file_has_none(engine: OracleEngine) -> None:
    source = java(
        """
        package p;

        @org.junit.jupiter.api.Test
        class T { @org.junit.jupiter.api.Test void t() { int n = "ab".length(); } }
        """
    )
    text = apply_edits(source, engine.suggest(source).top_edits())
    assert text.startswith("package p;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n")


def as_an_editor_applies(text: str, edits: list[TextEdit]) -> str:
    """``edits`` applied with LSP's line semantics (the server's document model, not the engine's)."""
    document = TextDocument("file:///Snippet.java", "java", 1, text)
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        where = types.Range(
            start=types.Position(line=edit.start[0], character=edit.start[1]),
            end=types.Position(line=edit.end[0], character=edit.end[1]),
        )
        document.apply(types.TextDocumentContentChangePartial(range=where, text=edit.new_text))
    return document.text


@pytest.mark.parametrize("ending", ["\r", "\r\n", "mixed"])
def test_edits_land_in_place_whatever_the_line_endings(engine: OracleEngine, ending: str) -> None:
    """Regression: in a CR-only file every position was on line 0 and the oracle went in after the
    package line; in a mixed file it went in before the variable it uses was declared."""
    lf = (EXAMPLE / "src/test/java/org/example/stack/StackTest.java").read_text(encoding="utf-8")
    endings = ["\r", "\r\n", "\n"]
    lines = lf.split("\n")
    text = (
        "".join(line + (endings[i % 3] if ending == "mixed" else ending) for i, line in enumerate(lines[:-1]))
        + lines[-1]
    )
    report, expected = engine.suggest(java(text)), engine.suggest(java(lf))
    assert [t.test.name for t in report.tests] == [t.test.name for t in expected.tests]
    assert [t.line for t in report.tests] == [t.line for t in expected.tests]  # LSP's lines, not \n's
    assert [[s.oracle for s in t.suggestions] for t in report.tests] == [
        [s.oracle for s in t.suggestions] for t in expected.tests
    ]
    written = as_an_editor_applies(text, report.top_edits())
    assert written.replace("\r\n", "\n").replace("\r", "\n") == as_an_editor_applies(lf, expected.top_edits())
