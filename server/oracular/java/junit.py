"""Which methods are tests, and which test framework a file uses.

Covers JUnit 3 (``testX()`` in a ``TestCase`` subclass), JUnit 4 and 5 annotations, and TestNG
(method- or class-level ``@Test``). The flavour decides how an emitted oracle is spelled and
imported, so it is detected per file from its imports, with class-level overrides for JUnit 3.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import Import
from oracular.java.source import SourceText


class Flavour(StrEnum):
    JUNIT3 = "junit3"
    JUNIT4 = "junit4"
    JUNIT5 = "junit5"
    TESTNG = "testng"


TEST_ANNOTATIONS = frozenset({"Test", "ParameterizedTest", "RepeatedTest", "Property", "Theory"})
NON_TEST_ANNOTATIONS = frozenset(
    {
        "BeforeMethod", "AfterMethod", "BeforeClass", "AfterClass", "BeforeTest", "AfterTest",
        "BeforeSuite", "AfterSuite", "BeforeGroups", "AfterGroups", "DataProvider", "Factory",
    }
)  # fmt: skip


def file_flavour(imports: list[Import]) -> Flavour | None:
    """The framework named by a file's imports (JUnit 5 wins when a file mixes them)."""
    names = [i.name for i in imports]
    if any(n.startswith("org.junit.jupiter") for n in names):
        return Flavour.JUNIT5
    if any(n.startswith("org.testng") for n in names):
        return Flavour.TESTNG
    if any(n.startswith("org.junit") for n in names):
        return Flavour.JUNIT4
    if any(n.startswith("junit.framework") for n in names):
        return Flavour.JUNIT3
    return None


@dataclass
class TestMethod:
    node: Node
    name: str
    class_node: Node
    class_name: str
    """Dotted within the file: ``Outer.Inner``."""
    flavour: Flavour
    annotations: dict[str, dict[str, str]] = field(default_factory=dict)
    line_of: Callable[[int], int] | None = None
    """The document's 0-based line of a byte offset, counted as LSP counts (``\n``, ``\r\n``
    and a lone ``\r`` end lines; tree-sitter's rows count ``\n`` only): ``SourceText.line_of``."""
    junit3_class: bool = False
    """Its class extends ``TestCase``: JUnit runs it as JUnit 3 whatever its annotations say, so
    only public ``test*`` methods run (ini4j's ``@Test`` methods in a ``TestCase`` subclass)."""

    @property
    def name_node(self) -> Node:
        node = self.node.child_by_field_name("name")
        assert node is not None
        return node

    @property
    def body(self) -> Node | None:
        return self.node.child_by_field_name("body")

    def _line(self, byte_offset: int, point: tuple[int, int]) -> int:
        return self.line_of(byte_offset) if self.line_of is not None else point[0]

    def spans_line(self, line: int) -> bool:
        """Whether the method (annotations to closing brace) covers 1-based ``line``."""
        node = self.node
        return (
            self._line(node.start_byte, node.start_point) + 1
            <= line
            <= self._line(node.end_byte, node.end_point) + 1
        )

    @property
    def line(self) -> int:
        """0-based line of the method's name."""
        return self._line(self.name_node.start_byte, self.name_node.start_point)

    @property
    def is_incomplete(self) -> bool:
        """Half-typed or broken: skipped rather than guessed."""
        return self.node.has_error or self.body is None

    @property
    def expected_exception(self) -> str | None:
        """``@Test(expected = X.class)`` / ``@Test(expectedExceptions = X.class)``."""
        args = self.annotations.get("Test", {})
        value = args.get("expected") or args.get("expectedExceptions")
        return value.removesuffix(".class").strip("{} ") if value else None


def _class_chain(class_node: Node) -> str:
    names = [syntax.text(class_node.child_by_field_name("name"))]
    parent = syntax.enclosing(class_node, *syntax.CLASS_LIKE)
    while parent is not None:
        names.append(syntax.text(parent.child_by_field_name("name")))
        parent = syntax.enclosing(parent, *syntax.CLASS_LIKE)
    return ".".join(reversed(names))


def _is_junit3_class(class_node: Node, junit3_bases: frozenset[str]) -> bool:
    superclass = class_node.child_by_field_name("superclass")
    if superclass is None:
        return False
    base = syntax.text(superclass).removeprefix("extends").strip().split("<", 1)[0].rsplit(".", 1)[-1]
    return base == "TestCase" or base in junit3_bases


def find_test_methods(
    source: SourceText,
    imports: list[Import],
    junit3_bases: frozenset[str] = frozenset(),
) -> list[TestMethod]:
    """Every test method in the file, nested and inner classes included, in source order.

    Method bodies are not entered: a local or anonymous class's methods are never tests.

    ``junit3_bases`` names workspace classes known to extend ``TestCase``, so that a suite's
    own abstract base class still marks its subclasses as JUnit 3 tests.
    """
    default = file_flavour(imports) or Flavour.JUNIT5
    found: list[TestMethod] = []
    for node in syntax.member_declarations(source.root):
        if node.type != "method_declaration":
            continue
        body_parent = node.parent
        if body_parent is not None and body_parent.type == "enum_body_declarations":
            continue
        class_node = (
            body_parent.parent if body_parent is not None and body_parent.type == "class_body" else None
        )
        if class_node is None or class_node.type != "class_declaration":
            continue
        annotations = {
            syntax.annotation_name(a): syntax.annotation_arguments(a) for a in syntax.annotations(node)
        }
        name = syntax.text(node.child_by_field_name("name"))
        flavour = default
        is_test = bool(TEST_ANNOTATIONS & annotations.keys())
        junit3_class = _is_junit3_class(class_node, junit3_bases)
        if not is_test and junit3_class:
            params = node.child_by_field_name("parameters")
            is_test = (
                name.startswith("test")
                and "public" in syntax.modifiers(node)
                and syntax.text(node.child_by_field_name("type")) == "void"
                and (params is None or not params.named_children)
            )
            flavour = Flavour.JUNIT3
        if not is_test and default is Flavour.TESTNG:
            class_annotations = {syntax.annotation_name(a) for a in syntax.annotations(class_node)}
            mods = syntax.modifiers(node)
            is_test = (
                "Test" in class_annotations
                and "public" in mods
                and "static" not in mods
                and not (NON_TEST_ANNOTATIONS & annotations.keys())
            )
        if is_test:
            chain = _class_chain(class_node)
            found.append(
                TestMethod(node, name, class_node, chain, flavour, annotations, source.line_of, junit3_class)
            )
    return found
