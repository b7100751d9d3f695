"""Expected values per target of one test: what ``assertEquals(value, target)`` may compare with.

Why its own module: the sources are many (the prefix's literals and locals, the unit's and the
test class's constants, its literal fields, the constants it writes, the global dictionary), each
with its own reason; the engine only asks for the lot (:meth:`~oracular.engine.OracleEngine.values_for`).
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
    test_constants += [
        Value(name, field_type, "constant", rank)
        for rank, (name, (field_type, _)) in enumerate(status.literal_fields.items())
        if name not in prefix.env.locals
    ]
    test_constants += written_constants(prefix, status)
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
        values += constant_values(owners, spell) + [v for v in test_constants if v.text != target.expression]
        if target.type:
            values += global_values(target.type, dictionary)
        values_for[target.expression] = plausible(target, values)
    return values_for


def written_constants(prefix: PrefixAnalysis, status: TestStatus) -> list[Value]:
    """The constants of workspace classes the test class writes (:attr:`TestStatus.written_constants`),
    the test's own classes' left out: those are named bare already."""
    own = {id(cls) for cls in status.classes}
    found: list[Value] = []
    for text in status.written_constants:
        owner_name, name = text.rsplit(".", 1)
        if prefix.env.variable_type(owner_name) is not None:
            continue  # a local or field of that name: an instance's field, not a class's
        owner = prefix.env.resolve_class(owner_name)
        field = owner.fields.get(name) if owner is not None and id(owner) not in own else None
        if field is not None and field.is_constant and "private" not in field.modifiers:
            found.append(Value(text, field.type, "constant", len(found)))
    return found


def class_speller(env: TypeEnv) -> Callable[[ClassInfo], str]:
    """How the test file writes a class whose constants it may expect: a top-level class by its
    simple name, as before; a member class as the file can name it (:class:`TypeNamer`), qualified
    where that would need an import. java-diff-utils' ``DiffRow.Tag.EQUAL``, never ``Tag.EQUAL``,
    which does not compile there (and, read by the harness for every test of a file cut at once,
    took every compile round: nothing of DiffRowGeneratorTest was observed)."""
    explicit = [i.name for i in env.imports if not i.is_static and not i.is_wildcard]
    namer = TypeNamer(env.package, explicit, lambda simple: env.resolve_class(simple) is not None)

    def spell(cls: ClassInfo) -> str:
        nested = cls.qualified_name.removeprefix(f"{cls.package}." if cls.package else "")
        if "." not in nested:
            return cls.name
        text, imports = namer.spell(cls.qualified_name)
        return cls.qualified_name if imports else text

    return spell
