"""A suite's own ``assertEquals`` (``assertToken(Token expToken, Token actToken)``) is offered where
its tests check with it, given what the prefix's next action returns when it runs: no value of the
prefix holds it before the code runs."""

from __future__ import annotations

from pathlib import Path

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import OracleChecker
from oracular.java.source import load_source

from .conftest import require_toolchain

SOURCES = {
    "src/main/java/p/Token.java": "package p;\n\npublic enum Token { NUMBER, WORD, END }\n",
    "src/main/java/p/Lexer.java": """package p;

public class Lexer {
    private final String text;
    private int at;

    public Lexer(String text) {
        this.text = text;
    }

    public Token next() {
        if (at >= text.length()) {
            return Token.END;
        }
        return Character.isDigit(text.charAt(at++)) ? Token.NUMBER : Token.WORD;
    }
}
""",
    "src/test/java/p/LexerTest.java": """package p;

import static org.junit.Assert.fail;

import org.junit.Test;

public class LexerTest {
    private static void assertToken(Token expToken, Token actToken) {
        if (expToken != actToken) {
            fail("expected " + expToken + ", got " + actToken);
        }
    }

    @Test
    public void testDigits() {
        Lexer lexer = new Lexer("12");
        assertToken(Token.NUMBER, lexer.next());
    }

    @Test
    public void testWords() {
        Lexer lexer = new Lexer("ab");
        assertToken(Token.WORD, lexer.next());
    }

    @Test
    public void testMixed() {
        Lexer lexer = new Lexer("a1");
    }
}
""",
}


def test_the_suites_equality_helper_is_given_the_observed_value_of_the_next_action(
    tmp_path: Path, checker: OracleChecker
) -> None:
    require_toolchain()
    for name, text in SOURCES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    test = tmp_path / "src/test/java/p/LexerTest.java"
    engine = engine_for([test], EngineSettings(top_k=10))
    report = engine.suggest(load_source(test), observer=ValueObserver(checker))
    (mixed,) = report.tests
    assert mixed.observed, mixed.unobserved
    offered = {s.oracle: s for s in mixed.suggestions}
    call = offered["assertToken(Token.WORD, lexer.next());"]
    assert call.verdict is not None and call.verdict.status == "holds"
    assert not any(o.startswith("assertToken(Token.NUMBER") for o in offered)  # the run said WORD
    static = engine_for([test], EngineSettings(top_k=10)).suggest(load_source(test))
    assert not any(s.oracle.startswith("assertToken(Token.") for s in static.tests[0].suggestions)
