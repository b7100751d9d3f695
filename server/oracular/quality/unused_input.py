"""``unused-input``: a value the test feeds to an object it checks, that no assertion ever checks.

OraclePolish's unused inputs: in its ``Employee`` example the test sets the first name, then
asserts only on ``toString()``, which does not contain it; in JFreeChart's ``testGetRowKey`` the
column keys passed to ``addValue`` are never checked, only the row keys. Either the assertion is
missing or the input is noise.

Statically, an input is a literal (or a local initialised with one) handed to an object of the
unit (a workspace class) that the assertions *observe* through some of its methods but never
compare whole. It is used when its value occurs in what the assertions check (equal, or inside
an asserted string) or when its getter is asserted on. Whether an unchecked input is really
unused depends on what the observers can see, and on the dev projects most objects are observed
through computed values (``getMean()``, ``fit()``) that may depend on every input. So only three
shapes are judged:

- *setters* (``setName("x")``): a deliberate input, on an object observed only through the
  getters of the properties the test sets, or ``toString()``. Each property is then checked
  through its own getter (``getName()``), or not at all.
- *constructor arguments* with a getter, on an object observed only through ``toString()``
  (OraclePolish's case: the rendering leaves the input out). Checking one property of an object
  built with several is a focused test, not a weak one.
- *entries*: arguments of other calls (``addValue(v, "R1", "C1")``) on an object observed only
  through lookups (``getRowKey(0)``, ``get(k)``), when some data of the same call (a key or a
  value, not an index) is checked and some is not (the row keys but not the column keys).

Numbers and booleans count as used once ``toString()`` is checked, since their rendering is
unknown.

When the getter exists, the fix asserts it with the known value: ``assertEquals("x",
e.getName())``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.grammar import Candidate
from oracular.candidates.values import Value
from oracular.java import syntax
from oracular.java.assertions import (
    ASSERT_ARRAY_EQUALS,
    ASSERT_EQUALS,
    ASSERT_FALSE,
    ASSERT_TRUE,
)
from oracular.java.declarations import ClassInfo
from oracular.java.prefix import Target
from oracular.java.types import instantiate_return, is_array, literal_type
from oracular.quality.context import FileContext, TestContext, is_literal, name_of
from oracular.quality.finding import Finding, Fix, Severity

CODE = "unused-input"
ON_BY_DEFAULT = False
"""Hand-checked precision on dev: 0 of 14 findings (0%) (``docs/quality.md``); on from 80%."""
SUMMARY = "a value handed to a checked object that no assertion checks"
_SETTER = re.compile(r"^set([A-Z]\w*)$")
_OBSERVER = re.compile(r"^(get|is|has)[A-Z]")
_LOOKUP = re.compile(r"^(get|contains|has|find|lookup|indexOf|peek)")
"""Observers that, given an argument, read one entry (``getRowKey(0)``, ``containsKey(k)``)."""
_POSITIONAL = frozenset({"0", "1", "-1", "true", "false"})
"""Offsets, counts and flags (``update(bytes, 0, n)``, ``mark(1)``): arguments of a plain call
that configure it rather than feed it data. A setter's or constructor's still count."""


@dataclass(frozen=True)
class Input:
    argument: Node
    """The argument as written (a literal, or a local initialised with one)."""
    value: Node
    """The literal itself."""
    getters: tuple[str, ...]
    """Accessors that would expose it, best first; empty when none is known."""


@dataclass(frozen=True)
class Site:
    """A statement that hands inputs to ``receiver``."""

    receiver: str
    receiver_type: str | None
    cls: ClassInfo | None
    """The receiver's class, where its getters are looked up."""
    description: str
    inputs: list[Input]
    kind: str
    """``setter``, ``constructor`` or ``entry`` (arguments of any other call)."""


def getter_names(prop: str) -> tuple[str, ...]:
    """``name`` / ``Name`` -> ``getName``, ``isName``, ``hasName``, ``name``."""
    upper = prop[:1].upper() + prop[1:]
    return (f"get{upper}", f"is{upper}", f"has{upper}", prop[:1].lower() + prop[1:])


def _literal_behind(ctx: TestContext, argument: Node) -> Node | None:
    """The literal an argument stands for: itself, or a local's only (literal) initialiser."""
    if is_literal(argument):
        return argument if argument.type != "null_literal" else None
    name = name_of(argument)
    if name is None or name not in ctx.env.locals or name in ctx.reassigned:
        return None
    values = [v for v in ctx.flows.get(name, []) if is_literal(v)]
    return values[0] if len(values) == 1 and values[0].type != "null_literal" else None


def _arguments(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type not in ("line_comment", "block_comment")] if args else []


def _existing(ctx: TestContext, cls: ClassInfo | None, names: tuple[str, ...]) -> tuple[str, ...]:
    if cls is None:
        return ()
    found = []
    for name in names:
        hit = ctx.env.find_method(cls, name, 0)
        if hit is not None and not hit[1].params and hit[1].return_type not in (None, "void"):
            found.append(name)
    return tuple(found)


def _call_site(ctx: TestContext, call: Node) -> Site | None:
    receiver = name_of(call.child_by_field_name("object"))
    name = syntax.call_name(call)
    if receiver is None or not ctx.is_variable(receiver) or _OBSERVER.match(name):
        return None
    receiver_type = ctx.env.type_of(call.child_by_field_name("object"))
    cls = ctx.env.resolve_class(receiver_type)
    setter = _SETTER.match(name)
    conventional = getter_names(setter.group(1)) if setter else ()
    getters = _existing(ctx, cls, conventional) or conventional
    inputs = []
    for argument in _arguments(call):
        value = _literal_behind(ctx, argument)
        if value is not None and (setter or syntax.text(value) not in _POSITIONAL):
            inputs.append(Input(argument, value, getters))
    kind = "setter" if setter else "entry"
    return Site(receiver, receiver_type, cls, f"{receiver}.{name}(...)", inputs, kind)


def _constructor_site(ctx: TestContext, variable: str, creation: Node) -> Site | None:
    """``Employee e = new Employee("John", ...)``: inputs are arguments whose parameter has a getter.

    Getters are looked up on the variable's declared type, which is what an assertion can call.
    """
    type_text = syntax.text(creation.child_by_field_name("type"))
    created = ctx.env.resolve_class(type_text)
    arguments = _arguments(creation)
    constructors = [c for c in created.constructors() if len(c.params) == len(arguments)] if created else []
    if created is None or len(constructors) != 1:
        return None
    declared = ctx.env.variable_type(variable) or type_text
    cls = ctx.env.resolve_class(declared)
    inputs = []
    for argument, (_, param) in zip(arguments, constructors[0].params, strict=True):
        value = _literal_behind(ctx, argument)
        getters = _existing(ctx, cls, getter_names(param))
        if value is not None and getters:
            inputs.append(Input(argument, value, getters))
    return Site(variable, declared, cls, f"new {created.name}(...)", inputs, "constructor")


def site_of(ctx: TestContext, statement: Node) -> Site | None:
    """The inputs a top-level statement hands to an object, if it is a setter, constructor or call."""
    if statement.type == "local_variable_declaration":
        declarators = statement.children_by_field_name("declarator")
        value = declarators[0].child_by_field_name("value") if len(declarators) == 1 else None
        if value is not None and value.type == "object_creation_expression":
            return _constructor_site(ctx, syntax.text(declarators[0].child_by_field_name("name")), value)
        return None
    expression = statement.named_children[0] if statement.type == "expression_statement" else None
    if expression is None:
        return None
    if expression.type == "assignment_expression":
        variable = name_of(expression.child_by_field_name("left"))
        right = expression.child_by_field_name("right")
        if variable is not None and right is not None and right.type == "object_creation_expression":
            return _constructor_site(ctx, variable, right)
        return None
    return _call_site(ctx, expression) if expression.type == "method_invocation" else None


def _is_used(ctx: TestContext, site: Site, item: Input) -> bool:
    checked = ctx.reach
    if checked.mentions(item.value) or set(item.getters) & checked.observed_methods:
        return True
    argument = name_of(item.argument)
    if argument is not None and checked.checks(argument):
        return True
    is_text = item.value.type in ("string_literal", "text_block", "character_literal")
    return not is_text and "toString" in checked.observed.get(site.receiver, set())


def _fix(file: FileContext, ctx: TestContext, site: Site, item: Input, getter: str) -> Fix | None:
    found = ctx.env.find_method(site.cls, getter, 0) if site.cls is not None else None
    if found is None:
        return None
    owner, method = found
    target = Target(f"{site.receiver}.{getter}()", instantiate_return(owner, method, site.receiver_type),
                    "observer", site.receiver, getter)  # fmt: skip
    expected = syntax.text(item.argument)  # a literal, or a local that still holds it
    value_text = syntax.text(item.value)
    if value_text in ("true", "false"):
        candidate = Candidate("assertion", ASSERT_TRUE if value_text == "true" else ASSERT_FALSE, target)
    else:
        method_name = ASSERT_ARRAY_EQUALS if is_array(target.type) else ASSERT_EQUALS
        value = Value(expected, literal_type(item.value) or "", "argument")
        candidate = Candidate("assertion", method_name, target, value)
    renderer = file.renderer(ctx.test)
    rendered = renderer.render(candidate, ctx.prefix_of(), ctx.test.node)
    return Fix(
        f"Assert it: {rendered.oracle}",
        (rendered.statement_edit, *renderer.import_edits(rendered.imports)),
    )


def check(file: FileContext, ctx: TestContext) -> list[Finding]:
    findings = []
    if ctx.throws_by_design:
        return findings  # its inputs are there to make the body throw
    sites = [s for s in (site_of(ctx, t) for t in ctx.statements if not ctx.asserts_in(t)) if s is not None]
    getters: dict[str, set[str]] = defaultdict(set)
    for site in sites:
        if site.kind == "setter":
            getters[site.receiver] |= {g for item in site.inputs for g in item.getters}
    for site in sites:
        if not _judged(ctx, site, getters[site.receiver]):
            continue
        unused = [item for item in site.inputs if not _is_used(ctx, site, item)]
        if unused and (site.kind != "entry" or _partly_checked(site, unused)):
            findings.append(_finding(file, ctx, site, unused))
    return findings


def _partly_checked(site: Site, unused: list[Input]) -> bool:
    """Some of the call's data is checked: a key or a value, not just an index (``getEntry(1, 2)``)."""
    return any(item not in unused and literal_type(item.value) not in ("int", "long") for item in site.inputs)


def _judged(ctx: TestContext, site: Site, getters: set[str]) -> bool:
    """Whether the observers of the site's object can tell its inputs apart (see the module doc)."""
    checked = ctx.reach
    observed = checked.observed.get(site.receiver)
    if not observed or site.receiver in checked.whole or site.cls is None or site.cls.is_test:
        return False
    if site.kind == "setter":
        return observed <= getters | {"toString"} and ("toString" not in observed or bool(checked.strings))
    if site.kind == "constructor":  # and the rendering is compared with a literal we can search
        return observed == {"toString"} and bool(checked.strings)
    return checked.keyed.get(site.receiver, False) and all(_LOOKUP.match(m) for m in observed)


def _finding(file: FileContext, ctx: TestContext, site: Site, unused: list[Input]) -> Finding:
    values = ", ".join(syntax.text(item.argument) for item in unused)
    getters = unused[0].getters
    via = f" or {site.receiver}.{getters[0]}()" if getters else ""
    observed = ", ".join(sorted(ctx.reach.observed[site.receiver]))
    message = (
        f"{values} passed to {site.description} {'is' if len(unused) == 1 else 'are'} never checked: "
        f"no assertion uses {'it' if len(unused) == 1 else 'them'}{via} ({site.receiver} is checked only "
        f"through {observed})"
    )
    fixes = []
    if file.fixes:
        for item in unused:
            existing = _existing(ctx, site.cls, item.getters)
            fix = _fix(file, ctx, site, item, existing[0]) if existing else None
            if fix is not None:
                fixes.append(fix)
    return file.finding(
        CODE, Severity.HINT, message, unused[0].argument, unused[-1].argument, ctx.name, fixes
    )
