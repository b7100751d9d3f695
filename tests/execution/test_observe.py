"""Observing running prefixes: exact values of every kind, flaky values dropped, and the observed
oracles compiled and run on the code they came from (where they must all hold)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from oracular.candidates.observed import FileObservation, ObservedValue, TestObservation
from oracular.cli.common import engine_for
from oracular.engine import EngineSettings, OracleEngine
from oracular.execution.classpath import ClasspathSettings
from oracular.execution.observe import Harness, ValueObserver
from oracular.execution.oracle_checks import CheckSettings, CheckStatus, OracleChecker
from oracular.java.source import load_source

from .conftest import require_toolchain

VALUES = """
package p;

import java.util.*;

public class Values {
    public enum Mode { ON, OFF }

    public String text() { return "a\\"b\\\\c\\n\\t\\u00e9"; }
    public char letter() { return 'x'; }
    public long big() { return 5L; }
    public short small() { return 3; }
    public double nan() { return Double.NaN; }
    public double negativeZero() { return -0.0; }
    public float infinity() { return Float.POSITIVE_INFINITY; }
    public Mode mode() { return Mode.ON; }
    public Class<?> type() { return String.class; }
    public int[] numbers() { return new int[] {1, 2}; }
    public String[] words() { return new String[] {"a", null}; }
    public List<Long> longs() { return Arrays.asList(1L, 2L); }
    public Map<String, List<Integer>> nested() {
        Map<String, List<Integer>> m = new HashMap<>();
        m.put("k", new ArrayList<>(List.of(1)));
        return m;
    }
    public Object plain() { return new Object(); }
    public Integer none() { return null; }
    public int broken() { throw new IllegalStateException("no"); }
}
"""

VALUES_TEST = """
package p;

import java.util.*;
import org.junit.jupiter.api.Test;

class ValuesTest {
    @Test
    void values() {
        Values v = new Values();
        String key = "k";
        String text = v.text();
        char c = v.letter();
        int code = v.letter();
        long big = v.big();
        short small = v.small();
        double nan = v.nan();
        double negativeZero = v.negativeZero();
        float infinity = v.infinity();
        Values.Mode mode = v.mode();
        Class<?> type = v.type();
        int[] numbers = v.numbers();
        String[] words = v.words();
        List<Long> longs = v.longs();
        Map<String, List<Integer>> nested = v.nested();
        Object plain = v.plain();
        Integer none = v.none();
        long now = System.nanoTime();
    }

    @Test
    void throwing() {
        Values v = new Values();
        int n = v.broken();
    }
}
"""


@pytest.fixture(scope="module")
def values_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("values")
    write_project(root, {"main/java/p/Values": VALUES, "test/java/p/ValuesTest": VALUES_TEST})
    return root


def write_project(root: Path, files: dict[str, str]) -> None:
    """A Maven-shaped project: ``{"test/java/p/FooTest": source}`` under ``root/src``."""
    (root / "pom.xml").write_text("<project><modelVersion>4.0.0</modelVersion></project>\n")
    for name, text in files.items():
        path = root / "src" / f"{name}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def observe(engine: OracleEngine, path: Path, checker: OracleChecker) -> FileObservation:
    analysis = engine.analyse(load_source(path))
    statuses = analysis.oracle_free
    prefixes = {s.test.line: engine.prefix_for(analysis, s) for s in statuses}
    return engine.observe(ValueObserver(checker), analysis, statuses, prefixes)


def test_values_of_every_kind_are_recorded_exactly(values_project: Path, checker: OracleChecker) -> None:
    require_toolchain()
    path = values_project / "src/test/java/p/ValuesTest.java"
    engine = engine_for([path], EngineSettings(top_k=64))
    observed = observe(engine, path, checker)
    lines = {s.test.name: s.test.line + 1 for s in engine.analyse(load_source(path)).statuses}
    values = observed.tests[lines["values"]]
    assert values.ran and values.thrown is None
    expected = {
        "text": ObservedValue("literal", "java.lang.String", '"a\\"b\\\\c\\n\\t\\u00e9"'),
        "c": ObservedValue("literal", "char", "'x'"),
        "code": ObservedValue("literal", "int", "120"),
        "big": ObservedValue("literal", "long", "5L"),
        "small": ObservedValue("literal", "short", "(short) 3"),
        "nan": ObservedValue("literal", "double", "Double.NaN"),
        "negativeZero": ObservedValue("literal", "double", "-0.0"),
        "infinity": ObservedValue("literal", "float", "Float.POSITIVE_INFINITY"),
        "mode": ObservedValue("enum", "p.Values.Mode", "ON"),
        "type": ObservedValue("class", "java.lang.Class", "java.lang.String"),
        "numbers": ObservedValue("array", "[I", "new int[] {1, 2}"),
        "words": ObservedValue("array", "[Ljava.lang.String;", 'new java.lang.String[] {"a", null}'),
        "longs": ObservedValue("list", "java.util.Arrays$ArrayList", "1L, 2L"),
        "plain": ObservedValue("object", "java.lang.Object", ""),
        "none": ObservedValue("null", "null", "null"),
        "words.length": ObservedValue("literal", "int", "2"),
    }
    assert {k: values.values.get(k) for k in expected} == expected
    assert "now" in values.flaky and "now" not in values.values  # differs between the two runs
    throwing = observed.tests[lines["throwing"]]
    assert throwing.thrown == "java.lang.IllegalStateException" and not throwing.values
    assert any(note.startswith("classpath from") for note in observed.notes)


def test_observed_oracles_compile_and_hold_on_the_code(values_project: Path, checker: OracleChecker) -> None:
    require_toolchain()
    path = values_project / "src/test/java/p/ValuesTest.java"
    engine = engine_for([path], EngineSettings(top_k=64, abstain_below=0.0))
    report = engine.suggest(load_source(path), observer=ValueObserver(checker))
    values, throwing = report.tests
    assert values.observed and throwing.observed
    observed = [s for s in values.suggestions if s.source == "observed"]
    oracles = {s.oracle for s in observed}
    assert {
        "assertEquals(Values.Mode.ON, mode);",
        "assertEquals(Double.NaN, nan, 0.0001);",
        "assertEquals(5L, big);",
        "assertEquals('x', c);",
        'assertArrayEquals(new String[] {"a", null}, words);',
        "assertEquals(Arrays.asList(1L, 2L), longs);",
        "assertEquals(String.class, type);",
    } <= oracles
    assert throwing.suggestions[0].oracle == "assertThrows(IllegalStateException.class, () -> v.broken());"
    check = checker.check(report)  # each oracle inserted on its own, compiled and run
    assert check.error is None
    statuses = {s.oracle: check.result_for(values, s).status for s in observed}
    assert all(status is CheckStatus.HOLDS for status in statuses.values()), statuses
    assert check.result_for(throwing, throwing.suggestions[0]).status is CheckStatus.HOLDS


def test_a_target_that_does_not_compile_costs_only_its_own_read(values_project: Path) -> None:
    source = load_source(values_project / "src/test/java/p/ValuesTest.java")
    engine = engine_for([source.path], EngineSettings())
    analysis = engine.analyse(source)
    status = analysis.oracle_free[0]
    prefix = engine.prefix_for(analysis, status)
    from oracular.candidates.observed import ObservationPlan
    from oracular.java.targets import Target

    plan = ObservationPlan(
        status.test, prefix, (Target("text", "String", "variable"), Target("missing()", None, "observer"))
    )
    harness = Harness(source, [plan])
    scratch = harness.build(frozenset())
    lines = scratch.text.splitlines()
    broken = next(i for i, line in enumerate(lines, start=1) if "missing()" in line)
    assert harness.locate(scratch, broken) == "s0.1"
    rebuilt = harness.build(frozenset({"s0.1"}))
    assert "missing()" not in rebuilt.text and rebuilt.text.count("/*oracular:s0.0*/") == 2  # text, twice


def test_resources_the_pom_keeps_beside_the_sources_are_on_the_classpath(tmp_path: Path) -> None:
    """args4j keeps ``Messages.properties`` under ``src``: run without it, its code threw
    ``MissingResourceException`` and the observed oracle expected that instead of its own. A
    remembered run is not reused once a resource changes."""
    require_toolchain()
    (tmp_path / "pom.xml").write_text(
        "<project><modelVersion>4.0.0</modelVersion><build><sourceDirectory>src</sourceDirectory>"
        "<resources><resource><directory>src</directory></resource></resources></build></project>\n"
    )
    source = tmp_path / "src" / "p" / "Greeting.java"
    source.parent.mkdir(parents=True)
    source.write_text(
        "package p;\n\nimport java.util.ResourceBundle;\n\npublic class Greeting {\n"
        '    public String hello() { return ResourceBundle.getBundle("p.Messages").getString("hello"); }\n}\n'
    )
    test = tmp_path / "test" / "p" / "GreetingTest.java"
    test.parent.mkdir(parents=True)
    test.write_text(
        "package p;\n\nimport org.junit.jupiter.api.Test;\n\nclass GreetingTest {\n"
        "    @Test\n    void hello() {\n        String text = new Greeting().hello();\n    }\n}\n"
    )
    engine = engine_for([test], EngineSettings(top_k=64))
    settings = CheckSettings(
        timeout_s=5.0, classpath=ClasspathSettings(use_build_tools=False), use_cache=True
    )
    checker = OracleChecker(settings)
    try:
        for word in ("bonjour", "salut"):
            (source.parent / "Messages.properties").write_text(f"hello={word}\n")
            (values,) = observe(engine, test, checker).tests.values()
            assert values.thrown is None
            assert values.values["text"] == ObservedValue("literal", "java.lang.String", f'"{word}"')
    finally:
        checker.close()


BEAN = """
package q;

public class Bean {
    public String str;
    public int width = 80;
    public String getStr() { return str; }
    public int getWidth() { return width; }
}
"""

PARSER = """
package q;

public class Parser {
    private final Bean bean;
    public Parser(Bean bean) { this.bean = bean; }
    public int parse(String option, String value) { bean.str = value; return 1; }
}
"""

PARSER_TEST = """
package q;

import org.junit.jupiter.api.Test;

class ParserTest {
    @Test
    void parsesTheOption() {
        Bean bean = new Bean();
        Parser parser = new Parser(bean);
        int parsed = parser.parse("-str", "foo");
    }
}
"""


def test_the_targets_are_read_before_the_action_too(tmp_path: Path, checker: OracleChecker) -> None:
    """What ``parser.parse(...)`` changed (the bean's ``str``) is told from what it left alone
    (its ``width``), and the first holding oracle offered is on the changed one."""
    require_toolchain()
    write_project(
        tmp_path,
        {"main/java/q/Bean": BEAN, "main/java/q/Parser": PARSER, "test/java/q/ParserTest": PARSER_TEST},
    )
    path = tmp_path / "src/test/java/q/ParserTest.java"
    engine = engine_for([path], EngineSettings(top_k=64))
    observed = observe(engine, path, checker)
    (observation,) = observed.tests.values()
    assert observation.ran and observation.completed
    assert observation.before["bean.getStr()"] == ObservedValue("null", "null", "null")
    assert observation.values["bean.getStr()"] == ObservedValue("literal", "java.lang.String", '"foo"')
    assert "parsed" in observation.fresh and "parsed" not in observation.before  # declared by the action
    assert observation.changed("bean.getStr()") is True
    assert observation.changed("bean.getWidth()") is False
    assert observation.changed("parsed") is True
    analysis = engine.analyse(load_source(path))
    (status,) = analysis.oracle_free
    report, _ = engine.suggest_test(analysis, status, observation=observation)
    holding = [s.oracle for s in report.suggestions if s.verdict is not None and s.verdict.status == "holds"]
    assert holding.index('assertEquals("foo", bean.getStr());') < holding.index(
        "assertEquals(80, bean.getWidth());"
    )


ABSTRACT_TEST = """
package r;

import org.junit.Test;

public abstract class AbstractCounterTest {
    @Test
    public abstract void counts();

    @Test
    public void twice() {
        counts();
        counts();
    }
}
"""

COUNTER_TEST = """
package r;

import org.junit.Test;

public class CounterTest extends AbstractCounterTest {
    @Override
    @Test
    public void counts() throws Exception {
        StringBuilder b = new StringBuilder("ab");
        b.append('c');
    }
}
"""


def test_a_test_implementing_an_abstract_one_is_observed(tmp_path: Path, checker: OracleChecker) -> None:
    """The scratch copy keeps the test itself (emptied, without its ``throws``, which the abstract
    one does not declare) beside its variants (without ``@Override``): dropping it left
    ``CounterTest`` abstract, and the whole file unobserved (commons-math3's ``testMinStep``)."""
    files = {"test/java/r/AbstractCounterTest": ABSTRACT_TEST, "test/java/r/CounterTest": COUNTER_TEST}
    observation = _the_one_observation(tmp_path, checker, files, "test/java/r/CounterTest")
    assert observation.values["b.length()"] == ObservedValue("literal", "int", "3")


def _the_one_observation(
    tmp_path: Path, checker: OracleChecker, files: dict[str, str], test: str
) -> TestObservation:
    """The project of ``files`` written, ``test``'s single test observed: it ran."""
    require_toolchain()
    write_project(tmp_path, files)
    path = tmp_path / "src" / f"{test}.java"
    observed = observe(engine_for([path], EngineSettings(top_k=64)), path, checker)
    (observation,) = observed.tests.values()
    assert observation.ran, observed.notes
    return observation


BASE_CASE = """
package r;

public abstract class BaseCase extends junit.framework.TestCase {
}
"""

ANNOTATED_JUNIT3_TEST = """
package r;

import org.junit.Test;

public class AnnotatedTest extends BaseCase {
    @Test
    public void grows() {
        StringBuilder b = new StringBuilder("ab");
        b.append('c');
    }
}
"""


def test_annotated_tests_of_a_testcase_subclass_are_observed(tmp_path: Path, checker: OracleChecker) -> None:
    """JUnit runs a ``TestCase`` subclass as JUnit 3 whatever its annotations say: only its
    ``test*`` methods run, so the variants are named so (ini4j's ``@Test`` methods in a class
    extending its ``TestCase`` base ran none and were never observed)."""
    files = {"test/java/r/BaseCase": BASE_CASE, "test/java/r/AnnotatedTest": ANNOTATED_JUNIT3_TEST}
    observation = _the_one_observation(tmp_path, checker, files, "test/java/r/AnnotatedTest")
    assert observation.values["b.length()"] == ObservedValue("literal", "int", "3")


SHAPE_TEST = """
package t;

import {test};

public abstract class AbstractShapeTest {
    protected abstract StringBuilder create(String text);

    @Test
    public void grows() {
        StringBuilder b = create("ab");
        b.append('c');
    }
}
"""

MIDDLE_TEST = """
package t;

public abstract class AbstractWideShapeTest extends AbstractShapeTest {
}
"""

CONCRETE_TEST = """
package t;

public class WideShapeTest extends AbstractWideShapeTest {
    @Override
    protected StringBuilder create(String text) {
        return new StringBuilder(text + text);
    }
}
"""


@pytest.mark.parametrize("test_import", ["org.junit.Test", "org.junit.jupiter.api.Test"])
def test_an_abstract_test_classs_tests_are_observed_on_a_concrete_subclass(
    tmp_path: Path, checker: OracleChecker, test_import: str
) -> None:
    """JUnit cannot run a test of an abstract class (commons-math3's ``RealVectorAbstractTest``):
    its scratch copy runs on a concrete subclass of its folder, which supplies ``create``; before,
    the test went unobserved ("did not run")."""
    require_toolchain()
    write_project(
        tmp_path,
        {
            "test/java/t/AbstractShapeTest": SHAPE_TEST.replace("{test}", test_import),
            "test/java/t/AbstractWideShapeTest": MIDDLE_TEST,
            "test/java/t/WideShapeTest": CONCRETE_TEST,
        },
    )
    path = tmp_path / "src/test/java/t/AbstractShapeTest.java"
    observed = observe(engine_for([path], EngineSettings(top_k=64)), path, checker)
    (observation,) = observed.tests.values()
    assert observation.ran, (observation.error, observed.notes)
    assert observation.values["b.length()"] == ObservedValue("literal", "int", "5")  # "abab" + 'c'


CLOCK = """
package c;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class DiaryTest {
    @Test
    void dates() {
        String today = LocalDate.now().toString();
        String fixed = LocalDate.of(2019, 3, 1).toString();
    }
}
"""


def test_a_value_read_off_the_clock_is_not_kept_though_both_runs_agree(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """Both runs read the same day: an oracle of it would fail tomorrow. The fixed date is kept."""
    require_toolchain()
    write_project(tmp_path, {"test/java/c/DiaryTest": CLOCK})
    path = tmp_path / "src/test/java/c/DiaryTest.java"
    observed = observe(engine_for([path], EngineSettings(top_k=64)), path, checker)
    (observation,) = observed.tests.values()
    assert observation.ran, observation.error
    assert "today" in observation.flaky and "today" not in observation.values
    assert observation.values["fixed"] == ObservedValue("literal", "java.lang.String", '"2019-03-01"')


SET_UP_FAILS = """
package u;

import java.util.ArrayList;
import java.util.List;
import org.junit.BeforeClass;
import org.junit.Test;

public class ServerTest {
    @BeforeClass
    public static void startServer() {
        throw new IllegalStateException("no temporary folder");
    }

    @Test
    public void serves() {
        List<String> served = new ArrayList<>();
        served.add("page");
    }
}
"""


def test_a_test_whose_class_failed_to_set_up_says_why_it_was_not_observed(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """Its class's ``@BeforeClass`` threw, so JUnit ran none of its tests: the reason is what the
    class threw, not "did not run" alone."""
    require_toolchain()
    write_project(tmp_path, {"test/java/u/ServerTest": SET_UP_FAILS})
    path = tmp_path / "src/test/java/u/ServerTest.java"
    observed = observe(engine_for([path], EngineSettings(top_k=64)), path, checker)
    (observation,) = observed.tests.values()
    assert not observation.ran
    assert observation.error == (
        "did not run: its class failed before it ran: IllegalStateException: no temporary folder"
    )


FACTORY = """
package s;

public class Factory {
    public static IllegalArgumentException invalid() {
        return new IllegalArgumentException("bad") {
            private static final long serialVersionUID = 1L;
        };
    }

    public static int parse(String text) {
        throw invalid();
    }
}
"""

FACTORY_TEST = """
package s;

import org.junit.Test;

public class FactoryTest {
    @Test
    public void parses() {
        int n = Factory.parse("x");
    }
}
"""


def test_an_anonymous_exception_is_named_by_its_superclass(tmp_path: Path, checker: OracleChecker) -> None:
    """Commons-math 2 throws ``new IllegalArgumentException() {...}``: observed as ``Factory$1``,
    the oracle read ``catch (1 expected)`` and did not compile."""
    require_toolchain()
    write_project(tmp_path, {"main/java/s/Factory": FACTORY, "test/java/s/FactoryTest": FACTORY_TEST})
    path = tmp_path / "src/test/java/s/FactoryTest.java"
    engine = engine_for([path], EngineSettings(top_k=8))
    (observation,) = observe(engine, path, checker).tests.values()
    assert observation.thrown == "java.lang.IllegalArgumentException"
    # the superclasses of what was thrown come back too: a test may expect a broader type
    assert observation.thrown_ancestors == (
        "java.lang.RuntimeException",
        "java.lang.Exception",
        "java.lang.Throwable",
    )
    report = engine.suggest(load_source(path), observer=ValueObserver(checker))
    assert "catch (IllegalArgumentException expected)" in report.tests[0].suggestions[0].oracle  # JUnit 4


def _factory_harness(tmp_path: Path) -> Harness:
    """The harness of the factory test, whose outcomes a test scripts (no JVM)."""
    write_project(tmp_path, {"test/java/s/FactoryTest": FACTORY_TEST, "main/java/s/Factory": FACTORY})
    path = tmp_path / "src/test/java/s/FactoryTest.java"
    engine = engine_for([path], EngineSettings(top_k=8))
    analysis = engine.analyse(load_source(path))
    statuses = analysis.oracle_free
    plans = engine._plans(analysis, statuses, {s.test.line: engine.prefix_for(analysis, s) for s in statuses})
    harness = Harness(analysis.source, plans)
    return harness


def test_a_class_that_cannot_load_is_not_what_the_prefix_threw(tmp_path: Path) -> None:
    """xom loads its parsers by name, and classes compiled on demand miss them: both runs end in
    ``NoClassDefFoundError``, which is no value and no exception the test could expect."""
    from oracular.execution.jvm import TestOutcome
    from oracular.execution.observe import RUNS
    from oracular.execution.runner import ScratchOutcome

    harness = _factory_harness(tmp_path)
    unloaded = TestOutcome("failed", exception="java.lang.NoClassDefFoundError", message="s/Parser")
    outcome = ScratchOutcome(
        results={
            harness.variant_key(0, g, run): unloaded
            for g in range(len(harness.groups[0]))
            for run in range(RUNS)
        }
    )
    (observation,) = harness.interpret(outcome).values()
    assert observation.thrown is None and observation.thrown_before is None
    assert observation.error == "could not load the code here (NoClassDefFoundError)"


@pytest.mark.parametrize(
    ("first", "second", "why"),
    [
        ("java.io.IOException", None, "the prefix threw IOException in 1 of 2 runs"),
        ("java.io.IOException", "java.lang.IllegalStateException",
         "the prefix threw differently from run to run (IOException, IllegalStateException)"),
    ],
)  # fmt: skip
def test_a_prefix_that_does_not_run_the_same_way_twice_is_not_observed(
    tmp_path: Path, first: str, second: str | None, why: str
) -> None:
    """A prefix that throws in one run and not the other (a port in use, a clock), or throws
    differently, gives neither an exception oracle nor values to trust: it was counted observed
    with nothing judged; now it says why it was not observed."""
    from oracular.execution.jvm import TestOutcome
    from oracular.execution.observe import RUNS
    from oracular.execution.runner import ScratchOutcome

    harness = _factory_harness(tmp_path)
    runs = [
        TestOutcome("failed", exception=first),
        TestOutcome("failed", exception=second) if second else TestOutcome("passed"),
    ]
    assert len(runs) == RUNS
    outcome = ScratchOutcome(results={harness.variant_key(0, 0, run): runs[run] for run in range(RUNS)})
    (observation,) = harness.interpret(outcome).values()
    assert observation.thrown is None and observation.thrown_before is None and not observation.values
    assert observation.error == why and not observation.ran


TAGS = """
package h;

import java.util.*;

public class Tags {
    private final Set<String> tags = new TreeSet<>();

    public void parse(String line) {
        for (String part : line.split(",")) {
            tags.add(part.trim().replace("#", ""));
        }
    }

    public boolean has(String tag) { return tags.contains(tag); }
}
"""

TAGS_TEST = """
package h;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class TagsTest {
    @Test
    public void one() {
        Tags tags = new Tags();
        tags.parse("#a");
        assertTagged(tags, "a");
    }

    @Test
    public void two() {
        Tags tags = new Tags();
        String tag = "c";
        tags.parse("#b," + tag);
    }

    static void assertTagged(Tags tags, String tag) {
        assertTrue("not tagged " + tag, tags.has(tag));
    }
}
"""


def test_the_suites_helper_calls_are_run_and_the_one_that_passes_is_offered_first(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """Each call of the file's ``assertTagged`` is run after the prefix: the literal ``"#b,"`` fails
    the helper's assertion, ``tag`` and ``"c"`` pass, and the first that passes is the answer."""
    require_toolchain()
    write_project(tmp_path, {"main/java/h/Tags": TAGS, "test/java/h/TagsTest": TAGS_TEST})
    path = tmp_path / "src/test/java/h/TagsTest.java"
    engine = engine_for([path], EngineSettings(top_k=64))
    (observation,) = observe(engine, path, checker).tests.values()
    assert observation.values['assertTagged(tags, "#b,")'] == ObservedValue("boolean", "boolean", "false")
    analysis = engine.analyse(load_source(path))
    (status,) = analysis.oracle_free
    report, _ = engine.suggest_test(analysis, status, observation=observation)
    helpers = {s.oracle: s.verdict.status for s in report.suggestions if s.kind == "helper" and s.verdict}
    assert helpers == {
        "assertTagged(tags, tag);": "holds",
        'assertTagged(tags, "c");': "holds",
        'assertTagged(tags, "#b,");': "fails",
    }
    assert report.suggestions[0].oracle == "assertTagged(tags, tag);"


HELP = """
package h;

import java.io.*;

public class Help {
    public void print(String option, Writer out) throws IOException {
        String separator = System.lineSeparator();
        out.write("Option" + separator + "------" + separator + option + separator);
    }
}
"""

HELP_TEST = """
package h;

import static h.Strings.EMPTY;
import static org.junit.Assert.assertEquals;

import java.io.*;
import org.junit.Test;

public class HelpTest {
    private final StringWriter sink = new StringWriter();

    @Test
    public void one() throws IOException {
        new Help().print("-a", sink);
        assertHelpLines("Option", "------", "-a", EMPTY);
    }

    @Test
    public void two() throws IOException {
        new Help().print("-b", sink);
    }

    private void assertHelpLines(String... expectedLines) {
        assertEquals(String.join(System.lineSeparator(), expectedLines), sink.toString());
    }
}
"""

STRINGS = """
package h;

public final class Strings {
    public static final String EMPTY = "";
}
"""


def test_a_helper_taking_expected_lines_is_given_the_lines_the_code_wrote(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """joptsimple's ``assertHelpLines(String... expectedLines)``: the call given the lines of
    ``sink.toString()`` is run, and passing, written with them as literals (the empty last line as
    the ``EMPTY`` the test imports)."""
    require_toolchain()
    files = {"main/java/h/Help": HELP, "main/java/h/Strings": STRINGS, "test/java/h/HelpTest": HELP_TEST}
    write_project(tmp_path, files)
    path = tmp_path / "src/test/java/h/HelpTest.java"
    engine = engine_for([path], EngineSettings(top_k=64))
    (observation,) = observe(engine, path, checker).tests.values()
    assert (
        observation.values["assertHelpLines(oracular.exec.Observe.lines(sink.toString()))"].payload == "true"
    )
    analysis = engine.analyse(load_source(path))
    (status,) = analysis.oracle_free
    report, _ = engine.suggest_test(analysis, status, observation=observation)
    first = report.suggestions[0]
    assert first.oracle == 'assertHelpLines("Option", "------", "-b", EMPTY);'
    assert first.verdict is not None and first.verdict.status == "holds"
    # without running the code the lines are unknown: no such call is offered
    static, _ = engine.suggest_test(analysis, status)
    assert not [s for s in static.suggestions if s.kind == "helper"]


MAIL_BASE = """
package s;

import org.junit.After;
import org.missing.Server;

public abstract class AbstractMailTest {
    protected Server server;

    protected String prefix() { return "ab"; }

    protected Server startServer() { server = new Server(); return server; }

    @After
    public void stopServer() { if (server != null) server.stop(); }
}
"""

MAIL_TEST = """
package s;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.missing.runner.MockRunner;

@RunWith(MockRunner.class)
public class MailTest extends AbstractMailTest {
    private org.missing.Message message;

    @Test
    public void grows() {
        StringBuilder b = new StringBuilder(prefix());
        b.append('c');
    }

    private void send() { message.send(); }
}
"""


def test_what_does_not_compile_here_is_left_out_of_the_class_and_its_superclass(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """A library the classpath lacks (commons-email's PowerMock and SubEthaSMTP, in its test
    superclass and its runner) costs the members that use it, not every test of the class."""
    require_toolchain()
    write_project(tmp_path, {"test/java/s/AbstractMailTest": MAIL_BASE, "test/java/s/MailTest": MAIL_TEST})
    path = tmp_path / "src/test/java/s/MailTest.java"
    observed = observe(engine_for([path], EngineSettings(top_k=64)), path, checker)
    (observation,) = observed.tests.values()
    assert observation.values["b.length()"] == ObservedValue("literal", "int", "3")
    (note,) = [n for n in observed.notes if n.startswith("observed without")]
    assert "MailTest.java:5: import org.missing.runner.MockRunner" in note and "more" in note


def test_a_set_up_that_does_not_compile_here_leaves_the_class_unobserved(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """A ``@Before`` that uses the missing library may set up what the test reads: never left out."""
    require_toolchain()
    base = MAIL_BASE.replace("@After", "@org.junit.Before")
    write_project(tmp_path, {"test/java/s/AbstractMailTest": base, "test/java/s/MailTest": MAIL_TEST})
    path = tmp_path / "src/test/java/s/MailTest.java"
    observed = observe(engine_for([path], EngineSettings(top_k=64)), path, checker)
    assert not any(o.ran for o in observed.tests.values())
    # the note names what could not be left out: the set-up
    assert any("AbstractMailTest.java:14: cannot find symbol" in n for n in observed.notes), observed.notes


DEFINER = """
package d;

import java.lang.reflect.Method;

public class Definer {
    /** What cglib's Enhancer does to define the classes it generates: reach into ClassLoader. */
    public static boolean canDefine() throws Exception {
        Method define = ClassLoader.class.getDeclaredMethod(
                "defineClass", String.class, byte[].class, int.class, int.class);
        define.setAccessible(true);
        return define.isAccessible();
    }
}
"""

DEFINER_TEST = """
package d;

import org.junit.jupiter.api.Test;

class DefinerTest {
    @Test
    void defines() throws Exception {
        boolean open = Definer.canDefine();
    }
}
"""


def test_the_code_may_reach_into_java_lang_as_jdk_17_builds_let_their_tests(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """cglib's ``Enhancer`` failed to initialise on JDK 17 (``InaccessibleObjectException``) and
    its prefixes did not run: surefire configurations open ``java.lang`` to the tests."""
    require_toolchain()
    write_project(tmp_path, {"main/java/d/Definer": DEFINER, "test/java/d/DefinerTest": DEFINER_TEST})
    path = tmp_path / "src/test/java/d/DefinerTest.java"
    engine = engine_for([path], EngineSettings(top_k=8))
    (observation,) = observe(engine, path, checker).tests.values()
    assert observation.thrown is None and observation.thrown_before is None
    assert observation.values["open"].payload == "true"


BOX = """
package p;
public class Box {
    private final String label;
    private final int weight;
    public Box(String label, int weight) { this.label = label; this.weight = weight; }
    public Box copy() { return new Box(label, weight); }
    public String getLabel() { return label; }
    public int getWeight() { return weight; }
}
"""

BOX_TEST = """
package p;
import org.junit.jupiter.api.Test;
class BoxTest {
    @Test
    void copies() {
        Box box = new Box("crate", 42);
        Box copy = box.copy();
    }
}
"""


def test_reads_of_two_objects_that_agree_are_offered_and_hold(tmp_path: Path, checker: OracleChecker) -> None:
    """The copy's weight and the original's read 42 both: ``assertEquals(box.getWeight(),
    copy.getWeight())`` is offered, and inserted, it compiles and holds."""
    require_toolchain()
    write_project(tmp_path, {"main/java/p/Box": BOX, "test/java/p/BoxTest": BOX_TEST})
    path = tmp_path / "src/test/java/p/BoxTest.java"
    engine = engine_for([path], EngineSettings(top_k=64, abstain_below=0.0))
    report = engine.suggest(load_source(path), observer=ValueObserver(checker))
    (test,) = report.tests
    pairs = {
        s.oracle: s for s in test.suggestions if s.source == "variable" and "(" in s.candidate.expected.text
    }
    assert "assertEquals(box.getWeight(), copy.getWeight());" in pairs, sorted(pairs)
    check = checker.check(report)
    assert check.error is None
    assert all(check.result_for(test, s).status is CheckStatus.HOLDS for s in pairs.values())


GUARDED = """
package s;

public class Guarded {
    private boolean open;

    public void check() {
        if (!open) {
            throw new IllegalStateException("closed");
        }
    }

    public int size() {
        return 0;
    }

    public void add(int x) {
    }
}
"""

GUARDED_TEST = """
package s;

import org.junit.jupiter.api.Test;

class GuardedTest {
    @Test
    void adds() {
        Guarded g = new Guarded();
        g.check();
        g.add(1);
    }
}
"""


def test_a_prefix_that_throws_before_its_end_ran_but_read_nothing_at_its_end(
    tmp_path: Path, checker: OracleChecker
) -> None:
    """Such a test counts as observed (its prefix ran) and its report says what it threw, for the
    evaluation to count apart: no value at the cut was read."""
    require_toolchain()
    write_project(tmp_path, {"main/java/s/Guarded": GUARDED, "test/java/s/GuardedTest": GUARDED_TEST})
    path = tmp_path / "src/test/java/s/GuardedTest.java"
    engine = engine_for([path], EngineSettings())
    (observation,) = observe(engine, path, checker).tests.values()
    assert observation.ran and observation.thrown_before == "java.lang.IllegalStateException"
    analysis = engine.analyse(load_source(path))
    (status,) = analysis.oracle_free
    report, _ = engine.suggest_test(analysis, status, observation=observation)
    assert report.observed and report.ended_early == "java.lang.IllegalStateException"
    assert report.reason is not None and "IllegalStateException before its last statements" in report.reason
