"""Which methods of the code under test each test of a class calls: what its mutants must face.

Why static calls: a pseudo-tested method is one the tests execute and never check, so the methods
worth mutating are those the tests reach; the calls a test's body makes (and the bodies of the
test class's own helpers it calls) name them through the same type inference the ranking uses
(:meth:`~oracular.java.types.TypeEnv.resolve_call`). A method reached only through another one
(``push`` calling ``grow``) is not listed: Descartes mutates every method, but the user asked
about what these tests call, and the report says which tests execute each mutant.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from oracular.engine.analysis import FileAnalysis, TestStatus
from oracular.engine.scope import env_for_test
from oracular.java import syntax
from oracular.java.declarations import ClassInfo, MethodInfo
from oracular.java.junit import Flavour
from oracular.java.prefix import collect_locals
from oracular.java.source import SourceText
from oracular.java.types import TypeEnv
from oracular.java.workspace import WorkspaceIndex, is_test_path

HELPER_DEPTH = 2
"""How deep calls through the test class's own helpers are followed (``check(s)`` calling
``s.pop()``)."""


@dataclass(frozen=True)
class CalledMethod:
    """A method of the code under test, by where it is declared."""

    path: Path
    class_name: str
    """Qualified, dotted: ``org.example.stack.Stack``."""
    name: str
    line: int
    """0-based line of the declaration (:attr:`MethodInfo.line`)."""
    arity: int

    @property
    def label(self) -> str:
        """``Stack.pop``: how reports and code lenses name it."""
        return f"{self.class_name.rsplit('.', 1)[-1]}.{self.name}"


@dataclass
class CallMap:
    """Per called method, the tests (by name) that call it, in file order."""

    tests: dict[CalledMethod, list[str]] = field(default_factory=dict)

    def add(self, method: CalledMethod, test: str) -> None:
        callers = self.tests.setdefault(method, [])
        if test not in callers:
            callers.append(test)


def _declared_in_main(owner: ClassInfo, method: MethodInfo) -> bool:
    """A method with a body in the main sources: what a mutant can replace."""
    return bool(owner.path) and not is_test_path(Path(owner.path)) and "abstract" not in method.modifiers


def _calls(body: Node) -> Iterator[Node]:
    for node in syntax.walk(body):
        if node.type == "method_invocation":
            yield node


def _reached(method: Node, env: TypeEnv, depth: int) -> Iterator[tuple[ClassInfo, MethodInfo]]:
    """The workspace methods ``method``'s body calls, and those its class's own helpers call."""
    collect_locals(method, env)
    body = method.child_by_field_name("body")
    if body is None:
        return
    for call in _calls(body):
        resolved = env.resolve_call(call)
        if resolved is not None:
            yield resolved.cls, resolved.method
            continue
        own = env.own_method(call)
        if own is not None and depth > 0:
            helper = _method_node(method, own[1])
            if helper is not None and helper is not method:
                yield from _reached(helper, env, depth - 1)


def _method_node(inside: Node, info: MethodInfo) -> Node | None:
    """The declaration of ``info`` in the same file as ``inside`` (a helper of the test class)."""
    root = inside
    while root.parent is not None:
        root = root.parent
    for node in syntax.walk(root):
        if node.type == "method_declaration" and node.start_point[0] == info.line:
            name = node.child_by_field_name("name")
            if name is not None and syntax.text(name) == info.name:
                return node
    return None


def called_methods(index: WorkspaceIndex, analysis: FileAnalysis) -> CallMap:
    """The main-source methods each runnable test of ``analysis`` calls (TestNG's are not run)."""
    found = CallMap()
    for status in _runnable(analysis):
        env = env_for_test(index, analysis, status)
        for owner, method in _reached(status.test.node, env, HELPER_DEPTH):
            if method.is_constructor or not _declared_in_main(owner, method):
                continue
            key = CalledMethod(
                Path(owner.path), owner.qualified_name, method.name, method.line, len(method.params)
            )
            found.add(key, status.test.name)
    return found


def method_node(source: SourceText, method: CalledMethod) -> Node | None:
    """The declaration of ``method`` in its parsed file."""
    for node in syntax.walk(source.root):
        if node.type == "method_declaration" and node.start_point[0] == method.line:
            name = node.child_by_field_name("name")
            if name is not None and syntax.text(name) == method.name:
                return node
    return None


def tests_by_name(analysis: FileAnalysis, names: set[str]) -> dict[str, TestStatus]:
    """The statuses of the named tests, in file order (the first of a repeated name)."""
    found: dict[str, TestStatus] = {}
    for status in analysis.statuses:
        if status.test.name in names and status.test.name not in found:
            found[status.test.name] = status
    return found


def _runnable(analysis: FileAnalysis) -> list[TestStatus]:
    return [
        s for s in analysis.statuses
        if not s.incomplete and s.test.body is not None and s.test.flavour is not Flavour.TESTNG
    ]  # fmt: skip


__all__ = ["CallMap", "CalledMethod", "called_methods", "method_node", "tests_by_name"]
