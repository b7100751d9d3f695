"""What a developer would assert on after a prefix: every expression worth an oracle, ranked.

Why more than the last variable: measured over about 9,600 first assertions of unseen projects,
developers assert on a variable of the prefix (19%), but more often on a zero-argument call on
one (``xs.size()``, ``p.getName()``: 33%), an array's ``.length``, a short chain of such calls
(``p.body().html()``), a call with prefix values or small literals as arguments (``xs.get(0)``,
``m.get(key)``, or a boolean method over the prefix's objects: ``q.qualifies(control, test)``) or
a static call of the unit over prefix values (``Util.join(a, ",")``). Together those reach about
72% of the developers' targets, against under a quarter for the last variable.

Targets are typed (the workspace index, then a table of the JDK's common observers) because
the grammar builds only type-correct oracles from them. They are ranked here, before any value is
known: the variables the prefix wrote last, and the receiver the focal method was called on,
come first; their observers before chains, calls with arguments and static calls. The number is
bounded (:data:`MAX_TARGETS`) so that candidates stay few enough to rank and to observe.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, MethodInfo
from oracular.java.types import (
    LITERAL_TYPES,
    TypeEnv,
    base_name,
    instantiate,
    instantiate_return,
    is_array,
    is_boolean,
    is_floating,
    is_integral,
    is_primitive,
    literal_type,
    split_generic,
    unboxed,
)

MAX_TARGETS = 32
MAX_BASES = 6
"""Prefix variables whose observers are enumerated (the most recently written first); every
written variable is a target itself."""
MAX_OBSERVERS_PER_BASE = 6
MAX_FIELDS_PER_BASE = 3
"""Fields read directly (``holder.value``), for classes that expose state without getters."""
MAX_ACTIONS_PER_BASE = 2
MAX_ARGUMENT_CALLS_PER_BASE = 3
MAX_PREDICATES_PER_BASE = 2
MAX_PREDICATE_ARGUMENTS = 3
MAX_CHAINS_PER_BASE = 3
MAX_STATIC_CALLS = 4
MAX_INPUT_CALLS = 3
"""Calls over the prefix's unread inputs (:meth:`TargetEnumerator.input_calls`): each runs alone."""
MAX_INPUT_ARGUMENTS = 3
MAX_FIXTURES = 2
"""Test-class fields the prefix never names (fixtures set up before it), observed last: args4j's
tests act on ``parser`` and assert on ``testObject.str``, the bean ``setUp`` handed the parser."""

OBSERVER_NAME = re.compile(r"^(get|is|has|can|should)[A-Z0-9_]\w*$|^(size|isEmpty|length|count|toString)$")
"""Zero-argument methods that read state (``hashCode`` is left out: its values are arbitrary)."""
QUERY_NAME = re.compile(r"^(get|is|has|contains|indexOf|lastIndexOf|find|lookup|count|charAt)\w*$")
"""Methods whose one-argument form reads state: ``get(0)``, ``contains(x)``, ``getValue(key)``."""
PREFERRED_OBSERVERS = ("isEmpty", "size", "length", "count", "toString")
COUNTS = frozenset({"size", "length", "count", "getLength"})
"""Observers that count something: never negative."""


@dataclass(frozen=True)
class JdkType:
    """What the common JDK types can be asked: zero-argument observers and one-argument queries."""

    observers: tuple[tuple[str, str], ...]
    """``(method, return type)``; ``E``, ``K``, ``V`` stand for the type arguments."""
    queries: tuple[tuple[str, str, str], ...] = ()
    """``(method, parameter type, return type)``."""
    actions: frozenset[str] = frozenset()
    """Observers that change what they read (a ``Matcher``'s ``find()``): ``action`` targets, which
    the observation reads each alone (:mod:`oracular.execution.observe`)."""


_COLLECTION = JdkType(
    (("size", "int"), ("isEmpty", "boolean"), ("toString", "String")), (("contains", "E", "boolean"),)
)
"""``toString()`` too: a collection's text (``[a, b]``) is how tests pin the elements of
objects without ``equals`` (java-diff-utils' ``assertEquals("[[EQUAL,<,<]]", rows.toString())``);
only where the elements' text is stable (:meth:`TargetEnumerator.stable_text`)."""
_LIST = JdkType(
    (("size", "int"), ("isEmpty", "boolean"), ("toString", "String")),
    (("get", "int", "E"), ("contains", "E", "boolean"), ("indexOf", "E", "int")),
)
_MAP = JdkType(
    (("size", "int"), ("isEmpty", "boolean")), (("get", "K", "V"), ("containsKey", "K", "boolean"))
)
_TEXT = JdkType((("length", "int"), ("toString", "String")))
_LISTS = ("List", "ArrayList", "LinkedList", "Vector", "Stack", "CopyOnWriteArrayList")
_COLLECTIONS = ("Collection", "Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet",
                "Queue", "Deque", "ArrayDeque", "PriorityQueue", "EnumSet")  # fmt: skip
_MAPS = ("Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "ConcurrentHashMap",
         "ConcurrentMap", "EnumMap", "Hashtable", "Properties")  # fmt: skip
_FILE = JdkType(
    (("exists", "boolean"), ("isDirectory", "boolean"), ("length", "long"), ("getName", "String"))
)
_THROWABLE = JdkType((("getMessage", "String"), ("getCause", "Throwable")))
"""Any ``Throwable``: a JDK exception, or the JDK root of a workspace one (``MathException``)."""
JDK_TYPES: dict[str, JdkType] = {
    "String": JdkType((("length", "int"), ("isEmpty", "boolean")), (("charAt", "int", "char"),)),
    "StringBuilder": _TEXT,
    "StringBuffer": _TEXT,
    "CharSequence": _TEXT,
    "StringWriter": JdkType((("toString", "String"),)),
    # what a printer is handed to write to; in a test, a StringBuilder or StringWriter
    # (commons-csv's `Appendable out = new StringBuilder(); format.print(in, out, true);`)
    "Appendable": JdkType((("toString", "String"),)),
    "CharArrayWriter": JdkType((("size", "int"), ("toString", "String"))),
    "ByteArrayOutputStream": JdkType((("size", "int"), ("toString", "String"), ("toByteArray", "byte[]"))),
    "Optional": JdkType((("isPresent", "boolean"), ("get", "E"))),
    "AtomicInteger": JdkType((("get", "int"),)),
    "AtomicLong": JdkType((("get", "long"),)),
    "AtomicBoolean": JdkType((("get", "boolean"),)),
    "AtomicReference": JdkType((("get", "E"),)),
    "NodeList": JdkType((("getLength", "int"),)),
    "Iterator": JdkType((("hasNext", "boolean"),)),
    "Matcher": JdkType((("matches", "boolean"), ("find", "boolean")), actions=frozenset({"matches", "find"})),
    "File": _FILE,
    **dict.fromkeys(_LISTS, _LIST),
    **dict.fromkeys(_COLLECTIONS, _COLLECTION),
    **dict.fromkeys(_MAPS, _MAP),
}
_DOM_NODES = ("Element", "Document", "Attr", "Text", "Comment", "CDATASection", "CharacterData",
              "ProcessingInstruction", "DocumentType", "DocumentFragment", "Entity", "EntityReference",
              "Notation")  # fmt: skip
_SETS = ("HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet", "EnumSet")
_SUPERTYPES_OF = (
    (_DOM_NODES, ("Node",)),
    (("CDATASection",), ("Text", "CharacterData")),
    (("Text", "Comment"), ("CharacterData",)),
    (_LISTS, ("List", "Collection", "Iterable")),
    (_COLLECTIONS, ("Collection", "Iterable")),
    (_SETS, ("Set",)),
    (_MAPS, ("Map",)),
    (("String", "StringBuilder", "StringBuffer"), ("CharSequence",)),
    (("StringWriter", "PrintWriter", "BufferedWriter", "FileWriter"), ("Writer",)),
    (("StringReader", "BufferedReader", "FileReader", "InputStreamReader"), ("Reader",)),
    (("ByteArrayInputStream", "FileInputStream", "BufferedInputStream"), ("InputStream",)),
    (("ByteArrayOutputStream", "FileOutputStream", "PrintStream"), ("OutputStream",)),
    (("StreamSource", "DOMSource", "SAXSource"), ("Source",)),
)


def _supertypes_table() -> dict[str, frozenset[str]]:
    table: dict[str, frozenset[str]] = {}
    for names, supertypes in _SUPERTYPES_OF:
        for name in names:
            table[name] = table.get(name, frozenset()) | frozenset(supertypes)
    return table


JDK_SUPERTYPES = _supertypes_table()
"""Common JDK types (simple names, the families of :data:`JDK_TYPES` among them) and the JDK types
a value of them can be passed as: a suite's helper takes a ``Node`` where the test holds
``Element`` s (xmlunit's ``assertDifferentChildren``)."""


@dataclass(frozen=True)
class Target:
    """An expression the oracle asserts on."""

    expression: str
    type: str | None
    kind: str
    """``variable`` (a local), ``call`` (the last statement's value: the oracle wraps it),
    ``observer`` (a zero-argument read, by its name, or an array's ``length`` on a variable),
    ``action`` (any other zero-argument call with a value: ``s.pop()``, which may change state),
    ``field`` (an instance field the test can read: ``holder.value``),
    ``chain`` (an observer of an observer), ``query`` (a call with prefix values as arguments),
    ``static``, ``text`` (a JDK list's or set's ``toString()``: ``"[a, b]"``), or, read only
    when the code runs, ``value`` (an expected value) and ``helper`` (a call of the suite's
    assertion helper, :mod:`oracular.candidates.helpers`: does it pass?); and, once it ran,
    ``instance`` (``x instanceof C``: ``receiver`` x, ``method`` the class as the file spells it,
    :func:`oracular.candidates.observed.runtime_class`)."""
    receiver: str | None = None
    method: str | None = None


@dataclass(frozen=True)
class Base:
    """A variable the prefix wrote or called: a starting point for observers."""

    name: str
    type: str
    last_write: int
    """Index of the last top-level statement that assigned it or called a method on it."""
    fresh: bool
    """Its value is a ``new`` object (asserting it is not null cannot fail)."""


@dataclass(frozen=True)
class PrefixValue:
    """A value the prefix holds, usable as an argument: a local, or a literal it contains."""

    text: str
    type: str


def _declared_value(statement: Node, name: str) -> Node | None:
    for declarator in statement.children_by_field_name("declarator"):
        if syntax.text(declarator.child_by_field_name("name")) == name:
            return declarator.child_by_field_name("value")
    return None


def is_literal(node: Node | None) -> bool:
    """A literal, or an array initialiser of literals (``{1, 2}``, ``new int[] {1, 2}``)."""
    if node is None:
        return False
    if node.type in LITERAL_TYPES or literal_type(node) is not None:
        return True
    if node.type == "array_creation_expression":
        node = node.child_by_field_name("value")
    if node is not None and node.type == "array_initializer":
        return all(is_literal(c) for c in node.named_children)
    return False


def _written_name(node: Node) -> Node | None:
    """The local a node writes: ``x = ...``, ``x[0] = ...``, ``x.f = ...``, ``x++``, ``x.call()``."""
    written = None
    if node.type == "assignment_expression":
        written = node.child_by_field_name("left")
        while written is not None and written.type in ("array_access", "field_access"):
            written = written.child_by_field_name("array" if written.type == "array_access" else "object")
    elif node.type == "method_invocation":
        written = node.child_by_field_name("object")
    elif node.type == "update_expression":
        written = next((c for c in node.named_children if c.type == "identifier"), None)
    return written if written is not None and written.type == "identifier" else None


@dataclass
class WriteHistory:
    """What the prefix did to each local: when it last wrote it, and what it holds."""

    last: dict[str, int]
    """Local -> index of the last top-level statement that assigned it or called a method on it."""
    restated: set[str]
    """Locals initialised with a literal and never written again: asserting on them restates input."""
    fresh: set[str]
    """Locals holding a ``new`` object (never reassigned): asserting they are not null cannot fail."""
    sized: dict[str, str] = field(default_factory=dict)
    """Variable -> how its size is read (``.length``, ``.size()``), for those last assigned an
    array the prefix created (``{"-a", "b"}``, ``new int[3]``) or a collection of fixed size
    (``Arrays.asList(...)``, ``List.of(...)``): that size never changes, so asserting it restates
    the test's own input (args4j's ``args = new String[] {"-flag", "false"}``, then
    ``parser.parseArgument(args)``; java-diff-utils' ``assertEquals(6, revised.size())`` after
    ``revised = Arrays.asList("C", "B", "A", "B", "A", "C")`` was a top-1 over the diff itself)."""
    built: dict[str, str] = field(default_factory=dict)
    """Variable -> the class of the ``new`` object last assigned to it, generics dropped; may be more
    specific than its declared type (``CrossoverPolicy cp = new CycleCrossover<>()``)."""
    literal_arrays: dict[str, str] = field(default_factory=dict)
    """Variable -> the array of literals last assigned to it, as written (``new String[] {"-flag",
    "false"}``), while nothing wrote it since: the test's own input."""
    literal_lists: dict[str, list[str]] = field(default_factory=dict)
    """Variable -> the literals of the fixed-size list last assigned to it (``Arrays.asList("C",
    "B")``: ``['"C"', '"B"']``), while nothing called a method on it since: the test's own input."""

    def assigned(self, name: str, value: Node | None) -> None:
        """What a plain assignment of ``value`` to ``name`` (declaration or ``=``) tells."""
        self.sized.pop(name, None)
        self.literal_arrays.pop(name, None)
        self.literal_lists.pop(name, None)
        if _is_fixed_size(value):
            self.sized[name] = ".size()"
            arguments = value.child_by_field_name("arguments") if value is not None else None
            elements = arguments.named_children if arguments is not None else []
            if elements and all(is_literal(e) and e.type != "array_creation_expression" for e in elements):
                self.literal_lists[name] = [syntax.text(e) for e in elements]
        if _is_array_creation(value):
            self.sized[name] = ".length"
            if is_literal(value):
                self.literal_arrays[name] = syntax.text(value)
        self.built.pop(name, None)
        if value is not None and value.type == "object_creation_expression":
            self.built[name] = split_generic(syntax.text(value.child_by_field_name("type")))[0]


FIXED_SIZE_FACTORIES = frozenset(
    {"Arrays.asList", "List.of", "Set.of", "Map.of", "Collections.emptyList", "Collections.emptySet",
     "Collections.emptyMap", "Collections.singletonList", "Collections.singleton", "Collections.singletonMap"}
)  # fmt: skip
"""Calls whose collection's size no code can change (``Arrays.asList`` writes through to its array,
but neither adds nor removes)."""


def _is_fixed_size(node: Node | None) -> bool:
    if node is None or node.type != "method_invocation":
        return False
    receiver = node.child_by_field_name("object")
    name = syntax.call_name(node)
    if receiver is None:  # a static import: ``asList("a", "b")``, not a bare ``of(...)``
        return name != "of" and any(f.endswith(f".{name}") for f in FIXED_SIZE_FACTORIES)
    return f"{syntax.text(receiver)}.{name}" in FIXED_SIZE_FACTORIES


def _is_array_creation(node: Node | None) -> bool:
    return node is not None and node.type in ("array_initializer", "array_creation_expression")


def write_history(statements: list[Node]) -> WriteHistory:
    history = WriteHistory({}, set(), set())
    for index, statement in enumerate(statements):
        if statement.type == "local_variable_declaration":
            for declarator in statement.children_by_field_name("declarator"):
                name = syntax.text(declarator.child_by_field_name("name"))
                value = declarator.child_by_field_name("value")
                history.last[name] = index
                history.restated.discard(name)
                history.fresh.discard(name)
                history.assigned(name, value)
                if is_literal(value):
                    history.restated.add(name)
                elif value is not None and value.type == "object_creation_expression":
                    history.fresh.add(name)
            continue
        for node in syntax.walk_skipping_classes(statement):
            written = _written_name(node)
            if written is not None:
                name = syntax.text(written)
                history.last[name] = index
                history.restated.discard(name)
                history.literal_arrays.pop(name, None)
                history.literal_lists.pop(name, None)
                if node.type != "method_invocation":
                    history.fresh.discard(name)
                if node.child_by_field_name("left") == written:  # the variable itself, not x[0]
                    history.assigned(name, node.child_by_field_name("right"))
    return history


def handed_fields(statements: list[Node], env: TypeEnv) -> dict[str, int]:
    """Test-class fields the prefix hands to the code under test, with the index of the last
    statement that did: those passed as an argument (xmlunit's ``engine.compareText(control,
    test, listener)`` fills the test's ``listener``), those a helper of the test class writes or
    hands on (``listenToDifferences(control, test)``), and every instance field where ``this`` is
    passed (args4j's ``new CmdLineParser(this)``). The unit writes them as it would a local."""
    fields = [name for name in env.fields if name in env.instance_fields and name not in env.locals]
    changeable = {
        name
        for name in fields
        if not is_primitive(unboxed(env.fields[name])) and env.fields[name] != "String"
    }
    """What a callee can change through the argument: not a value (``longText`` handed to a
    printer is the test's input still)."""
    handed: dict[str, int] = {}
    for index, statement in enumerate(statements):
        for node in syntax.walk_skipping_classes(statement):
            if node.type == "method_invocation":
                receiver = node.child_by_field_name("object")
                if receiver is None or receiver.type == "this":
                    helper = env.helpers.get(syntax.call_name(node), frozenset())
                    handed.update(dict.fromkeys((name for name in fields if name in helper), index))
            elif node.type == "argument_list":
                for argument in node.named_children:
                    if argument.type == "this":
                        handed.update(dict.fromkeys(fields, index))
                    elif argument.type == "identifier" and syntax.text(argument) in changeable:
                        handed[syntax.text(argument)] = index
    return handed


def prefix_bases(
    statements: list[Node], env: TypeEnv, focal_receiver: str | None, history: WriteHistory
) -> list[Base]:
    """The variables worth observing, the most recently written first (restated inputs left out)."""
    last = dict(history.last)
    for name, index in handed_fields(statements, env).items():
        last[name] = max(index, last.get(name, index))
    if focal_receiver and focal_receiver not in last and env.variable_type(focal_receiver):
        last[focal_receiver] = len(statements)
    bases = []
    for name, index in sorted(last.items(), key=lambda item: -item[1]):
        var_type = env.variable_type(name)
        if name in history.restated or not var_type or var_type == "var":
            continue
        bases.append(Base(name, var_type, index, name in history.fresh))
    return bases


def fixture_bases(env: TypeEnv, written: list[Base]) -> list[Base]:
    """Fields of the test class (its own first) of a workspace type that no prefix base names."""
    named = {b.name for b in written}
    found = []
    for name, field_type in reversed(list(env.fields.items())):
        if name not in named and name not in env.locals and env.resolve_class(field_type) is not None:
            found.append(Base(name, field_type, -1, False))
    return found[:MAX_FIXTURES]


def prefix_literals(statements: list[Node]) -> list[PrefixValue]:
    """The literals the statements contain, each once, in the order they are written."""
    values: dict[str, PrefixValue] = {}
    for statement in statements:
        for node in syntax.walk_skipping_classes(statement):
            value_type = literal_type(node) if node.type in LITERAL_TYPES else None
            if value_type is not None:
                values.setdefault(syntax.text(node), PrefixValue(syntax.text(node), value_type))
    return list(values.values())


def prefix_values(statements: list[Node], env: TypeEnv) -> list[PrefixValue]:
    """Locals (the most recent first), then the literals the prefix contains and the options its
    command-line flags name, for arguments."""
    values: dict[str, PrefixValue] = {}
    for name, var_type in reversed(list(env.locals.items())):
        if var_type and var_type != "var":
            values.setdefault(name, PrefixValue(name, var_type))
    for literal in prefix_literals(statements):
        if literal.type in ("String", "int", "char", "long"):
            values.setdefault(literal.text, literal)
            option = _COMMAND_LINE_FLAG.match(literal.text) if literal.type == "String" else None
            if option is not None:
                name = f'"{option.group(1) or option.group(2)}"'
                values.setdefault(name, PrefixValue(name, "String"))
    return list(values.values())


_COMMAND_LINE_FLAG = re.compile(r'^"(?:-([A-Za-z])|--([A-Za-z][\w-]*)(?:=.*)?)"$')
"""A command-line flag, ``"-c"`` or ``"--count"`` (``"--level=3"``): the option it names is
``"c"``, ``"count"``, the argument a parser's result is asked about (joptsimple's
``options.has("c")`` after ``parser.parse("-c", "a")``; commons-cli's ``hasOption``)."""


def unread_inputs(statements: list[Node], env: TypeEnv) -> list[PrefixValue]:
    """Locals the prefix declares from literals and never reads again, in declaration order: the
    inputs of the call the cut removed with the oracle around it. commons-math3's
    ``CanberraDistanceTest`` declares ``a``, ``b`` and ``expected``, then asserts
    ``assertEquals(expected, distance.compute(a, b), 0d)``: its prefix calls nothing."""
    last_named = {
        syntax.text(node): index
        for index, statement in enumerate(statements)
        for node in syntax.walk_skipping_classes(statement)
        if node.type == "identifier"
    }  # the statement that names each identifier last: one walk, however long the prefix
    found: list[PrefixValue] = []
    for index, statement in enumerate(statements):
        if statement.type != "local_variable_declaration":
            continue
        for declarator in statement.children_by_field_name("declarator"):
            name = syntax.text(declarator.child_by_field_name("name"))
            value_type = env.locals.get(name)
            # a lone floating-point number is the delta of the assertion the cut removed
            # (commons-math3's ``double tol = 1e-15``), not an input: no call takes it
            scalar = value_type is not None and is_floating(unboxed(value_type))
            if (
                is_literal(declarator.child_by_field_name("value"))
                and last_named.get(name) == index
                and value_type
                and not scalar
            ):
                found.append(PrefixValue(name, value_type))
    return found


def accepts(param_type: str, value_type: str) -> bool:
    """Whether a value of ``value_type`` can be passed where ``param_type`` is expected."""
    param, value = unboxed(param_type), unboxed(value_type)
    if param == value:
        return True
    if is_integral(param) and value == "int":
        return True
    if param in ("Object", "java.lang.Object") and not is_primitive(value_type):
        return True
    return not is_primitive(param) and not is_primitive(value) and base_name(param) == base_name(value)


def is_subtype(value_type: str, param_type: str, env: TypeEnv) -> bool:
    """Whether a value of ``value_type`` can be passed as ``param_type`` because the type extends or
    implements it: a workspace class through its workspace supertypes, a common JDK type through
    :data:`JDK_SUPERTYPES` (an ``Element`` is a ``Node``)."""
    wanted = base_name(param_type)
    if wanted in JDK_SUPERTYPES.get(base_name(value_type), ()):
        return True
    cls = env.resolve_class(value_type)
    return cls is not None and any(parent.name == wanted for parent in env.index.supertypes(cls))


def fits(param_type: str, value_type: str, env: TypeEnv) -> bool:
    """Whether a value can be passed as ``param_type``, of its type or a subtype (xmlunit's
    ``validator.isInstanceValid(Source)`` given the test's ``StreamSource``)."""
    return accepts(param_type, value_type) or is_subtype(value_type, param_type, env)


def is_collection(type_text: str) -> bool:
    """A JDK list or set (``java.util.List<String>``...), whose text reads ``[a, b]``."""
    return split_generic(type_text)[0].rsplit(".", 1)[-1] in (*_LISTS, *_COLLECTIONS)


def _jdk_type(type_text: str) -> tuple[JdkType, dict[str, str]] | None:
    base, args = split_generic(type_text)
    simple = base.rsplit(".", 1)[-1]
    jdk = JDK_TYPES.get(simple)
    if jdk is None and (simple == "Throwable" or simple.endswith(("Exception", "Error"))):
        jdk = _THROWABLE
    if jdk is None:
        return None
    names = ("K", "V") if jdk is _MAP else ("E",)
    return jdk, dict(zip(names, args, strict=False)) if len(args) == len(names) else {}


def _jdk_observers(receiver: str, receiver_type: str) -> list[Target]:
    """The zero-argument observers the JDK table lists for ``receiver_type`` (none if unlisted)."""
    jdk = _jdk_type(receiver_type)
    if jdk is None:
        return []
    table, bindings = jdk
    text = is_collection(receiver_type)

    def kind(name: str) -> str:
        return "action" if name in table.actions else "text" if text and name == "toString" else "observer"

    return [
        Target(f"{receiver}.{name}()", _resolve_jdk(returns, bindings), kind(name), receiver, name)
        for name, returns in table.observers
    ]


def _resolve_jdk(type_text: str, bindings: dict[str, str]) -> str | None:
    if type_text in ("E", "K", "V"):
        return bindings.get(type_text)
    return type_text


class TargetEnumerator:
    """Enumerates and ranks targets for one prefix (see the module docstring)."""

    def __init__(
        self,
        statements: list[Node],
        env: TypeEnv,
        focal_receiver: str | None,
        test_name: str = "",
        history: WriteHistory | None = None,
    ) -> None:
        """``history``: :func:`write_history` of ``statements``, where the caller has it."""
        self.statements = statements
        self.env = env
        history = write_history(statements) if history is None else history
        self.variables = prefix_bases(statements, env, focal_receiver, history)
        self.written_arrays = set(history.literal_arrays)
        """Arrays of literals the test wrote: their elements are its own input."""
        self.bases = self.variables[:MAX_BASES]
        self.fixtures = fixture_bases(env, self.variables)
        self.values = prefix_values(statements, env)
        self.inputs = unread_inputs(statements, env)
        self.passed = _arguments_by_receiver(statements)
        self.topics = _topics(statements)
        self.tested = test_name_words(test_name)
        """What the test's name says it checks (``testSkipLinesZero``): relevant to every base."""

    def by_relevance(self, targets: list[Target], base: str) -> list[Target]:
        """Observers named like what the prefix did to ``base`` first: ``withEscape('&')`` makes
        ``getEscapeCharacter()`` the likely oracle, ``setHeader(h)`` makes it ``getHeader()``, and
        so does a test named ``testHeader`` (a field, which has no method, by its name)."""
        topics = self.topics.get(base, set()) | self.tested
        return sorted(
            targets, key=lambda t: -len(identifier_words(t.method or t.expression.rsplit(".")[-1]) & topics)
        )

    # -- zero-argument observers -------------------------------------------------------------
    def observers(self, receiver: str, receiver_type: str) -> list[Target]:
        """Zero-argument observers of ``receiver``: an array's length and first element (but of
        an array of literals the test wrote: ``args[0]`` of args4j's ``args = new String[]
        {"horse"}`` restates it), the JDK's, the workspace's.

        The first element because tests read it (opencsv's ``nextLine[0]`` after ``readNext()``,
        an optimum's ``getPoint()[0]``, the one-slot counter an anonymous listener bumps:
        ``count[0]``), and asserting on the whole array pins every element where the test asked
        about one."""
        if is_array(receiver_type):
            found = [Target(f"{receiver}.length", "int", "observer", receiver, "length")]
            if receiver not in self.written_arrays:
                element = receiver_type[: receiver_type.rindex("[")].rstrip()
                found.append(Target(f"{receiver}[0]", element, "observer", receiver))
            return found
        cls = self.env.resolve_class(receiver_type)
        if cls is None:
            found = _jdk_observers(receiver, receiver_type)
            if not self.stable_text(receiver_type):
                found = [t for t in found if t.method != "toString"]
            return found
        # the workspace's own class wins over a JDK class of the same name; a JDK superclass (the
        # Exception of a workspace exception) adds the observers the workspace does not declare
        found = workspace_observers(cls, self.env, receiver, receiver_type)
        root = [cls, *self.env.index.superclasses(cls)][-1]
        if root.superclass is not None and self.env.resolve_class(root.superclass) is None:
            named = {t.method for t in found}
            found += [t for t in _jdk_observers(receiver, root.superclass) if t.method not in named]
        return found

    def stable_text(self, type_text: str) -> bool:
        """Whether a value's ``toString()`` is the same on every run: text and primitives, enums,
        workspace classes that override it, and collections of those (not ``[Bean@1b6d3586]``)."""
        base, args = split_generic(type_text)
        simple = base.rsplit(".", 1)[-1]
        if is_collection(type_text):
            return len(args) == 1 and self.stable_text(args[0])
        if is_primitive(unboxed(type_text)) or simple in ("String", "CharSequence"):
            return True
        cls = self.env.resolve_class(type_text)
        if cls is None:
            return simple in JDK_TYPES  # a builder, writer or stream: the text it holds
        return cls.kind == "enum" or overrides_to_string(cls, self.env)

    def fields(self, receiver: str, receiver_type: str) -> list[Target]:
        """Instance fields of a workspace receiver the test can read, the most relevant first."""
        cls = self.env.resolve_class(receiver_type)
        if cls is None:
            return []
        found = self.by_relevance(workspace_fields(cls, self.env, receiver, receiver_type), receiver)
        return found[:MAX_FIELDS_PER_BASE]

    def actions(self, receiver: str, receiver_type: str) -> list[Target]:
        """Other zero-argument calls with a value on a workspace receiver (``s.peek()``, ``s.pop()``)."""
        cls = self.env.resolve_class(receiver_type)
        if cls is None:
            return []
        found: dict[str, Target] = {}
        for owner, method in self.env.methods_in_hierarchy(cls):
            if (
                method.params
                or not _readable(owner, method, self.env)
                or "static" in method.modifiers
                or OBSERVER_NAME.match(method.name)
                or method.name in ("hashCode", "clone", "iterator", "stream")
                or method.name in found
            ):
                continue
            ret = instantiate_return(owner, method, receiver_type)
            found[method.name] = Target(f"{receiver}.{method.name}()", ret, "action", receiver, method.name)
        return self.by_relevance(list(found.values()), receiver)[:MAX_ACTIONS_PER_BASE]

    # -- calls with arguments ----------------------------------------------------------------
    def _arguments(self, param_type: str, receiver: str, small_literals: bool = True) -> Iterator[str]:
        """Values to pass: ``0`` for an ``int`` (an index: ``get(0)``), then prefix values that fit,
        those the prefix passed to the same receiver first (``m.put(key, v)``, then ``m.get(key)``),
        string literals that read as data last: a key is a name, so after commons-csv's
        ``new StringReader("a,b,c\n1,2,3")`` and ``withHeader("X", "Y")``, ``record.get("X")``."""
        if small_literals and param_type == "int":
            yield "0"
        passed = self.passed.get(receiver, [])
        for value in sorted(self.values, key=lambda v: (v.text not in passed, _is_data(v.text))):
            if value.text != receiver and fits(param_type, value.type, self.env):
                yield value.text

    def queries(self, receiver: str, receiver_type: str) -> list[Target]:
        """One-argument reads with prefix values: ``xs.get(0)``, ``m.get(key)``, ``xs.contains(x)``."""
        found: list[Target] = []
        methods: list[tuple[str, str, str | None]] = []
        cls = self.env.resolve_class(receiver_type)
        if cls is not None:
            for owner, method in self.env.methods_in_hierarchy(cls):
                if (
                    len(method.params) == 1
                    and _readable(owner, method, self.env)
                    and QUERY_NAME.match(method.name)
                ):
                    methods.append(
                        (method.name, method.params[0][0], instantiate_return(owner, method, receiver_type))
                    )
        elif (jdk := _jdk_type(receiver_type)) is not None:
            table, bindings = jdk
            for name, param, returns in table.queries:
                param_type = _resolve_jdk(param, bindings)
                if param_type is not None:
                    methods.append((name, param_type, _resolve_jdk(returns, bindings)))
        for name, param_type, returns in methods:
            # the most recent fitting value only, and the first name the set-up registered
            arguments = [next(self._arguments(param_type, receiver), None)]
            if unboxed(param_type) in ("String", "Object", "java.lang.Object", "CharSequence"):
                arguments += self.env.set_up_literals[:1]
            for argument in dict.fromkeys(a for a in arguments if a is not None):
                found.append(Target(f"{receiver}.{name}({argument})", returns, "query", receiver, name))
        return found[:MAX_ARGUMENT_CALLS_PER_BASE]

    def predicates(self, receiver: str, receiver_type: str) -> list[Target]:
        """Boolean methods of a workspace receiver over the prefix's other values, whatever their
        name: the unit judging what the prefix built (xmlunit's ``qualifier.qualifyForComparison(
        control, test)`` after ``control`` and ``test`` were built). One-argument ones named like a
        query are :meth:`queries`; ``equals`` is left to the equality oracles."""
        cls = self.env.resolve_class(receiver_type)
        if cls is None:
            return []
        found: dict[str, Target] = {}
        for owner, method in self.env.methods_in_hierarchy(cls):
            if (
                not 1 <= len(method.params) <= MAX_PREDICATE_ARGUMENTS
                or not is_boolean(method.return_type)
                or not _readable(owner, method, self.env)
                or "static" in method.modifiers
                or method.type_params
                or method.name in ("equals", *found)
                or (len(method.params) == 1 and QUERY_NAME.match(method.name))
            ):
                continue
            arguments = self._distinct_arguments([p for p, _ in method.params], receiver)
            if arguments is not None:
                call = f"{receiver}.{method.name}({', '.join(arguments)})"
                found[method.name] = Target(call, "boolean", "query", receiver, method.name)
        return self.by_relevance(list(found.values()), receiver)[:MAX_PREDICATES_PER_BASE]

    def _distinct_arguments(self, param_types: list[str], receiver: str) -> list[str] | None:
        """One prefix value per parameter, a different one each (the most recent that fits), or
        ``None`` if some parameter has none. Parameters of one type take their values in the order
        the prefix declared them: ``compare(control, test)``, ``(expected, actual)``, ``(left, right)``."""
        chosen: list[str] = []
        for param_type in param_types:
            value = next((v for v in self._arguments(param_type, receiver, False) if v not in chosen), None)
            if value is None:
                return None
            chosen.append(value)
        declared = {name: i for i, name in enumerate(self.env.locals)}
        for param_type in set(param_types):
            slots = [i for i, p in enumerate(param_types) if p == param_type]
            ordered = sorted((chosen[i] for i in slots), key=lambda v: declared.get(v, len(declared)))
            for slot, value in zip(slots, ordered, strict=True):
                chosen[slot] = value
        return chosen

    # -- static calls ------------------------------------------------------------------------
    def static_calls(self, owners: list[ClassInfo]) -> list[Target]:
        """Static, non-void calls of the unit's class (and the classes the prefix calls statically)
        whose parameters the prefix's values can fill, the most recent values first."""
        found: list[Target] = []
        for cls in owners:
            for method in cls.methods:
                if (
                    "static" not in method.modifiers
                    or not _readable(cls, method, self.env)
                    or not 1 <= len(method.params) <= 2
                    or method.type_params
                ):
                    continue
                args = [next(self._arguments(p, "", small_literals=False), None) for p, _ in method.params]
                if any(a is None for a in args):
                    continue
                call = f"{cls.name}.{method.name}({', '.join(a for a in args if a is not None)})"
                found.append(Target(call, method.return_type, "static", cls.name, method.name))
        return found[:MAX_STATIC_CALLS]

    def statically_called(self) -> list[ClassInfo]:
        """Workspace classes the prefix calls static methods on (``Util.join(...)``)."""
        owners: list[ClassInfo] = []
        for statement in self.statements:
            for node in syntax.walk_skipping_classes(statement):
                receiver = node.child_by_field_name("object") if node.type == "method_invocation" else None
                if receiver is None or receiver.type != "identifier":
                    continue
                name = syntax.text(receiver)
                cls = self.env.resolve_class(name) if self.env.variable_type(name) is None else None
                if cls is not None and all(c is not cls for c in owners) and not cls.is_test:
                    owners.append(cls)
        return owners

    # -- calls over inputs the prefix never used ---------------------------------------------
    def input_calls(self, owners: list[ClassInfo]) -> list[Target]:
        """Calls that take the prefix's unread inputs (:func:`unread_inputs`): instance methods of
        the test's fixtures and workspace locals, static methods of ``owners`` (the class under
        test), every parameter given an input that fits (each once, in declaration order) or else
        another prefix value. Those the test's name names come first, then those that use the most
        inputs. Kind ``action``: an unknown method may change state, so each is run alone."""
        if not self.inputs:
            return []
        methods: list[tuple[ClassInfo, MethodInfo, str, str | None]] = []
        for base in [*self.variables, *self.fixtures]:
            cls = self.env.resolve_class(base.type)
            if cls is not None:
                methods += [
                    (owner, method, base.name, base.type)
                    for owner, method in self.env.methods_in_hierarchy(cls)
                    if "static" not in method.modifiers
                ]
        for cls in owners:
            methods += [
                (cls, method, cls.name, None) for method in cls.methods if "static" in method.modifiers
            ]
        inputs = {i.text for i in self.inputs}
        found: dict[str, tuple[int, int, Target]] = {}
        for owner, method, receiver, receiver_type in methods:
            if (
                not 1 <= len(method.params) <= MAX_INPUT_ARGUMENTS
                or method.return_type == "void"
                or method.type_params
                or method.name in ("equals", "compareTo", "hashCode")
                or not _readable(owner, method, self.env)
            ):
                continue
            arguments = self._input_arguments([p for p, _ in method.params], receiver)
            if arguments is None:
                continue
            returns = (
                instantiate_return(owner, method, receiver_type) if receiver_type else method.return_type
            )
            call = f"{receiver}.{method.name}({', '.join(arguments)})"
            named = len(identifier_words(method.name) & self.tested)
            used = sum(a in inputs for a in arguments)
            found.setdefault(call, (named, used, Target(call, returns, "action", receiver, method.name)))
        ranked = sorted(found.values(), key=lambda item: (-item[0], -item[1]))
        return [target for _, _, target in ranked][:MAX_INPUT_CALLS]

    def _input_arguments(self, param_types: list[str], receiver: str) -> list[str] | None:
        """One value per parameter, the unread inputs first; ``None`` if one has none, or if
        no input is among them (a call over other values is no input's call)."""
        chosen: list[str] = []
        for param_type in param_types:
            fitting = [v for v in [*self.inputs, *self.values] if fits(param_type, v.type, self.env)]
            value = next((v.text for v in fitting if v.text not in chosen and v.text != receiver), None)
            if value is None:
                return None
            chosen.append(value)
        inputs = {i.text for i in self.inputs}
        return chosen if inputs.intersection(chosen) else None

    # -- all of it ---------------------------------------------------------------------------
    def enumerate(
        self,
        primary: list[Target],
        focal_class: ClassInfo | None,
        tested_class: ClassInfo | None = None,
        reads: list[Target] | None = None,
    ) -> list[Target]:
        """``primary`` first (the prefix's own value), then the calls over its unread inputs and
        ``reads`` (what the file's other tests assert on), then per base: itself, its observers,
        fields, actions and queries; then the other written variables, chains, static calls and
        the fixtures' observers and fields. Deduplicated, at most :data:`MAX_TARGETS`.
        ``tested_class``: the class the test class is named after."""
        ordered: dict[str, Target] = {t.expression: t for t in primary}
        computed = _computed_values(self.statements)

        def add(target: Target) -> None:
            if "".join(target.expression.split()) not in computed:
                ordered.setdefault(target.expression, target)

        tested = [c for c in (focal_class, tested_class) if c is not None]
        for target in [*self.input_calls(list({id(c): c for c in tested}.values())), *(reads or [])]:
            add(target)

        chains: list[Target] = []
        for base in self.bases:
            add(Target(base.name, base.type, "variable"))
            observers = self.by_relevance(self.observers(base.name, base.type), base.name)
            observers = observers[:MAX_OBSERVERS_PER_BASE]
            actions = self.actions(base.name, base.type)
            fields = self.fields(base.name, base.type)
            queries = [*self.queries(base.name, base.type), *self.predicates(base.name, base.type)]
            for target in [*observers, *fields, *actions, *queries]:
                add(target)
            # a workspace object a query hands back is read like an observer's: rows.get(0).getOldLine()
            elements = [q for q in queries if q.type and self.env.resolve_class(q.type) is not None]
            # and a field like an observer (args4j's holder.things.size(), bean.foo.value)
            for observer in [*observers, *elements, *fields]:
                if observer.method == "toString" and (
                    observer.kind == "text" or any(o.method == "length" for o in observers)
                ):
                    continue  # sb.toString().length() is sb.length(); a list's is its size's echo
                if observer.type and not is_primitive(observer.type) and not is_boolean(observer.type):
                    further = self.observers(observer.expression, observer.type)[:MAX_CHAINS_PER_BASE]
                    if observer.kind == "field":
                        further += self.fields(observer.expression, observer.type)
                    for chained in further:
                        chains.append(
                            Target(chained.expression, chained.type, "chain", base.name, chained.method)
                        )
        for base in self.variables[MAX_BASES:]:
            add(Target(base.name, base.type, "variable"))
        for target in chains:
            add(target)
        owners = [focal_class] if focal_class is not None else []
        owners += [c for c in self.statically_called() if c is not focal_class]
        for target in self.static_calls(owners):
            add(target)
        for fixture in self.fixtures:
            # a fixture the prefix never names may be the judge of what it built (xmlunit's
            # set-up builds the qualifier: elementNameQualifier.qualifyForComparison(control, test))
            observers = self.by_relevance(self.observers(fixture.name, fixture.type), fixture.name)
            fields = self.fields(fixture.name, fixture.type)
            for target in [
                *self.predicates(fixture.name, fixture.type),
                *observers[:MAX_OBSERVERS_PER_BASE],
                *fields,
            ]:
                add(target)
        return list(ordered.values())[:MAX_TARGETS]


_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_VERBS = frozenset({"get", "is", "has", "with", "set", "to", "can", "should", "add", "new", "put", "create",
                    "build", "builder", "of", "value", "for", "from", "and"})  # fmt: skip


def identifier_words(name: str) -> set[str]:
    """``getEscapeCharacter`` -> ``{"escape", "character"}`` (verbs and glue words left out)."""
    return {w.lower() for w in _CAMEL_WORD.findall(name)} - _VERBS


def test_name_words(test_name: str) -> set[str]:
    """What a test's name (``testSkipLinesZero``, or ``CSVFormatTest.testSkipLinesZero``) says it checks."""
    return identifier_words(test_name.rsplit(".", 1)[-1]) - {"test", "should"}


def _topics(statements: list[Node]) -> dict[str, set[str]]:
    """Per local, the words of the methods that produced or changed it (its initialiser's calls,
    the calls made on it)."""
    topics: dict[str, set[str]] = {}
    for statement in statements:
        for declarator in statement.children_by_field_name("declarator"):
            name = syntax.text(declarator.child_by_field_name("name"))
            value = declarator.child_by_field_name("value")
            nodes = syntax.walk_skipping_classes(value) if value is not None else iter(())
            calls = [syntax.call_name(n) for n in nodes if n.type == "method_invocation"]
            topics[name] = {w for call in calls for w in identifier_words(call)}
        for node in syntax.walk_skipping_classes(statement):
            receiver = node.child_by_field_name("object") if node.type == "method_invocation" else None
            if receiver is not None and receiver.type == "identifier":
                topics.setdefault(syntax.text(receiver), set()).update(
                    identifier_words(syntax.call_name(node))
                )
    return topics


_NAME_LITERAL = re.compile(r'^"[A-Za-z_$][\w$.]{0,40}"$')


def _is_data(text: str) -> bool:
    """A string literal that is no name (``"a,b,c\n1,2,3"``, ``"-fox"``, ``""``)."""
    return text.startswith('"') and _NAME_LITERAL.match(text) is None


def _arguments_by_receiver(statements: list[Node]) -> dict[str, list[str]]:
    """``{"m": ["key", "v"]}`` for ``m.put(key, v)``: what the prefix handed each receiver."""
    passed: dict[str, list[str]] = {}
    for statement in statements:
        for node in syntax.walk_skipping_classes(statement):
            receiver = node.child_by_field_name("object") if node.type == "method_invocation" else None
            args = node.child_by_field_name("arguments") if receiver is not None else None
            if receiver is not None and args is not None:
                texts = [syntax.text(a) for a in args.named_children]
                passed.setdefault(syntax.text(receiver), []).extend(texts)
    return passed


def _computed_values(statements: list[Node]) -> set[str]:
    """The expressions the prefix already evaluates (a declarator's value, a bare call), without
    spaces: asserting on such an expression again repeats it instead of reading the result."""
    found = set()
    for statement in statements:
        if statement.type == "expression_statement" and statement.named_children:
            found.add(syntax.text(statement.named_children[0]))
        for declarator in statement.children_by_field_name("declarator"):
            if (value := declarator.child_by_field_name("value")) is not None:
                found.add(syntax.text(value))
    return {"".join(text.split()) for text in found}


def visible(owner: ClassInfo, modifiers: frozenset[str], package: str, inherited: bool = False) -> bool:
    """Whether a test in ``package`` can name a member of ``owner``: public ones (an interface's
    are, unless private), protected ones it ``inherited`` from ``owner``, and protected or
    package-private ones of a class in the test's own package. opencsv's builders expose their
    state to tests through protected getters (``builder.getSkipLines()``); a package-private
    method of another package (xom's ``Node.isText()``) does not compile in the test."""
    if "private" in modifiers:
        return False
    if "public" in modifiers or owner.kind in ("interface", "annotation_type"):
        return True
    return owner.package == package or (inherited and "protected" in modifiers)


def _readable(owner: ClassInfo, method: MethodInfo, env: TypeEnv) -> bool:
    return (
        not method.is_constructor
        and method.return_type not in (None, "void")
        and visible(owner, method.modifiers, env.package)
    )


def overrides_to_string(cls: ClassInfo, env: TypeEnv) -> bool:
    return any(m.name == "toString" and not m.params for _, m in env.methods_in_hierarchy(cls))


def workspace_fields(cls: ClassInfo, env: TypeEnv, receiver: str, receiver_type: str | None) -> list[Target]:
    """Instance fields of a workspace class (and its superclasses) that a test in ``env.package``
    can read: public ones, and those without ``private`` in the class's own package."""
    found: dict[str, Target] = {}
    for owner in (cls, *env.index.superclasses(cls)):
        for name, info in owner.fields.items():
            readable = visible(owner, info.modifiers, env.package) and "static" not in info.modifiers
            if readable and name not in found:
                field_type = instantiate(owner, info.type, receiver_type)
                found[name] = Target(f"{receiver}.{name}", field_type, "field", receiver)
    return list(found.values())


def workspace_observers(
    cls: ClassInfo, env: TypeEnv, receiver: str, receiver_type: str | None
) -> list[Target]:
    """Zero-argument, non-void observers of a workspace class (and its superclasses).

    ``toString()`` counts only where the class overrides it (``Object``'s is an identity hash).
    """
    found: dict[str, Target] = {}
    for owner, method in env.methods_in_hierarchy(cls):
        if (
            method.params
            or not _readable(owner, method, env)
            or "static" in method.modifiers
            or not OBSERVER_NAME.match(method.name)
            or method.name in found
        ):
            continue
        ret = instantiate_return(owner, method, receiver_type)
        found[method.name] = Target(f"{receiver}.{method.name}()", ret, "observer", receiver, method.name)

    def preference(target: Target) -> int:
        name = target.method or ""
        return PREFERRED_OBSERVERS.index(name) if name in PREFERRED_OBSERVERS else len(PREFERRED_OBSERVERS)

    return sorted(found.values(), key=preference)
