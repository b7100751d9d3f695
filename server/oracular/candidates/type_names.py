"""How a test file spells a class that an observed value names (an enum constant's type, a
runtime class): its simple name where the file can write it so, else qualified.

Why its own module: the spelling is the file's business, not the harness's; the runs of the code
an evaluation remembers are keyed by the harness's code (:mod:`oracular.evaluation.run_cache`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from oracular.java.types import TypeEnv


class TypeNamer:
    """Spells a class in the test file: its simple name where visible or importable, else qualified.

    ``import_of`` records the imports the spelled names need.
    """

    def __init__(
        self,
        package: str,
        imported: Iterable[str],
        visible: Callable[[str], bool],
        enclosing: str | None = None,
    ) -> None:
        """``enclosing``: the file's one top-level class, whose member classes its code names alone."""
        self.package = package
        self.imported = {name.rsplit(".", 1)[-1]: name for name in imported}
        self.visible = visible
        self.enclosing = enclosing

    @classmethod
    def of(cls, env: TypeEnv, enclosing: str | None = None) -> TypeNamer:
        """The namer of the file ``env`` sees: its package, its single-type imports, and the classes
        it can resolve by a simple name."""
        explicit = [i.name for i in env.imports if not i.is_static and not i.is_wildcard]
        return cls(env.package, explicit, lambda simple: env.resolve_class(simple) is not None, enclosing)

    def spell(self, canonical: str) -> tuple[str, tuple[str, ...]]:
        """``pkg.Outer.Inner`` -> (``Outer.Inner``, (``pkg.Outer``,)) when ``Outer`` can be imported;
        ``Inner`` alone inside ``Outer``, as a developer writes a member class of their test class
        (args4j's ``testObject.value instanceof Cmd2`` in ``SubCommandTest``), or where the file
        imports ``pkg.Outer.Inner`` itself."""
        parts = canonical.split(".")
        top = next((i for i, p in enumerate(parts) if p[:1].isupper()), len(parts) - 1)
        package, outer = ".".join(parts[:top]), ".".join(parts[: top + 1])
        simple, nested = parts[top], ".".join(parts[top:])
        if package == self.package and simple == self.enclosing and top + 1 < len(parts):
            return ".".join(parts[top + 1 :]), ()
        for i in range(len(parts) - 1, top, -1):  # a member class imported itself (JLS 7.5.1)
            if self.imported.get(parts[i]) == ".".join(parts[: i + 1]):
                return ".".join(parts[i:]), ()
        if package in ("java.lang", self.package) or self.imported.get(simple) == outer:
            return nested, ()
        if simple in self.imported or self.visible(simple):
            return canonical, ()  # another class of that name is in scope: qualify
        return nested, (outer,)
