"""The original class with one method wrapped by the infection probe (``oracular.exec.Probe``).

Why a wrapper and not a debugger: the question is one bit per mutant and test (did the original
method, in this test, return or leave anything the extreme mutant would not?), and a copy of the
class compiled alone answers it in the helper JVM that already runs the tests. The original body
moves to a private method ``name$oracular`` with the same parameters; the method keeps its
declaration (annotations, modifiers, overriding) and calls it between two snapshots of the
receiver's and arguments' state (a static method's: its class's static fields). What each mutant
would have done is known from its body:
nothing (``{ }``), or ``return`` of a default, of ``this``, of the first argument, all without
touching the state. So a mutant is infected where the state changed, the call threw, or the
result differs from what the mutant returns. The wrapper also says that the method ran at all: a
test found to call it in its source may never reach the call (or reach another overload).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.source import SourceText
from oracular.java.types import is_primitive
from oracular.mutation.operators import Mutant

PROBE = "oracular.exec.Probe"
_RETURN = re.compile(r"^\{\s*return\s+(.*?);\s*\}$", re.DOTALL)


def _parameter_names(method: Node) -> list[str]:
    params = method.child_by_field_name("parameters")
    names = []
    for p in params.named_children if params is not None else []:
        if p.type == "formal_parameter":
            names.append(syntax.text(p.child_by_field_name("name")))
        elif p.type == "spread_parameter":
            declarator = next(c for c in p.named_children if c.type == "variable_declarator")
            names.append(syntax.text(declarator.child_by_field_name("name")))
    return names


def _differs(returned_type: str, result: str, mutant_body: str) -> str:
    """A Java condition: the original's result differs from what ``mutant_body`` returns."""
    match = _RETURN.match(mutant_body.strip())
    if match is None:
        return "false"  # a void mutant returns nothing: only the state tells
    value = match.group(1)
    if value == "this":
        return f"{result} != this"
    if is_primitive(returned_type):
        return f"{result} != ({value})"
    return f"!java.util.Objects.equals({result}, {value})"


def _owner_name(method: Node) -> str | None:
    """The simple name of the class declaring ``method`` (``None`` in an anonymous class)."""
    owner = method.parent.parent if method.parent is not None else None
    name = owner.child_by_field_name("name") if owner is not None else None
    return syntax.text(name) if name is not None and owner.type != "object_creation_expression" else None


def probe_key(mutant: Mutant) -> str:
    """The observation key under which the probe says ``mutant`` is infected."""
    return f"infected:{mutant.id}"


def called_key(mutants: Sequence[Mutant]) -> str:
    """The observation key under which the probe says the method of ``mutants`` ran."""
    return f"called:{mutants[0].id}"


def _renamed(method: Node, source: SourceText) -> str:
    """The original method as a private one named ``name$oracular``, without annotations."""
    parts = ["private"]
    if "static" in syntax.modifiers(method):
        parts.append("static")
    for field_name in ("type_parameters", "type"):
        node = method.child_by_field_name(field_name)
        if node is not None:
            parts.append(syntax.text(node))
    name = syntax.text(method.child_by_field_name("name"))
    params = syntax.text(method.child_by_field_name("parameters"))
    throws = next((syntax.text(c) for c in method.named_children if c.type == "throws"), "")
    body = method.child_by_field_name("body")
    assert body is not None
    head = " ".join(parts)
    return f"{head} {name}$oracular{params} {throws} {source.data[body.start_byte : body.end_byte].decode()}"


def probe_body(method: Node, mutants: Sequence[Mutant]) -> str:
    """The wrapper's body: snapshot, call the original, compare, record, return."""
    static = "static" in syntax.modifiers(method)
    returned = syntax.text(method.child_by_field_name("type"))
    names = _parameter_names(method)
    owner = _owner_name(method)
    receiver = f"{PROBE}.statics({owner}.class)" if static and owner else "this"
    parts = ", ".join([*([] if static and not owner else [receiver]), *names]) or "new Object[0]"
    call = f"{syntax.text(method.child_by_field_name('name'))}$oracular({', '.join(names)})"
    void = returned == "void"
    lines = [f'{PROBE}.called("{called_key(mutants)}");', f"String oracular$before = {PROBE}.state({parts});"]
    if not void:
        lines.append(f"{returned} oracular$r;")
    lines += [
        f"try {{ {call if void else f'oracular$r = {call}'}; }}",
        "catch (Throwable oracular$t) {",
        *(f'    {PROBE}.infected("{probe_key(m)}");' for m in mutants),
        "    throw oracular$t;",
        "}",
        f"boolean oracular$changed = !oracular$before.equals({PROBE}.state({parts}));",
    ]
    for mutant in mutants:
        differs = "false" if void else _differs(returned, "oracular$r", mutant.replacement)
        lines.append(f'if (oracular$changed || {differs}) {PROBE}.infected("{probe_key(mutant)}");')
    if not void:
        lines.append("return oracular$r;")
    return "{\n" + "\n".join(f"    {line}" for line in lines) + "\n}"


def probed_source(source: SourceText, method: Node, mutants: Sequence[Mutant]) -> bytes:
    """``source`` with ``method`` wrapped by the probe for ``mutants`` (all of that method)."""
    body = method.child_by_field_name("body")
    assert body is not None
    wrapper = source.data[method.start_byte : body.start_byte] + probe_body(method, mutants).encode()
    renamed = _renamed(method, source).encode()
    return source.data[: method.start_byte] + wrapper + b"\n\n" + renamed + source.data[method.end_byte :]


__all__ = ["PROBE", "called_key", "probe_body", "probe_key", "probed_source"]
