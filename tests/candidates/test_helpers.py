"""The suite's own assertion helpers as candidates: which helpers, which arguments, how they are
scored, rendered, judged on a run and compared with a developer's oracle."""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from oracular.candidates.grammar import Candidate
from oracular.candidates.helpers import (
    MAX_CALLS_PER_HELPER,
    MAX_LINES,
    MAX_READ_OFF_CALLS,
    HelperHabit,
    HelperOffer,
    argument_options,
    callable_overloads,
    equality_parameter,
    helper_reads,
    named_by,
    resolve_lines,
    resolve_read_offs,
)
from oracular.candidates.observed import FAILS, HOLDS, ObservedValue, TestObservation, verdict
from oracular.corpus.devtests import DevTest
from oracular.corpus.normalise import normalise_assertion
from oracular.engine import OracleEngine
from oracular.evaluation.realistic import answer_keys, suggestion_key, template_rank
from oracular.execution.observe import ALONE, read_statement
from oracular.java import syntax
from oracular.java.declarations import MethodInfo
from oracular.java.junit import Flavour
from oracular.java.oracle_statements import closing_calls
from oracular.java.source import load_source
from oracular.java.targets import Target
from oracular.java.types import is_subtype
from oracular.ranking.weights import RankingWeights

from ..conftest import fixture_source, indexed, java

FIXTURE = "SuiteHelperTest.java"


def _offers(engine: OracleEngine) -> list[HelperOffer]:
    analysis = engine.analyse(fixture_source(FIXTURE))
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    return engine.helpers_for(analysis, status, prefix)


def _helpers(engine: OracleEngine) -> list[tuple[str, float]]:
    """The calls that can fail as written, with their scores."""
    return [(h.candidate.call, h.score) for h in _offers(engine) if not h.read_off]


def test_the_files_helper_habits_count_calls_named_like_oracles_and_helpers_reached() -> None:
    analysis = OracleEngine().analyse(fixture_source(FIXTURE))
    # assertContains is an oracle by its name, checkEmpty through the assertion it reaches;
    # countsOne's assertEquals is JUnit's, not a habit of the suite, and a helper called first
    # (startsEmpty's checkEmpty) prepares the test
    passed = frozenset({(0, "names"), (1, '"a"'), (1, '"c"'), (1, '"d"')})  # what they pass, by position
    # countsOne calls assertContains after JUnit's assertEquals: a use, not a first check
    assert analysis.helper_habits == (
        HelperHabit("assertContains", 3, passed, first=2),
        HelperHabit("checkEmpty", 1, frozenset({(0, "names")}), first=1),
    )
    assert analysis.with_oracle == 5


def test_helper_calls_take_the_prefixs_values_first_and_score_by_the_habits_share(
    engine: OracleEngine,
) -> None:
    calls = _helpers(engine)
    by_call = dict(calls)
    # the prefix's local first, then its literals, the one the file's tests pass already ("a")
    # before the other, then the constant, the field, the targets
    assert [c for c, _ in calls][:4] == [
        'assertContains(more, "a")',
        'assertContains(more, "x")',
        "assertContains(more, FIRST)",
        "assertContains(names, more.get(0))",
    ]
    # never a value read off another argument (``assertContains(more, more.get(0))`` cannot
    # fail), and always something the prefix made (it never touches ``names``)
    assert "assertContains(more, more.get(0))" not in by_call
    assert 'assertContains(names, "x")' not in by_call and "checkEmpty(names)" not in by_call
    assert by_call['assertContains(more, "a")'] == 2 / 5
    assert by_call['assertContains(more, "x")'] == 2 / 5 * RankingWeights().call_decay
    assert by_call["checkEmpty(more)"] == 1 / 5
    # the overload with a message comes after the shorter one, the varargs helper never (no habit)
    helper_calls = [c for c, _ in calls if c.startswith("assertContains(")]
    assert len(helper_calls) == MAX_CALLS_PER_HELPER
    assert not any(c.startswith("logAll") for c, _ in calls)


def test_overloads_leave_out_tests_constructors_and_varargs() -> None:
    def method(
        name: str, params: tuple[tuple[str, str], ...], annotations: tuple[str, ...] = ()
    ) -> MethodInfo:
        return MethodInfo(name, params, "void", frozenset(), annotations, (), None, (), 1, frozenset(), False)

    two = method("check", (("String", "m"), ("int", "x")))
    one = method("check", (("int", "x"),))
    varargs = method("check", (("int...", "xs"),))
    test = method("check", (), ("Test",))
    unannotated = method("testCheck", ())  # a test that lost its @Test, or a JUnit 3 one
    body = method("_testCheck", (("int", "mode"),))  # a parametrised test's body
    assert callable_overloads([two, varargs, test, one, unannotated, body]) == [one, two]


def test_an_equality_helper_compares_an_expected_value_with_an_actual_one_of_its_type() -> None:
    def method(*params: tuple[str, str]) -> MethodInfo:
        return MethodInfo("assertToken", params, "void", frozenset(), (), (), None, (), 1, frozenset(), False)

    token = method(("JsonToken", "expToken"), ("JsonToken", "actToken"))
    assert equality_parameter([method(("JsonParser", "p")), token]) == "JsonToken"
    assert equality_parameter([method(("int", "expType"), ("int", "actType"))]) == "int"
    assert equality_parameter([method(("JsonToken", "first"), ("JsonToken", "second"))]) is None  # which?
    assert equality_parameter([method(("JsonToken", "expToken"), ("JsonParser", "p"))]) is None
    assert equality_parameter([method(("Object", "expected"), ("Object", "actual"))]) is None  # any fits
    assert equality_parameter([method(("boolean", "expected"), ("boolean", "actual"))]) is None


MATCHER_TEST = """
import static org.junit.Assert.assertTrue;
import org.junit.Test;
class MatcherTest {
    interface Matcher<T> { boolean matches(Object item); }
    static <T> void assertMatches(Matcher<T> matcher, T arg) { assertTrue(matcher.matches(arg)); }
    static Matcher<String> startsWithA() { return item -> ((String) item).startsWith("a"); }
    @Test public void first() { Matcher<String> m = startsWithA(); assertMatches(m, "abc"); }
    @Test public void second() { Matcher<String> m = startsWithA(); assertMatches(m, "ax"); }
    @Test public void third() { Matcher<String> m = startsWithA(); String word = "ab"; }
}
"""


def test_a_helpers_own_type_parameter_takes_the_prefixs_values(engine: OracleEngine) -> None:
    """Hamcrest's and jmock's matcher tests check with ``<T> void assertMatches(Matcher<T> matcher,
    T arg)``: no value fitted ``T``, so it was never offered."""
    analysis = engine.analyse(java(MATCHER_TEST))
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    calls = [h.candidate.call for h in engine.helpers_for(analysis, status, prefix)]
    assert "assertMatches(m, word)" in calls


def test_a_helper_is_named_by_half_or_more_of_what_the_tests_name_says() -> None:
    assert named_by("testCompareComment")("assertDifferentComments")
    assert named_by("testCompareProcessingInstruction")("assertDifferentProcessingInstructions")
    assert not named_by("testNoNativeTypeIdForJson")("assertType")
    assert not named_by("test")("assertType")


def test_a_helper_suggestion_is_rendered_as_its_call_with_no_import(engine: OracleEngine) -> None:
    report = engine.suggest(fixture_source(FIXTURE))
    (test,) = report.tests
    helper = next(s for s in test.suggestions if s.kind == "helper")
    assert helper.oracle == 'assertContains(more, "a");'
    assert helper.edits == [helper.rendered.statement_edit]  # no import: it is in scope
    assert helper.rendered.statement_edit.new_text.strip() == 'assertContains(more, "a");'


def test_a_helper_call_holds_when_running_it_passed() -> None:
    candidate = Candidate("helper", "assertContains", arguments=("more", '"x"'))
    seen = TestObservation(completed=True)
    assert verdict(candidate, seen) is None  # not run
    seen.values[candidate.call] = ObservedValue("boolean", "boolean", "true")
    assert verdict(candidate, seen).status == HOLDS
    seen.values[candidate.call] = ObservedValue("boolean", "boolean", "false")
    assert verdict(candidate, seen).status == FAILS
    seen.values[candidate.call] = ObservedValue("thrown", "java.lang.NullPointerException", "")
    assert verdict(candidate, seen).status == FAILS


def test_each_helper_call_is_run_alone_and_tells_a_failed_assertion_from_an_error() -> None:
    (read,) = helper_reads(
        [Candidate("helper", "check", arguments=("a",)), Candidate("assertion", "assertTrue")]
    )
    assert read == Target("check(a)", "boolean", "helper") and read.kind in ALONE
    statement = read_statement("s0.1", "0.0.1", read)
    assert statement.startswith(
        '/*oracular:s0.1*/ try { check(a); oracular.exec.Observe.value("0.0.1", true); }'
    )
    assert 'catch (AssertionError oracular$a) { oracular.exec.Observe.value("0.0.1", false); }' in statement
    assert "\n" not in statement  # one line behind its marker: a compile error drops only this read


def _cut(oracle: str) -> DevTest:
    """A developer test whose oracle is ``oracle``, read as the corpus reads it."""
    method = java(f"class S {{ void t() {{ {oracle} }} }}").root
    statement = next(n for n in syntax.walk(method) if n.type == "expression_statement")
    truth = normalise_assertion(statement, Flavour.JUNIT4)
    return DevTest("T", "t", 3, Flavour.JUNIT4, "assertion", ("a();",), ("a();", oracle), None, oracle, truth)


def test_a_developers_helper_call_is_judged_by_its_call_text(engine: OracleEngine) -> None:
    cut = _cut('assertContains( more, "x" );')
    assert answer_keys(cut) == frozenset({'assertContains(more,"x")'})
    assert "assertEquals(2,more.size())" in answer_keys(_cut("assertEquals(2, more.size());"))
    report = engine.suggest(fixture_source(FIXTURE))
    (test,) = report.tests
    keys = [suggestion_key(s) for s in test.suggestions]
    assert 'assertContains(more,"x")' in keys
    helper_rank = next(s.rank for s in test.suggestions if s.kind == "helper")
    # the same helper with other arguments asserts what the developer asserted
    assert template_rank(_cut("assertContains(names, FIRST);"), test, None) == helper_rank
    assert template_rank(_cut("checkOther(more);"), test, None) is None


def test_only_the_calls_a_test_closes_with_are_checks() -> None:
    method = java(
        """
        class S {
            void t() {
                this.getServer();
                prepare(a);
                int n = a.size();
                Util.check(a);
                assertThat(n).isPositive();
                this.verify(b);
            }
        }
        """
    ).root
    # prepare(a) comes before the next action, getServer() opens the test
    assert closing_calls(_method(method)) == {"Util.check": [("a",)], "this.verify": [("b",)]}
    assert list(closing_calls(_method(method))) == ["Util.check", "this.verify"]  # as called
    alone = java("class S { void t() { check(a); } }").root
    assert set(closing_calls(_method(alone))) == {"check"}  # a test of one statement is all check


def _method(root: Node) -> Node:
    return next(n for n in syntax.walk(root) if n.type == "method_declaration")


def test_of_two_helpers_as_used_the_one_tests_check_with_first_leads() -> None:
    source = java(
        """
        import org.junit.Test;
        import static org.junit.Assert.assertTrue;
        public class D {
            int x;
            @Test public void a() { x = 1; checkTail(); checkHead(); }
            @Test public void b() { x = 2; checkHead(); checkTail(); }
            @Test public void c() { x = 3; checkHead(); checkTail(); }
            void checkTail() { assertTrue(x > 0); }
            void checkHead() { assertTrue(x < 9); }
        }
        """
    )
    habits = OracleEngine().analyse(source).helper_habits
    assert [(h.name, h.uses) for h in habits] == [("checkHead", 3), ("checkTail", 3)]


def test_a_helper_the_tests_name_names_comes_first_though_no_test_calls_it() -> None:
    source = java(
        """
        import org.junit.Test;
        import static org.junit.Assert.assertTrue;
        import java.util.*;
        public class N {
            @Test public void a() { List<String> xs = new ArrayList<>(); xs.add("a"); checkSize(xs, 1); }
            @Test public void b() { List<String> xs = new ArrayList<>(); xs.add("b"); checkSize(xs, 1); }
            @Test public void c() { List<String> xs = new ArrayList<>(); checkSize(xs, 0); }
            @Test public void testEmptiness() { List<String> ys = new ArrayList<>(); ys.clear(); }
            void checkSize(List<String> xs, int n) { assertTrue(xs.size() == n); }
            void checkEmptiness(List<String> xs) { assertTrue(xs.isEmpty()); }
        }
        """
    )
    engine = OracleEngine()
    analysis = engine.analyse(source)
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    offers = engine.helpers_for(analysis, status, prefix)
    assert offers[0].candidate.call == "checkEmptiness(ys)"
    assert (
        offers[0].share == RankingWeights().named_helper_share
    )  # no other test checks with it, but the name says it
    assert analysis.helper_habits[0].name == "checkSize"  # the habit alone would lead with it


def test_a_suites_own_helper_named_like_junits_is_the_suites_and_compares_like_with_like() -> None:
    source = java(
        """
        import org.junit.Test;
        import org.junit.Assert;
        public class F {
            @Test public void a() {
                Fmt right = new Fmt('a'); Fmt left = new Fmt('b'); assertNotEquals(right, left);
            }
            @Test public void b() {
                Fmt right = new Fmt('c'); Fmt left = new Fmt('d'); assertNotEquals(right, left);
            }
            @Test public void c() { Fmt right = new Fmt('e'); Fmt left = right.withQuote('"'); }
            private static void assertNotEquals(Object right, Object left) {
                Assert.assertNotEquals(right, left);
                Assert.assertNotEquals(left, right);
            }
        }
        class Fmt {
            private final char quote;
            Fmt(char quote) { this.quote = quote; }
            Fmt withQuote(char q) { return new Fmt(q); }
            char getQuote() { return quote; }
            String text() { return "q=" + quote; }
        }
        """
    )
    engine = OracleEngine()
    analysis = engine.analyse(source)
    # Java calls the class's own assertNotEquals, not JUnit's: a habit of the suite
    assert [(h.name, h.uses, h.first) for h in analysis.helper_habits] == [("assertNotEquals", 2, 2)]
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    calls = [h.candidate.call for h in engine.helpers_for(analysis, status, prefix)]
    # the two formats, as the file's tests pass them; never a literal, a format's character or text
    # (an Object parameter takes the test's named values) and never two values of different types
    assert calls == ["assertNotEquals(right, left)", "assertNotEquals(left, right)"]


def test_in_a_junit3_class_junits_assertions_stay_junits_beside_the_suites_overloads() -> None:
    """xom's XOMTestCase extends TestCase and adds ``assertEquals(Element, Element)``: a call of
    ``assertEquals`` reaches JUnit's for any other types, so it is no habit of the suite."""
    source = java(
        """
        import junit.framework.TestCase;
        public class X extends TestCase {
            public void testA() { String s = "a" + 1; assertEquals("a1", s); }
            public void testB() { String s = "b" + 2; assertEquals("b2", s); }
            public void testEquals() { String s = "c" + 3; }
            public void assertEquals(Element expected, Element actual) { assertTrue(expected == actual); }
        }
        class Element {}
        """
    )
    engine = OracleEngine()
    analysis = engine.analyse(source)
    assert analysis.helper_habits == ()
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    assert engine.helpers_for(analysis, status, prefix) == []  # nor named by testEquals


def test_a_value_read_off_another_argument_is_written_as_the_run_read_it_or_left_out(
    engine: OracleEngine,
) -> None:
    # assertContains(more, more.get(0)) cannot fail; with what the run read, it can
    read_offs = [h for h in _offers(engine) if h.read_off]
    calls = [(h.candidate.call, h.read_off) for h in read_offs]
    assert calls[0] == ("assertContains(more, more.get(0))", (1,))  # then the overload with a message
    assert len(read_offs) <= MAX_READ_OFF_CALLS
    offer = read_offs[0]
    assert resolve_read_offs([offer], None) == []  # nothing ran: it stays unwritten
    seen = TestObservation(completed=True)
    assert resolve_read_offs([offer], seen) == []  # not read (the two runs disagreed, say)
    seen.values["more.get(0)"] = ObservedValue("object", "p.Name", "")
    assert resolve_read_offs([offer], seen) == []  # no literal writes it
    seen.values["more.get(0)"] = ObservedValue("literal", "java.lang.String", '"z"')
    (written,) = resolve_read_offs([offer], seen)
    assert written.candidate.call == 'assertContains(more, "z")' and not written.read_off
    assert written.candidate.read == "assertContains(more, more.get(0))"  # judged by the call run
    assert written.score == offer.score and written.share == offer.share
    threw = TestObservation(values=dict(seen.values), thrown="java.lang.IllegalStateException")
    assert resolve_read_offs([offer], threw) == []  # the prefix threw: no oracle after it runs
    seen.values["assertContains(more, more.get(0))"] = ObservedValue("boolean", "boolean", "true")
    assert verdict(written.candidate, seen).status == HOLDS
    # the same call as another offer's is left out: the first is kept
    plain = HelperOffer(Candidate("helper", "assertContains", arguments=("more", '"z"')), 0.9, 0.9)
    assert resolve_read_offs([plain, offer], seen) == [plain]


def test_a_call_of_expected_lines_is_written_with_the_lines_read_or_left_out() -> None:
    pending = HelperOffer(Candidate("helper", "assertHelpLines", lines_of="sink.toString()"), 0.5, 0.5)
    plain = HelperOffer(Candidate("helper", "check", arguments=("a",)), 0.4, 0.4)
    assert pending.candidate.read == "assertHelpLines(oracular.exec.Observe.lines(sink.toString()))"
    reads = [t.expression for t in helper_reads([pending.candidate])]
    assert reads == [pending.candidate.read, "oracular.exec.Observe.lines(sink.toString())"]
    seen = TestObservation(completed=True)
    seen.values["oracular.exec.Observe.lines(sink.toString())"] = ObservedValue(
        "array", "[Ljava.lang.String;", 'new java.lang.String[] {"Option", "a, b", ""}'
    )
    (resolved, kept) = resolve_lines([pending, plain], seen, {'""': "EMPTY"})
    assert resolved.candidate.call == 'assertHelpLines("Option", "a, b", EMPTY)'
    assert resolved.candidate.read == pending.candidate.read  # judged by the run of the lines
    assert kept == plain
    assert resolve_lines([pending, plain], None, {}) == [plain]  # not run: cannot be written
    many = ", ".join(f'"{i}"' for i in range(MAX_LINES + 1))
    seen.values["oracular.exec.Observe.lines(sink.toString())"] = ObservedValue(
        "array", "", f"new String[] {{{many}}}"
    )
    assert resolve_lines([pending], seen, {}) == []


def test_a_helper_parameter_takes_values_of_its_subtypes(tmp_path: Path) -> None:
    """xmlunit's ``assertDifferentChildren(Node control, Node test, ...)`` where the test holds
    ``Element`` s; a workspace class by its workspace supertypes."""
    (tmp_path / "Shape.java").write_text("package p; public interface Shape {}")
    (tmp_path / "Square.java").write_text("package p; public class Square implements Shape {}")
    (tmp_path / "ShapeTest.java").write_text(
        "package p; import org.w3c.dom.*; import org.junit.Test;"
        " public class ShapeTest { @Test public void t() { Square s = new Square(); } }"
    )
    engine = OracleEngine(indexed(tmp_path))
    analysis = engine.analyse(load_source(tmp_path / "ShapeTest.java"))
    (status,) = analysis.oracle_free
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    env = prefix.env
    assert is_subtype("Element", "Node", env) and is_subtype("org.w3c.dom.CDATASection", "Text", env)
    assert is_subtype("ArrayList<String>", "Collection<String>", env)
    assert is_subtype("Square", "Shape", env)
    assert not is_subtype("Node", "Element", env) and not is_subtype("Shape", "Square", env)
    assert argument_options("Shape", prefix, (), ()) == ["s"]


def test_the_argument_search_of_a_helper_of_many_parameters_is_bounded() -> None:
    """The calls a helper's options make are looked for among the first ``MAX_TUPLES_TRIED``
    tuples, the likeliest: here the only ones passing something the prefix made come after
    262,144 (the first parameter's last option), and a search through all of them (millions, for
    a helper of 8 parameters) held an evaluation for minutes."""
    from oracular.candidates.helpers import MAX_TUPLES_TRIED, _calls

    options = [[*(f"p{i}_{j}" for j in range(8)), *(["made"] if i == 0 else [])] for i in range(6)]
    assert MAX_TUPLES_TRIED < 8**6
    assert list(_calls(options, frozenset({"made"}), (), {})) == []
    options[0].insert(0, options[0].pop())  # the made value the first parameter's likeliest
    assert next(_calls(options, frozenset({"made"}), (), {}))[0] == "made"
