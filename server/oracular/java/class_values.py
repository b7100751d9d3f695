"""Values a test class names for its tests' expectations: its fields that only ever hold one
literal, and the other classes' constants it writes.

Why: a test class often keeps its inputs and expectations in plain fields, set where they are
declared or in the set-up method (jasypt's ``expectedDecryptedValue = "clearText"`` in ``setUp``,
abego-treelayout's ``String n2 = "n2"``), and its tests assert with the name:
``assertEquals(expectedDecryptedValue, eppc.convertPropertyValue(...))``. Not ``static final``, so
they are no constants to the index, yet every write gives them the same literal: what a developer
names there is as fixed as a constant. A field written anything else, or two different literals,
is state, not a name for a value. Likewise a constant of a class that is neither the unit nor the
test (a suite's ``TestUtil``) is an expected value once the class writes it somewhere.
"""

from __future__ import annotations

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.types import literal_type

_WRITES = ("assignment_expression", "update_expression")


def _written_field(node: Node) -> str | None:
    """The simple name a write targets: ``x = ...``, ``this.x = ...``, ``x++``."""
    if node.type == "assignment_expression":
        left = node.child_by_field_name("left")
    else:
        left = next((c for c in node.named_children), None)
    if left is None:
        return None
    if left.type == "identifier":
        return syntax.text(left)
    if left.type == "field_access" and syntax.text(left.child_by_field_name("object")) == "this":
        return syntax.text(left.child_by_field_name("field"))
    return None


def _literal(node: Node | None) -> str | None:
    """A literal's text (not ``null``: no value to compare), else ``None``."""
    if node is None or literal_type(node) in (None, "null"):
        return None
    return syntax.text(node)


def literal_fields(class_node: Node) -> dict[str, tuple[str, str]]:
    """Field name -> (declared type, literal) for the fields declared in ``class_node``'s body
    (not ``static final``: those are constants already) whose every write in the class, the
    declaration's initialiser included, is one and the same literal. A local or parameter of the
    same name counts as a write of the field: the name is then not the field's alone."""
    body = class_node.child_by_field_name("body")
    if body is None:
        return {}
    declared: dict[str, tuple[str, set[str | None]]] = {}
    for member in body.named_children:
        if member.type != "field_declaration" or {"static", "final"} <= syntax.modifiers(member):
            continue
        for declarator in member.children_by_field_name("declarator"):
            name = syntax.text(declarator.child_by_field_name("name"))
            value = declarator.child_by_field_name("value")
            writes = {_literal(value)} if value is not None else set()
            declared[name] = (syntax.declared_type(member, declarator), writes)
    if not declared:
        return {}
    for node in syntax.walk(body):
        if node.type in _WRITES:
            name = _written_field(node)
            if name in declared:
                right = node.child_by_field_name("right") if node.type == "assignment_expression" else None
                operator = node.child_by_field_name("operator")
                plain = operator is None or syntax.text(operator) == "="
                declared[name][1].add(_literal(right) if plain else None)
        elif node.type in ("variable_declarator", "formal_parameter"):
            name = syntax.text(node.child_by_field_name("name"))
            if name in declared and node.parent is not None and node.parent.type != "field_declaration":
                declared[name][1].add(None)
    return {
        name: (field_type, next(iter(writes)))
        for name, (field_type, writes) in declared.items()
        if len(writes) == 1 and None not in writes
    }


def written_constants(class_node: Node) -> tuple[str, ...]:
    """The qualified names the class writes that may be another class's constants
    (``TestUtil.HTTP_TEST_PROXY``, ``ResultMonitor.SUCCESS``), each once, in order: a test class
    that names one in some test names its expectations with it (proxy-vole's
    ``assertEquals(TestUtil.HTTP_TEST_PROXY, result.get(0))``). Which are constants, and of what
    type, the index says (:meth:`~oracular.engine.OracleEngine.values_for`)."""
    found: dict[str, None] = {}
    for node in syntax.walk(class_node):
        if node.type != "field_access":
            continue
        owner, name = node.child_by_field_name("object"), syntax.text(node.child_by_field_name("field"))
        if (
            owner is not None
            and owner.type == "identifier"
            and syntax.text(owner)[:1].isupper()
            and name.isupper()
        ):
            found.setdefault(syntax.text(node))
    return tuple(found)
