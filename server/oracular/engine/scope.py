"""What a test can see: its class scope (enclosing classes and workspace superclasses), their
fields as typed from the test class's ``extends``, the file's imports and the workspace."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oracular.engine.analysis import FileAnalysis, TestStatus
from oracular.java.declarations import ClassInfo, FileDeclarations, visible
from oracular.java.types import TypeEnv, split_generic, substitute
from oracular.java.workspace import WorkspaceIndex

if TYPE_CHECKING:
    pass


def junit3_bases(index: WorkspaceIndex, decls: FileDeclarations) -> frozenset[str]:
    """The simple names of the file's classes' superclasses that extend JUnit 3's ``TestCase``."""
    bases = set()
    for cls in decls.classes:
        for ancestor in index.superclasses(cls):
            if (ancestor.superclass or "").split("<")[0].endswith("TestCase"):
                bases.add((cls.superclass or "").split("<")[0].rsplit(".", 1)[-1])
    return frozenset(bases)


def class_scope(index: WorkspaceIndex, decls: FileDeclarations, class_name: str) -> list[ClassInfo]:
    """The test's class, its enclosing classes, and all their workspace superclasses."""
    prefix = f"{decls.package}." if decls.package else ""
    by_dotted = {c.qualified_name.removeprefix(prefix): c for c in decls.classes}
    parts = class_name.split(".")
    chain = [
        by_dotted[".".join(parts[:i])] for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in by_dotted
    ]
    scope = list(chain)
    for cls in chain:
        scope += list(index.superclasses(cls))
    return scope


def env_for_test(index: WorkspaceIndex, analysis: FileAnalysis, status: TestStatus) -> TypeEnv:
    """What a test's body can see: its class scope's fields, the file's imports, the workspace.

    No locals yet: :func:`~oracular.java.prefix.collect_locals` adds them.
    """
    decls = analysis.decls
    own = status.classes[0].qualified_name if status.classes else ""
    origin = status.classes[0].path if status.classes else ""
    env = TypeEnv(index, decls.package, decls.imports, scope=own, origin=origin)
    bindings = type_bindings(index, status.classes)
    for cls in reversed(status.classes):
        mapping = bindings.get(cls.qualified_name, {})
        enclosing = own == cls.qualified_name or own.startswith(f"{cls.qualified_name}.")
        # a superclass's private fields are not the test's (commons-math3's abstract test
        # classes keep `cumulativeTestValues` private: `cumulativeTestValues.length` did not
        # compile); its protected ones are, wherever it lives
        fields = {
            name: f
            for name, f in cls.fields.items()
            if enclosing or visible(cls, f.modifiers, decls.package, inherited=True)
        }
        env.fields.update({name: substitute(f.type, mapping) for name, f in fields.items()})
        env.instance_fields.update(name for name, f in fields.items() if "static" not in f.modifiers)
        for method in cls.methods:
            env.helpers[method.name] = env.helpers.get(method.name, frozenset()) | method.handed
    literals = (text for cls in status.classes for m in cls.methods for text in m.set_up_literals)
    env.set_up_literals = list(dict.fromkeys(literals))
    return env


def type_bindings(index: WorkspaceIndex, classes: list[ClassInfo]) -> dict[str, dict[str, str]]:
    """Each superclass's type variables as the test class's ``extends`` binds them: args4j's
    ``AtOptionTest extends Args4JTestBase<AtOption>`` makes the inherited fixture ``T testObject``
    an ``AtOption``, whose fields and observers are then targets like any other's."""
    found: dict[str, dict[str, str]] = {}
    for cls in classes:
        mapping = found.get(cls.qualified_name, {})
        current = cls
        for parent in index.superclasses(cls):
            _, args = split_generic(substitute(current.superclass or "", mapping))
            mapping = (
                dict(zip(parent.type_params, args, strict=True))
                if len(args) == len(parent.type_params)
                else {}
            )
            found.setdefault(parent.qualified_name, mapping)
            current = parent
    return found
