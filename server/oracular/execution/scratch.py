"""Scratch copies of a test class: one generated method per candidate oracle (or per variant).

Why a scratch copy: checking an oracle means compiling and running it, and the user's files
must never change. The scratch copy keeps everything the test needs (package, imports, fields,
set-up methods, helpers, nested classes, the class name itself so that ``FooTest.class`` and
static references still resolve) and empties the test under check, adding beside it several
methods, each the same test with one candidate inserted (the emptied test stays: a superclass may
declare it abstract, another method may call it). Other test methods are emptied or dropped (they
cost compile time and may be half-typed) unless something calls them. It is written outside the workspace
and compiled into its own folder, which shadows the real class at run time.

Variants are described as byte edits within the test method, so exactly the text the editor
would insert is what runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from oracular.candidates.render import TextEdit
from oracular.execution.subclasses import ConcreteSubclass, concrete_subclass, is_abstract_class
from oracular.java import syntax
from oracular.java.declarations import package_of
from oracular.java.junit import TestMethod
from oracular.java.source import SourceText

TOP_LEVEL_TYPES = frozenset(
    {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
     "annotation_type_declaration"}
)  # fmt: skip


Piece = tuple[str | None, str]
"""A tag and a text of the scratch copy: a generated method's key, name, class and subclass to run
on, joined by NULs, or ``None`` for other text."""
Segment = tuple[int, int, list[Piece]]
"""The pieces that replace the source's bytes ``[start, end)``."""


@dataclass(frozen=True)
class ByteEdit:
    """Replace ``source.data[start:end]`` with ``text`` (offsets in the source's bytes)."""

    start: int
    end: int
    text: str


def byte_edit(source: SourceText, edit: TextEdit) -> ByteEdit:
    """An LSP edit of ``source`` as a byte edit."""
    return ByteEdit(source.offset(*edit.start), source.offset(*edit.end), edit.new_text)


@dataclass(frozen=True)
class Variant:
    """One generated method: the test under check with ``edits`` applied (and a new name)."""

    key: str
    edits: tuple[ByteEdit, ...] = ()


@dataclass(frozen=True)
class ScratchMethod:
    key: str
    class_name: str
    """Binary name of the class declaring it: ``pkg.Outer$Inner``."""
    name: str
    first_line: int
    """1-based, inclusive."""
    last_line: int
    run_on: str | None = None
    """The concrete subclass JUnit runs it on when its class is abstract (binary name)."""


@dataclass(frozen=True)
class CompanionSource:
    """Another test source compiled beside the scratch copy from a copy of its own: a superclass
    with what does not compile here left out (:mod:`oracular.execution.pruning`)."""

    binary_name: str
    path: Path


@dataclass
class ScratchClass:
    text: str
    relative_path: Path
    """Where javac expects it under a source root: ``org/example/FooTest.java``."""
    top_level: tuple[str, ...]
    """Binary names of the file's top-level types; their class files belong to this scratch."""
    methods: dict[str, ScratchMethod] = field(default_factory=dict)
    companions: tuple[ConcreteSubclass | CompanionSource, ...] = ()
    """Sources compiled beside it: concrete subclasses to run an abstract class's tests on, pruned
    copies of its superclasses."""

    def method_at(self, line: int) -> str | None:
        """The key of the generated method spanning 1-based ``line``, if any."""
        for key, method in self.methods.items():
            if method.first_line <= line <= method.last_line:
                return key
        return None


def binary_class_name(package: str, class_name: str) -> str:
    """``pkg`` + ``Outer.Inner`` (dotted within the file) -> ``pkg.Outer$Inner``."""
    nested = class_name.replace(".", "$")
    return f"{package}.{nested}" if package else nested


def _package_end(source: SourceText) -> int:
    for node in source.root.children:
        if node.type == "package_declaration":
            return node.end_byte
    return 0


def _referenced(text: str, name: str) -> bool:
    """Whether ``name(`` or ``::name`` occurs besides its own declaration."""
    calls = len(re.findall(rf"(?<![\w$]){re.escape(name)}\s*\(", text))
    refs = len(re.findall(rf"::\s*{re.escape(name)}(?![\w$])", text))
    return calls + refs > 1


OVERRIDE = frozenset({"Override", "java.lang.Override"})


def _override_annotations(method: Node) -> list[Node]:
    modifiers = next((c for c in method.named_children if c.type == "modifiers"), None)
    if modifiers is None:
        return []
    return [
        a
        for a in modifiers.named_children
        if a.type == "marker_annotation" and syntax.text(a.child_by_field_name("name")) in OVERRIDE
    ]


def _emptied_header(test: TestMethod) -> str:
    """The test's declaration up to its body, without ``throws``: an empty body throws nothing,
    and an abstract method it implements may declare less (``throws Exception`` added to the
    cut test made commons-math3's ``testMinStep()`` fail to override)."""
    node, body = test.node, test.body
    assert body is not None
    data = node.text or b""
    start = node.start_byte
    throws = next((c for c in node.children if c.type == "throws"), None)
    cut = (throws.start_byte - start, throws.end_byte - start) if throws is not None else (0, 0)
    return (data[: cut[0]] + data[cut[1] : body.start_byte - start]).decode("utf-8")


class ScratchBuilder:
    """Builds the scratch copy of one test file from per-test variants.

    ``generated_name(n)`` names the n-th generated method; JUnit 3 needs a ``test`` prefix, and
    the ``$`` keeps every name clear of the user's.
    """

    def __init__(self, source: SourceText) -> None:
        self.source = source
        self.package = package_of(source.root)
        self._plans: list[tuple[TestMethod, list[Variant]]] = []
        self._dropped: list[Node] = []
        self._emptied: list[Node] = []
        self._imports: list[str] = []
        self._run_on: dict[str, ConcreteSubclass | None] = {}

    def replace(self, test: TestMethod, variants: Sequence[Variant]) -> None:
        node = test.node
        for variant in variants:
            for edit in variant.edits:
                if not (node.start_byte <= edit.start <= edit.end <= node.end_byte):
                    raise ValueError(f"edit for {variant.key} lies outside {test.name}")
        self._plans.append((test, list(variants)))

    def drop_other_tests(self, tests: Iterable[TestMethod]) -> None:
        """Empty the bodies of tests that are not being replaced (drop half-typed ones).

        Their bodies cost compile time and may not compile here; their signatures stay, since a
        subclass elsewhere in the project may call or override them (``super.testX()``).
        """
        replaced = {t.node.id for t, _ in self._plans}
        for test in tests:
            if test.node.id in replaced or _referenced(self.source.text, test.name):
                continue
            if test.is_incomplete or test.body is None:
                self._dropped.append(test.node)
            else:
                self._emptied.append(test.body)

    def add_imports(self, lines: Iterable[str]) -> None:
        for line in lines:
            if line not in self._imports:
                self._imports.append(line)

    def run_on(self, test: TestMethod) -> ConcreteSubclass | None:
        """A concrete subclass to run ``test`` on when its class is a top-level abstract class
        (:mod:`oracular.execution.subclasses`); looked for once per class."""
        declaration = test.node.parent.parent if test.node.parent is not None else None
        if (
            declaration is None
            or declaration.type != "class_declaration"
            or declaration.parent is None
            or declaration.parent.type != "program"
            or not is_abstract_class(declaration)
            or self.source.path is None
        ):
            return None
        if test.class_name not in self._run_on:
            self._run_on[test.class_name] = concrete_subclass(self.source.path.parent, test.class_name)
        return self._run_on[test.class_name]

    @staticmethod
    def generated_name(test: TestMethod, number: int) -> str:
        return f"testOracular${number}" if test.junit3_class else f"oracular${number}"

    def _method_text(self, test: TestMethod, variant: Variant, name: str) -> str:
        node = test.node
        name_node = test.name_node
        edits = [*variant.edits, ByteEdit(name_node.start_byte, name_node.end_byte, name)]
        # a new method overrides nothing (the emptied test beside it still does)
        edits += [ByteEdit(a.start_byte, a.end_byte, "") for a in _override_annotations(node)]
        data = self.source.data[node.start_byte : node.end_byte]
        for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
            start, end = edit.start - node.start_byte, edit.end - node.start_byte
            data = data[:start] + edit.text.encode("utf-8") + data[end:]
        return data.decode("utf-8")

    def build(self, exclude: Iterable[str] = ()) -> ScratchClass:
        """The scratch copy, leaving out the variants in ``exclude`` (those that did not compile)."""
        excluded = set(exclude)
        source = self.source
        segments: list[Segment] = []
        number = 0
        companions: dict[str, ConcreteSubclass] = {}
        for test, variants in self._plans:
            on = self.run_on(test)
            if on is not None:
                companions[on.binary_name] = on
            indent = source.line_indent(test.node.start_byte)
            pieces: list[Piece] = []
            if test.body is not None:
                # The test itself stays, emptied: it may implement an abstract test of its
                # superclass (commons-math3's testMinStep) or be called by another method.
                pieces.append((None, f"{_emptied_header(test)}{{ }}"))
            for variant in variants:
                if variant.key in excluded:
                    continue
                number += 1
                name = self.generated_name(test, number)
                prefix = "" if not pieces else f"\n\n{indent}"
                if prefix:
                    pieces.append((None, prefix))
                tag = f"{variant.key}\0{name}\0{test.class_name}\0{on.binary_name if on else ''}"
                pieces.append((tag, self._method_text(test, variant, name)))
            segments.append((test.node.start_byte, test.node.end_byte, pieces))
        for node in self._dropped:
            segments.append((node.start_byte, node.end_byte, []))
        for body in self._emptied:
            segments.append((body.start_byte, body.end_byte, [(None, "{ }")]))
        if self._imports:
            at = _package_end(source)
            text = "".join(f"\n{line}" for line in self._imports)
            segments.append((at, at, [(None, text if at else text.lstrip("\n") + "\n")]))
        text, methods = self._splice(segments)
        companion_list = tuple(companions.values())
        return ScratchClass(text, self._relative_path(), self._top_level(), methods, companion_list)

    def _splice(self, segments: list[Segment]) -> tuple[str, dict[str, ScratchMethod]]:
        """The source with ``segments`` in place of the bytes they cover, and the lines each generated
        method landed on (javac reports errors by line; :meth:`ScratchClass.method_at` maps them back)."""
        segments.sort(key=lambda s: (s[0], s[1]))
        kept: list[Segment] = []
        for segment in segments:  # a local class's tests sit inside another test: outer wins
            if kept and segment[0] < kept[-1][1] and segment[0] != segment[1]:
                continue
            kept.append(segment)

        out: list[bytes] = []
        line = 1
        methods: dict[str, ScratchMethod] = {}
        cursor = 0

        def emit(chunk: bytes) -> None:
            nonlocal line
            out.append(chunk)
            line += chunk.count(b"\n")

        for start, end, pieces in kept:
            emit(self.source.data[cursor:start])
            for tag, text in pieces:
                first = line
                emit(text.encode("utf-8"))
                if tag is not None:
                    key, name, class_name, run_on = tag.split("\0")
                    methods[key] = ScratchMethod(
                        key, binary_class_name(self.package, class_name), name, first, line, run_on or None
                    )
            cursor = end
        emit(self.source.data[cursor:])
        return b"".join(out).decode("utf-8"), methods

    def _relative_path(self) -> Path:
        directory = Path(*self.package.split(".")) if self.package else Path()
        if self.source.path is not None:
            return directory / self.source.path.name
        names = self._top_level()
        return directory / f"{names[0].rsplit('.', 1)[-1] if names else 'Scratch'}.java"

    def _top_level(self) -> tuple[str, ...]:
        return top_level_names(self.source.root, self.package)


def top_level_names(root: Node, package: str) -> tuple[str, ...]:
    """Binary names of the types a file (its tree's ``root``) declares at its top level."""
    names = []
    for node in root.children:
        if node.type in TOP_LEVEL_TYPES and (name := node.child_by_field_name("name")) is not None:
            names.append(binary_class_name(package, syntax.text(name)))
    return tuple(names)


def body_edit(test: TestMethod, statements: Sequence[str], source: SourceText) -> ByteEdit:
    """Replace the test's body with ``statements`` (indented like the body's first line)."""
    body = test.body
    if body is None:
        raise ValueError(f"{test.name} has no body")
    indent = source.line_indent(test.node.start_byte)
    inner = indent + "    "
    text = "{\n" + "".join(f"{inner}{s}\n" for s in statements) + indent + "}"
    return ByteEdit(body.start_byte, body.end_byte, text)


def append_edit(test: TestMethod, statements: Sequence[str], source: SourceText) -> ByteEdit:
    """Insert ``statements`` at the end of the test's body."""
    body = test.body
    if body is None:
        raise ValueError(f"{test.name} has no body")
    indent = source.line_indent(test.node.start_byte) + "    "
    at = body.end_byte - 1  # before the closing brace
    text = "".join(f"{indent}{s}\n" for s in statements)
    before = source.data[:at].rstrip(b" \t")
    return ByteEdit(len(before), at, ("" if before.endswith(b"\n") else "\n") + text + indent[:-4])
