"""Type inference, target selection and focal-method choice over real prefixes."""

import dataclasses
from pathlib import Path

import pytest

from oracular.engine import OracleEngine
from oracular.java import syntax
from oracular.java.declarations import extract
from oracular.java.junit import find_test_methods
from oracular.java.prefix import (
    NULL_ARGUMENT_TYPES,
    FocalMethod,
    analyse_prefix,
    by_habit,
    focal_name_for,
    passes_null,
)
from oracular.java.types import TypeEnv, split_generic, substitute

from ..conftest import fixture_source, java


def prefix_of(engine: OracleEngine, source, name: str):
    decls = extract(source)
    test = next(t for t in find_test_methods(source, decls.imports) if t.name == name)
    env = TypeEnv(engine.index, decls.package, decls.imports)
    return analyse_prefix(test.node, env, test.class_name)


@pytest.mark.parametrize(
    ("test", "expression", "type_", "kind"),
    [
        ("lastIsLocalDeclaration", "n", "int", "variable"),
        ("lastIsVarDeclaration", "top", "Integer", "variable"),
        ("lastIsBareNonVoidCall", "s.peek()", "Integer", "call"),
        ("lastIsVoidCall", "s.isEmpty()", "boolean", "observer"),
        ("lastIsAssignment", "x", "int", "variable"),
        ("lastIsDouble", "d", "double", "variable"),
        ("lastIsString", "t", "String", "variable"),
        ("lastIsArray", "arr", "int[]", "variable"),
        ("lastIsBooleanComparison", "b", "boolean", "variable"),
        ("lastIsLong", "big", "long", "variable"),
        ("lastIsChar", "c", "char", "variable"),
    ],
)
def test_target_selection(engine: OracleEngine, test: str, expression: str, type_: str, kind: str) -> None:
    prefix = prefix_of(engine, fixture_source("TargetsTest.java"), test)
    target = prefix.targets[0]
    assert (target.expression, target.type, target.kind) == (expression, type_, kind)
    assert prefix.replace_last == (kind == "call")


def test_void_call_targets_all_observers(engine: OracleEngine) -> None:
    prefix = prefix_of(engine, fixture_source("TargetsTest.java"), "lastIsVoidCall")
    # the receiver's observers first, then the receiver itself and its other calls with a value
    assert [(t.expression, t.type) for t in prefix.targets] == [
        ("s.isEmpty()", "boolean"), ("s.size()", "int"), ("s", "Stack<Integer>"),
        ("s.pop()", "Integer"), ("s.peek()", "Integer"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("var v = 1 + 2L;", "long"),
        ("var v = 1 / 2.0;", "double"),
        ('var v = "a" + 1;', "String"),
        ("var v = !flag;", "boolean"),
        ("var v = (short) 3;", "short"),
        ("var v = names.get(0);", "String"),
        ('var v = counts.get("a");', "Integer"),
        ("var v = names.size();", "int"),
        ("var v = names.isEmpty();", "boolean"),
        ('var v = "abc".charAt(1);', "char"),
        ("var v = arr[0];", "long"),
        ("var v = arr.length;", "int"),
        ("var v = flag ? 1 : 2;", "int"),
        ("var v = stack.pop();", "Integer"),
        ("var v = new Stack<String>();", "Stack<String>"),
        ("var v = -7;", "int"),
    ],
)
def test_type_inference(engine: OracleEngine, statement: str, expected: str) -> None:
    source = java(
        f"""
        import java.util.*;
        import org.example.stack.Stack;
        import org.junit.jupiter.api.Test;
        class InferTest {{
            @Test void t(boolean flag) {{
                List<String> names = new ArrayList<>();
                Map<String, Integer> counts = new HashMap<>();
                long[] arr = new long[2];
                Stack<Integer> stack = new Stack<>();
                {statement}
            }}
        }}
        """
    )
    assert prefix_of(engine, source, "t").targets[0].type == expected


def test_focal_prefers_class_named_by_test(engine: OracleEngine) -> None:
    source = java(
        """
        package org.example.stack;
        import org.junit.jupiter.api.Test;
        class StackTest {
            @Test void t() {
                Stack<Integer> s = new Stack<>();
                s.push(1);
                BoundedCounter c = new BoundedCounter(2);
                c.increment();
            }
        }
        """
    )
    focal = prefix_of(engine, source, "t").focal
    assert (focal.cls.name, focal.name) == ("Stack", "push")


def test_focal_is_the_last_call_made_on_the_class_under_test_even_where_a_superclass_declares_it(
    tmp_path: Path,
) -> None:
    """commons-math3: ``new SimpsonIntegrator().integrate(...)`` calls what the abstract
    ``BaseIntegrator`` declares; the focal is ``integrate``, not the constructor run before it."""
    from .test_targets import analysed_workspace

    files = {
        "BaseIntegrator.java": "package org.example.app;\npublic abstract class BaseIntegrator {\n"
        " /** @throws IllegalStateException if lower > upper */\n"
        " public double integrate(int max, double lower, double upper) { return 0; }\n}\n",
        "Simpson.java": "package org.example.app;\npublic class Simpson extends BaseIntegrator {\n"
        " public Simpson() {}\n}\n",
        "SimpsonTest.java": "package org.example.app;\nclass SimpsonTest {\n"
        " @org.junit.jupiter.api.Test\n void chained() {\n  new Simpson().integrate(10, 1, -1);\n }\n"
        " @org.junit.jupiter.api.Test\n void local() {\n"
        "  Simpson s = new Simpson();\n  s.integrate(10, 1, -1);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "SimpsonTest.java")
    for status in analysis.statuses:
        focal = engine.prefix_for(analysis, status).focal
        assert (focal.cls.name, focal.name) == ("BaseIntegrator", "integrate"), status.test.name


def test_focal_constructor_and_static(engine: OracleEngine) -> None:
    source = java(
        """
        package org.example.stack;
        import org.junit.jupiter.api.Test;
        class MiscTest {
            @Test void ctor() { new BoundedCounter(-1); }
            @Test void stat() { String r = TextUtils.reverse("abc"); }
        }
        """
    )
    ctor = prefix_of(engine, source, "ctor").focal
    assert ctor.method.is_constructor and ctor.name == "BoundedCounter"
    assert ctor.method.exception_types() == ["IllegalArgumentException"]
    stat = prefix_of(engine, source, "stat").focal
    assert (stat.cls.name, stat.name, stat.signature) == (
        "TextUtils",
        "reverse",
        "public static String reverse(String s)",
    )


def test_generics_helpers() -> None:
    assert split_generic("Map<String, List<Integer>>") == ("Map", ["String", "List<Integer>"])
    assert substitute("List<T>", {"T": "Integer"}) == "List<Integer>"
    assert focal_name_for("StackTest") == "Stack" and focal_name_for("TestStack") == "Stack"
    assert focal_name_for("Outer.FooTests") == "Foo"


def test_empty_body_has_no_prefix(engine: OracleEngine) -> None:
    source = java("import org.junit.jupiter.api.Test;\nclass E { @Test void t() { } }")
    assert prefix_of(engine, source, "t") is None
    report = engine.suggest(source)
    assert report.tests[0].abstained and report.tests[0].reason == "the test body is empty"


def test_a_focal_call_may_throw_what_its_class_helpers_throw() -> None:
    source = java(
        """
        class Buffer {
            /** @throws IllegalStateException when closed */
            public int read(int i) throws java.io.IOException {
                requireOpen();
                return at(i);
            }
            private int at(int i) { checkIndex(i); return 0; }
            private void checkIndex(int i) { if (i < 0) throw new IndexOutOfBoundsException(); }
            private void requireOpen() { if (closed) throw new IllegalStateException(); }
            private void unrelated() { throw new UnsupportedOperationException(); }
            private void deeper() { throw new ArithmeticException(); }
        }
        """
    )
    cls = extract(source).classes[0]
    read = next(m for m in cls.methods if m.name == "read")
    focal = FocalMethod(cls, read, call=source.root, statement_index=0, receiver=None)
    # Javadoc and clause first, then the helpers' throws (two calls deep), each type once.
    assert focal.exception_types() == [
        "IllegalStateException",
        "java.io.IOException",
        "IndexOutOfBoundsException",
    ]


@pytest.mark.parametrize(
    ("statement", "passes"),
    [
        ("s.push(null);", True),
        ("new Parser((Reader) null, format);", True),
        ("Parser p = Parser.parse(file, ((Charset) null));", True),
        ("s.push(x == null ? 1 : 2);", False),
        ("String t = null;", False),
        ('s.push("null");', False),
        ("s.push(nullValue);", False),
    ],
)
def test_a_null_argument_is_a_literal_null_passed_to_a_call(statement: str, passes: bool) -> None:
    source = java(f"class T {{ void t() {{ {statement} }} }}")
    body = next(n for n in syntax.walk(source.root) if n.type == "block")
    assert passes_null(syntax.statements(body)[0]) is passes


def test_a_prefix_passing_null_may_throw_what_a_null_guard_throws(engine: OracleEngine) -> None:
    source = java(
        """
        package org.example.stack;
        import org.junit.jupiter.api.Test;
        class GuardTest {
            @Test void pushNull() { Stack<String> s = new Stack<>(-1); }
            @Test void reverseNull() { TextUtils.reverse(null); }
            @Test void stackOfNull() { Stack<String> s = new Stack<>(); s.push(null); }
        }
        """
    )
    documented, reverse, pushed = (
        prefix_of(engine, source, name) for name in ("pushNull", "reverseNull", "stackOfNull")
    )
    assert documented.exception_types() == ["IllegalArgumentException"]
    # the documented type first, then the null guard's types, each once
    assert reverse.exception_types() == ["NullPointerException", "IllegalArgumentException"]
    assert pushed.exception_types() == list(NULL_ARGUMENT_TYPES)
    status = next(s for s in engine.analyse(source).statuses if s.test.name == "stackOfNull")
    exceptions = [c.exception for c in engine.candidates_for(pushed, status) if c.kind == "exception"]
    assert exceptions == list(NULL_ARGUMENT_TYPES)


def test_the_other_workspace_calls_of_the_wrapped_statement_add_their_types(engine: OracleEngine) -> None:
    source = java(
        """
        package org.example.stack;
        import org.junit.jupiter.api.Test;
        class StackTest {
            @Test void pushReversed() { Stack<String> s = new Stack<>(); s.push(TextUtils.reverse("ab")); }
        }
        """
    )
    prefix = prefix_of(engine, source, "pushReversed")
    assert prefix.focal is not None and prefix.focal.name == "push"  # the class under test's call
    assert prefix.exception_types() == ["NullPointerException"]  # documented by TextUtils.reverse


@pytest.mark.parametrize(
    ("body", "action", "declared"),
    [
        # the focal call changes the stack; the read after it is no action
        ('Stack<String> s = new Stack<>(); s.push("x"); boolean e = s.isEmpty();', 1, {"e"}),
        # the last statement is the asserted value itself (the oracle wraps it)
        ('Stack<String> s = new Stack<>(); s.push("x"); s.size();', 1, set()),
        # a value the action returns is declared by it
        ("Stack<Integer> s = new Stack<>(); s.push(1); int top = s.pop();", 2, {"top"}),
        # nothing but reads
        ("new Stack<Integer>().size();", None, set()),
    ],
)
def test_the_action_is_the_last_statement_that_is_no_read(
    engine: OracleEngine, body: str, action: int | None, declared: set[str]
) -> None:
    from .test_targets import analysed

    prefix = analysed(engine, body)
    assert prefix.action == action
    if action is not None:
        assert prefix.declared_from(action) == declared


def test_exception_types_add_the_thrown_types_ancestors_and_the_files_habit_first(tmp_path: Path) -> None:
    """commons-math3: ``checkPositive`` throws ``NotPositiveException``, its tests expect
    ``MathIllegalArgumentException``; the file's other tests say which."""
    from .test_targets import analysed_workspace

    files = {
        "WrongInputException.java": "package org.example.app;\n"
        "public class WrongInputException extends IllegalArgumentException {}\n",
        "NotPositiveException.java": "package org.example.app;\n"
        "public class NotPositiveException extends WrongInputException {}\n",
        "Failure.java": "package org.example.app;\npublic class Failure extends RuntimeException {}\n",
        "Unit.java": "package org.example.app;\npublic class Unit {\n"
        " public void set(int x) { if (x < 0) throw new NotPositiveException(); }\n"
        " public void run() { throw new Failure(); }\n}\n",
        "BeanTest.java": "package org.example.app;\nimport static org.junit.jupiter.api.Assertions.*;\n"
        "class BeanTest {\n"
        " @org.junit.jupiter.api.Test\n void negative() {\n"
        "  assertThrows(WrongInputException.class, () -> new Unit().set(-1));\n }\n"
        " @org.junit.jupiter.api.Test\n void cutSet() {\n  Unit u = new Unit();\n  u.set(-2);\n }\n"
        " @org.junit.jupiter.api.Test\n void cutRun() {\n  Unit u = new Unit();\n  u.run();\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files)
    assert analysis.expected_exceptions == ("WrongInputException",)
    prefixes = {s.test.name: engine.prefix_for(analysis, s) for s in analysis.statuses}
    # the thrown type's ancestors after it, to the JDK type; the file's habit first
    ancestors = ["WrongInputException", "IllegalArgumentException"]
    assert prefixes["cutSet"].exception_types() == [
        "WrongInputException",
        "NotPositiveException",
        ancestors[1],
    ]
    unhabitual = dataclasses.replace(prefixes["cutSet"], file_expects=())  # nothing cached
    assert unhabitual.exception_types() == ["NotPositiveException", *ancestors]
    # RuntimeException is too broad to offer; the habit is offered though the code never throws
    # it, after what the code surely throws (its guard: ``throw new Failure()``)
    assert prefixes["cutRun"].exception_types() == ["Failure", "WrongInputException"]


@pytest.mark.parametrize(
    ("types", "habits", "ordered"),
    [
        (["a.B", "C"], (), ["a.B", "C"]),
        (["a.B", "C"], ("X", "C"), ["C", "a.B"]),  # the most expected of those offered
        (["a.B", "C"], ("B",), ["a.B", "C"]),  # as qualified as the code has it
        (["a.B", "C"], ("X",), ["X", "a.B", "C"]),  # none offered: the file's own
        ([], ("X", "Y"), ["X"]),
    ],
)
def test_the_files_habit_comes_first(types: list[str], habits: tuple[str, ...], ordered: list[str]) -> None:
    assert by_habit(types, habits) == ordered


def test_the_right_overload_delegation_and_built_class_give_their_types(tmp_path: Path) -> None:
    """commons-math3's misses: ``new DerivativeStructure(1, 4, 0.0, 0.0)`` is the varargs
    constructor, not the ``(int, int, int, double)`` one; ``Quaternion(double[])`` validates in the
    constructor it delegates to; ``CrossoverPolicy cp = new CycleCrossover<>()`` throws what the
    class built, not the interface, documents."""
    from .test_targets import analysed_workspace

    files = {
        "Structure.java": "package org.example.app;\npublic class Structure {\n"
        " public Structure(int p, int o, int i, double v) { if (i >= p) throw new TooLargeException(); }\n"
        " public Structure(int p, int o, double... d) { if (d.length != p) throw new MismatchException(); }\n"
        " public Structure(double[] v) { this(0, 1, v); }\n}\n",
        "Policy.java": "package org.example.app;\npublic interface Policy { void cross(int a, int b); }\n",
        "Cycle.java": "package org.example.app;\npublic class Cycle<T> implements Policy {\n"
        " public void cross(int a, int b) { if (a != b) throw new MismatchException(); }\n}\n",
        "TooLargeException.java": "package org.example.app;\n"
        "public class TooLargeException extends IllegalStateException {}\n",
        "MismatchException.java": "package org.example.app;\n"
        "public class MismatchException extends IllegalStateException {}\n",
        "BeanTest.java": "package org.example.app;\nclass BeanTest {\n"
        " @org.junit.jupiter.api.Test\n void byIndex() {\n  new Structure(1, 4, 0, 0.5);\n }\n"
        " @org.junit.jupiter.api.Test\n void varargs() {\n  new Structure(1, 4, 0.0, 0.0);\n }\n"
        " @org.junit.jupiter.api.Test\n void array() {\n  new Structure(new double[] {1, 2});\n }\n"
        " @org.junit.jupiter.api.Test\n void built() {\n"
        "  Policy cp = new Cycle<Integer>();\n  cp.cross(1, 2);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files)
    types = {s.test.name: engine.prefix_for(analysis, s).exception_types()[0] for s in analysis.statuses}
    assert types == {
        "byIndex": "TooLargeException",
        "varargs": "MismatchException",
        "array": "MismatchException",
        "built": "MismatchException",
    }


def test_the_exception_oracle_wraps_the_last_statement_calling_the_workspace(tmp_path: Path) -> None:
    """commons-math3's ``ConjugateGradientTest``: the focal call (the class under test's
    constructor) builds the solver, the last statement ``solver.solve(b)`` throws; a last
    statement calling only the JDK (``"abc".charAt(0)``) leaves the focal call's statement."""
    from .test_targets import analysed_workspace

    files = {
        "LinearSolver.java": "package org.example.app;\n"
        "public interface LinearSolver { void solve(int[] b); }\n",
        "Gradient.java": "package org.example.app;\npublic class Gradient implements LinearSolver {\n"
        " public Gradient(int n) { }\n public void solve(int[] b) { }\n public void push(String s) { }\n}\n",
        "GradientTest.java": "package org.example.app;\nclass GradientTest {\n"
        " @org.junit.jupiter.api.Test\n void solve() {\n  final LinearSolver solver;\n"
        "  solver = new Gradient(10);\n  final int[] b = new int[2];\n  solver.solve(b);\n }\n"
        " @org.junit.jupiter.api.Test\n void literal() {\n  Gradient g = new Gradient(1);\n"
        '  g.push("a");\n  char c = "abc".charAt(0);\n }\n}\n',
    }
    engine, analysis = analysed_workspace(tmp_path, files, "GradientTest.java")
    wrapped = {
        s.test.name: syntax.text(engine.prefix_for(analysis, s).throwing_statement) for s in analysis.statuses
    }
    assert wrapped == {"solve": "solver.solve(b);", "literal": 'g.push("a");'}
    focal = engine.prefix_for(analysis, analysis.statuses[0]).focal
    assert focal is not None and focal.method.is_constructor  # the focal call came earlier
