"""Leaving out what does not compile here, where leaving it out cannot change what a test does.

Why: a test class that imports a library the classpath lacks (a mocking runner Debian does not
package, a newer assertion library), or whose superclass in the test sources does, fails to
compile as a whole, and none of its tests can be observed, though most of them never touch that
library. javac's errors outside the generated methods are mapped to the import, class annotation
or member they lie in, and that is left out, round by round, where a test's state cannot depend
on it: an import, an unannotated field (whoever reads it then fails to compile), a method that
sets nothing up (annotated at most ``@Test``, ``@After``... and not JUnit 3's ``setUp``: never a
constructor, an initialiser, a ``@Before`` method or an ``@Override``, whose absence would change
what runs), an unannotated nested class, a class annotation naming a missing type (a runner: the
tests then run on JUnit's own). Where an error lies anywhere else the class still does not
compile, as before. A generated method that uses what was left out fails to compile on its own
(:mod:`oracular.execution.runner` leaves that variant out), so every value read comes from the
user's code as written, less members it did not run (the one difference a test can meet is the
runner, where the class named a missing one).

A class of those files, or of the code under test, that lacks a method its interface gained since
it was written is given a stub instead (:mod:`oracular.execution.stubs`: commons-dbcp's
``TesterConnection`` and JDBC 4.1, findbugs' ``PreorderVisitor`` and BCEL's ``visitConstantModule``).

The left-out text is blanked line for line, so javac's line numbers still name the same lines.
A superclass from the same test source root is compiled from a pruned copy beside the scratch
copy; its classes then shadow nothing (the real one never compiled).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tree_sitter import Node

from oracular.execution.jvm import Diagnostic
from oracular.execution.scratch import TOP_LEVEL_TYPES, CompanionSource, ScratchClass, top_level_names
from oracular.execution.stubs import Signatures, Stub, stub_for, with_stubs
from oracular.java import syntax
from oracular.java.declarations import package_of
from oracular.java.source import parse_text

BODIES = frozenset({"class_body", "interface_body", "enum_body_declarations", "annotation_type_body"})
MEMBERS = frozenset({
    "method_declaration", "field_declaration", "constructor_declaration", "compact_constructor_declaration",
    "static_initializer", "block", *TOP_LEVEL_TYPES,
})  # fmt: skip
INERT_ANNOTATIONS = frozenset({
    "Test", "Ignore", "Disabled", "After", "AfterEach", "AfterClass", "AfterAll", "SuppressWarnings",
    "Deprecated", "DisplayName", "Tag", "Timeout",
})  # fmt: skip
"""A method annotated with these alone sets up nothing another test's run depends on (an
``@After`` runs once the test's values are read)."""
SET_UP_NAMES = frozenset({"setUp", "setUpBeforeClass"})
"""JUnit 3 runs ``setUp`` before each test by its name alone."""


@dataclass(frozen=True)
class LeftOut:
    """One import, annotation or member left out, and javac's reason."""

    file: str
    line: int
    what: str
    why: str

    def describe(self) -> str:
        return f"{self.file}:{self.line}: {self.what} ({self.why})"


def _line_start(data: bytes, line: int) -> int | None:
    """Byte offset of the first non-blank character of 1-based ``line``."""
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return None
    end = data.find(b"\n", start)
    text = data[start : end if end >= 0 else len(data)]
    stripped = len(text) - len(text.lstrip())
    return start + stripped if stripped < len(text) else None


def _is_member(node: Node) -> bool:
    """Whether ``node`` is a member of a type declared at the top level or as a member itself (not
    of an anonymous or local class: an error there lies in the method that holds it)."""
    body = node.parent
    if node.type not in MEMBERS or body is None or body.type not in BODIES:
        return False
    declaration = body.parent.parent if body.type == "enum_body_declarations" else body.parent
    return declaration is not None and _is_type(declaration)


def _is_type(node: Node) -> bool:
    """Whether ``node`` declares a type at the top level or as a member."""
    if node.type not in TOP_LEVEL_TYPES or node.parent is None:
        return False
    return node.parent.type == "program" or _is_member(node)


def _inert(member: Node) -> bool:
    """Whether leaving ``member`` out cannot change the state any remaining code runs in."""
    if member.type == "field_declaration" or member.type in TOP_LEVEL_TYPES:
        return not syntax.annotations(member)
    if member.type != "method_declaration":
        return False  # constructors and initialisers run for every test
    name = syntax.text(member.child_by_field_name("name"))
    annotations = {syntax.annotation_name(a) for a in syntax.annotations(member)}
    return name not in SET_UP_NAMES and annotations <= INERT_ANNOTATIONS


def removable_at(root: Node, data: bytes, line: int, keep: Sequence[tuple[int, int]] = ()) -> Node | None:
    """The import, type annotation or inert member holding 1-based ``line``; ``None`` where the
    error lies anywhere else or the node spans a line range of ``keep`` (the generated methods)."""
    offset = _line_start(data, line)
    node = root.descendant_for_byte_range(offset, offset) if offset is not None else None
    while node is not None and node.parent is not None:
        parent = node.parent
        found = None
        if node.type == "import_declaration":
            found = node
        elif node.type in ("annotation", "marker_annotation") and parent.type == "modifiers":
            found = node if parent.parent is not None and _is_type(parent.parent) else None
        elif _is_member(node):
            found = node if _inert(node) else None
            if found is None:
                return None
        if found is not None:
            first, last = found.start_point[0] + 1, found.end_point[0] + 1
            return None if any(first <= b and a <= last for a, b in keep) else found
        node = parent
    return None


def _what(node: Node) -> str:
    if node.type == "import_declaration":
        return " ".join(syntax.text(node).split()).rstrip(";")
    if node.type in ("annotation", "marker_annotation"):
        return f"@{syntax.annotation_name(node)}"
    if node.type == "field_declaration":
        declarators = node.children_by_field_name("declarator")
        return f"field {', '.join(syntax.text(d.child_by_field_name('name')) for d in declarators)}"
    kind = "method" if node.type == "method_declaration" else "class"
    return f"{kind} {syntax.text(node.child_by_field_name('name'))}"


def _candidates(root: Node) -> Iterator[Node]:
    """Every node :func:`removable_at` may return, at any depth."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("import_declaration", "annotation", "marker_annotation") or _is_member(node):
            yield node
        stack.extend(node.children)


def blank(data: bytes, texts: Iterable[bytes], keep: Sequence[tuple[int, int]] = ()) -> bytes:
    """``data`` with every removable node whose text is one of ``texts`` replaced by as many line
    breaks as it spans (outside ``keep``'s lines)."""
    wanted = set(texts)
    if not wanted:
        return data
    root = parse_text(data.decode("utf-8", "replace")).root
    spans = []
    for node in _candidates(root):
        first, last = node.start_point[0] + 1, node.end_point[0] + 1
        kept = any(first <= b and a <= last for a, b in keep)
        if data[node.start_byte : node.end_byte] in wanted and not kept:
            spans.append((node.start_byte, node.end_byte))
    out, cursor = [], 0
    for start, end in sorted(spans):
        if start < cursor:
            continue  # inside a span already blanked
        out += [data[cursor:start], b"\n" * data.count(b"\n", start, end)]
        cursor = end
    out.append(data[cursor:])
    return b"".join(out)


@dataclass
class Pruner:
    """What one compilation has left out so far: of the scratch copy (applied to each rebuilt
    one) and of the test sources' other files under ``roots`` (compiled from pruned copies)."""

    roots: tuple[Path, ...]
    """The source roots whose files may be pruned: those holding the scratch copy's own file."""
    signature_of: Signatures | None = None
    """Where a method an interface gained since is read, to stub it (:mod:`oracular.execution.stubs`)."""
    stub_roots: tuple[Path, ...] = ()
    """The source roots whose classes may be given such stubs: every root, the code under test's
    too (findbugs' ``PreorderVisitor`` predates BCEL's ``visitConstantModule``)."""
    left_out: list[LeftOut] = field(default_factory=list)
    _own: set[bytes] = field(default_factory=set)
    _stubs: dict[Path | None, list[Stub]] = field(default_factory=dict)
    """A file (``None``: the scratch copy) -> the methods stubbed in its classes."""
    _others: dict[Path, tuple[Path, set[bytes]]] = field(default_factory=dict)
    """A pruned file -> its root and the texts left out of it."""
    _copy_of: dict[Path, Path] = field(default_factory=dict)
    """A pruned copy -> the file it copies (javac reports the copy's errors by its path)."""

    @classmethod
    def for_scratch(
        cls, scratch: ScratchClass, sourcepath: Sequence[Path], signature_of: Signatures | None = None
    ) -> Pruner:
        roots = tuple(r.resolve() for r in sourcepath if (r / scratch.relative_path).is_file())
        return cls(roots, signature_of, tuple(r.resolve() for r in sourcepath))

    @staticmethod
    def _keep(scratch: ScratchClass) -> list[tuple[int, int]]:
        return [(m.first_line, m.last_line) for m in scratch.methods.values()]

    def apply(self, scratch: ScratchClass) -> ScratchClass:
        """``scratch`` with what was left out of it blanked."""
        if not self._own and None not in self._stubs:
            return scratch
        data = blank(scratch.text.encode("utf-8"), self._own, self._keep(scratch))
        return replace(scratch, text=with_stubs(data, self._stubs.get(None, [])).decode("utf-8"))

    def copies(self, scratch: ScratchClass, src_dir: Path) -> ScratchClass:
        """``scratch`` with the pruned copies of other files written under ``src_dir`` as its
        companions (compiled beside it, their classes kept with it)."""
        companions = []
        for path, (root, texts) in self._others.items():
            data = with_stubs(blank(path.read_bytes(), texts), self._stubs.get(path, []))
            copy = src_dir / path.relative_to(root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(data)
            self._copy_of[copy.resolve()] = path
            tree = parse_text(data.decode("utf-8", "replace")).root
            companions += [CompanionSource(name, copy) for name in top_level_names(tree, package_of(tree))]
        return replace(scratch, companions=(*scratch.companions, *companions)) if companions else scratch

    def leave_out(
        self, scratch: ScratchClass, scratch_path: Path, diagnostics: Sequence[Diagnostic]
    ) -> Diagnostic | None:
        """Leave out what holds each error outside the generated methods; the error nothing can be
        left out for (the class does not compile as it stands), or ``None``: compile again.
        ``diagnostics`` are javac's errors of one round (at least one)."""
        own = scratch_path.resolve()
        added = False
        seen: dict[Path, bytes] = {}  # each file as this round found it: two errors may share a member
        for d in diagnostics:
            path = Path(d.file).resolve() if d.file else None
            path = self._copy_of.get(path, path) if path is not None else None
            stubbed = self._stub(d, path, own)
            if stubbed is not None:
                added = added or stubbed
                continue
            if path == own:
                data, keep, texts = scratch.text.encode("utf-8"), self._keep(scratch), self._own
            else:
                root = next((r for r in self.roots if path is not None and path.is_relative_to(r)), None)
                if path is None or root is None:
                    return d  # not the test sources' (a main source, a jar): nothing to leave out
                texts = self._others.setdefault(path, (root, set()))[1]
                data, keep = seen.setdefault(path, blank(path.read_bytes(), texts)), []
            node = removable_at(parse_text(data.decode("utf-8", "replace")).root, data, d.line, keep)
            if node is None:
                return d
            text = data[node.start_byte : node.end_byte]
            if text not in texts:
                texts.add(text)
                self.left_out.append(LeftOut(path.name, d.line, _what(node), d.short()))
                added = True
        return None if added else diagnostics[0]

    def _stub(self, d: Diagnostic, path: Path | None, own: Path) -> bool | None:
        """Stub the method a class of the scratch copy or of its roots lacks for ``d`` (whether
        newly), or ``None`` where ``d`` asks for none or the method cannot be read."""
        roots = (*self.roots, *self.stub_roots)
        root = next((r for r in roots if path is not None and path.is_relative_to(r)), None)
        if self.signature_of is None or path is None or (path != own and root is None):
            return None
        stub = stub_for(d.message, self.signature_of)
        if stub is None:
            return None
        key = None if path == own else path
        if key is not None:
            self._others.setdefault(path, (root, set()))
        stubs = self._stubs.setdefault(key, [])
        if stub in stubs:
            return False
        stubs.append(stub)
        self.left_out.append(LeftOut(path.name, d.line, f"a stub added: {stub.text}", d.short()))
        return True
