"""Rendering candidates to Java text and exact text edits (with the imports they need).

Edits are computed against one parsed version of the document and carry LSP ranges (0-based,
UTF-16), so a client applies them only to the version they were made for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.grammar import FLOAT_DELTA, Candidate, uses_delta
from oracular.candidates.style import AssertionStyle
from oracular.java import syntax
from oracular.java.assertions import ASSERT_ARRAY_EQUALS, ASSERT_THROWS, ASSERT_TRUE, FAIL
from oracular.java.declarations import Import
from oracular.java.junit import Flavour
from oracular.java.prefix import PrefixAnalysis
from oracular.java.source import LINE_BREAK, SourceText
from oracular.java.types import BOX_PRIMITIVE, is_primitive

JAVA_LANG_EXCEPTIONS = frozenset(
    {
        "Exception", "RuntimeException", "Error", "Throwable", "IllegalArgumentException",
        "IllegalStateException", "NullPointerException", "IndexOutOfBoundsException",
        "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException",
        "UnsupportedOperationException", "ArithmeticException", "ClassCastException",
        "NumberFormatException", "CloneNotSupportedException", "InterruptedException",
        "NegativeArraySizeException", "SecurityException", "ReflectiveOperationException",
        "ClassNotFoundException", "ArrayStoreException", "IllegalMonitorStateException",
        "AssertionError", "StackOverflowError", "OutOfMemoryError", "IllegalAccessException",
        "InstantiationException", "NoSuchFieldException", "NoSuchMethodException",
    }
)  # fmt: skip
JDK_EXCEPTIONS = {
    name: f"{pkg}.{name}"
    for pkg, names in {
        "java.util": ("EmptyStackException", "NoSuchElementException", "ConcurrentModificationException",
                      "MissingResourceException", "InputMismatchException", "IllegalFormatException"),
        "java.io": ("IOException", "UncheckedIOException", "FileNotFoundException", "EOFException"),
        "java.text": ("ParseException",),
        "java.util.concurrent": ("TimeoutException", "ExecutionException", "CancellationException"),
        "java.nio.file": ("NoSuchFileException", "InvalidPathException"),
        "java.time": ("DateTimeException",),
    }.items()
    for name in names
}  # fmt: skip

Position = tuple[int, int]
STATEMENT_EXPRESSIONS = frozenset(
    {"method_invocation", "object_creation_expression", "assignment_expression", "update_expression"}
)
"""Expressions Java accepts as a ``void`` lambda body (``Executable``/``ThrowingRunnable``)."""


@dataclass(frozen=True)
class TextEdit:
    start: Position
    end: Position
    new_text: str

    def to_lsp(self) -> dict:
        return {
            "range": {
                "start": {"line": self.start[0], "character": self.start[1]},
                "end": {"line": self.end[0], "character": self.end[1]},
            },
            "newText": self.new_text,
        }


def apply_edits(source: SourceText, edits: Iterable[TextEdit]) -> str:
    """``source``'s text with non-overlapping LSP edits applied, last first so earlier offsets stay
    valid: what an editor does with a suggestion's edits, for the CLI's ``--write`` and the tests."""
    data = source.data
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        start = source.offset(*edit.start)
        end = source.offset(*edit.end)
        data = data[:start] + edit.new_text.encode("utf-8") + data[end:]
    return data.decode("utf-8")


@dataclass(frozen=True)
class ImportLine:
    name: str
    is_static: bool

    def text(self) -> str:
        return f"import {'static ' if self.is_static else ''}{self.name};"


@dataclass(frozen=True)
class RenderedOracle:
    oracle: str
    statement_edit: TextEdit
    imports: frozenset[ImportLine]


def indent_unit(source: SourceText, method: Node, statement: Node) -> str:
    """The file's indentation step: statement indent minus method indent (default 4 spaces)."""
    inner = source.line_indent(statement.start_byte)
    outer = source.line_indent(method.start_byte)
    if inner.startswith(outer) and len(inner) > len(outer):
        return inner[len(outer) :]
    return "\t" if inner.startswith("\t") else "    "


class Renderer:
    """Renders candidates for one test of one document version."""

    def __init__(
        self,
        source: SourceText,
        style: AssertionStyle,
        imports: list[Import],
        package: str,
        qualify_exception: Callable[[str], str | None],
    ) -> None:
        self.source = source
        self.style = style
        self.imports = imports
        self.package = package
        self.qualify_exception = qualify_exception

    # -- text -------------------------------------------------------------------------------
    def _call(self, method: str, *args: str) -> str:
        return f"{method}({', '.join(args)});"

    def _equals(self, candidate: Candidate) -> str:
        assert candidate.target is not None and candidate.expected is not None
        expected, actual = candidate.expected.text, candidate.target.expression
        if candidate.assertion == ASSERT_ARRAY_EQUALS and self.style.flavour is Flavour.JUNIT3:
            # JUnit 3's TestCase has no assertArrayEquals (args4j's and xmlunit's top oracles
            # did not compile); Arrays.equals has an overload for every array type
            return self._call(ASSERT_TRUE, f"java.util.Arrays.equals({expected}, {actual})")
        if self.style.boxed_needs_cast:
            target_type, value_type = candidate.target.type or "", candidate.expected.type
            if target_type in BOX_PRIMITIVE and is_primitive(value_type):
                actual = f"({BOX_PRIMITIVE[target_type]}) {actual}"
            elif value_type in BOX_PRIMITIVE and is_primitive(target_type):
                expected = f"({BOX_PRIMITIVE[value_type]}) {expected}"
        args = [expected, actual] if self.style.expected_first else [actual, expected]
        if uses_delta(candidate):
            args.append(FLOAT_DELTA)
        return self._call(candidate.assertion, *args)

    def assertion_text(self, candidate: Candidate) -> str:
        if candidate.kind == "helper":
            return f"{candidate.call};"
        assert candidate.target is not None
        if candidate.expected is None:
            return self._call(candidate.assertion, candidate.target.expression)
        return self._equals(candidate)

    def exception_text(self, candidate: Candidate, prefix: PrefixAnalysis, indent: str, unit: str) -> str:
        statement = prefix.throwing_statement
        exc = (candidate.exception or "Exception").rsplit(".", 1)[-1]
        body = self._lambda_body(statement, prefix)
        if self.style.supports_assert_throws and body is not None:
            return self._call(ASSERT_THROWS, f"{exc}.class", f"() -> {body}")
        # try/fail/catch: the framework has no assertThrows, or a capture would not compile in a
        # lambda. ``needed_imports`` makes the same choice (``asserts_throws``).
        inner = indent + unit
        stmt = self._reindent(statement, inner)
        return (
            f'try {{\n{inner}{stmt}\n{inner}fail("Expected {exc}");\n'
            f"{indent}}} catch ({exc} expected) {{\n{inner}// expected\n{indent}}}"
        )

    def _reindent(self, statement: Node, indent: str) -> str:
        """``statement``'s text moved to ``indent``: its continuation lines keep their indentation
        relative to its first line (a lambda's body stays nested)."""
        old = self.source.line_indent(statement.start_byte)
        lines = LINE_BREAK.split(syntax.text(statement))

        def moved(line: str) -> str:
            if not line.strip():
                return ""
            return indent + (line[len(old) :] if line.startswith(old) else line.lstrip())

        return "\n".join([lines[0], *map(moved, lines[1:])])

    def asserts_throws(self, prefix: PrefixAnalysis | None) -> bool:
        """Whether an exception oracle for ``prefix`` is an ``assertThrows`` (else try/``fail``/catch).

        Without a prefix: whether the framework has ``assertThrows`` at all.
        """
        if not self.style.supports_assert_throws:
            return False
        return prefix is None or self._lambda_body(prefix.throwing_statement, prefix) is not None

    def _lambda_body(self, statement: Node, prefix: PrefixAnalysis) -> str | None:
        """The lambda body for ``assertThrows``, or ``None`` if a capture would not compile."""
        captured = {syntax.text(n) for n in syntax.walk(statement) if n.type == "identifier"}
        if captured & prefix.reassigned:
            return None
        expression = None
        if statement.type == "expression_statement" and statement.named_children:
            expression = statement.named_children[0]
        elif statement.type == "local_variable_declaration":
            declarators = statement.children_by_field_name("declarator")
            expression = declarators[0].child_by_field_name("value") if len(declarators) == 1 else None
        if expression is not None and expression.type in STATEMENT_EXPRESSIONS:
            return syntax.text(expression)
        return f"{{ {syntax.text(statement)} }}"

    # -- imports ----------------------------------------------------------------------------
    def _has_static(self, method: str) -> bool:
        for imp in self.imports:
            if not imp.is_static:
                continue
            if imp.simple == method and not imp.is_wildcard:
                return True
            if imp.is_wildcard and imp.name == self.style.assertions_class:
                return True
        return False

    def _has_type(self, qualified: str) -> bool:
        simple = qualified.rsplit(".", 1)[-1]
        package = qualified.rsplit(".", 1)[0]
        if package == self.package:
            return True
        return any(
            (not imp.is_static) and (imp.simple == simple or (imp.is_wildcard and imp.name == package))
            for imp in self.imports
        )

    def needed_imports(
        self, candidate: Candidate, prefix: PrefixAnalysis | None = None
    ) -> frozenset[ImportLine]:
        """The imports ``candidate`` needs. For an exception oracle, pass the ``prefix`` it was
        rendered for: it decides between ``assertThrows`` and try/``fail``/catch."""
        methods = [candidate.assertion] if candidate.kind != "helper" else []  # in scope already
        if candidate.kind == "exception" and not self.asserts_throws(prefix):
            methods = [FAIL]
        lines = set()
        for method in methods:
            qualified = self.style.static_import(method)
            if qualified and not self._has_static(method):
                lines.add(ImportLine(qualified, True))
        if candidate.expected is not None:
            lines |= {ImportLine(q, False) for q in candidate.expected.imports if not self._has_type(q)}
        if candidate.exception:
            simple = candidate.exception.rsplit(".", 1)[-1]
            qualified = candidate.exception if "." in candidate.exception else self.qualify_exception(simple)
            if qualified is None and simple not in JAVA_LANG_EXCEPTIONS:
                qualified = JDK_EXCEPTIONS.get(simple)
            if qualified and not qualified.startswith("java.lang.") and not self._has_type(qualified):
                lines.add(ImportLine(qualified, False))
        return frozenset(lines)

    def import_edits(self, lines: Iterable[ImportLine]) -> list[TextEdit]:
        """Edits adding the missing imports: statics after the static ones, others after theirs."""
        wanted = sorted(set(lines), key=lambda line: (not line.is_static, line.name))
        if not wanted:
            return []
        root = self.source.root
        import_nodes = [n for n in root.children if n.type == "import_declaration"]
        if not import_nodes:
            package = next((n for n in root.children if n.type == "package_declaration"), None)
            text = "\n".join(line.text() for line in wanted)
            if package is None:
                return [TextEdit((0, 0), (0, 0), text + "\n\n")]
            position = self.source.position(package.end_byte)
            return [TextEdit(position, position, "\n\n" + text)]
        statics = [n for n in import_nodes if any(c.type == "static" for c in n.children)]
        plains = [n for n in import_nodes if n not in statics]
        groups: dict[int, list[ImportLine]] = {}
        for line in wanted:
            same_kind = statics if line.is_static else plains
            anchor = (same_kind or import_nodes)[-1]
            groups.setdefault(anchor.end_byte, []).append(line)
        edits = []
        for end_byte, group in sorted(groups.items()):
            position = self.source.position(end_byte)
            edits.append(TextEdit(position, position, "".join("\n" + line.text() for line in group)))
        return edits

    # -- edits ------------------------------------------------------------------------------
    def render(self, candidate: Candidate, prefix: PrefixAnalysis, method: Node) -> RenderedOracle:
        source = self.source
        if candidate.kind == "exception":
            statement = prefix.throwing_statement
            indent = source.line_indent(statement.start_byte)
            unit = indent_unit(source, method, statement)
            text = self.exception_text(candidate, prefix, indent, unit)
            edit = TextEdit(source.position(statement.start_byte), source.position(statement.end_byte), text)
        else:
            text = self.assertion_text(candidate)
            last = prefix.last
            if prefix.replace_last and candidate.target is not None and candidate.target.kind == "call":
                edit = TextEdit(source.position(last.start_byte), source.position(last.end_byte), text)
            else:
                indent = source.line_indent(last.start_byte)
                end = source.position(last.end_byte)
                edit = TextEdit(end, end, f"\n{indent}{text}")
        return RenderedOracle(text, edit, self.needed_imports(candidate, prefix))
