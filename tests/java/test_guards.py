"""Opening guards read from the code under test, and which one a test's call trips."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from oracular.candidates.throws_conditions import condition_signals
from oracular.engine import FileAnalysis, OracleEngine
from oracular.java import syntax
from oracular.java.guard_calls import GuardVerdict, initialiser
from oracular.java.guard_expressions import expression
from oracular.java.guard_values import (
    NOTHING,
    UNKNOWN,
    NullDereference,
    Value,
    evaluate,
    number,
)
from oracular.java.guard_walk import GuardWalk, Opening, Tripped, bind
from oracular.java.guards import Check, Count, Each, Exit, Guard, Local, Unread, Use, opening_steps
from oracular.java.source import parse_text


def body_of(method: str):
    source = parse_text(f"class A {{\n{method}\n}}\n")
    node = next(
        n for n in syntax.walk(source.root) if n.type in ("method_declaration", "constructor_declaration")
    )
    return node.child_by_field_name("body")


def verdicts_of(engine: OracleEngine, analysis: FileAnalysis) -> dict[str, GuardVerdict | None]:
    """Each test's guard verdict, by the test's name."""
    return {s.test.name: engine.prefix_for(analysis, s).guard_verdict for s in analysis.statuses}


def thrown_by(verdicts: dict[str, GuardVerdict | None]) -> dict[str, str | None]:
    return {name: v.thrown if v is not None else None for name, v in verdicts.items()}


def value_of(text: str, **names: Value) -> Value:
    return evaluate(initialiser(text), lambda n: names.get(n, NOTHING), lambda _: NOTHING)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("-1", number(-1.0)),
        ("0x10L", number(16.0)),
        ("1.5e3", number(1500.0)),
        ("null", Value(null=True, primitive=False)),
        ('"abc"', Value(null=False, size=3, primitive=False, text="abc", type="String")),
        ("'\\u0000'", Value(number=0.0, null=False, primitive=True, type="char")),
        ("String.valueOf('-')", Value(null=False, size=1, primitive=False, text="-", type="String")),
        ('"a\\u0000\\n"', Value(null=False, size=3, primitive=False, text="a\0\n", type="String")),
        (
            "new double[] {1, 2}",
            Value(null=False, size=2, primitive=False, elements=(number(1.0), number(2.0)), type="double[]"),
        ),
        ("new double[] {1, 2}[1]", number(2.0)),
        ("new int[4]", Value(null=False, size=4, primitive=False, type="int[]")),
        ("new Sin()", Value(null=False, primitive=False)),
        ("Integer.MAX_VALUE", number(2**31 - 1)),
        ("(2 + 3) * 4", number(20.0)),
        ("FastMath.PI", number(math.pi)),
        ("FastMath.sqrt(2)", NOTHING),
    ],
)
def test_literal_values(text: str, value: Value) -> None:
    assert value_of(text) == value


def test_conditions_are_three_valued() -> None:
    n, x, s = number(0.0), Value(null=False, size=2), Value(null=True)
    assert value_of("n <= 0 || x.length != 3", n=NOTHING, x=x).truth is True  # one known side holds
    assert value_of("n <= 0 && x.length != 3", n=NOTHING, x=x).truth is None
    assert value_of("n > 0 && x.length != 3", n=n, x=x).truth is False
    assert value_of("s == null", s=s).truth is True
    assert value_of("x == null", x=x).truth is False
    assert value_of("s.isEmpty()", s=Value(null=False, size=0)).truth is True
    assert value_of("Double.isNaN(n)", n=number(math.nan)).truth is True
    assert value_of("FastMath.abs(n) > 1", n=number(-2.0)).truth is True
    assert value_of("n / 2", n=number(-1.0)).number is None  # int or double division: not known
    assert value_of("n / 2", n=Value(number=-1.0, primitive=True, type="double")).number == -0.5
    n, two = Value(number=-1.0, primitive=True, type="int"), Value(number=2.0, primitive=True, type="int")
    assert value_of("n / m", n=n, m=two).number == 0.0
    assert value_of("n / 2", n=number(4.0)).number == 2.0
    assert value_of("this.count > 0").truth is None  # a field: unknown
    p = value_of("new double[] {0, 1, -1}")
    assert value_of("p[2] <= 0", p=p).truth is True and value_of("p[3] <= 0", p=p).truth is None
    assert value_of("p[i] <= 0", p=p).truth is None


def test_an_opening_is_its_guards_checks_and_locals_up_to_other_work() -> None:
    body = body_of(
        "A(int n, double[] x) { this(n, 0);\n"
        " if (n <= 0) { throw new NotPositiveException(n); }\n"
        " else if (x == null) throw new NullArgumentException();\n"
        " MathUtils.checkNotNull(x); checkIndex(n); other.notify(n);\n"
        " final int k = x.length; n = 3;\n"
        " if (k != n) throw new DimensionMismatchException(k, n);\n"
        " for (double d : x) { if (d < 0) throw new NotPositiveException(d); }\n"
        " for (int i = 0; i < k; i++) { check(x[i]); }\n"
        " while (n > 0) { n--; }\n"
        " if (n > 9) throw new TooLargeException(); }"
    )
    n, x = ("name", "n"), ("name", "x")
    assert opening_steps(body) == (
        Check("this", "this", (n, ("num", 0.0))),
        Guard(("bin", "<=", n, ("num", 0.0)), "NotPositiveException"),
        Guard(("bin", "==", x, ("null",)), "NullArgumentException"),
        Check("checkNotNull", "MathUtils", (x,)),
        Check("checkIndex", None, (n,)),
        Use(("call", ("name", "other"))),
        Local("k", ("size", x)),
        Local("n", ("num", 3.0)),
        Guard(("bin", "!=", ("name", "k"), n), "DimensionMismatchException"),
        Each("d", x, (Guard(("bin", "<", ("name", "d"), ("num", 0.0)), "NotPositiveException"),)),
        Count(
            "i", ("num", 0.0), ("name", "k"), False, (Check("check", None, (("index", x, ("name", "i")),)),)
        ),
        Unread(),
    )  # loops with guards and checks are read; a while loop ends it, the guard after it is not read


@pytest.mark.parametrize(
    "method",
    [
        "void f(int n) { if (n < 0) { n = 0; } if (n > 3) throw new X(); }",  # an if doing other work
        "void f(int n) { if (n < 0) throw e; }",  # no type to read
        "void f(int n) { if (n < 0) return compute(n); if (n > 3) throw new X(); }",  # a return doing work
    ],
)
def test_an_if_that_is_no_guard_ends_the_opening(method: str) -> None:
    assert opening_steps(body_of(method)) == (Unread(),)  # with a throw ahead: nothing known past it


def test_an_opening_ends_quietly_where_nothing_ahead_throws() -> None:
    assert opening_steps(body_of("void f(int n) { for (int i = 0; i < n; i++) { sum += i; } }")) == ()
    checked = opening_steps(body_of("void f(double[] xs) { while (go) { checkFinite(xs[i++]); } }"))
    assert checked == (Unread(),)  # a check in a loop not read: what follows is not known to run
    summed = opening_steps(body_of("void f(int n) { for (int i = 0; i < n; i++) { s += i; } check(s); }"))
    assert summed == (Local("s", UNKNOWN), Check("check", None, (("name", "s"),)))  # a loop throwing nothing


def test_returns_exit_and_an_else_block_goes_on() -> None:
    """``MathArrays.checkEqualLength``: ``if (a.length == b.length) return true; else { if (abort)
    throw ...; return false; }``; a ``return`` still checks what it calls on the way."""
    a, b, abort = ("name", "a"), ("name", "b"), ("name", "abort")
    body = body_of(
        "boolean check(double[] a, double[] b, boolean abort) { if (a.length == b.length) { return true; }"
        " else { if (abort) { throw new MismatchException(); } return false; } }"
    )
    assert opening_steps(body) == (
        Exit(("bin", "==", ("size", a), ("size", b))),
        Guard(abort, "MismatchException"),
        Exit(("bool", True)),
    )
    body = body_of("int next(int lo, int hi) { return new Uniform(rng(), lo, hi).sample(); }")
    assert opening_steps(body) == (
        Check("rng", None, ()),
        Check("Uniform", "new", (UNKNOWN, ("name", "lo"), ("name", "hi"))),
        Exit(("bool", True)),
    )
    body = body_of(
        "F decay(double v, long n) { return new F() { private final Decay d = new Decay(v, n);"
        " public double value(double t) { return check(t); } }; }"
    )  # an anonymous class: its field initialiser runs when it is made, its methods do not
    assert opening_steps(body) == (
        Check("Decay", "new", (("name", "v"), ("name", "n"))),
        Exit(("bool", True)),
    )
    walk = GuardWalk(lambda *_: None, lambda *_: None)
    check = Opening("Arrays", opening_steps(body_of(
        "boolean check(double[] a, double[] b, boolean abort) { if (a.length == b.length) { return true; }"
        " else { if (abort) { throw new MismatchException(); } return false; } }"
    )), ["a", "b", "abort"])  # fmt: skip
    three, four = Value(null=False, size=3, primitive=False), Value(null=False, size=4, primitive=False)
    yes = Value(truth=True, null=False, primitive=True)
    assert walk.tripped(check, [three, four, yes]).thrown == "MismatchException"
    assert walk.tripped(check, [three, three, yes]) is None
    assert walk.tripped(check, [three, NOTHING, yes]) is None  # it may have returned


def test_a_walk_binds_arguments_follows_checks_and_stops_at_the_first_guard_that_trips() -> None:
    helper = Opening(
        "Utils", (Guard(("bin", "==", ("name", "o"), ("null",)), "NullArgumentException"),), ["o"]
    )
    sample = Opening(
        "Functions",
        (
            Check("checkNotNull", "Utils", (("name", "f"),)),
            Guard(("bin", "<=", ("name", "n"), ("field", "MIN")), "NotStrictlyPositiveException"),
            Guard(("bin", ">=", ("name", "lo"), ("name", "hi")), "NumberIsTooLargeException"),
        ),
        ["f", "lo", "hi", "n"],
    )
    walk = GuardWalk(
        lambda owner, check, values: helper if check.qualifier == "Utils" else None,
        lambda owner, name: ("num", 0.0) if (owner, name) == ("Functions", "MIN") else None,
    )

    fine = Value(null=False, primitive=False)
    tripped = walk.tripped(sample, [fine, number(3.14), number(0.0), number(10)])
    assert (tripped.thrown, tripped.certain, tripped.owner) == (
        "NumberIsTooLargeException",
        True,
        "Functions",
    )
    assert (
        walk.tripped(sample, [fine, number(0.0), number(1.0), number(-1)]).thrown
        == "NotStrictlyPositiveException"
    )
    assert walk.tripped(sample, [Value(null=True), number(0.0), number(1.0), number(-1)]).owner == "Utils"
    unknown_n = walk.tripped(sample, [fine, number(3.0), number(0.0), NOTHING])
    assert (unknown_n.thrown, unknown_n.certain) == ("NumberIsTooLargeException", False)
    assert walk.tripped(sample, [fine, number(0.0), number(1.0), number(5)]) is None


def test_a_varargs_parameter_is_what_is_left_unless_it_is_passed_an_array() -> None:
    assert bind(["p", "d"], [number(1.0), number(2.0), number(3.0)], varargs=True) == {
        "p": number(1.0),
        "d": Value(null=False, size=2, primitive=False, elements=(number(2.0), number(3.0))),
    }
    passed = [number(0.0), Value(null=True, primitive=False)]  # g.value(0, null)
    assert bind(["x", "param"], passed, varargs=True) == {"x": passed[0], "param": passed[1]}
    text = value_of('"a"')  # a string is one element of a String..., not the array
    assert bind(["names"], [text], varargs=True)["names"].elements == (text,)
    typed = bind(["xs", "n"], [value_of("new int[] {1}"), number(1.0)], types=["final double[]", "int"])
    assert typed["xs"].type == "int[]" and typed["n"].type == "int"  # what the value says first
    assert bind(["xs"], [Value(null=False, primitive=False)], types=["List<V>"])["xs"].type == "List"


def walked(method: str, *arguments: Value) -> str | None:
    """What a one-method class's opening throws for ``arguments``, its own calls resolved."""
    steps = opening_steps(body_of(method))
    params = [
        p.split()[-1] for p in method[method.index("(") + 1 : method.index(")")].split(",") if p.strip()
    ]
    tripped = GuardWalk(lambda *_: None, lambda *_: None).tripped(
        Opening("A", steps, params), list(arguments)
    )
    return tripped.thrown if tripped is not None else None


def test_dereferencing_null_throws_null_pointer_exception() -> None:
    """joptsimple's ``AbbreviationMap.put(null, "-1")``: no guard names ``null``, ``key.length()``
    dereferences it; ``&&`` and ``||`` only evaluate their right side where Java would."""
    null, text = Value(null=True, primitive=False), value_of('"-1"')
    put = (
        "void put(String key, V v) { if (v == null) throw new NPE(); if (key.length() == 0) throw new E(); }"
    )
    assert walked(put, null, text) == "NullPointerException"
    assert walked(put, text, null) == "NPE"
    assert walked("void f(String s) { s.trim(); if (true) throw new X(); }", null) == "NullPointerException"
    assert walked("void f(String s) { return s.toCharArray(); }", null) == "NullPointerException"
    guarded = "void f(String s) { if (s != null && s.isEmpty()) throw new X(); if (true) throw new Y(); }"
    assert walked(guarded, null) == "Y"
    assert (
        walked("void f(String s, int n) { if (n > 0 && s.isEmpty()) throw new X(); }", null, NOTHING) is None
    )
    with pytest.raises(NullDereference):
        value_of("s.length() > 0", s=null)
    assert value_of("s == null || s.length() > 0", s=null).truth is True


def test_strings_and_characters_are_compared_by_what_they_hold() -> None:
    """joptsimple's ``withValuesSeparatedBy``: ``if (separator == NIL_VALUE_SEPARATOR)`` with
    ``'\\u0000'``, and ``separator.indexOf(NIL_VALUE_SEPARATOR) != -1`` on a string."""
    assert value_of("s.indexOf('\\u0000') != -1", s=value_of('"::\\u0000::"')).truth is True
    assert value_of("s.indexOf(c) != -1", s=value_of('"::"'), c=number(0.0)).truth is False
    assert value_of('s.startsWith("-")', s=value_of('"-x"')).truth is True
    assert value_of("s.trim().isEmpty()", s=value_of('"  "')).truth is True
    assert value_of("s.charAt(1) == 'b'", s=value_of('"abc"')).truth is True
    assert value_of('s.equals("a")', s=NOTHING).truth is None


def test_loops_are_walked_on_the_elements_known() -> None:
    """commons-math3's ``MathArrays.checkPositive``: ``for (i = 0; i < in.length; i++) if (in[i]
    <= 0) throw ...``; a loop over what is not known makes what follows uncertain."""
    positive = (
        "void f(double[] in) { for (int i = 0; i < in.length; i++) { if (in[i] <= 0) throw new NSP(); } }"
    )
    assert walked(positive, value_of("new double[] {1, 2, 0}")) == "NSP"
    assert walked(positive, value_of("new double[] {1, 2}")) is None
    assert walked(positive, value_of("new double[3]")) is None  # elements unknown
    assert walked(positive, Value(null=True, primitive=False)) == "NullPointerException"
    each = (
        "void f(long[][] in) { for (long[] row : in) { for (long x : row) { if (x < 0) throw new NP(); } } }"
    )
    assert walked(each, value_of("new long[][] {{1, 2}, {3, -1}}")) == "NP"
    after = (
        "void f(double[] in, int n) { for (double x : in) { if (x < 0) throw new P(); }"
        " if (n < 0) throw new N(); }"
    )
    walk = GuardWalk(lambda *_: None, lambda *_: None)
    opening = Opening("A", opening_steps(body_of(after)), ["in", "n"])
    unknown = walk.tripped(opening, [NOTHING, number(-1.0)])
    assert unknown is not None and unknown.thrown == "N" and not unknown.certain
    known = walk.tripped(opening, [value_of("new double[] {1}"), number(-1.0)])
    assert known is not None and known.certain
    varargs = "void f(Integer... xs) { for (Integer x : xs) { requireNonNull(x); } }"
    assert opening_steps(body_of(varargs)) == (
        Each("x", ("name", "xs"), (Check("requireNonNull", None, (("name", "x"),)),)),
    )


def test_the_verdict_decides_the_condition_signal_over_the_javadoc() -> None:
    focal = {
        "class": "Gamma",
        "method": "f",
        "signature": "public static double f(double x)",
        "javadoc": "@throws TooSmallException if x < -0.5\n@throws TooLargeException if x > 1.5",
    }
    types = ["TooSmallException", "TooLargeException", "MathException", "OtherException"]
    assert condition_signals(focal, ["Gamma.f(2.0);"], types) == [-1.0, 1.0, 0.0, 0.0]
    verdict = GuardVerdict("TooSmallException", ("MathException",), certain=True)
    guarded = {**focal, "guards": verdict.to_json()}
    # the code wins; an ancestor is caught too, so neither; once certain, the others cannot come first
    assert condition_signals(guarded, ["Gamma.f(2.0);"], types) == [1.0, -1.0, 0.0, -1.0]
    unsure = {**focal, "guards": GuardVerdict("TooSmallException", (), certain=False).to_json()}
    assert condition_signals(unsure, ["Gamma.f(2.0);"], types) == [1.0, 1.0, 0.0, 0.0]
    assert GuardVerdict.from_json(verdict.to_json()) == verdict
    # the file's tests expect the ancestor, never the thrown type: they would name the ancestor
    habit = GuardVerdict("TooSmallException", ("MathException",), certain=True, habit="MathException")
    assert [habit.signal(t) for t in types] == [0.0, -1.0, 1.0, -1.0] and habit.named == "MathException"
    assert GuardVerdict.from_json(habit.to_json()) == habit


def test_unknown_expressions_stay_unknown() -> None:
    assert expression(None) == UNKNOWN
    assert initialiser("compute(3)") == UNKNOWN
    assert value_of("compute(3) > 1").truth is None


def test_the_prefix_trips_the_guards_of_the_workspace_code(tmp_path: Path) -> None:
    """commons-math3's ``FunctionUtils.sample``: which bound a test gets wrong says the type, through
    a constructor's delegation, a utility class's check, a class constant and the prefix's locals."""
    from .test_targets import analysed_workspace

    def exception(name: str, parent: str, package: str = "app") -> str:
        return f"package org.example.{package};\npublic class {name} extends {parent} {{}}\n"

    def test(name: str, body: str) -> str:
        return f" @org.junit.jupiter.api.Test\n void {name}() {{\n  {body}\n }}\n"

    files = {
        "Checks.java": "package org.example.util;\npublic final class Checks {\n public static void"
        " checkNotNull(Object o) { if (o == null) { throw new NullArgumentException(); } }\n}\n",
        "NullArgumentException.java": exception("NullArgumentException", "IllegalArgumentException", "util"),
        "MathException.java": exception("MathException", "RuntimeException"),
        "TooLargeException.java": exception("TooLargeException", "MathException"),
        "NotPositiveException.java": exception("NotPositiveException", "MathException"),
        "Functions.java": "package org.example.app;\nimport org.example.util.Checks;\n"
        "public class Functions {\n private static final int MIN_POINTS = 2;\n"
        " public static double[] sample(Object f, double min, double max, int n) {\n"
        "  Checks.checkNotNull(f);\n"
        "  if (n < MIN_POINTS) { throw new NotPositiveException(); }\n"
        "  if (min >= max) { throw new TooLargeException(); }\n"
        "  return new double[n];\n }\n"
        " public Functions(int n) { this(n, 1.0); }\n"
        " public Functions(int n, double step) { if (step <= 0) throw new NotPositiveException();\n"
        "  if (n > 10) throw new TooLargeException(); }\n}\n",
        "FunctionsTest.java": "package org.example.app;\nclass FunctionsTest {\n"
        + test("bounds", "Functions.sample(new Object(), 3.0, 0.0, 10);")
        + test("points", "int n = 1;\n  Functions.sample(new Object(), 0.0, 1.0, n);")
        + test("none", "Functions.sample(null, 0.0, 1.0, 5);")
        + test("unknown", 'Functions.sample(new Object(), 3.0, 0.0, Integer.parseInt("9"));')
        + test("passes", "Functions.sample(new Object(), 0.0, 1.0, 9);")
        + test("delegated", "new Functions(11);")
        + "}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "FunctionsTest.java")
    prefixes = {s.test.name: engine.prefix_for(analysis, s) for s in analysis.statuses}
    verdicts = {name: p.guard_verdict for name, p in prefixes.items()}
    ancestors = ("MathException", "RuntimeException")  # to the JDK class the hierarchy extends
    assert verdicts == {
        "bounds": GuardVerdict("TooLargeException", ancestors, True),
        "points": GuardVerdict("NotPositiveException", ancestors, True),
        "none": GuardVerdict("NullArgumentException", ("IllegalArgumentException",), True),
        "unknown": GuardVerdict("TooLargeException", ancestors, False),
        "passes": None,
        "delegated": GuardVerdict("TooLargeException", ancestors, True),
    }
    # the tripped type is offered first, even where the focal method does not declare it
    assert prefixes["none"].exception_types()[0] == "NullArgumentException"
    # only the code under test has its openings read: a test's are never walked
    functions, test_class = engine.index.resolve("Functions"), engine.index.resolve("FunctionsTest")
    assert functions is not None and all(m.opening for m in functions.methods)
    assert test_class is not None and test_class.is_test and not any(m.opening for m in test_class.methods)


def test_library_null_checks_throw_what_the_library_throws(tmp_path: Path) -> None:
    """commons-csv: ``Objects.requireNonNull(reader, "reader")`` throws ``NullPointerException``,
    and a static import of it is as good; a same-named method of the workspace wins."""
    from .test_targets import analysed_workspace

    files = {
        "Parser.java": "package org.example.app;\nimport java.util.Objects;\n"
        "import static com.google.common.base.Preconditions.checkArgument;\npublic class Parser {\n"
        ' public Parser(Object reader, int limit) { Objects.requireNonNull(reader, "reader");\n'
        '  checkArgument(limit > 0, "limit"); }\n'
        " public static void parse(Object o) { checkNotNull(o); }\n"
        " private static void checkNotNull(Object o) { if (o == null) throw new MissingException(); }\n}\n",
        "MissingException.java": "package org.example.app;\n"
        "public class MissingException extends RuntimeException {}\n",
        "ParserTest.java": "package org.example.app;\nclass ParserTest {\n"
        " @org.junit.jupiter.api.Test\n void noReader() {\n  new Parser(null, 1);\n }\n"
        " @org.junit.jupiter.api.Test\n void noLimit() {\n  new Parser(new Object(), 0);\n }\n"
        " @org.junit.jupiter.api.Test\n void own() {\n  Parser.parse(null);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "ParserTest.java")
    thrown = {s.test.name: engine.prefix_for(analysis, s).guard_verdict.thrown for s in analysis.statuses}
    assert thrown == {
        "noReader": "NullPointerException",
        "noLimit": "IllegalArgumentException",
        "own": "MissingException",
    }


def test_a_receiver_built_in_the_prefix_brings_its_class_and_fields(tmp_path: Path) -> None:
    """commons-math3's ``LogitTest``: ``UnivariateFunction f = new Logit(lo, hi); f.value(lo - 1)``
    trips ``value``'s range guard on the fields the constructor stored; a check in a ``for`` loop
    runs on each element known, one in a loop the reading stops at (``while``) leaves what
    follows it unknown."""
    from .test_targets import analysed_workspace

    files = {
        "Function.java": "package org.example.app;\npublic interface Function { double value(double x); }\n",
        "OutOfRangeException.java": "package org.example.app;\n"
        "public class OutOfRangeException extends IllegalArgumentException {}\n",
        "Logit.java": "package org.example.app;\npublic class Logit implements Function {\n"
        " private final double lo; private final double hi;\n"
        " public Logit(double lo, double hi) { this.lo = lo; this.hi = hi; }\n"
        " public double value(double x) { if (x < lo || x > hi) { throw new OutOfRangeException(); }"
        " return x; }\n"
        " public double smooth(double[] xs) { for (double x : xs) { checkFinite(x); }\n"
        "  if (xs.length < 3) { throw new OutOfRangeException(); } return 0; }\n"
        " public double sweep(double[] xs) { int i = 0; while (i < xs.length) { checkFinite(xs[i++]); }\n"
        "  if (xs.length < 3) { throw new OutOfRangeException(); } return 0; }\n"
        " static void checkFinite(double x) {}\n}\n",
        "LogitTest.java": "package org.example.app;\nclass LogitTest {\n"
        " @org.junit.jupiter.api.Test\n void below() {\n  final double lo = 2, hi = 5;\n"
        "  final Function f = new Logit(lo, hi);\n  f.value(lo - 1);\n }\n"
        " @org.junit.jupiter.api.Test\n void inside() {\n  new Logit(2, 5).value(3);\n }\n"
        " @org.junit.jupiter.api.Test\n void set() {\n  Logit f = new Logit(2, 5);\n  f = other();\n"
        "  f.value(1);\n }\n"
        " @org.junit.jupiter.api.Test\n void loop() {\n  new Logit(2, 5).smooth(new double[] {1});\n }\n"
        " @org.junit.jupiter.api.Test\n void unread() {\n  new Logit(2, 5).sweep(new double[] {1});\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "LogitTest.java")
    verdicts = verdicts_of(engine, analysis)
    assert verdicts["below"] is not None and verdicts["below"].thrown == "OutOfRangeException"
    assert verdicts["loop"] is not None and verdicts["loop"].thrown == "OutOfRangeException"
    assert verdicts == {**verdicts, "inside": None, "set": None, "unread": None}


def test_list_factories_empty_collections_and_the_test_classs_constants_are_values(tmp_path: Path) -> None:
    """commons-math3's ``KMeansPlusPlusClustererTest``: ``cluster(Arrays.asList(points))`` with
    fewer points than clusters; ``HermiteInterpolatorTest``: an interpolator given no sample; a
    test class's constant as an argument."""
    from .test_targets import analysed_workspace

    assert value_of("Arrays.asList(new int[] {1, 2, 3})").size == 3
    assert value_of("Arrays.asList(1.0)").size == 1 and value_of("List.of(1, 2)").size == 2
    assert value_of("new ArrayList<>()").size == 0 and value_of("new ArrayList<>(other)").size is None
    assert value_of("Collections.emptyList()").size == 0
    files = {
        "TooSmallException.java": "package org.example.app;\n"
        "public class TooSmallException extends IllegalArgumentException {}\n",
        "Clusterer.java": "package org.example.app;\nimport java.util.List;\npublic class Clusterer {\n"
        " private final int k;\n public Clusterer(int k) { this.k = k; }\n"
        " public void cluster(List<Object> points) {\n"
        "  if (points.size() < k) { throw new TooSmallException(); }\n }\n}\n",
        "ClustererTest.java": "package org.example.app;\nimport java.util.*;\nclass ClustererTest {\n"
        " private static final int CLUSTERS = 3;\n"
        " @org.junit.jupiter.api.Test\n void few() {\n  Object[] points = {1, 2};\n"
        "  Clusterer c = new Clusterer(CLUSTERS);\n  c.cluster(Arrays.asList(points));\n }\n"
        " @org.junit.jupiter.api.Test\n void none() {\n  new Clusterer(1).cluster(new ArrayList<>());\n }\n"
        " @org.junit.jupiter.api.Test\n void filled() {\n  List<Object> xs = new ArrayList<>();\n"
        "  xs.add(1);\n  new Clusterer(1).cluster(xs);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "ClustererTest.java")
    thrown = verdicts_of(engine, analysis)
    assert thrown["few"] is not None and thrown["few"].thrown == "TooSmallException"
    assert thrown["none"] is not None and thrown["none"].thrown == "TooSmallException"
    assert thrown["filled"] is None  # filled by the prefix: its size is no longer known


def test_static_imports_overloads_by_array_type_and_null_dereferences(tmp_path: Path) -> None:
    """joptsimple's ``OptionParser.accepts(option)``: ``acceptsAll(singletonList(option))`` ->
    ``ensureLegalOptions`` (imported statically) -> a loop -> ``option.startsWith(HYPHEN)`` (a
    constant made of another, ``String.valueOf(HYPHEN_CHAR)``), which
    throws ``NullPointerException`` for ``null``; commons-math3's ``checkEqualLength`` has a
    ``double[]`` and an ``int[]`` overload; ``GammaDistribution`` a ``(double, double, double)``
    and a ``(RandomGenerator, double, double)`` constructor."""
    from .test_targets import analysed_workspace

    files = {
        "Rules.java": "package org.example.app;\nimport java.util.List;\nfinal class Rules {\n"
        " static final char HYPHEN_CHAR = '-';\n static final String HYPHEN = String.valueOf(HYPHEN_CHAR);\n"
        " static void ensureLegal(String option) {\n"
        "  if (option.startsWith(HYPHEN)) throw new IllegalSpecException(option);\n }\n"
        " static void ensureAll(List<String> options) { for (String each : options) ensureLegal(each); }\n"
        " static void same(double[] a, double[] b) { if (a.length != b.length) throw new DMismatch(); }\n"
        " static void same(int[] a, int[] b) { if (a.length != b.length) throw new IMismatch(); }\n"
        " static void names(String... all) { for (String n : all) { if (n.isEmpty()) throw new Empty(); } }\n"
        " static void names(int[] all) { }\n}\n",
        "Parser.java": "package org.example.app;\nimport java.util.List;\n"
        "import static org.example.app.Rules.*;\nimport static java.util.Collections.singletonList;\n"
        "public class Parser {\n public void accepts(String option) { acceptsAll(singletonList(option)); }\n"
        " public void acceptsAll(List<String> options) {\n"
        "  if (options.isEmpty()) throw new IllegalArgumentException();\n  ensureAll(options);\n }\n"
        " public void lengths(int[] a, int[] b) { same(a, b); }\n"
        " public void named(String name) { names(name); }\n}\n",
        "Gamma.java": "package org.example.app;\npublic class Gamma {\n"
        " public Gamma(double shape) { this(shape / 2, 2, 1e-9); }\n"
        " public Gamma(double shape, double scale, double accuracy) {\n"
        "  if (shape <= 0) throw new NotPositiveException(shape);\n }\n"
        " public Gamma(Random rng, double shape, double scale) { }\n}\n",
        "ParserTest.java": "package org.example.app;\nclass ParserTest {\n"
        ' @org.junit.jupiter.api.Test\n void hyphen() {\n  new Parser().accepts("-x");\n }\n'
        ' @org.junit.jupiter.api.Test\n void plain() {\n  new Parser().accepts("x");\n }\n'
        " @org.junit.jupiter.api.Test\n void nothing() {\n  new Parser().accepts(null);\n }\n"
        " @org.junit.jupiter.api.Test\n void noList() {\n  new Parser().acceptsAll(null);\n }\n"
        " @org.junit.jupiter.api.Test\n void ints() {\n  new Parser().lengths(new int[1], new int[2]);\n }\n"
        ' @org.junit.jupiter.api.Test\n void empty() {\n  new Parser().named("");\n }\n'
        " @org.junit.jupiter.api.Test\n void shape() {\n  new Gamma(-1.0);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "ParserTest.java")
    verdicts = verdicts_of(engine, analysis)
    thrown = thrown_by(verdicts)
    assert thrown == {
        "hyphen": "IllegalSpecException",
        "plain": None,
        "nothing": "NullPointerException",
        "noList": "NullPointerException",
        "ints": "IMismatch",
        "empty": "Empty",  # a string is one element of String..., never an int[]
        "shape": "NotPositiveException",
    }


def test_a_conditional_evaluates_one_side_and_a_delegations_arguments_check_first() -> None:
    """commons-math3's ``PSquarePercentile.Markers(initialFive, p)``: ``this(createMarkerArray(
    initialFive, p))``, which counts ``initialFive == null ? -1 : initialFive.size()``."""
    body = body_of("A(List<Double> five, double p) { this(make(five, p)); }")
    assert opening_steps(body) == (
        Check("make", None, (("name", "five"), ("name", "p"))),
        Check("this", "this", (UNKNOWN,)),
    )
    make = "int make(List<Double> l) { final int c = l == null ? -1 : l.size(); if (c < 5) throw new Few(); }"
    assert walked(make, Value(null=True, primitive=False)) == "Few"  # not a NullPointerException
    assert walked(make, value_of("List.of(1, 2, 3, 4, 5)")) is None
    assert walked(make, NOTHING) is None


def test_an_abstract_call_throws_what_all_its_implementations_throw(tmp_path: Path) -> None:
    """commons-math3's ``BinomialConfidenceIntervalAbstractTest``: ``testStatistic`` is an
    interface, and each of its implementations opens with the same ``checkParameters``; a
    receiver assigned a ``new`` object is that class (``solver = new ConjugateGradient(...)``)."""
    from .test_targets import analysed_workspace

    check = "  Checks.positive(n);\n"
    files = {
        "Checks.java": "package org.example.app;\nclass Checks {\n"
        " static void positive(int n) { if (n <= 0) throw new NotPositive(); }\n}\n",
        "Interval.java": "package org.example.app;\npublic interface Interval { void create(int n); }\n",
        "Wilson.java": "package org.example.app;\npublic class Wilson implements Interval {\n"
        f" public void create(int n) {{\n{check} }}\n}}\n",
        "Normal.java": "package org.example.app;\npublic class Normal implements Interval {\n"
        f" public void create(int n) {{\n{check}  if (n > 9) throw new Large();\n }}\n}}\n",
        "Loose.java": "package org.example.app;\npublic abstract class Loose implements Interval {\n"
        " public abstract void other();\n}\n",
        "Solver.java": "package org.example.app;\npublic abstract class Solver {\n"
        " abstract void solve(int n);\n}\n",
        "Exact.java": "package org.example.app;\npublic class Exact extends Solver {\n"
        " void solve(int n) { if (n < 0) throw new Negative(); }\n}\n",
        "Rough.java": "package org.example.app;\npublic class Rough extends Solver {\n"
        " void solve(int n) { }\n}\n",
        "IntervalTest.java": "package org.example.app;\nclass IntervalTest {\n"
        " private Interval interval;\n private Solver solver;\n"
        " @org.junit.jupiter.api.Test\n void zero() {\n  interval.create(0);\n }\n"
        " @org.junit.jupiter.api.Test\n void large() {\n  interval.create(10);\n }\n"
        " @org.junit.jupiter.api.Test\n void any() {\n  solver.solve(-1);\n }\n"
        " @org.junit.jupiter.api.Test\n void built() {\n  solver = new Exact();\n"
        "  solver.solve(-1);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "IntervalTest.java")
    index = engine.index
    interval = index.resolve("Interval", "org.example.app")
    assert interval is not None
    assert {c.name for c in index.subtypes(interval)} == {"Wilson", "Normal", "Loose"}
    verdicts = verdicts_of(engine, analysis)
    thrown = thrown_by(verdicts)
    # large: one implementation passes, the other throws; any: one of two throws
    assert thrown == {"zero": "NotPositive", "large": None, "any": None, "built": "Negative"}
    assert verdicts["zero"] is not None and verdicts["zero"].certain


def test_overloads_the_arguments_do_not_tell_apart_are_walked_each() -> None:
    """``FastMath.min(len, source.length)``: four overloads, none throwing; where they differ,
    nothing past the call is known."""
    from oracular.java.guard_walk import Alternatives

    passes = Opening("A", (Exit(("bool", True)),), ["a", "b"])
    throws = Opening("A", (Guard(("bin", "<", ("name", "a"), ("num", 0.0)), "Negative"),), ["a", "b"])
    other = Opening("A", (Guard(("bin", "<", ("name", "a"), ("num", 0.0)), "Other"),), ["a", "b"])
    caller = Opening(
        "A", (Check("min", None, (("name", "n"), ("num", 1.0))), Guard(("bool", True), "After")), ["n"]
    )

    def walk(*alternatives: Opening) -> Tripped | None:
        return GuardWalk(lambda *_: Alternatives(alternatives), lambda *_: None).tripped(
            caller, [number(-1.0)]
        )

    assert walk(passes, passes).thrown == "After"  # both pass: what follows is walked
    assert walk(throws, throws).thrown == "Negative"
    assert walk(passes, throws) is None and walk(throws, other) is None


def test_a_test_classs_own_helper_is_walked_up_to_its_work(tmp_path: Path) -> None:
    """commons-math3's ``MultivariateNormalMixtureModelDistributionTest.create(weights, ...)``
    builds the distribution under test; ``CMAESOptimizerTest.doTest`` runs the optimiser (an
    unknown call), then asserts on a result it sets to ``null`` in the test: not walked past the
    call. ``createRegression().newSampleData(...)``: the helper's return type is the receiver's."""
    from .test_targets import analysed_workspace

    files = {
        "Mixture.java": "package org.example.app;\npublic class Mixture {\n"
        " public Mixture(double[] weights) {\n"
        "  for (double w : weights) { if (w < 0) throw new NotPositive(); }\n }\n"
        " public void fit(double[] data) { if (data == null) throw new NullArgument(); }\n}\n",
        "MixtureTest.java": "package org.example.app;\nclass MixtureTest {\n"
        " private Mixture create(double[] weights) {\n  return new Mixture(weights);\n }\n"
        " private void run(double[] weights, Object expected) {\n  Mixture m = new Mixture(weights);\n"
        "  m.fit(new double[1]);\n  expected.hashCode();\n }\n"
        " @org.junit.jupiter.api.Test\n void negative() {\n  create(new double[] {1, -1});\n }\n"
        " @org.junit.jupiter.api.Test\n void positive() {\n  run(new double[] {1}, null);\n }\n"
        " @org.junit.jupiter.api.Test\n void unfit() {\n  create(new double[] {1}).fit(null);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "MixtureTest.java")
    verdicts = verdicts_of(engine, analysis)
    thrown = thrown_by(verdicts)
    assert thrown == {"negative": "NotPositive", "positive": None, "unfit": "NullArgument"}
    unfit = next(s for s in analysis.statuses if s.test.name == "unfit")
    focal = engine.prefix_for(analysis, unfit).focal
    assert focal is not None and (focal.cls.name, focal.method.name) == ("Mixture", "fit")


def test_the_file_names_the_ancestor_only_where_it_never_names_the_thrown_type(tmp_path: Path) -> None:
    """Of the 8 dev projects' cut throwing tests with a verdict whose ancestor the file's other
    tests expect, the developer named the ancestor 37 times of 45 where the file never names
    the thrown type, and the thrown type 42 times of 44 where it does."""
    from .test_targets import analysed_workspace

    test = (
        "package org.example.app;\nimport org.junit.Test;\nclass {name} {{\n"
        " @Test(expected = {other}.class)\n public void other() {{\n  Gamma.f(-2);\n }}\n"
        " @Test(expected = MathException.class)\n public void broad() {{\n  Gamma.f(-3);\n }}\n"
        " @Test\n public void cut() {{\n  Gamma.f(-1);\n }}\n}}\n"
    )
    files = {
        "MathException.java": "package org.example.app;\n"
        "public class MathException extends RuntimeException {}\n",
        "TooSmall.java": "package org.example.app;\npublic class TooSmall extends MathException {}\n",
        "Gamma.java": "package org.example.app;\npublic class Gamma {\n"
        " public static double f(double x) { if (x < 0) throw new TooSmall(); return x; }\n}\n",
        "BroadTest.java": test.format(name="BroadTest", other="MathException"),
        "NamedTest.java": test.format(name="NamedTest", other="TooSmall"),
    }
    for name, named in (("BroadTest", "MathException"), ("NamedTest", "TooSmall")):
        engine, analysis = analysed_workspace(tmp_path, files, f"{name}.java")
        cut = next(s for s in analysis.statuses if s.test.name == "cut")
        prefix = engine.prefix_for(analysis, cut)
        verdict = prefix.guard_verdict
        assert verdict is not None and verdict.thrown == "TooSmall" and verdict.named == named
        assert prefix.exception_types()[0].rsplit(".", 1)[-1] == named
