"""Expected values per target of one test: what ``assertEquals(value, target)`` may compare with.

Why its own module: the sources are many (the prefix's literals and locals, the unit's and the
test class's constants, those the file imports, the global dictionary), each with its own reason
and spelling; the engine only asks for the lot (:meth:`~oracular.engine.OracleEngine.values_for`).
"""

from __future__ import annotations

from collections.abc import Callable

from oracular.candidates.type_names import TypeNamer
from oracular.candidates.values import (
    Value,
    constant_values,
    global_values,
    imported_constants,
    local_values,
    plausible,
)
from oracular.engine.analysis import TestStatus
from oracular.java.declarations import ClassInfo
from oracular.java.prefix import PrefixAnalysis
from oracular.java.types import TypeEnv


def expected_values(
    prefix: PrefixAnalysis, status: TestStatus, dictionary: dict[str, tuple[str, ...]]
) -> dict[str, list[Value]]:
    """Expected values per target expression, the prefix's own first, the global dictionary's last."""
    test_constants = [
        Value(name, f.type, "constant", rank)
        for rank, (name, f) in enumerate(
            (name, f) for cls in status.classes for name, f in cls.fields.items() if f.is_constant
        )
    ]
    test_constants += imported_constants(prefix.env)
    classes = [prefix.focal.cls] if prefix.focal else []
    spell = class_speller(prefix.env)
    values_for: dict[str, list[Value]] = {}
    for target in prefix.targets:
        owners = list(classes)
        if target.type:
            owner = prefix.env.resolve_class(target.type)
            if owner is not None and owner not in owners:
                owners.append(owner)
        values = local_values(prefix.statements, prefix.env, target)
        values += constant_values(owners, spell) + test_constants
        if target.type:
            values += global_values(target.type, dictionary)
        values_for[target.expression] = plausible(target, values)
    return values_for


def class_speller(env: TypeEnv) -> Callable[[ClassInfo], str]:
    """How the test file writes a class whose constants it may expect: a member class as the file
    can name it (:class:`TypeNamer`), qualified where that would need an import (a value here
    carries no import, and the harness reads its text as it is); a top-level class by its simple
    name, the spelling the rankers were fitted on (not changed without measuring it).
    java-diff-utils' ``DiffRow.Tag.EQUAL``, never ``Tag.EQUAL``, which does not compile there: a
    suggestion the user cannot insert, and a read the harness must leave out, a compile round each
    time (with every test of a file cut at once, such reads can take every round and nothing of the
    file is observed)."""
    namer = TypeNamer.of(env)

    def spell(cls: ClassInfo) -> str:
        nested = cls.qualified_name.removeprefix(f"{cls.package}." if cls.package else "")
        if "." not in nested:
            return cls.name
        text, imports = namer.spell(cls.qualified_name)
        return cls.qualified_name if imports else text

    return spell
