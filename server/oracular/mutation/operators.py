"""Source mutants of a focal class, in the spirit of PIT's default operators, over tree-sitter.

Why source mutants rather than PIT itself: PIT needs the project built by Maven or Gradle with
network access; here only javac and the Debian jars are available. Mutating the source and
recompiling just that file (in a warm javac) reproduces PIT's default group closely enough to
compare oracles, and makes each mutant readable in the report.

Operators (``OPERATORS``):

- ``boundary`` (PIT CONDITIONALS_BOUNDARY): ``<`` <-> ``<=``, ``>`` <-> ``>=``;
- ``negate`` (PIT NEGATE_CONDITIONALS): ``==`` <-> ``!=``, ``<`` -> ``>=`` ..., and a branch
  condition that is not a comparison is negated: ``if (c)`` -> ``if (!(c))``;
- ``math`` (PIT MATH): ``+`` <-> ``-``, ``*`` <-> ``/``, ``%`` -> ``*``, ``&`` <-> ``|``,
  ``^`` -> ``&``, shifts, and their compound assignments;
- ``increments`` (PIT INCREMENTS): ``++`` <-> ``--``;
- ``invert-negs`` (PIT INVERT_NEGS): ``-x`` -> ``x``;
- ``constant`` (PIT INLINE_CONSTS): ``1`` -> ``0``, other integers ``n`` -> ``n + 1``,
  ``1.0``/``2.0`` -> ``0.0``, other decimals -> ``1.0``, ``true`` <-> ``false``;
- ``return-default`` (PIT's return-value group): ``return e`` -> the type's default
  (``0``, ``false``, ``""``, ``null``, empty collection or ``Optional``);
- ``void-call`` (PIT VOID_METHOD_CALLS): a call statement whose value is unused is removed
  (logging calls are spared);
- ``extreme`` (Descartes' extreme mutation): a method's whole body becomes ``return <default>;``
  (both ``true`` and ``false`` for ``boolean``), or empty for ``void``; and, as Descartes also
  does, ``return this;`` where an instance method returns its own class (a builder's ``with``),
  ``return <first argument>;`` where the first parameter has the return type (an identity).

Compile-time constants (``static final`` field initialisers) and ``case`` labels are not
mutated: javac inlines them into other classes, which are not recompiled. Mutants that do not
compile (a ``+`` that was string concatenation) are "stillborn" and counted, not run.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from oracular.execution.scratch import TOP_LEVEL_TYPES, binary_class_name
from oracular.java import syntax
from oracular.java.declarations import package_of
from oracular.java.source import SourceText

OPERATORS = (
    "boundary",
    "negate",
    "math",
    "increments",
    "invert-negs",
    "constant",
    "return-default",
    "void-call",
    "extreme",
)
BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
MATH = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "&": "|", "|": "&", "^": "&",
        "<<": ">>", ">>": "<<", ">>>": "<<"}  # fmt: skip
COMPOUND = {f"{k}=": f"{v}=" for k, v in MATH.items()}
CONDITION_OWNERS = frozenset({"if_statement", "while_statement", "do_statement", "for_statement"})
INTEGER_LITERALS = frozenset(
    {"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal"}
)
FLOAT_LITERALS = frozenset({"decimal_floating_point_literal"})
LOGGERS = re.compile(r"^(log|logger|LOG|LOGGER|Log|Logger|logging)$")
TYPE_DECLARATIONS = TOP_LEVEL_TYPES
SKIPPED = frozenset({"annotation", "marker_annotation", "switch_label", "assert_statement"})
INT_MAX = 2**31 - 1
LONG_MAX = 2**63 - 1
_BOXED_DEFAULTS = {
    "boolean": "false", "Boolean": "false",
    "int": "0", "Integer": "0", "short": "0", "Short": "(short) 0", "byte": "0", "Byte": "(byte) 0",
    "char": "0", "Character": "(char) 0", "long": "0L", "Long": "0L",
    "float": "0.0f", "Float": "0.0f", "double": "0.0", "Double": "0.0",
    "String": '""', "java.lang.String": '""', "CharSequence": '""',
}  # fmt: skip
_COLLECTION_DEFAULTS = {
    "List": "java.util.Collections.emptyList()",
    "Collection": "java.util.Collections.emptyList()",
    "Iterable": "java.util.Collections.emptyList()",
    "Set": "java.util.Collections.emptySet()",
    "SortedSet": "java.util.Collections.emptySortedSet()",
    "Map": "java.util.Collections.emptyMap()",
    "SortedMap": "java.util.Collections.emptySortedMap()",
    "Iterator": "java.util.Collections.emptyIterator()",
    "Optional": "java.util.Optional.empty()",
    "Stream": "java.util.stream.Stream.empty()",
}
_ALTERNATE = {"false": "true", "0": "1", "0L": "1L", "0.0": "1.0", "0.0f": "1.0f", '""': "null"}


@dataclass(frozen=True)
class Mutant:
    """Replace ``[start, end)`` of the file's bytes with ``replacement``."""

    id: str
    path: Path
    operator: str
    line: int
    """1-based."""
    start: int
    end: int
    original: str
    replacement: str
    method: str | None

    def apply(self, data: bytes) -> bytes:
        return data[: self.start] + self.replacement.encode("utf-8") + data[self.end :]

    @property
    def description(self) -> str:
        def short(text: str) -> str:
            text = " ".join(text.split())
            return text if len(text) <= 40 else text[:39] + "…"

        change = f"{short(self.original)} -> {short(self.replacement)}"
        return f"{self.path.name}:{self.line} {self.operator}: {change}"

    def to_json(self) -> dict:
        return {"id": self.id, "operator": self.operator, "description": self.description}


def default_value(type_text: str) -> str | None:
    """The value PIT's return mutators put back for a declared return type (``None``: void)."""
    text = " ".join(type_text.split())
    if text == "void":
        return None
    base = text.split("<", 1)[0].strip()
    if base in _BOXED_DEFAULTS:
        return _BOXED_DEFAULTS[base]
    simple = base.rsplit(".", 1)[-1]
    if simple in _COLLECTION_DEFAULTS and not text.endswith("]"):
        return _COLLECTION_DEFAULTS[simple]
    return "null"


def _enclosing_types(node: Node) -> Iterator[Node]:
    parent = node.parent
    while parent is not None:
        if parent.type in TYPE_DECLARATIONS:
            yield parent
        parent = parent.parent


def _type_chain(node: Node) -> str:
    names = [syntax.text(node.child_by_field_name("name"))]
    names += [syntax.text(t.child_by_field_name("name")) for t in _enclosing_types(node)]
    return ".".join(reversed(names))


def _inside(node: Node, *types: str) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in types:
            return True
        if parent.type in ("method_declaration", "constructor_declaration", "class_body"):
            return parent.type in types
        parent = parent.parent
    return False


def _is_constant_initialiser(node: Node) -> bool:
    """Inside a ``static final`` field's initialiser: a compile-time constant javac inlines."""
    parent = node.parent
    while parent is not None and parent.type not in ("field_declaration", "method_declaration", "class_body"):
        parent = parent.parent
    if parent is None or parent.type != "field_declaration":
        return False
    modifiers = syntax.modifiers(parent)
    return "static" in modifiers and "final" in modifiers


def _enclosing_callable(node: Node) -> Node | None:
    """The method, constructor or lambda a node's code belongs to."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("method_declaration", "constructor_declaration", "lambda_expression"):
            return parent
        if parent.type in ("class_body", "enum_body", "interface_body"):
            return None
        parent = parent.parent
    return None


def _method_name(node: Node) -> str | None:
    callable_node = _enclosing_callable(node)
    while callable_node is not None and callable_node.type == "lambda_expression":
        callable_node = _enclosing_callable(callable_node)
    if callable_node is None:
        return None
    return syntax.text(callable_node.child_by_field_name("name"))


def _operator_node(node: Node) -> Node | None:
    return node.child_by_field_name("operator")


def _unparen(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _stringish(node: Node) -> bool:
    """A ``+`` operand that makes it string concatenation (as far as the syntax tells)."""
    node = _unparen(node)
    if node.type in ("string_literal", "text_block", "character_literal"):
        return True
    if node.type == "binary_expression":
        op = _operator_node(node)
        if op is not None and syntax.text(op) == "+":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            return any(side is not None and _stringish(side) for side in (left, right))
    if node.type == "method_invocation":
        return syntax.call_name(node) in ("toString", "name", "getName", "getMessage", "format", "valueOf")
    return False


def _int_value(text: str) -> tuple[int, str] | None:
    suffix = "L" if text[-1] in "lL" else ""
    digits = text.rstrip("lL").replace("_", "")
    try:
        if digits.lower().startswith("0x"):
            value = int(digits[2:], 16)
        elif digits.lower().startswith("0b"):
            value = int(digits[2:], 2)
        elif len(digits) > 1 and digits.startswith("0"):
            value = int(digits[1:], 8)
        else:
            value = int(digits)
    except ValueError:
        return None
    return value, suffix


class _Collector:
    def __init__(self, source: SourceText, path: Path, operators: frozenset[str]) -> None:
        self.source = source
        self.path = path
        self.operators = operators
        self.found: list[Mutant] = []
        self._prefix = hashlib.sha1(str(path).encode()).hexdigest()[:8]

    def add(self, operator: str, start: int, end: int, replacement: str, anchor: Node) -> None:
        if operator not in self.operators:
            return
        original = self.source.data[start:end].decode("utf-8", "replace")
        if original == replacement:
            return
        mutant_id = f"{self._prefix}-{start}-{end}-{operator}-{len(self.found)}"
        self.found.append(
            Mutant(
                mutant_id,
                self.path,
                operator,
                self.source.line_of(start) + 1,
                start,
                end,
                original,
                replacement,
                _method_name(anchor),
            )
        )

    def replace_node(self, operator: str, node: Node, replacement: str) -> None:
        self.add(operator, node.start_byte, node.end_byte, replacement, node)

    # -- per node ----------------------------------------------------------------------------
    def visit(self, node: Node) -> None:
        handler = getattr(self, f"_on_{node.type}", None)
        if handler is not None:
            handler(node)

    def _on_binary_expression(self, node: Node) -> None:
        op = _operator_node(node)
        if op is None:
            return
        text = syntax.text(op)
        if text in BOUNDARY:
            self.replace_node("boundary", op, BOUNDARY[text])
        if text in NEGATE:
            self.replace_node("negate", op, NEGATE[text])
        if text in MATH:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if text == "+" and any(side is not None and _stringish(side) for side in (left, right)):
                return
            self.replace_node("math", op, MATH[text])

    def _on_assignment_expression(self, node: Node) -> None:
        op = _operator_node(node)
        if op is not None and syntax.text(op) in COMPOUND:
            right = node.child_by_field_name("right")
            if syntax.text(op) == "+=" and right is not None and _stringish(right):
                return
            self.replace_node("math", op, COMPOUND[syntax.text(op)])

    def _on_update_expression(self, node: Node) -> None:
        for child in node.children:
            if child.type in ("++", "--"):
                self.replace_node("increments", child, "--" if child.type == "++" else "++")

    def _on_unary_expression(self, node: Node) -> None:
        op = _operator_node(node)
        operand = node.child_by_field_name("operand")
        if op is None or operand is None or syntax.text(op) != "-":
            return
        if operand.type in INTEGER_LITERALS | FLOAT_LITERALS:
            return
        self.replace_node("invert-negs", node, syntax.text(operand))

    def _condition(self, condition: Node | None) -> None:
        if condition is None:
            return
        inner = _unparen(condition)
        if inner.type == "binary_expression":
            op = _operator_node(inner)
            if op is not None and syntax.text(op) in NEGATE:
                return  # the comparison itself is negated by _on_binary_expression
        self.replace_node("negate", inner, f"!({syntax.text(inner)})")

    def _on_if_statement(self, node: Node) -> None:
        self._condition(node.child_by_field_name("condition"))

    def _on_while_statement(self, node: Node) -> None:
        self._condition(node.child_by_field_name("condition"))

    def _on_do_statement(self, node: Node) -> None:
        self._condition(node.child_by_field_name("condition"))

    def _on_for_statement(self, node: Node) -> None:
        self._condition(node.child_by_field_name("condition"))

    def _on_ternary_expression(self, node: Node) -> None:
        self._condition(node.child_by_field_name("condition"))

    def _literal(self, node: Node) -> None:
        if _is_constant_initialiser(node):
            return
        text = syntax.text(node)
        if node.type in INTEGER_LITERALS:
            parsed = _int_value(text)
            if parsed is None:
                return
            value, suffix = parsed
            new = 0 if value == 1 else value + 1
            if new > (LONG_MAX if suffix else INT_MAX):
                return
            self.replace_node("constant", node, f"{new}{suffix}")
        elif node.type in FLOAT_LITERALS:
            suffix = text[-1] if text[-1] in "fFdD" else ""
            try:
                value = float(text.rstrip("fFdD").replace("_", ""))
            except ValueError:
                return
            new = "0.0" if value in (1.0, 2.0) else "1.0"
            self.replace_node("constant", node, new + suffix)
        elif node.type in ("true", "false"):
            self.replace_node("constant", node, "false" if node.type == "true" else "true")

    def _on_decimal_integer_literal(self, node: Node) -> None:
        self._literal(node)

    _on_hex_integer_literal = _on_decimal_integer_literal
    _on_octal_integer_literal = _on_decimal_integer_literal
    _on_binary_integer_literal = _on_decimal_integer_literal
    _on_decimal_floating_point_literal = _on_decimal_integer_literal
    _on_true = _on_decimal_integer_literal
    _on_false = _on_decimal_integer_literal

    def _on_return_statement(self, node: Node) -> None:
        value = node.named_children[0] if node.named_children else None
        owner = _enclosing_callable(node)
        if value is None or owner is None or owner.type != "method_declaration":
            return
        returned = owner.child_by_field_name("type")
        default = default_value(syntax.text(returned)) if returned is not None else None
        if default is None:
            return
        text = syntax.text(value)
        if text == default:
            default = _ALTERNATE.get(default)
            if default is None:
                return
        self.replace_node("return-default", value, default)

    def _on_expression_statement(self, node: Node) -> None:
        call = node.named_children[0] if node.named_children else None
        if call is None or call.type != "method_invocation":
            return
        receiver = call.child_by_field_name("object")
        if receiver is not None and LOGGERS.match(syntax.text(receiver).rsplit(".", 1)[-1]):
            return
        self.replace_node("void-call", node, ";")

    def _on_method_declaration(self, node: Node) -> None:
        body = node.child_by_field_name("body")
        returned = node.child_by_field_name("type")
        if body is None or returned is None or "abstract" in syntax.modifiers(node):
            return
        returned_text = " ".join(syntax.text(returned).split())
        default = default_value(returned_text)
        bodies = ["{ }"] if default is None else [f"{{ return {default}; }}"]
        if default == "false":
            bodies.append("{ return true; }")
        owner = node.parent.parent if node.parent is not None else None
        owner_name = owner.child_by_field_name("name") if owner is not None else None
        if (
            owner_name is not None
            and returned_text.split("<", 1)[0] == syntax.text(owner_name)
            and "static" not in syntax.modifiers(node)
        ):
            bodies.append("{ return this; }")
        params = node.child_by_field_name("parameters")
        first = (
            next((p for p in params.named_children if p.type == "formal_parameter"), None) if params else None
        )
        if (
            first is not None
            and " ".join(syntax.text(first.child_by_field_name("type")).split()) == returned_text
        ):
            bodies.append(f"{{ return {syntax.text(first.child_by_field_name('name'))}; }}")
        current = " ".join(syntax.text(body).split())
        for new_body in bodies:
            if current != new_body:
                self.replace_node("extreme", body, new_body)


def mutants_for(
    source: SourceText,
    path: Path,
    classes: Iterable[str] | None = None,
    operators: Iterable[str] = OPERATORS,
) -> list[Mutant]:
    """All mutants of ``source`` within the named classes (binary names; ``None``: every class)."""
    wanted = set(classes) if classes is not None else None
    package = package_of(source.root)
    collector = _Collector(source, path, frozenset(operators))
    # (node, whether some enclosing type is wanted): decided once per type declaration.
    stack: list[tuple[Node, bool]] = [(source.root, wanted is None)]
    while stack:
        node, eligible = stack.pop()
        if node.type in SKIPPED:
            continue
        if node.type in TYPE_DECLARATIONS:
            eligible = eligible or (
                wanted is not None and binary_class_name(package, _type_chain(node)) in wanted
            )
        elif node.type != "program" and eligible:
            collector.visit(node)
        stack.extend((child, eligible) for child in reversed(node.children))
    unique: dict[tuple[int, int, str], Mutant] = {}
    for mutant in collector.found:  # `return 0` is both a constant and a default-return mutant
        unique.setdefault((mutant.start, mutant.end, mutant.replacement), mutant)
    return sorted(unique.values(), key=lambda m: (m.start, m.end, m.operator))


def extreme_mutants(source: SourceText, node: Node) -> list[Mutant]:
    """The extreme mutants of one method declaration (its own body; no walk of the whole file)."""
    if source.path is None:
        return []
    collector = _Collector(source, source.path, frozenset({"extreme"}))
    collector.visit(node)
    return collector.found
