"""What a test's prefix made and handed on: the locals it wrote (the bases whose state a test
checks), the values it used (literals, arguments), the inputs it prepared and never read again,
the test class's fields it handed to the unit, what it did to each local and what it computed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.identifiers import identifier_words
from oracular.java.types import (
    LITERAL_TYPES,
    TypeEnv,
    is_floating,
    is_primitive,
    literal_type,
    unboxed,
)
from oracular.java.write_history import WriteHistory, is_literal

MAX_FIXTURES = 2
"""Test-class fields the prefix never names (fixtures set up before it), observed last: args4j's
tests act on ``parser`` and assert on ``testObject.str``, the bean ``setUp`` handed the parser."""


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


def block_locals(statements: list[Node]) -> frozenset[str]:
    """The locals declared only inside a statement's block (a try's body, a loop, a branch) or as a
    loop's variable: out of scope after the last statement, where an assertion goes, so no oracle
    there can name them. commons-csv's ``testPrintRecordsWithObjectArray`` fills ``objectArray``
    inside its ``try`` and asserts on the writer after it; reading ``objectArray`` there failed the
    observation's first compilation of the whole file."""
    top: set[str] = set()
    nested: set[str] = set()
    for statement in statements:
        if statement.type == "local_variable_declaration":
            top.update(_declared_names(statement))
        for node in syntax.walk_skipping_classes(statement):
            if node.type == "local_variable_declaration" and node is not statement:
                nested.update(_declared_names(node))
            elif node.type == "enhanced_for_statement" and (name := node.child_by_field_name("name")):
                nested.add(syntax.text(name))
    return frozenset(nested - top)


def _declared_names(declaration: Node) -> list[str]:
    declarators = declaration.children_by_field_name("declarator")
    return [syntax.text(d.child_by_field_name("name")) for d in declarators]


def prefix_bases(
    statements: list[Node], env: TypeEnv, focal_receiver: str | None, history: WriteHistory
) -> list[Base]:
    """The variables worth observing, the most recently written first (restated inputs and those
    out of scope at the end, :func:`block_locals`, left out)."""
    hidden = block_locals(statements)
    last = dict(history.last)
    for name, index in handed_fields(statements, env).items():
        last[name] = max(index, last.get(name, index))
    if focal_receiver and focal_receiver not in last and env.variable_type(focal_receiver):
        last[focal_receiver] = len(statements)
    bases = []
    for name, index in sorted(last.items(), key=lambda item: -item[1]):
        var_type = env.variable_type(name)
        if name in history.restated or name in hidden or not var_type or var_type == "var":
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
    """Locals in scope at the end (the most recent first; not those of :func:`block_locals`), then
    the literals the prefix contains and the options its command-line flags name, for arguments."""
    hidden = block_locals(statements)
    values: dict[str, PrefixValue] = {}
    for name, var_type in reversed(list(env.locals.items())):
        if var_type and var_type != "var" and name not in hidden:
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


def topics(statements: list[Node]) -> dict[str, set[str]]:
    """Per local, the words of the methods that produced or changed it (its initialiser's calls,
    the calls made on it)."""
    found: dict[str, set[str]] = {}
    for statement in statements:
        for declarator in statement.children_by_field_name("declarator"):
            name = syntax.text(declarator.child_by_field_name("name"))
            value = declarator.child_by_field_name("value")
            nodes = syntax.walk_skipping_classes(value) if value is not None else iter(())
            calls = [syntax.call_name(n) for n in nodes if n.type == "method_invocation"]
            found[name] = {w for call in calls for w in identifier_words(call)}
        for node in syntax.walk_skipping_classes(statement):
            receiver = node.child_by_field_name("object") if node.type == "method_invocation" else None
            if receiver is not None and receiver.type == "identifier":
                found.setdefault(syntax.text(receiver), set()).update(
                    identifier_words(syntax.call_name(node))
                )
    return found


def arguments_by_receiver(statements: list[Node]) -> dict[str, list[str]]:
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


def computed_values(statements: list[Node]) -> set[str]:
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
