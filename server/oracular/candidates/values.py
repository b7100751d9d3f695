"""Dictionaries of likely expected values: local (the prefix), constants, and global (the corpus).

TOGA found that the expected value of a developer's assertion is usually a literal or variable
already in the test, a constant of the unit under test, or one of a few very common values.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, FieldInfo
from oracular.java.prefix import Target
from oracular.java.targets import COUNTS
from oracular.java.types import (
    LITERAL_TYPES,
    TypeEnv,
    base_name,
    is_floating,
    is_integral,
    literal_type,
    unboxed,
)

GLOBAL_DICTIONARY = "global_dictionary.json"


@dataclass(frozen=True)
class Value:
    text: str
    type: str
    source: str
    """``argument`` (passed to a call), ``literal``, ``variable``, ``constant``, ``global``, or
    ``observed`` (what running the prefix produced, see :mod:`oracular.candidates.observed`)."""
    rank: int = 0
    """Order within its source: appearance in the prefix, or frequency rank in the corpus."""
    receiver: str | None = None
    """For ``argument`` values, the receiver of the call the value was passed to."""
    imports: tuple[str, ...] = ()
    """Classes the value's text names and the test file may need to import (``java.util.Arrays``)."""


def models_dir() -> Path:
    """Where shipped data lives: ``$ORACULAR_MODELS``, the checkout's ``models/``, or the install's."""
    env = os.environ.get("ORACULAR_MODELS")
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parents[3] / "models"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "oracular" / "models"


@cache
def load_global_dictionary(path: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Top values per type; an empty dictionary (never a crash) if the file is missing."""
    path = path or models_dir() / GLOBAL_DICTIONARY
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {t: tuple(v) for t, v in data.get("values", {}).items()}


def _literal_value(node: Node, order: int) -> Value | None:
    value_type = literal_type(node)
    if value_type in (None, "null", "boolean"):
        return None
    parent = node.parent
    if parent is not None and parent.type == "argument_list":
        call = parent.parent
        receiver = (
            call.child_by_field_name("object")
            if call is not None and call.type == "method_invocation"
            else None
        )
        return Value(syntax.text(node), value_type, "argument", order, syntax.text(receiver) or None)
    return Value(syntax.text(node), value_type, "literal", order)


def _own_initializer(statements: list[Node], target: Target) -> Node | None:
    """The literal a variable target was initialised with: asserting it back is a tautology."""
    if target.kind != "variable":
        return None
    for statement in statements:
        if statement.type == "local_variable_declaration":
            for declarator in statement.children_by_field_name("declarator"):
                if syntax.text(declarator.child_by_field_name("name")) == target.expression:
                    return declarator.child_by_field_name("value")
    return None


def local_values(statements: list[Node], env: TypeEnv, target: Target) -> list[Value]:
    """Literals and variables of the prefix, in order of appearance, without duplicates."""
    values: dict[str, Value] = {}
    tautology = _own_initializer(statements, target)
    for statement in statements:
        for node in syntax.walk_skipping_classes(statement):
            if (
                tautology is not None
                and node.start_byte == tautology.start_byte
                and node.type == tautology.type
            ):
                continue
            is_negated = node.type == "unary_expression" and syntax.text(node)[:1] == "-"
            if (
                node.type in LITERAL_TYPES and not (node.parent and node.parent.type == "unary_expression")
            ) or is_negated:
                value = _literal_value(node, len(values))
                if value is not None and value.text not in values:
                    values[value.text] = value
    for name, var_type in env.locals.items():
        if name != target.expression and var_type and name not in values:
            values[name] = Value(name, var_type, "variable", len(values))
    return list(values.values())


def constant_values(classes: list[ClassInfo], spell: Callable[[ClassInfo], str]) -> list[Value]:
    """``static final`` fields of the focal (and target) classes, qualified by class name as
    ``spell`` writes it in the test file."""
    result = []
    for cls in classes:
        owner = spell(cls)
        for field in cls.fields.values():
            if field.is_constant and "private" not in field.modifiers:
                result.append(Value(f"{owner}.{field.name}", field.type, "constant", len(result)))
    return result


def _imported_statically(env: TypeEnv) -> Iterator[FieldInfo]:
    """The workspace constants the test file imports statically, by name or with ``*``: it writes
    them bare."""
    for imp in env.imports:
        if not imp.is_static:
            continue
        owner = env.index.resolve(
            imp.name if imp.is_wildcard else imp.name.rpartition(".")[0], origin=env.origin
        )
        if owner is None:
            continue
        fields = owner.fields.values() if imp.is_wildcard else [owner.fields.get(imp.simple)]
        yield from (f for f in fields if f is not None and f.is_constant and "private" not in f.modifiers)


def imported_constants(env: TypeEnv) -> list[Value]:
    """The workspace constants the test file imports by name (``import static ...Constants.CRLF``),
    as written there: a test that imports one spells its expectation with it (commons-csv's
    ``assertEquals(CRLF, format.getRecordSeparator())``, where the observed value is ``"\\r\\n"``)."""
    named = {imp.simple for imp in env.imports if imp.is_static and not imp.is_wildcard}
    found = {f.name: f for f in _imported_statically(env) if f.name in named}
    return [Value(name, f.type, "constant", rank) for rank, (name, f) in enumerate(found.items())]


def named_literals(env: TypeEnv, classes: list[ClassInfo]) -> dict[str, str]:
    """Text literal -> the constant the test can name bare that holds it, initialised with it: those of
    the test's classes, and those it imports statically, by name or with ``*`` (joptsimple's
    tests import ``Strings.*`` and write ``EMPTY`` for ``""``). The first such constant wins."""
    own = [f for cls in classes for f in cls.fields.values() if f.is_constant]
    found: dict[str, str] = {}
    for field in [*own, *_imported_statically(env)]:
        literal = field.initializer or ""
        if literal[:1] in ('"', "'"):
            found.setdefault(literal, field.name)
    return found


def dictionary_key(target_type: str) -> str:
    """The global dictionary's key for a type: primitives unboxed, ``String`` unqualified."""
    key = unboxed(target_type) or target_type
    return "String" if key == "java.lang.String" else key


def global_values(target_type: str, dictionary: dict[str, tuple[str, ...]]) -> list[Value]:
    key = dictionary_key(target_type)
    return [Value(v, key, "global", i) for i, v in enumerate(dictionary.get(key, ()))]


def plausible(target: Target, values: list[Value]) -> list[Value]:
    """``values`` without those ``target`` can never equal: a negative count, and for a list's
    text (``text`` targets) a literal that does not read ``"[...]"``. Applied after the global
    values, by the engine and by the mined samples alike."""
    if target.method in COUNTS or target.expression.endswith(".length"):
        values = [v for v in values if not v.text.startswith("-")]
    if target.kind == "text":
        values = [v for v in values if v.source in ("variable", "constant") or v.text[:2] == '"[']
    return values


def compatible(value_type: str, target_type: str) -> bool:
    """Whether ``assertEquals(value, target)`` compiles and is meaningful."""
    value_u, target_u = unboxed(value_type), unboxed(target_type)
    if is_integral(target_u):
        return value_u == "int" or value_u == target_u or (target_u == "long" and is_integral(value_u))
    if is_floating(target_u):
        return is_integral(value_u) or is_floating(value_u)
    if target_u == "char":
        return value_u == "char"
    if value_u in ("int", "long", "short", "byte", "float", "double", "char", "boolean"):
        return False
    return base_name(value_type) == base_name(target_type)
