"""Observed values as candidates, verdicts on any candidate, and the offered order."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oracular.candidates.grammar import Candidate, uses_delta
from oracular.candidates.observed import (
    FAILS,
    HOLDS,
    MAX_VALUE_READS,
    FileObservation,
    ObservedValue,
    TestObservation,
    Verdict,
    expected_value,
    observed_candidates,
    runtime_class,
    value_reads,
    verdict,
)
from oracular.candidates.strength import (
    cannot_fail,
    cannot_hold,
    expectations_failing,
    implied,
    is_possible_bug,
    not_null_in_sight,
    offer_order,
    renders_whole_object,
)
from oracular.candidates.type_names import TypeNamer
from oracular.candidates.values import Value
from oracular.engine import EngineSettings, OracleEngine
from oracular.java.targets import Target
from oracular.ranking.weights import RankingWeights

from ..conftest import java, target
from ..java.test_targets import analysed

BUG = RankingWeights().possible_bug
NAMER = TypeNamer("org.example", ["org.other.Imported"], lambda simple: simple == "Local")


@pytest.mark.parametrize(
    ("target_type", "observed", "text", "value_type", "imports"),
    [
        ("int", ObservedValue("literal", "int", "3"), "3", "int", ()),
        ("long", ObservedValue("literal", "long", "3L"), "3L", "long", ()),
        ("char", ObservedValue("literal", "char", "'\\n'"), "'\\n'", "char", ()),
        ("short", ObservedValue("literal", "short", "(short) 7"), "7", "short", ()),
        (None, ObservedValue("literal", "java.lang.Short", "(short) 7"), "(short) 7", "Short", ()),
        (
            "String",
            ObservedValue("literal", "java.lang.String", '"a\\"b\\u00e9"'),
            '"a\\"b\\u00e9"',
            "String",
            (),
        ),
        ("double", ObservedValue("literal", "double", "Double.NaN"), "Double.NaN", "double", ()),
        ("double", ObservedValue("literal", "double", "-0.0"), "-0.0", "double", ()),
        # a computation's last-bit noise is rounded away, a value that needs every digit is not
        ("double", ObservedValue("literal", "double", "2.999999999999973"), "3.0", "double", ()),
        (None, ObservedValue("literal", "java.lang.Double", "0.30000000000000004"), "0.3", "Double", ()),
        (
            "double",
            ObservedValue("literal", "double", "0.7071067811865475"),
            "0.7071067811865475",
            "double",
            (),
        ),
        ("double", ObservedValue("literal", "double", "1.0E-5"), "1.0E-5", "double", ()),
        ("float", ObservedValue("literal", "float", "0.1f"), "0.1f", "float", ()),
        # enum constants: the same package, an import, a name clash, a nested enum
        (None, ObservedValue("enum", "org.example.Color", "RED"), "Color.RED", "Color", ()),
        (None, ObservedValue("enum", "org.other.Imported", "A"), "Imported.A", "Imported", ()),
        (None, ObservedValue("enum", "org.third.Local", "B"), "org.third.Local.B", "Local", ()),
        (
            None,
            ObservedValue("enum", "org.third.Outer.Mode", "ON"),
            "Outer.Mode.ON",
            "Mode",
            ("org.third.Outer",),
        ),
        (None, ObservedValue("class", "java.lang.Class", "java.lang.String"), "String.class", "Class", ()),
        ("int[]", ObservedValue("array", "[I", "new int[] {1, 2}"), "new int[] {1, 2}", "array", ()),
        (
            None,
            ObservedValue("array", "[Ljava.lang.String;", 'new java.lang.String[] {"a", null}'),
            'new String[] {"a", null}',
            "array",
            (),
        ),
        (
            "List<Long>",
            ObservedValue("list", "java.util.ArrayList", "1L, 2L"),
            "Arrays.asList(1L, 2L)",
            "List",
            ("java.util.Arrays",),
        ),
        (
            "List<Long>",
            ObservedValue("list", "java.util.ArrayList", ""),
            "Collections.emptyList()",
            "List",
            ("java.util.Collections",),
        ),
    ],
)
def test_observed_values_render_as_exact_java(
    target_type: str | None, observed: ObservedValue, text: str, value_type: str, imports: tuple[str, ...]
) -> None:
    value = expected_value(target("x", target_type), observed, NAMER)
    assert value is not None
    assert (value.text, value.type, value.source, value.imports) == (text, value_type, "observed", imports)


@pytest.mark.parametrize(
    ("target_type", "observed", "text"),
    [
        ("int", ObservedValue("literal", "int", "2147483647"), "Integer.MAX_VALUE"),
        ("Integer", ObservedValue("literal", "java.lang.Integer", "-2147483648"), "Integer.MIN_VALUE"),
        ("long", ObservedValue("literal", "long", "-9223372036854775808L"), "Long.MIN_VALUE"),
        ("short", ObservedValue("literal", "short", "(short) 32767"), "Short.MAX_VALUE"),
        ("double", ObservedValue("literal", "double", "1.7976931348623157E308"), "Double.MAX_VALUE"),
        ("float", ObservedValue("literal", "float", "1.4E-45f"), "Float.MIN_VALUE"),
        ("char", ObservedValue("literal", "char", "'\\uffff'"), "Character.MAX_VALUE"),
        # a byte's limits are written bare; a long that holds an int's limit is no limit of its own
        ("byte", ObservedValue("literal", "byte", "127"), "127"),
        ("long", ObservedValue("literal", "long", "2147483647L"), "2147483647L"),
        ("int", ObservedValue("literal", "int", "2147483646"), "2147483646"),
    ],
)
def test_a_primitive_types_limit_is_written_by_its_name(
    target_type: str, observed: ObservedValue, text: str
) -> None:
    value = expected_value(target("x", target_type), observed, NAMER)
    assert value is not None and value.text == text


def test_observed_candidates_per_kind() -> None:
    def oracles(observed: ObservedValue, type_: str | None = "Object") -> list[str]:
        found = observed_candidates(target("x", type_), observed, NAMER)
        return [f"{c.assertion}({c.expected.text if c.expected else ''})" for c in found]

    assert oracles(ObservedValue("boolean", "boolean", "false"), "boolean") == ["assertFalse()"]
    assert oracles(ObservedValue("null", "null", "null")) == ["assertNull()"]
    assert oracles(ObservedValue("literal", "int", "4"), "int") == ["assertEquals(4)"]
    assert oracles(ObservedValue("object", "p.Thing", "")) == ["assertNotNull()"]
    assert oracles(ObservedValue("array", "[I", "new int[] {1}"), "int[]") == [
        "assertArrayEquals(new int[] {1})",
        "assertNotNull()",
    ]
    assert oracles(ObservedValue("thrown", "java.lang.IllegalStateException", "boom")) == []


def test_the_class_of_an_object_the_test_made_with_new_cannot_fail(engine: OracleEngine) -> None:
    """xmlunit: ``ElementQualifier qualifier = new MultiLevelElementNameAndTextQualifier(2)``, then
    ``assertTrue(qualifier instanceof MultiLevelElementNameAndTextQualifier)`` restates it."""
    prefix = analysed(engine, "Object made = new Stack<Integer>();\nObject other = made;")

    def instance(receiver: str, cls: str) -> Candidate:
        return Candidate(
            "assertion",
            "assertTrue",
            Target(f"{receiver} instanceof {cls}", "boolean", "instance", receiver, cls),
        )

    assert cannot_fail(instance("made", "Stack"), prefix)
    assert not cannot_fail(instance("made", "OtherStack"), prefix)
    assert not cannot_fail(instance("other", "Stack"), prefix)  # assigned no new object itself


def test_a_value_of_a_workspace_class_its_declared_type_does_not_name_is_checked_by_its_class() -> None:
    """opencsv: ``ICSVWriter csvWriter = builder.build()``, then ``assertTrue(csvWriter instanceof
    CSVWriter)``: the class is the builder's choice, known once the code ran."""
    namer = TypeNamer(
        "org.example", ["org.other.Imported"], lambda simple: simple in ("Local", "Imported", "Far")
    )
    writer = target("csvWriter", "IWriter")

    def instance(type_: str, declared: Target = writer) -> str | None:
        found = runtime_class(declared, ObservedValue("object", type_, ""), namer)
        return found.expression if found is not None else None

    assert instance("org.example.Local") == "csvWriter instanceof Local"  # the test's package
    assert instance("org.other.Imported") == "csvWriter instanceof Imported"
    assert instance("org.far.Far") == "csvWriter instanceof org.far.Far"  # qualified: no import
    assert instance("java.util.ArrayList") is None  # the JDK's: no unit's choice
    # a member class of the file's class is named alone inside it, as its developer writes it
    inside = TypeNamer("org.example", [], lambda simple: simple == "Cmd2", "SubCommandTest")
    nested = ObservedValue("object", "org.example.SubCommandTest$Cmd2", "")
    found = runtime_class(target("value", "Object", "field"), nested, inside)
    assert found is not None and found.expression == "value instanceof Cmd2"
    assert inside.spell("org.example.SubCommandTest.Kind.Deep") == ("Kind.Deep", ())
    assert inside.spell("org.example.OtherTest.Cmd2") == ("OtherTest.Cmd2", ())  # another class's member
    assert inside.spell("org.other.SubCommandTest.Cmd2") != ("Cmd2", ())  # another package's class
    member = TypeNamer("org.example", ["org.other.Outer.Result"], lambda simple: simple == "Outer")
    assert member.spell("org.other.Outer.Result") == ("Result", ())  # imported as a member class
    assert member.spell("org.other.Outer.Result.Kind") == ("Result.Kind", ())
    assert member.spell("org.third.Outer.Result") == ("org.third.Outer.Result", ())  # another Outer
    assert instance("org.example.Local", target("w", "Local")) is None  # the declared type says it
    assert instance("org.example.Local", target("w.getWriter()", "IWriter", "observer")) is None
    found = runtime_class(writer, ObservedValue("object", "org.example.Local", ""), namer)
    assert found is not None
    check = Candidate("assertion", "assertTrue", found)
    local = TestObservation(values={"csvWriter": ObservedValue("object", "org.example.Local", "")})
    assert verdict(check, local).status == HOLDS
    assert verdict(replace(check, assertion="assertFalse"), local).status == FAILS
    other = TestObservation(values={"csvWriter": ObservedValue("object", "org.example.OtherLocal", "")})
    assert verdict(check, other).status == FAILS
    assert (
        verdict(check, TestObservation(values={"csvWriter": ObservedValue("null", "null", "null")})).status
        == FAILS
    )
    assert verdict(check, TestObservation()) is None
    assert observed_candidates(writer, ObservedValue("object", "org.example.Local", ""), namer)[-1] == check


def test_arrays_of_floating_point_compare_within_a_delta() -> None:
    array = Candidate(
        "assertion", "assertArrayEquals", target("d", None), Value("new double[] {1.5}", "array", "observed")
    )
    assert uses_delta(array)
    assert not uses_delta(
        Candidate(
            "assertion",
            "assertArrayEquals",
            target("i", "int[]"),
            Value("new int[] {1}", "array", "observed"),
        )
    )
    assert uses_delta(
        Candidate("assertion", "assertEquals", target("f", "float"), Value("1.5f", "float", "literal"))
    )


def equals(expected: str, source: str = "literal", type_: str = "int") -> Candidate:
    return Candidate("assertion", "assertEquals", target("x", type_), Value(expected, type_, source))


def test_verdicts_compare_values_as_java_would() -> None:
    observation = TestObservation(
        values={
            "x": ObservedValue("literal", "long", "3L"),
            "limit": ObservedValue("literal", "int", "3"),
            "other": ObservedValue("literal", "int", "4"),
            "b": ObservedValue("boolean", "boolean", "true"),
            "o": ObservedValue("null", "null", "null"),
            "t": ObservedValue("thrown", "java.util.NoSuchElementException", "empty"),
        },
        completed=True,
    )
    assert verdict(equals("3"), observation) == Verdict(HOLDS, "3L")  # 3 == 3L
    assert verdict(equals("0x3"), observation) == Verdict(HOLDS, "3L")
    assert verdict(equals("4"), observation) == Verdict(FAILS, "3L")
    assert verdict(equals("limit", "variable"), observation) == Verdict(HOLDS, "3L")  # read too
    assert verdict(equals("other", "constant"), observation) == Verdict(FAILS, "3L")
    assert verdict(equals("unread", "variable"), observation) is None
    assert verdict(Candidate("assertion", "assertTrue", target("b", "boolean")), observation).status == HOLDS
    assert verdict(Candidate("assertion", "assertFalse", target("b", "boolean")), observation).status == FAILS
    assert verdict(Candidate("assertion", "assertNull", target("o", "Object")), observation).status == HOLDS
    assert verdict(Candidate("assertion", "assertNotNull", target("o", "Object")), observation) == Verdict(
        FAILS, "null"
    )
    assert verdict(Candidate("assertion", "assertNotNull", target("t", "Object")), observation) == Verdict(
        FAILS, "threw NoSuchElementException"
    )
    assert verdict(Candidate("assertion", "assertNotNull", target("unknown")), observation) is None
    assert verdict(Candidate("exception", "assertThrows", exception="Exception"), observation) == Verdict(
        FAILS, "nothing thrown"
    )
    # an enum constant is one by its type too: State.ON is not Switch.ON
    on, switch_on = ObservedValue("enum", "p.State", "ON"), ObservedValue("enum", "p.Switch", "ON")
    enums = replace(observation, values={"x": on, "on": on, "switchOn": switch_on})
    assert verdict(equals("on", "variable", "State"), enums).status == HOLDS
    assert verdict(equals("switchOn", "variable", "State"), enums).status == FAILS


def test_verdicts_on_floating_point_strings_and_thrown_prefixes() -> None:
    observation = TestObservation(
        values={
            "d": ObservedValue("literal", "double", "0.30000000000000004"),
            "s": ObservedValue("literal", "java.lang.String", '"a\\tb"'),
        }
    )
    assert verdict(equals("0.3", type_="double"), observation) is None  # the target is x, not read
    d = Candidate("assertion", "assertEquals", target("d", "double"), Value("0.3", "double", "literal"))
    assert verdict(d, observation).status == HOLDS  # within the delta
    s = Candidate("assertion", "assertEquals", target("s", "String"), Value('"a\\tb"', "String", "literal"))
    assert verdict(s, observation).status == HOLDS
    s2 = Candidate("assertion", "assertEquals", target("s", "String"), Value('"a b"', "String", "literal"))
    assert verdict(s2, observation).status == FAILS
    thrown = TestObservation(thrown="java.lang.IllegalStateException")
    assert verdict(
        Candidate("exception", "assertThrows", exception="IllegalStateException"), thrown
    ) == Verdict(HOLDS, "threw IllegalStateException")
    assert verdict(Candidate("exception", "assertThrows", exception="RuntimeException"), thrown) is None
    assert verdict(d, thrown) is None  # no assertion after a throwing prefix is judged


def test_value_reads_are_the_variables_and_constants_candidates_expect() -> None:
    reads = value_reads(
        [
            equals("limit", "variable"),
            equals("3"),
            equals("Stack.MAX", "constant"),
            equals("limit", "variable"),
        ]
    )
    assert [(t.expression, t.kind) for t in reads] == [("limit", "value"), ("Stack.MAX", "value")]


def test_value_reads_keep_the_tests_locals_and_bare_constants_before_the_units() -> None:
    units = [equals(f"Format.F{i}", "constant") for i in range(MAX_VALUE_READS)]
    reads = value_reads([*units, equals("CRLF", "constant"), equals("expected", "variable")])
    assert len(reads) == MAX_VALUE_READS
    assert [t.expression for t in reads[:3]] == ["expected", "CRLF", "Format.F0"]


def test_oracles_that_cannot_fail(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        int seed = 3;
        Stack<Integer> s = new Stack<>();
        s.push(seed);
        Integer top = s.peek();
        """,
    )
    fresh = Target("s", "Stack<Integer>", "variable")
    assert cannot_fail(Candidate("assertion", "assertNotNull", fresh), prefix)
    assert not cannot_fail(
        Candidate("assertion", "assertNotNull", Target("top", "Integer", "variable")), prefix
    )
    assert cannot_fail(
        Candidate(
            "assertion", "assertEquals", Target("seed", "int", "variable"), Value("3", "int", "observed")
        ),
        prefix,
    )
    assert cannot_fail(
        Candidate(
            "assertion",
            "assertEquals",
            Target("top", "Integer", "variable"),
            Value("top", "Integer", "variable"),
        ),
        prefix,
    )
    assert cannot_fail(Candidate("assertion", "assertTrue", Target("true", "boolean", "variable")), prefix)
    assert not cannot_fail(Candidate("exception", "assertThrows", exception="Exception"), prefix)


def test_an_array_of_literals_the_test_wrote_compared_with_them_cannot_fail(engine: OracleEngine) -> None:
    """args4j: ``args = new String[] {"horse"}``, handed to the parser, then ``assertArrayEquals(new
    String[] {"horse"}, args)`` restates the test's input; other elements do not, nor an array
    written since."""
    prefix = analysed(
        engine,
        """
        String[] args;
        args = new String[] {"-animal", "horse"};
        Collections.addAll(new ArrayList<String>(), args);
        int[] ys = {4, 5};
        ys[0] = 6;
        """,
    )

    def same(name: str, elements: str, element: str) -> Candidate:
        target = Target(name, f"{element}[]", "variable")
        return Candidate(
            "assertion", "assertArrayEquals", target, Value(elements, f"{element}[]", "observed")
        )

    assert cannot_fail(same("args", 'new java.lang.String[] {"-animal", "horse"}', "String"), prefix)
    assert not cannot_fail(same("args", 'new java.lang.String[] {"-animal"}', "String"), prefix)
    assert not cannot_fail(same("ys", "new int[] {4, 5}", "int"), prefix)  # written since
    assert prefix.history.literal_arrays == {"args": 'new String[] {"-animal", "horse"}'}


def test_the_size_of_a_fixed_size_list_the_test_built_cannot_fail(engine: OracleEngine) -> None:
    """java-diff-utils: ``revised = Arrays.asList("C", "B")`` is the diff's input; its size is the
    test's own literal count, whatever the diff does. A list that can grow, or one assigned
    again, is the unit's to size."""
    prefix = analysed(
        engine,
        """
        List<String> revised = Arrays.asList("C", "B");
        List<String> names = asList("a");
        List<String> grown = new ArrayList<>();
        grown.add("x");
        List<String> again = List.of("a");
        again = new ArrayList<>(again);
        """,
    )

    def size(name: str) -> Candidate:
        target = Target(f"{name}.size()", "int", "observer", receiver=name, method="size")
        return Candidate("assertion", "assertEquals", target, Value("2", "int", "observed"))

    assert cannot_fail(size("revised"), prefix)
    assert cannot_fail(size("names"), prefix)
    assert not cannot_fail(size("grown"), prefix)
    assert not cannot_fail(size("again"), prefix)
    assert prefix.history.sized == {"revised": ".size()", "names": ".size()"}


def test_a_list_of_literals_the_test_built_compared_with_them_cannot_fail(engine: OracleEngine) -> None:
    """java-diff-utils: ``revList = Arrays.asList("C", "B")`` handed to the diff, then
    ``assertEquals("[C, B]", revList.toString())`` restates the input; a list the unit sorted
    does not (its value differs), nor one a method was called on since."""
    prefix = analysed(
        engine,
        """
        List<String> revList = Arrays.asList("C", "B");
        List<Integer> xs = Arrays.asList(3, 1);
        Collections.sort(xs);
        List<String> set = Arrays.asList("a");
        set.set(0, "b");
        """,
    )
    whole = Target("revList", "List<String>", "variable")
    text = Target("revList.toString()", "String", "observer", "revList", "toString")

    def equals(target: Target, value: str) -> Candidate:
        return Candidate("assertion", "assertEquals", target, Value(value, target.type or "", "observed"))

    assert cannot_fail(equals(whole, 'Arrays.asList("C", "B")'), prefix)
    assert cannot_fail(equals(text, '"[C, B]"'), prefix)
    assert not cannot_fail(equals(text, '"[B, C]"'), prefix)
    assert not cannot_fail(equals(Target("xs", "List<Integer>", "variable"), "Arrays.asList(1, 3)"), prefix)
    assert "set" not in prefix.history.literal_lists


def test_oracles_that_cannot_hold(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        Stack<Integer> s = new Stack<>();
        s.push(1);
        ArrayList<Integer> xs = new ArrayList<>();
        Stack<Integer> t = new Stack<>();
        Integer top = s.peek();
        """,
    )
    local = {name: Target(name, kind, "variable") for name, kind in (("s", "Stack"), ("xs", "ArrayList"))}
    assert cannot_hold(Candidate("assertion", "assertNull", local["s"]), prefix)
    assert not cannot_hold(Candidate("assertion", "assertNull", Target("top", "Integer", "variable")), prefix)

    # two objects built as different classes are never equal; two of one class may be
    def equals(target: str, value: str) -> Candidate:
        return Candidate("assertion", "assertEquals", local[target], Value(value, "Stack", "variable"))

    assert cannot_hold(equals("xs", "s"), prefix)
    assert not cannot_hold(equals("s", "t"), prefix)
    # ranked like any other (the models' candidate set), never offered
    wide = OracleEngine(engine.index, engine.ranker, EngineSettings(top_k=64, abstain_below=0.0))
    source = java(
        """
        package org.example.stack;
        import java.util.*;
        class SnippetTest {
            @org.junit.jupiter.api.Test
            void t() {
                Stack<Integer> s = new Stack<>();
                s.push(1);
                Integer top = s.peek();
            }
        }
        """
    )
    offered = {s.oracle for t in wide.suggest(source).tests for s in t.suggestions}
    assert "assertNull(s);" not in offered and "assertNull(top);" in offered


def test_an_exception_oracle_around_a_statement_that_only_declares_literals_cannot_hold(
    engine: OracleEngine,
) -> None:
    """The test computed its inputs and called the unit in the assertion the cut removed
    (commons-math3's ``final double[] b = {98765432.1};`` then ``assertThrows(..., () ->
    MathArrays.linearCombination(a, b))``): wrapping the declaration would fail on any code."""
    thrown = Candidate("exception", "assertThrows", exception="IllegalArgumentException")
    inputs = analysed(engine, "final double a = 1.5;\nint[] sizes = {1, -2}, more = {};")
    assert inputs.cannot_throw and cannot_hold(thrown, inputs)
    for body in ("Stack<Integer> s = new Stack<>();\ns.pop();", 'int n = Integer.parseInt("x");'):
        prefix = analysed(engine, body)
        assert not prefix.cannot_throw and not cannot_hold(thrown, prefix)


def test_the_length_of_an_array_the_prefix_created_cannot_fail(engine: OracleEngine) -> None:
    """args4j's tests hand the parser an array they built; its length is the test's own input."""
    prefix = analysed(
        engine,
        """
        String[] args = {"-flag", "false"};
        int[] sizes = new int[3];
        String[] parts = "a,b".split(",");
        String[] later = {"x"};
        later = "a,b".split(",");
        String[] made = "a".split(",");
        made = new String[] {"-a"};
        Stack<String> s = new Stack<>();
        s.push(args[0]);
        args[0] = "-other";
        """,
    )

    def length(array: str) -> Candidate:
        target = Target(f"{array}.length", "int", "observer", array, "length")
        return Candidate("assertion", "assertEquals", target, Value("2", "int", "literal"))

    assert cannot_fail(length("args"), prefix), "an element written: the length stays"
    assert cannot_fail(length("sizes"), prefix)
    assert not cannot_fail(length("parts"), prefix), "the code under test made it"
    assert not cannot_fail(length("later"), prefix), "reassigned to what the code made"
    assert cannot_fail(length("made"), prefix), "reassigned to an array the test made"


def test_the_offered_order() -> None:
    holds, fails = Verdict(HOLDS, "1"), Verdict(FAILS, "1")
    verdicts = [fails, None, holds, fails, holds, holds]
    vacuous = [False, False, False, False, False, True]
    # the best holding one first; a confident failing one next (a possible bug); then the other holds
    assert offer_order([0.9, 0.6, 0.3, 0.2, 0.1, 0.05], verdicts, vacuous, BUG) == [2, 0, 4, 1, 3, 5]
    # two confident ones fail: only the most confident is a possible bug
    assert offer_order([0.9, 0.6, 0.3, 0.8, 0.1, 0.05], verdicts, vacuous, BUG) == [2, 0, 4, 1, 3, 5]
    # not confident: a wrong guess, after what nobody could judge
    assert offer_order([0.4, 0.35, 0.3, 0.2, 0.1, 0.05], verdicts, vacuous, BUG) == [2, 4, 1, 0, 3, 5]
    # nothing holds: what nobody could judge by score, guesses that fail and vacuous ones last
    assert offer_order([0.1, 0.2, 0.3], [None, fails, None], [False, False, True], BUG) == [0, 1, 2]


def test_a_failing_call_of_the_suites_helper_is_no_possible_bug() -> None:
    """joptsimple: ``assertOptionDetected(options, "a")``, scored by the file's habit, fails where
    the test passed ``"-quiet"``: a wrong argument, not a bug; a failing expectation of the ranker's
    still is one."""
    holds, fails = Verdict(HOLDS, "1"), Verdict(FAILS, "1")
    helper = Candidate("helper", "assertOptionDetected", arguments=("options", '"a"'))
    equals = Candidate("assertion", "assertEquals", target("x", "int"), Value("1", "int", "literal"))
    failing = expectations_failing([helper, equals], [True, True])
    assert failing == [False, True]
    verdicts, vacuous = [fails, fails, holds], [False] * 3
    assert offer_order([0.9, 0.6, 0.1], verdicts, vacuous, BUG, failing=[*failing, False]) == [2, 1, 0]
    assert is_possible_bug(1, [0.9, 0.6, 0.1], [*failing, False], BUG)
    assert not is_possible_bug(0, [0.9, 0.6, 0.1], [*failing, False], BUG)
    candidates = [
        Candidate("assertion", "assertEquals", target("x", "Integer"), Value("1", "int", "observed")),
        Candidate("assertion", "assertNotNull", target("x", "Integer")),
        Candidate("assertion", "assertNotNull", target("y", "Integer")),
    ]
    assert implied(candidates, [holds, holds, holds], [False] * 3) == [False, True, True]
    assert implied(candidates, [None, holds, holds], [False] * 3) == [False] * 3  # nothing else holds
    assert implied(candidates, [holds, holds, holds], [True, False, False]) == [False, False, False]


def test_a_not_null_check_the_files_tests_open_with_is_not_weakened() -> None:
    """java-diff-utils' ``DiffUtilsTest`` opens nine tests with ``assertNotNull(patch)``."""
    holds = Verdict(HOLDS, "")
    size = Candidate(
        "assertion", "assertEquals", target("patch.size()", "int"), Value("1", "int", "observed")
    )
    not_null = Candidate("assertion", "assertNotNull", target("patch", "Patch"))
    assert implied([size, not_null], [holds, holds], [False, False]) == [False, True]
    assert implied([size, not_null], [holds, holds], [False, False], ("null", "")) == [False, False]
    assert implied([size, not_null], [holds, holds], [False, False], ("null", ".size()")) == [False, True]


def first_four_then_not_null(first: Target, *checked: Target) -> list[Candidate]:
    """An equality on ``first``, four on other values, then a not-null check of each of ``checked``."""
    return [
        Candidate("assertion", "assertEquals", first, Value("0", "int", "observed")),
        *(
            Candidate("assertion", "assertEquals", target(f"n{i}", "int"), Value("1", "int", "observed"))
            for i in range(4)
        ),
        *(Candidate("assertion", "assertNotNull", t) for t in checked),
    ]


def test_the_not_null_check_of_what_the_first_oracle_asserts_on_keeps_the_last_place() -> None:
    """opencsv's ``assertNotNull(capturedExceptions)``, where ``capturedExceptions.size()`` holds."""
    size = Target("errors.size()", "int", "observer", "errors", "size")
    offered = first_four_then_not_null(
        size, target("other", "List<String>"), target("errors", "List<String>")
    )
    weaker = [False] * 5 + [True, True]
    order = list(range(7))
    assert not_null_in_sight(order, offered, weaker, [False] * 7, 5) == [0, 1, 2, 3, 6, 4, 5]
    assert not_null_in_sight(order, offered, weaker, [False] * 7, 7) == order  # all shown already
    fresh = [False] * 6 + [True]  # errors = new ArrayList<>(): its not-null check cannot fail
    assert not_null_in_sight(order, offered, weaker, fresh, 5) == order
    assert (
        not_null_in_sight(order, offered, [False] * 7, [False] * 7, 5) == order
    )  # not implied: where it was
    shown_null = [0, 1, 2, 5, 3, 4, 6]
    assert (
        not_null_in_sight(shown_null, offered, weaker, [False] * 7, 5) == shown_null
    )  # one not-null is enough
    later = [1, 0, 2, 3, 4, 5, 6]  # the first asserts on n0, which has no not-null check
    assert not_null_in_sight(later, offered, weaker, [False] * 7, 5) == later


def test_the_not_null_check_of_the_variable_the_first_oracle_reads_from_keeps_the_last_place() -> None:
    """java-diff-utils' ``assertNotNull(patch)`` where ``patch.getDeltas().size()`` holds."""
    deltas = Target("patch.getDeltas().size()", "int", "chain", "patch.getDeltas()", "size")
    offered = first_four_then_not_null(deltas, target("patch", "Patch<String>"))
    order = list(range(6))
    assert not_null_in_sight(order, offered, [False] * 5 + [True], [False] * 6, 5) == [0, 1, 2, 3, 5, 4]


def test_a_count_is_implied_by_a_holding_equality_with_a_value_the_test_named() -> None:
    holds = Verdict(HOLDS, "")
    values = target("values", "String[]")
    named = Candidate("assertion", "assertArrayEquals", values, Value("expected", "String[]", "variable"))
    literal = Candidate(
        "assertion", "assertArrayEquals", values, Value('new String[] {"a"}', "String[]", "observed")
    )
    length = Candidate(
        "assertion", "assertEquals", target("values.length", "int"), Value("1", "int", "observed")
    )
    other = Candidate(
        "assertion", "assertEquals", target("others.length", "int"), Value("1", "int", "observed")
    )
    first = Candidate(
        "assertion", "assertEquals", target("values[0]", "String"), Value('"a"', "String", "observed")
    )
    assert implied([named, length, other, first], [holds] * 4, [False] * 4) == [False, True, False, True]
    assert implied([named, length], [None, holds], [False] * 2) == [False, False]  # not known to hold
    assert implied([literal, length], [holds] * 2, [False] * 2) == [False, False]  # the test named nothing


def test_a_workspace_objects_whole_rendering_waits_behind_focused_oracles(engine: OracleEngine) -> None:
    prefix = analysed(
        engine, "Stack<Integer> s = new Stack<>(); s.push(1); StringBuilder out = new StringBuilder();"
    )
    assert prefix.env.resolve_class("Stack<Integer>") is not None  # the workspace's own Stack

    def on(receiver: str, method: str) -> Candidate:
        observer = Target(f"{receiver}.{method}()", "String", "observer", receiver, method)
        return Candidate("assertion", "assertEquals", observer, Value('"x"', "String", "observed"))

    assert renders_whole_object(on("s", "toString"), prefix)
    assert not renders_whole_object(on("out", "toString"), prefix)  # the text a JDK buffer holds
    assert not renders_whole_object(on("s", "getName"), prefix)
    holds = Verdict(HOLDS, "1")
    # the rendering scores best, but a focused holding oracle is offered first; alone, it leads
    order = offer_order(
        [0.6, 0.3, 0.1], [holds, holds, None], [False] * 3, BUG, renderings=[True, False, False]
    )
    assert order == [1, 0, 2]
    assert offer_order([0.6, 0.3], [holds, None], [False] * 2, BUG, renderings=[True, False]) == [0, 1]


def test_named_arrays_and_lists_are_compared_by_their_whole_content() -> None:
    """opencsv: ``assertArrayEquals(expectedValues, columnValues)`` holds, the same with
    ``expectedNames`` fails; both were unknown while only literals were compared."""
    strings = "[Ljava.lang.String;"
    observation = TestObservation(
        values={
            "columnValues": ObservedValue("array", strings, 'new java.lang.String[] {"foo", ""}'),
            "expectedValues": ObservedValue("array", strings, 'new java.lang.String[] {"foo", ""}'),
            "expectedNames": ObservedValue("array", strings, 'new java.lang.String[] {"object"}'),
            "rows": ObservedValue("list", "java.util.ArrayList", '"a", "b"'),
            "wanted": ObservedValue("list", "java.util.Arrays$ArrayList", '"a", "b"'),
            "sums": ObservedValue("array", "[D", "new double[] {0.1, 0.2}"),
            "close": ObservedValue("array", "[D", "new double[] {0.1, 0.20000001}"),
        },
        completed=True,
    )

    def status(assertion: str, expected: str, actual: str, type_: str) -> str | None:
        value = Value(expected, type_, "variable")
        found = verdict(Candidate("assertion", assertion, target(actual, type_), value), observation)
        return found.status if found else None

    assert status("assertArrayEquals", "expectedValues", "columnValues", "String[]") == HOLDS
    assert status("assertArrayEquals", "expectedNames", "columnValues", "String[]") == FAILS
    assert status("assertEquals", "expectedValues", "columnValues", "String[]") is None  # identity
    assert status("assertEquals", "wanted", "rows", "List<String>") == HOLDS  # List.equals
    assert status("assertArrayEquals", "close", "sums", "double[]") is None  # a tolerance may accept it


def test_two_local_objects_compare_through_a_read_of_their_equality() -> None:
    path = Target("path", "Path", "variable")
    same = Candidate("assertion", "assertEquals", path, Value("expectedPath", "Path", "variable"))
    number = Candidate(
        "assertion", "assertEquals", Target("n", "int", "variable"), Value("m", "int", "variable")
    )
    reads = [t.expression for t in value_reads([same, number])]
    assert reads == ["expectedPath", "m", "java.util.Objects.equals(expectedPath, path)"]  # objects only
    seen = TestObservation(completed=True)
    seen.values["path"] = ObservedValue("object", "sun.nio.fs.UnixPath", "")
    seen.values["expectedPath"] = ObservedValue("object", "sun.nio.fs.UnixPath", "")
    assert verdict(same, seen) is None  # two objects with no literal: unknown
    seen.values["java.util.Objects.equals(expectedPath, path)"] = ObservedValue("boolean", "boolean", "true")
    assert verdict(same, seen).status == HOLDS
    seen.values["java.util.Objects.equals(expectedPath, path)"] = ObservedValue("boolean", "boolean", "false")
    assert verdict(same, seen).status == FAILS


def test_why_a_test_was_not_observed() -> None:
    ran = TestObservation(completed=True)
    failed = TestObservation(error="a time limit (5 s) was reached")
    tried = FileObservation({3: ran, 9: failed}, ["classpath from fallback: 3 jars"])
    assert [tried.unobserved(line) for line in (3, 9, 12)] == [
        None,
        "a time limit (5 s) was reached",
        "not run",
    ]
    broken = FileObservation({}, ["values not observed: the test class does not compile here: line 2: x"])
    assert broken.unobserved(3) == "the test class does not compile here: line 2: x"
    assert FileObservation().unobserved(3) is None  # nothing was tried: static ranking
