"""The concrete test class that runs an abstract test class's tests.

Why: JUnit cannot instantiate an abstract class, so a test written in one (commons-math3's
``RealVectorAbstractTest``, xmlunit's ``AbstractXpathEngineTests``) runs only as inherited by a
concrete subclass, which supplies the factory methods the test calls (``create(double[])``).
Its scratch copy is compiled as usual, shadowing the real abstract class, together with one
concrete subclass, and JUnit runs the generated methods on that subclass.

Subclasses are looked for in the abstract class's own folder (its package), where projects keep
them: reading one folder's files per observed file is cheap, a whole source tree is not.
Declarations are matched as text, which is enough to name a top-level class and what it extends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from oracular.java import syntax

_DECLARATION = re.compile(
    r"^[^\S\n]*((?:(?:public|protected|private|final|abstract|strictfp)\s+)*)class\s+(\w+)"
    r"(?:\s*<[^{]*?>)?\s+extends\s+(?:[\w$]+\.)*(\w+)",
    re.M,
)
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
MAX_DEPTH = 3
"""Abstract classes between the test's class and a concrete one (``A <- B (abstract) <- C``)."""


@dataclass(frozen=True)
class ConcreteSubclass:
    binary_name: str
    path: Path
    """Its source file, compiled beside the scratch copy."""


def is_abstract_class(node: Node) -> bool:
    """Whether ``node`` (a ``class_declaration``) is declared ``abstract``."""
    return "abstract" in syntax.modifiers(node)


def _declarations(folder: Path) -> list[tuple[Path, str, str, str, bool]]:
    """``(file, package, class, superclass, abstract)`` of each top-level class declared in
    ``folder``'s Java files that extends something, files in name order."""
    found = []
    for path in sorted(folder.glob("*.java")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        package = _PACKAGE.search(text)
        for match in _DECLARATION.finditer(text):
            if match.group(2) != path.stem:  # nested or secondary classes: not runnable by name
                continue
            abstract = "abstract" in match.group(1).split()
            package_name = package.group(1) if package else ""
            found.append((path, package_name, match.group(2), match.group(3), abstract))
    return found


def concrete_subclass(folder: Path, simple_name: str) -> ConcreteSubclass | None:
    """The first concrete class in ``folder`` (by file name) extending ``simple_name``, directly
    or through abstract classes of the same folder; ``None`` when there is none."""
    declarations = _declarations(folder)
    wanted = {simple_name}
    for _ in range(MAX_DEPTH):
        children = [d for d in declarations if d[3] in wanted and d[2] not in wanted]
        concrete = next((d for d in children if not d[4]), None)
        if concrete is not None:
            path, package, name, _, _ = concrete
            return ConcreteSubclass(f"{package}.{name}" if package else name, path)
        wanted |= {d[2] for d in children}
        if not children:
            return None
    return None
