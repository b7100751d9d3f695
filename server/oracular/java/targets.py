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
from dataclasses import dataclass

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, MethodInfo, visible
from oracular.java.identifiers import identifier_words, test_name_words
from oracular.java.jdk_types import JDK_TYPES, MAP, THROWABLE, JdkType
from oracular.java.prefix_values import (
    arguments_by_receiver,
    computed_values,
    fixture_bases,
    prefix_bases,
    prefix_values,
    topics,
    unread_inputs,
)
from oracular.java.types import (
    TypeEnv,
    fits,
    instantiate,
    instantiate_return,
    is_array,
    is_boolean,
    is_collection,
    is_primitive,
    split_generic,
    unboxed,
)
from oracular.java.write_history import WriteHistory, write_history

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
MAX_STATIC_OBSERVERS = 2
"""Zero-argument static reads per class the prefix calls statically
(:meth:`TargetEnumerator.static_observers`)."""
MAX_INPUT_CALLS = 3
"""Calls over the prefix's unread inputs (:meth:`TargetEnumerator.input_calls`): each runs alone."""
MAX_INPUT_ARGUMENTS = 3

OBSERVER_NAME = re.compile(r"^(get|is|has|can|should)[A-Z0-9_]\w*$|^(size|isEmpty|length|count|toString)$")
"""Zero-argument methods that read state (``hashCode`` is left out: its values are arbitrary)."""
ARBITRARY = frozenset({"hashCode", "identityHashCode"})
"""Calls whose values are arbitrary: an identity hash differs from one JVM to the next, so a value
one run saw is no expectation (jakarta-mail's ``assertEquals(623516689, a.hashCode())`` was a top-1
that failed when checked); no developer's first oracle of 3,784 train tests compares one with a
literal."""
QUERY_NAME = re.compile(r"^(get|is|has|contains|indexOf|lastIndexOf|find|lookup|count|charAt)\w*$")
"""Methods whose one-argument form reads state: ``get(0)``, ``contains(x)``, ``getValue(key)``."""
PREFERRED_OBSERVERS = ("isEmpty", "size", "length", "count", "toString")
COUNTS = frozenset({"size", "length", "count", "getLength"})
"""Observers that count something: never negative."""


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


def jdk_type(type_text: str) -> tuple[JdkType, dict[str, str]] | None:
    """What ``type_text`` can be asked, if a common JDK type (or a ``Throwable``), with its type
    arguments bound to ``E`` (``K`` and ``V`` for a map)."""
    base, args = split_generic(type_text)
    simple = base.rsplit(".", 1)[-1]
    jdk = JDK_TYPES.get(simple)
    if jdk is None and (simple == "Throwable" or simple.endswith(("Exception", "Error"))):
        jdk = THROWABLE
    if jdk is None:
        return None
    names = ("K", "V") if jdk is MAP else ("E",)
    return jdk, dict(zip(names, args, strict=False)) if len(args) == len(names) else {}


def _jdk_observers(receiver: str, receiver_type: str) -> list[Target]:
    """The zero-argument observers the JDK table lists for ``receiver_type`` (none if unlisted)."""
    jdk = jdk_type(receiver_type)
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
        self.passed = arguments_by_receiver(statements)
        self.topics = topics(statements)
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
                or method.name in ("clone", "iterator", "stream", *ARBITRARY)
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
        elif (jdk := jdk_type(receiver_type)) is not None:
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

    def static_observers(self, owners: list[ClassInfo]) -> list[Target]:
        """Zero-argument static reads (named as :data:`OBSERVER_NAME` says) of the classes the
        prefix calls statically: a class that keeps state in statics is read back through them
        (``Options.setCmdLineOption("-STATIC=false")``, then ``Options.getStatic()``; ``NDC.clear()``,
        then ``NDC.getDepth()``), those named like what the prefix called on it first."""
        found: list[Target] = []
        for cls in owners:
            reads = [
                Target(f"{cls.name}.{method.name}()", method.return_type, "static", cls.name, method.name)
                for method in cls.methods
                if "static" in method.modifiers
                and not method.params
                and not method.type_params
                and OBSERVER_NAME.match(method.name)
                and _readable(cls, method, self.env)
            ]
            found += self.by_relevance(reads, cls.name)[:MAX_STATIC_OBSERVERS]
        return found

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
                or method.name in ("equals", "compareTo", *ARBITRARY)
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
        fields, actions and queries; then the other written variables, chains, static calls, the
        static reads of the classes the prefix calls statically, and the fixtures' observers and
        fields. Deduplicated, at most :data:`MAX_TARGETS`.
        ``tested_class``: the class the test class is named after."""
        ordered: dict[str, Target] = {t.expression: t for t in primary}
        computed = computed_values(self.statements)

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
            chains += self._chains(base.name, observers, queries, fields)
        for base in self.variables[MAX_BASES:]:
            add(Target(base.name, base.type, "variable"))
        for target in chains:
            add(target)
        owners = [focal_class] if focal_class is not None else []
        called = self.statically_called()
        owners += [c for c in called if c is not focal_class]
        for target in [*self.static_calls(owners), *self.static_observers(called)]:
            add(target)
        for fixture in self.fixtures:
            # a fixture the prefix never names may be the judge of what it built (xmlunit's
            # set-up builds the qualifier: elementNameQualifier.qualifyForComparison(control, test))
            observers = self.by_relevance(self.observers(fixture.name, fixture.type), fixture.name)
            fields = self.fields(fixture.name, fixture.type)
            predicates = self.predicates(fixture.name, fixture.type)
            for target in [*predicates, *observers[:MAX_OBSERVERS_PER_BASE], *fields]:
                add(target)
        return list(ordered.values())[:MAX_TARGETS]

    def _chains(
        self, base: str, observers: list[Target], queries: list[Target], fields: list[Target]
    ) -> Iterator[Target]:
        """The chains off ``base``: what its observers, its fields and its queries' objects are read for."""
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
                    yield Target(chained.expression, chained.type, "chain", base, chained.method)


_NAME_LITERAL = re.compile(r'^"[A-Za-z_$][\w$.]{0,40}"$')


def _is_data(text: str) -> bool:
    """A string literal that is no name (``"a,b,c\n1,2,3"``, ``"-fox"``, ``""``)."""
    return text.startswith('"') and _NAME_LITERAL.match(text) is None


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
