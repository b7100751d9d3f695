"""What a file's other tests assert on, and the weight it gives the same reads in an oracle-free test."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from oracular.candidates.strength import cannot_hold
from oracular.engine import OracleEngine
from oracular.incremental import MethodMemo
from oracular.java.neighbours import PathMemo, expected_types, first_check, member_path, read_base, read_path
from oracular.java.source import parse_text
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import OracleProblem, Ranking

from ..conftest import java


@pytest.mark.parametrize(
    ("expression", "path"),
    [
        ("patch.getDeltas().size()", ".getDeltas().size()"),
        ('options.has( "fox" )', ".has()"),
        ("testObject.str", ".str"),
        ("this.bean.getName()", ".getName()"),
        ("rows.get(i).getOldLine()", ".get().getOldLine()"),
        ("top", None),  # a plain variable reads no member
        ("1", None),
        ('"a".length()', None),
        ("a.b() + 1", None),
        ("xs[0].length", None),
        ("new Foo().bar()", None),
        ("(char) f.getQuote()", None),
    ],
)
def test_a_member_path_is_what_is_read_off_a_variable_without_arguments(
    expression: str, path: str | None
) -> None:
    assert member_path(expression) == path


@pytest.mark.parametrize(
    ("expression", "base"),
    [
        ("patch.getDeltas().size()", "patch"),
        ("this.patch.size()", "patch"),
        ("thisValue.x", "thisValue"),
        ("xs[0]", "xs"),
        ("patch", None),  # a plain variable reads from nothing
        ("a + b.c()", None),
        ("1.5", None),
    ],
)
def test_a_reads_base_is_the_variable_it_starts_from(expression: str, base: str | None) -> None:
    assert read_base(expression) == base


HABITS_TEST = """
package org.example.stack;
import static org.junit.jupiter.api.Assertions.*;
import static org.assertj.core.api.Assertions.assertThat;
class HabitsTest {
    @org.junit.jupiter.api.Test
    void first() {
        Stack<Integer> s = new Stack<>();
        s.push(1);
        assertEquals(1, s.size());
    }
    @org.junit.jupiter.api.Test
    void second() {
        Stack<Integer> t = new Stack<>();
        assertThat(t.isEmpty()).isTrue();
        helper(t.peek());
    }
    @org.junit.jupiter.api.Test
    void oracleFree() {
        Stack<Integer> s = new Stack<>();
        s.push(2);
        s.push(3);
    }
    void helper(int x) {}
}
"""


def test_the_paths_come_from_the_assertions_of_the_files_tests(engine: OracleEngine) -> None:
    analysis = engine.analyse(java(HABITS_TEST))
    # assertEquals's and assertThat's arguments; not a helper's, nor the oracle-free test's
    assert analysis.asserted == {".size()", ".isEmpty()"}
    tests = [s.test for s in analysis.statuses]
    assert PathMemo().asserted(analysis.source.data, tests, frozenset({"helper"})) == {
        ".size()",
        ".isEmpty()",
        ".peek()",
    }


def test_the_files_habits_order_an_oracle_free_tests_suggestions(engine: OracleEngine) -> None:
    with_habit = engine.suggest(java(HABITS_TEST))
    (report,) = with_habit.tests
    targets = [s.candidate.target.expression for s in report.suggestions if s.candidate.target is not None]
    without = engine.suggest(
        java(HABITS_TEST.replace("assertEquals(1, s.size());", "assertEquals(1, s.peek());"))
    )
    (plain,) = without.tests
    plain_targets = [
        s.candidate.target.expression for s in plain.suggestions if s.candidate.target is not None
    ]
    assert targets.index("s.size()") < plain_targets.index("s.size()")


def test_a_kept_report_is_not_reused_once_the_other_tests_assert_otherwise(engine: OracleEngine) -> None:
    memo = MethodMemo()
    text = java(HABITS_TEST).text

    def misses_after(version: str) -> int:
        engine.suggest(parse_text(version, Path("Snippet.java")), memo=memo)
        memo.finish()
        return memo.misses

    first = misses_after(text)
    assert misses_after(text) == first  # nothing changed: every verdict and report kept
    # another expected value: that test's verdict is made again, the oracle-free test's report kept
    other_value = text.replace("assertEquals(1, s.size());", "assertEquals(2, s.size());")
    assert misses_after(other_value) == first + 1
    # another read asserted: the oracle-free test's report is made again too
    other_read = other_value.replace("assertEquals(2, s.size());", "assertEquals(2, s.peek());")
    assert misses_after(other_read) == first + 3
    # the same reads, but what the file expects thrown changes: the oracle-free test's first type
    throws = "\n        assertThrows(IllegalStateException.class, () -> s.pop());"
    expects = other_read.replace("assertEquals(2, s.peek());", "assertEquals(2, s.peek());" + throws)
    assert misses_after(expects) == first + 5
    other_type = expects.replace("IllegalStateException", "UnsupportedOperationException")
    assert misses_after(other_type) == first + 7


def test_a_ranker_that_weighs_the_habits_itself_is_not_weighed_again(engine: OracleEngine) -> None:
    """A model whose template prior was fitted with the habit features (``Ranking.habits``)."""
    seen: list[tuple[frozenset[str], list[float]]] = []

    class Habitual(BaselineRanker):
        def rank(self, problem: OracleProblem) -> Ranking:
            ranking = super().rank(problem)
            offered = [not cannot_hold(c, problem.prefix) for c in problem.candidates]  # never offered
            seen.append((problem.asserted, [x for x, o in zip(ranking.scores, offered, strict=True) if o]))
            return replace(ranking, habits=True)

    engine.ranker = Habitual()
    (report,) = engine.suggest(java(HABITS_TEST)).tests
    ((asserted, scores),) = seen
    assert asserted == {".size()", ".isEmpty()"}  # the engine hands the file's habits over
    assert sorted(s.score for s in report.suggestions) == pytest.approx(sorted(scores))  # not weighed again


def test_the_expected_types_come_from_every_way_a_test_says_it_throws(engine: OracleEngine) -> None:
    analysis = engine.analyse(
        java(
            """
            package org.example.stack;
            import static org.junit.jupiter.api.Assertions.*;
            import static org.assertj.core.api.Assertions.*;
            class ThrowsTest {
                @org.junit.Test(expected = java.util.EmptyStackException.class)
                public void annotated() { new Stack<Integer>().pop(); }
                @org.junit.jupiter.api.Test
                void lambda() { assertThrows(IllegalArgumentException.class, () -> new Stack<>(-1)); }
                @org.junit.jupiter.api.Test
                void caught() {
                    try { new Stack<>(-2); fail("expected " + RuntimeException.class.getName()); }
                    catch (IllegalArgumentException | IllegalStateException e) { }
                }
                @org.junit.jupiter.api.Test
                void assertj() { assertThatNullPointerException().isThrownBy(() -> TextUtils.reverse(null)); }
                @org.junit.jupiter.api.Test
                void notExpected() {
                    try { assertEquals(String.class, new Stack<Integer>().getClass()); }
                    catch (UnsupportedOperationException e) { }
                }
                @org.junit.jupiter.api.Test
                void oracleFree() { new Stack<>(-3); }
            }
            """
        )
    )
    by_test = {s.test.name: expected_types(s.test) for s in analysis.statuses}
    assert by_test["annotated"] == ("EmptyStackException",)
    assert by_test["lambda"] == ("IllegalArgumentException",)
    # what it catches; not what its fail message names (commons-io's writer tests)
    assert by_test["caught"] == ("IllegalArgumentException", "IllegalStateException")
    assert by_test["assertj"] == ("NullPointerException",)
    assert by_test["notExpected"] == ()  # a catch without a fail; a class literal of no throwable
    # the most often expected first, by the tests that have an oracle
    assert analysis.expected_exceptions[0] == "IllegalArgumentException"
    assert set(analysis.expected_exceptions) == {
        "EmptyStackException",
        "IllegalArgumentException",
        "IllegalStateException",
        "NullPointerException",
    }


FIRST_CHECKS_TEST = """
package org.example.stack;
import static org.junit.jupiter.api.Assertions.*;
class FirstChecksTest {
    @org.junit.jupiter.api.Test
    void one() {
        Stack<Integer> s = new Stack<>(); s.push(1); assertTrue(s.contains(1)); assertEquals(1, s.size());
    }
    @org.junit.jupiter.api.Test
    void two() { Stack<Integer> s = new Stack<>(); s.push(2); assertFalse("gone", s.contains(1)); }
    @org.junit.jupiter.api.Test
    void three() {
        Stack<Integer> s = new Stack<>(); int n = 0; assertEquals(0, n); assertTrue(s.contains(3));
    }
    @org.junit.jupiter.api.Test
    void four() { Stack<Integer> s = new Stack<>(); s.push(4); assertTrue(s.contains(4)); }
    @org.junit.jupiter.api.Test
    void oracleFree() { Stack<Integer> s = new Stack<>(); s.push(5); }
}
"""


def test_a_files_first_check_habit_is_the_family_and_read_most_of_its_tests_open_with(
    engine: OracleEngine,
) -> None:
    analysis = engine.analyse(java(FIRST_CHECKS_TEST))
    tests = {s.test.name: s.test for s in analysis.statuses}
    assert first_check(tests["one"]) == ("truth", ".contains()")  # the first assertion only
    assert first_check(tests["two"]) == ("truth", ".contains()")  # assertFalse too; the message is no read
    assert first_check(tests["three"]) == ("equals", "")  # a plain variable, its first assertion's
    assert (read_path("patch"), read_path("s.size()"), read_path("null"), read_path("1")) == (
        "",
        ".size()",
        None,
        None,
    )
    assert first_check(tests["oracleFree"]) is None
    # three of the four tests with an oracle open with it
    assert analysis.first_habit == ("truth", ".contains()")
    fewer = java(FIRST_CHECKS_TEST.replace("assertTrue(s.contains(4))", "assertEquals(4, s.peek())"))
    assert engine.analyse(fewer).first_habit is None  # two of four is no habit
