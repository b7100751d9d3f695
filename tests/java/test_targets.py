"""Target enumeration: what a developer would assert on after a prefix, typed and ranked."""

from __future__ import annotations

import textwrap
from pathlib import Path

from oracular.engine import FileAnalysis, OracleEngine
from oracular.engine.scope import env_for_test
from oracular.java.declarations import extract
from oracular.java.junit import find_test_methods
from oracular.java.prefix import PrefixAnalysis, analyse_prefix
from oracular.java.source import load_source
from oracular.java.targets import MAX_TARGETS
from oracular.java.types import TypeEnv
from oracular.java.write_history import write_history

from ..conftest import indexed, java


def analysed(engine: OracleEngine, body: str, imports: str = "", members: str = "") -> PrefixAnalysis:
    source = java(
        f"""
        package org.example.stack;
        import java.util.*;
        {imports}
        class SnippetTest {{
            {members}
            @org.junit.jupiter.api.Test
            void t() {{
                {body}
            }}
        }}
        """
    )
    decls = extract(source)
    test = find_test_methods(source, decls.imports)[0]
    env = TypeEnv(engine.index, decls.package, decls.imports)
    prefix = analyse_prefix(test.node, env, test.class_name)
    assert prefix is not None
    return prefix


def targets(prefix: PrefixAnalysis) -> dict[str, tuple[str | None, str]]:
    return {t.expression: (t.type, t.kind) for t in prefix.targets}


def test_every_written_local_is_a_target_the_most_recent_first(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        Stack<Integer> s = new Stack<>();
        s.push(1);
        List<String> names = new ArrayList<>();
        names.add("a");
        int n = s.size();
        """,
    )
    order = [t.expression for t in prefix.targets]
    assert order[0] == "n"  # the prefix's own value first
    assert order.index("names") < order.index("s")  # written after s
    found = targets(prefix)
    assert found["names.size()"] == ("int", "observer")
    assert found["names.isEmpty()"] == ("boolean", "observer")
    assert found["names.get(0)"] == ("String", "query")
    assert found['names.contains("a")'] == ("boolean", "query")  # a prefix value as the argument
    assert found["s.isEmpty()"] == ("boolean", "observer")  # the workspace's Stack, not java.util's
    assert "s.get(0)" not in found  # ...which has no get(int)
    assert found["s.peek()"] == ("Integer", "action")
    assert "s.size()" not in found  # the prefix computes it already: n holds it


def test_locals_out_of_scope_at_the_end_are_no_targets_nor_arguments(engine: OracleEngine) -> None:
    """The assertion goes after the last statement: what a block or a loop declared is gone there
    (naming it would not compile), what the body declared stays, however it was written inside."""
    prefix = analysed(
        engine,
        """
        Stack<Integer> s = new Stack<>();
        List<String> kept = new ArrayList<>();
        try {
            List<String> inner = new ArrayList<>();
            inner.add("a");
            kept.add("b");
            s.push(inner.size());
        } finally {
            s.size();
        }
        for (String each : kept) {
            s.push(each.length());
        }
        """,
    )
    found = targets(prefix)
    assert "kept" in found and "kept.size()" in found and "s.peek()" in found
    assert not [t for t in found if "inner" in t or "each" in t], found


def test_restated_inputs_are_not_targets(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        String input = "abc";
        int[] data = {1, 2};
        String r = TextUtils.reverse(input);
        """,
    )
    found = targets(prefix)
    assert "input" not in found and "input.length()" not in found and "data.length" not in found
    assert found["r"] == ("String", "variable")
    assert found["r.length()"] == ("int", "observer")
    assert found["r.charAt(0)"] == ("char", "query")
    # static calls of the unit over prefix values, not repeating the prefix's own call
    assert found["TextUtils.isPalindrome(r)"] == ("boolean", "static")
    assert "TextUtils.reverse(input)" not in found


def test_nested_generics_arrays_and_chains(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        Map<String, List<Integer>> index = new HashMap<>();
        String key = "k";
        index.put(key, new ArrayList<>());
        String[] parts = "a,b".split(",");
        long[] sizes = new long[3];
        sizes[0] = 4L;
        """,
    )
    found = targets(prefix)
    assert found["sizes.length"] == ("int", "observer")
    assert found["sizes[0]"] == ("long", "variable")  # written last by the prefix
    assert found["parts[0]"] == ("String", "observer")  # read: the first element, of the element type
    assert found["index.get(key)"] == ("List<Integer>", "query")
    assert found["index.containsKey(key)"] == ("boolean", "query")
    assert found["index.size()"] == ("int", "observer")


def test_workspace_chains_and_observers(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        BoundedCounter c = new BoundedCounter(3);
        c.increment();
        """,
    )
    found = targets(prefix)
    assert found["c.getMax()"] == ("int", "observer")
    assert found["c.isAtMax()"] == ("boolean", "observer")
    assert found["c.value()"] == ("int", "action")


def test_the_number_of_targets_is_bounded(engine: OracleEngine) -> None:
    lines = "\n".join(f'List<String> l{i} = new ArrayList<>(); l{i}.add("x{i}");' for i in range(20))
    prefix = analysed(engine, lines)
    assert len(prefix.targets) == MAX_TARGETS


def test_write_history(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        """
        int a = 1;
        int b = 2;
        b++;
        Stack<Integer> s = new Stack<>();
        Stack<Integer> t = new Stack<>();
        t = new Stack<>(4);
        s.push(a);
        """,
    )
    history = write_history(prefix.statements)
    assert history.restated == {"a"}  # b was written again
    assert history.fresh == {"s"}  # t was reassigned (still new, but no longer the initialiser)
    assert history.last["s"] == 6 and history.last["b"] == 2
    assert history.built == {"s": "Stack", "t": "Stack"}  # the class of the last `new`, generics dropped
    reassigned = analysed(engine, "Object o = new Stack<>();\no = s0();\nObject p = o;")
    history = write_history(reassigned.statements)
    assert history.built == {}  # reassigned from elsewhere: no longer known


def analysed_in(root: Path, classes: dict[str, str], body: str, test_name: str = "t") -> PrefixAnalysis:
    """``body`` as the test ``test_name`` of package ``org.example.app``, over a workspace holding
    ``classes`` (``{"Holder.java": source}``, in the package each declares)."""
    for name, text in classes.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    test = root / "AppTest.java"
    test.write_text(
        "package org.example.app;\nimport java.util.*;\nimport java.util.concurrent.atomic.*;\n"
        f"import java.io.*;\nclass AppTest {{\n @org.junit.jupiter.api.Test\n void {test_name}() {{\n"
        f"{body}\n }}\n}}\n",
        encoding="utf-8",
    )
    index = indexed(root)
    source = load_source(test)
    decls = extract(source)
    method = find_test_methods(source, decls.imports)[0]
    prefix = analyse_prefix(method.node, TypeEnv(index, decls.package, decls.imports), method.class_name)
    assert prefix is not None
    return prefix


HOLDER = """
    package org.example.app;
    public class Holder<T> {
        public int count;
        String name;
        public T value;
        private int hidden;
        public static int shared;
        public void parse(String s) {}
    }
"""


def test_fields_the_test_can_read_are_targets(tmp_path: Path) -> None:
    other = """
        package org.example.other;
        public class Bean { public String text; int packaged; public void fill() {} }
    """
    prefix = analysed_in(
        tmp_path,
        {"Holder.java": HOLDER, "Bean.java": other},
        'Holder<String> h = new Holder<>(); h.parse("x"); org.example.other.Bean b = new '
        "org.example.other.Bean(); b.fill();",
    )
    found = targets(prefix)
    assert found["h.count"] == ("int", "field")
    assert found["h.name"] == ("String", "field")  # package-visible: the test shares the package
    assert found["h.value"] == ("String", "field")  # the receiver's type argument
    assert "h.hidden" not in found and "h.shared" not in found  # private; static (not the object's)
    assert found["b.text"] == ("String", "field")
    assert "b.packaged" not in found  # package-private in another package


def test_observers_the_test_can_call_are_targets(tmp_path: Path) -> None:
    """Protected and package-private getters of the test's own package are callable (opencsv's
    builders expose ``getSkipLines()`` so); those of another package do not compile (xom's
    package-private ``isText()``); an interface's methods are public without saying so."""
    builder = """
        package org.example.app;
        public class Builder {
            protected int getSkipLines() { return 0; }
            boolean isVerified() { return true; }
            private int getSecret() { return 1; }
            public Builder withSkipLines(int n) { return this; }
            public org.example.other.Shape shape() { return null; }
        }
    """
    other = """
        package org.example.other;
        public class Node { boolean isText() { return false; } protected String getBase() { return ""; }
            public String getValue() { return ""; } public void detach() {} }
    """
    shape = "package org.example.other;\npublic interface Shape { double getArea(); }\n"
    prefix = analysed_in(
        tmp_path,
        {"Builder.java": builder, "Node.java": other, "Shape.java": shape},
        "Builder builder = new Builder(); builder.withSkipLines(99); org.example.other.Node n = "
        "new org.example.other.Node(); n.detach(); org.example.other.Shape s = builder.shape();",
    )
    found = targets(prefix)
    assert "builder.getSkipLines()" in found and "builder.isVerified()" in found
    assert "builder.getSecret()" not in found
    assert "n.getValue()" in found
    assert "n.isText()" not in found and "n.getBase()" not in found
    assert "s.getArea()" in found


def test_jdk_observers_of_atomics_streams_and_exceptions(tmp_path: Path) -> None:
    failure = """
        package org.example.app;
        public class ParseFailure extends IllegalStateException {
            public ParseFailure(String m) { super(m); }
            public int getLine() { return 0; }
        }
    """
    prefix = analysed_in(
        tmp_path,
        {"ParseFailure.java": failure},
        "AtomicInteger n = new AtomicInteger(); n.incrementAndGet();\n"
        "ByteArrayOutputStream out = new ByteArrayOutputStream(); out.write(1);\n"
        'ParseFailure e = new ParseFailure("bad");\n'
        'Appendable sink = new StringBuilder(); sink.append("x");',
    )
    found = targets(prefix)
    assert found["sink.toString()"] == ("String", "observer")  # what a printer was handed, as text
    assert found["n.get()"] == ("int", "observer")
    assert found["out.toByteArray()"] == ("byte[]", "observer")
    assert found["e.getLine()"] == ("int", "observer")  # the workspace's own observer...
    assert found["e.getMessage()"] == ("String", "observer")  # ...and those of its JDK root
    assert found["e.getCause()"] == ("Throwable", "observer")


def test_the_test_name_says_which_observers_and_actions_come_first(tmp_path: Path) -> None:
    many = """
        package org.example.app;
        public class Format {
            public int getA() { return 0; }  public int getB() { return 0; }
            public int getC() { return 0; }  public int getD() { return 0; }
            public int getE() { return 0; }  public int getF() { return 0; }
            public int getG() { return 0; }  public int getSkipLines() { return 0; }
            public int first() { return 0; }  public int second() { return 0; }
            public int missCount() { return 0; }
            public void load() {}
        }
    """
    body = "Format f = new Format(); f.load();"
    plain = targets(analysed_in(tmp_path, {"Format.java": many}, body))
    assert "f.getSkipLines()" not in plain and "f.missCount()" not in plain  # beyond the caps
    named = targets(analysed_in(tmp_path, {"Format.java": many}, body, "testSkipLinesAndMissCount"))
    assert named["f.getSkipLines()"] == ("int", "observer")
    assert named["f.missCount()"] == ("int", "action")


def analysed_workspace(
    root: Path, files: dict[str, str], test_file: str = "BeanTest.java"
) -> tuple[OracleEngine, FileAnalysis]:
    """``files`` written to ``root`` and ``test_file`` among them analysed, as the editor would."""
    from oracular.cli.common import engine_for

    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    test = root / test_file
    engine = engine_for([test])
    return engine, engine.analyse(load_source(test))


def test_fixtures_the_prefix_never_names_are_observed_through_the_bound_type(tmp_path: Path) -> None:
    """args4j: the test acts on ``parser`` and asserts on ``testObject.str``, a field its generic
    base class declares as ``T`` and ``setUp`` hands to the parser."""
    files = {
        "Bean.java": "package org.example.app;\npublic class Bean {\n"
        " public String str;\n public int getCount() { return 0; }\n}\n",
        "Parser.java": "package org.example.app;\npublic class Parser {\n"
        " public Parser(Object bean) {}\n public void parse(String... args) {}\n}\n",
        "BaseTest.java": "package org.example.app;\npublic abstract class BaseTest<T> {\n"
        " protected T testObject;\n protected Parser parser;\n protected String[] args;\n"
        " abstract T create();\n"
        " void setUp() { testObject = create(); parser = new Parser(testObject); }\n}\n",
        "BeanTest.java": "package org.example.app;\nclass BeanTest extends BaseTest<Bean> {\n"
        " Bean create() { return new Bean(); }\n"
        ' @org.junit.jupiter.api.Test\n void testStr() {\n  parser.parse("-str", "x");\n }\n}\n',
    }
    engine, analysis = analysed_workspace(tmp_path, files)
    (status,) = analysis.statuses
    env = env_for_test(engine.index, analysis, status)
    assert env.fields["testObject"] == "Bean"  # T, bound by `extends BaseTest<Bean>`
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    found = [t.expression for t in prefix.targets]
    assert {"testObject.str", "testObject.getCount()"} <= set(found)
    assert found.index("testObject.str") > found.index("parser")  # after what the prefix names
    assert "testObject" not in found  # a fixture is no target itself: it is not null by set-up


def test_a_superclass_private_fields_are_not_the_tests(tmp_path: Path) -> None:
    """commons-math3's abstract distribution tests keep their arrays private: a subclass's test
    cannot read ``cumulativeTestValues``; protected fields it can, from any package, and a
    nested test class reads its enclosing class's private ones."""
    files = {
        "BaseTest.java": "package org.example.base;\npublic abstract class BaseTest {\n"
        " private int[] hidden = {1};\n protected int[] shared = {2};\n int[] packaged = {3};\n}\n",
        "DistTest.java": "package org.example.app;\nclass DistTest extends org.example.base.BaseTest {\n"
        " private int[] own = {4};\n"
        " class Inner {\n  @org.junit.jupiter.api.Test\n  void t() {\n   int n = 1;\n  }\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "DistTest.java")
    (status,) = analysis.statuses
    fields = env_for_test(engine.index, analysis, status).fields
    assert "shared" in fields and "own" in fields
    assert "hidden" not in fields and "packaged" not in fields  # private; package-private elsewhere


def test_fields_the_prefix_hands_to_the_unit_are_targets(tmp_path: Path) -> None:
    """The unit writes a test-class field it is handed like a local: args4j's ``new
    CmdLineParser(this)`` fills the test's own fields, xmlunit's ``engine.compare(..., listener)``
    and its helper ``listenToDifferences(control, test)`` fill ``listener``."""
    files = {
        "Parser.java": "package org.example.app;\npublic class Parser {\n"
        " public Parser(Object bean) {}\n public void parse(String... args) {}\n"
        " public void fill(Listener l) {}\n}\n",
        "Listener.java": "package org.example.app;\npublic class Listener {\n public String seen;\n}\n",
        "BeanTest.java": "package org.example.app;\nclass BeanTest {\n"
        ' static final String NAME = "n";\n int count;\n Listener listener = new Listener();\n'
        ' Listener unused = new Listener();\n StringBuilder log = new StringBuilder();\n String text = "t";\n'
        " void listen() { new Parser(null).fill(listener); }\n"
        " @org.junit.jupiter.api.Test\n void byThis() {\n"
        '  Parser p = new Parser(this);\n  p.parse("-count", "2");\n }\n'
        " @org.junit.jupiter.api.Test\n void byArgument() {\n"
        "  Parser p = new Parser(null);\n  p.fill(listener);\n  p.parse(text);\n }\n"
        " @org.junit.jupiter.api.Test\n void byHelper() {\n  int count = 1;\n  listen();\n }\n"
        " @org.junit.jupiter.api.Test\n void byNothing() {\n  Parser p = new Parser(NAME);\n"
        "  p.parse(NAME);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files)
    found = {}
    for status in analysis.statuses:
        prefix = engine.prefix_for(analysis, status)
        assert prefix is not None
        found[status.test.name] = [t.expression for t in prefix.targets]
    assert {"count", "listener", "listener.seen", "log", "log.length()"} <= set(found["byThis"])
    assert "NAME" not in found["byThis"]  # a constant: no `this` can change it
    assert found["byThis"].index("p") < found["byThis"].index("count")  # p is written after
    assert {"listener", "listener.seen"} <= set(found["byArgument"])
    assert not {"count", "log", "text"} & set(found["byArgument"])  # text: a value, not changed
    assert "listener.seen" in found["byHelper"]  # the helper hands it on
    assert "unused" not in found["byHelper"]
    assert "count" not in found["byHelper"]  # the local shadows the field
    assert not {"NAME", "count", "listener"} & set(found["byNothing"])


def test_queries_take_the_first_name_the_set_up_registers(tmp_path: Path) -> None:
    """joptsimple: ``@Before`` registers ``parser.accepts("fox")``, the test parses ``"-fox"`` and
    asserts ``options.has("fox")``: a name the prefix never spells."""
    files = {
        "Parser.java": "package org.example.app;\npublic class Parser {\n"
        " public void accepts(String name) {}\n public Options parse(String... args) { return null; }\n}\n",
        "Options.java": "package org.example.app;\npublic class Options {\n"
        " public boolean has(String name) { return false; }\n public int count(int at) { return 0; }\n}\n",
        "BeanTest.java": "package org.example.app;\nclass BeanTest {\n Parser parser = new Parser();\n"
        " @org.junit.Before\n public void register() {\n"
        '  parser.accepts("fox");\n  parser.accepts("f");\n }\n'
        ' @org.junit.jupiter.api.Test\n void parses() {\n  Options options = parser.parse("-fox");\n }\n}\n',
    }
    engine, analysis = analysed_workspace(tmp_path, files)
    (status,) = analysis.statuses
    assert env_for_test(engine.index, analysis, status).set_up_literals == ['"fox"', '"f"']
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    found = [t.expression for t in prefix.targets]
    assert 'options.has("-fox")' in found  # the prefix's own value first
    assert 'options.has("fox")' in found
    assert 'options.has("f")' not in found  # one set-up name per query
    assert "options.count(0)" in found and 'options.count("fox")' not in found  # typed


def test_a_query_takes_a_name_before_a_literal_that_reads_as_data(engine: OracleEngine) -> None:
    prefix = analysed(
        engine,
        r"""
        String[] rows = "a,b\n1,2".split("\n");
        Map<String, Integer> m = new HashMap<>(Collections.singletonMap("key", rows.length));
        """,
    )
    found = targets(prefix)
    assert 'm.get("key")' in found  # commons-csv's record.get("X") after withHeader("X", ...)
    assert not any(expression.startswith('m.get("a,b') for expression in found)


def test_boolean_methods_over_the_prefix_values_are_targets_in_declaration_order(tmp_path: Path) -> None:
    qualifier = """
        package org.example.app;
        public interface Qualifier {
            boolean qualifies(Element control, Element test);
            boolean isKnown(Element e);
            boolean equals(Object other);
            int weigh(Element a, Element b);
            boolean needsText(String text, int depth);
        }
    """
    element = "package org.example.app;\npublic class Element { public void add(String t) {} }\n"
    prefix = analysed_in(
        tmp_path,
        {"Qualifier.java": qualifier, "Element.java": element},
        "Qualifier q = Factory.make();\n"
        'Element control = new Element(); control.add("a");\n'
        'Element test = new Element(); test.add("a");',
    )
    found = targets(prefix)
    # the most recent values, in the order the prefix declared them (not test, control)
    assert found["q.qualifies(control, test)"] == ("boolean", "query")
    assert "q.qualifies(test, control)" not in found
    assert "q.isKnown(test)" in found  # a one-argument query, by its name
    assert not any(".equals(" in e or ".weigh(" in e for e in found)  # equality; not boolean
    assert not any(".needsText(" in e for e in found)  # no String or int value to pass


def test_jdk_lists_read_as_text_where_it_is_stable_and_matchers_as_actions(tmp_path: Path) -> None:
    classes = {
        "Row.java": 'package org.example.app;\npublic class Row { public String toString() { return ""; } }',
        "Bean.java": "package org.example.app;\npublic class Bean { public int getId() { return 1; } }\n",
        "Kind.java": "package org.example.app;\npublic enum Kind { A, B }\n",
    }
    found = targets(
        analysed_in(
            tmp_path,
            classes,
            """
            List<Row> rows = new ArrayList<>(); rows.add(new Row());
            List<Bean> beans = new ArrayList<>(); beans.add(new Bean());
            Set<Kind> kinds = new HashSet<>(); kinds.add(Kind.A);
            List<Integer> sizes = new ArrayList<>(); sizes.add(1);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("a").matcher("abc");
            """,
        )
    )
    assert found["rows.toString()"] == ("String", "text")  # Row says what it holds
    assert found["kinds.toString()"] == ("String", "text")  # enum constants' names
    assert found["sizes.toString()"] == ("String", "text")
    assert "beans.toString()" not in found  # [org.example.app.Bean@1b6d3586]: differs every run
    assert "rows.toString().length()" not in found  # an echo of its size
    # each moves the matcher on: read alone, not one after the other
    assert found["m.find()"] == ("boolean", "action")
    assert found["m.matches()"] == ("boolean", "action")


def test_an_iterator_hands_back_its_next_element_as_an_action(tmp_path: Path) -> None:
    found = targets(
        analysed_in(
            tmp_path,
            {},
            'List<String> xs = new ArrayList<>(); xs.add("a");\nIterator<String> it = xs.iterator();',
        )
    )
    # next() moves the iterator on: read alone, after hasNext() would have been read
    assert found["it.next()"] == ("String", "action")
    assert found["it.hasNext()"] == ("boolean", "observer")
    found = targets(
        analysed_in(tmp_path, {}, 'Enumeration<String> e = new Vector<>(List.of("a")).elements();')
    )
    assert found["e.nextElement()"] == ("String", "action")


def test_classes_the_prefix_calls_statically_are_read_back_through_their_static_getters(
    tmp_path: Path,
) -> None:
    options = """
        package org.example.app;
        public class Options {
            private static boolean shared;
            private static int depth;
            public static void setShared(boolean value) { shared = value; }
            public static boolean getShared() { return shared; }
            public static int getDepth() { return depth; }
            public static int getLookahead() { return 1; }
            static String getHidden() { return ""; }
            public static <T> T getAny() { return null; }
            public static int getFor(int key) { return key; }
            public int getOwn() { return 0; }
            public static void reset() { }
        }
        """
    found = targets(analysed_in(tmp_path, {"Options.java": options}, "Options.setShared(true);"))
    # the getter named like the setter the prefix called first, then one more; at most two
    assert found["Options.getShared()"] == ("boolean", "static")
    statics = [e for e, (_, kind) in found.items() if kind == "static" and e.endswith("()")]
    assert statics[0] == "Options.getShared()" and len(statics) == 2
    # a read needs no argument, no type argument and is static; package-private is visible here
    assert not {"Options.getAny()", "Options.getOwn()", "Options.reset()"} & set(found)
    # a class the prefix never calls statically is not read
    assert not any(
        e.startswith("Options.")
        for e in targets(analysed_in(tmp_path, {"Options.java": options}, "int n = 1;"))
    )


def test_an_element_a_query_hands_back_is_read_like_an_observer(tmp_path: Path) -> None:
    row = """
        package org.example.app;
        public class Row {
            public String getOldLine() { return ""; }
            public String toString() { return ""; }
        }
    """
    body = "StringBuilder sb = new StringBuilder(); sb.append('x');\nList<Row> rows = Rows.of(sb);"
    found = targets(analysed_in(tmp_path, {"Row.java": row}, body))
    assert found["rows.get(0).getOldLine()"] == ("String", "chain")
    assert "sb.toString().length()" not in found  # sb.length() says it
    assert found["sb.length()"] == ("int", "observer")


def test_an_interface_typed_receiver_offers_what_its_superinterfaces_declare(tmp_path: Path) -> None:
    """commons-math3: a ``RealMatrix`` inherits ``getRowDimension()`` from ``AnyMatrix``, which it
    extends; the observer is offered and its call resolves to the superinterface's ``int``."""
    files = {
        "AnyMatrix.java": "package org.example.app;\npublic interface AnyMatrix extends Shaped<String> {\n"
        " int getRowDimension();\n boolean isSquare();\n}\n",
        "Shaped.java": "package org.example.app;\npublic interface Shaped<T> {\n T shape();\n}\n",
        "RealMatrix.java": "package org.example.app;\n"
        "public interface RealMatrix extends AnyMatrix, java.io.Serializable {\n double getTrace();\n}\n",
        "Matrices.java": "package org.example.app;\npublic class Matrices {\n"
        " public static RealMatrix identity(int n) { return null; }\n}\n",
        "MatrixTest.java": "package org.example.app;\nclass MatrixTest {\n"
        " @org.junit.jupiter.api.Test\n void t() {\n  RealMatrix m = Matrices.identity(2);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "MatrixTest.java")
    (status,) = analysis.statuses
    prefix = engine.prefix_for(analysis, status)
    assert prefix is not None
    named = {t.expression: t.type for t in prefix.targets}
    assert named["m.getTrace()"] == "double"
    assert named["m.getRowDimension()"] == "int"  # declared by the superinterface
    assert named["m.isSquare()"] == "boolean"
    assert "m.shape()" in named  # two levels up: AnyMatrix extends Shaped


def test_calls_over_inputs_the_prefix_never_reads_are_targets(tmp_path: Path) -> None:
    """commons-math3: ``CanberraDistanceTest`` declares ``a``, ``b`` and ``expected`` and calls
    nothing; the cut removed ``assertEquals(expected, distance.compute(a, b), 0d)``."""
    files = {
        "Distance.java": "package org.example.app;\npublic class Distance {\n"
        " public double compute(double[] a, double[] b) { return 0; }\n"
        " public double norm(double[] a) { return 0; }\n"
        " public void reset(double[] a) {}\n"
        " public static double[] unique(double[] x) { return x; }\n}\n",
        "DistanceTest.java": "package org.example.app;\nclass DistanceTest {\n"
        " private final Distance distance = new Distance();\n"
        " @org.junit.jupiter.api.Test\n void testCompute() {\n"
        "  final double[] a = {1, 2};\n  final double[] b = {3, 4};\n  final double expected = 2.9;\n }\n"
        " @org.junit.jupiter.api.Test\n void testUsed() {\n"
        "  final double[] a = {1, 2};\n  double n = distance.norm(a);\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "DistanceTest.java")
    compute, used = analysis.statuses
    prefix = engine.prefix_for(analysis, compute)
    assert prefix is not None
    inputs = [t for t in prefix.targets if t.kind == "action"]
    # the test's name names compute, then the fixture's other methods and the static one of the class
    # under test (named by the test class); each input once, in declaration order; no void method
    assert [t.expression for t in inputs] == [
        "distance.compute(a, b)",
        "distance.norm(a)",
        "Distance.unique(a)",
    ]
    assert inputs[0].type == "double"
    # a prefix that reads its inputs gets no such calls
    prefix = engine.prefix_for(analysis, used)
    assert prefix is not None
    assert not [t for t in prefix.targets if t.kind == "action"]


def test_c_style_array_declarators_declare_arrays(engine: OracleEngine) -> None:
    """opencsv's ``String item[] = csvReader.readNext();``: an array, not a ``String``."""
    prefix = analysed(engine, 'String item[] = "a,b".split(","), word = "a";\nint grid[][] = new int[2][2];')
    assert prefix.env.locals == {"item": "String[]", "word": "String", "grid": "int[][]"}
    found = targets(prefix)
    assert found["item.length"] == ("int", "observer") and found["item[0]"] == ("String", "observer")
    assert "item.isEmpty()" not in found
    written = targets(analysed(engine, 'String[] args = {"-a"};\nString[] parts = "a,b".split(",");'))
    assert "parts[0]" in written and "args[0]" not in written  # the test's own input


def test_a_query_and_a_fixtures_predicate_take_values_of_a_subtype(tmp_path: Path) -> None:
    """xmlunit: ``v.isInstanceValid(Source)`` given the test's ``StreamSource``; the set-up built
    the qualifier that judges two ``Element`` s (``qualifyForComparison(Node, Node)``)."""
    files = {
        "Validator.java": "package org.example.app;\nimport javax.xml.transform.Source;\n"
        "public class Validator {\n public boolean isInstanceValid(Source s) { return true; }\n}\n",
        "Qualifier.java": "package org.example.app;\nimport org.w3c.dom.Node;\n"
        "public class Qualifier {\n"
        " public boolean qualifyForComparison(Node a, Node b) { return true; }\n}\n",
        "ValidatorTest.java": "package org.example.app;\nimport javax.xml.transform.stream.StreamSource;\n"
        "import org.w3c.dom.Element;\nclass ValidatorTest {\n private Qualifier qualifier;\n"
        " @org.junit.jupiter.api.Test\n void t() {\n  Validator v = new Validator();\n"
        '  StreamSource s = new StreamSource("a.xml");\n'
        "  Element control = null;\n  Element test = null;\n }\n}\n",
    }
    engine, analysis = analysed_workspace(tmp_path, files, "ValidatorTest.java")
    prefix = engine.prefix_for(analysis, analysis.statuses[0])
    assert prefix is not None
    named = {t.expression: t.type for t in prefix.targets}
    assert named["v.isInstanceValid(s)"] == "boolean"
    assert named["qualifier.qualifyForComparison(control, test)"] == "boolean"
