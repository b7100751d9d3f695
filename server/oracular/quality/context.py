"""What every quality check needs to know about one test file, computed once per document.

The checks ask the same questions: which calls are assertions, which values reach them, and how
a fix is spelled in this file's framework. Assertions are recognised by the engine's own oracle
names and asserting helpers (:mod:`oracular.java.oracles`), so a check never disagrees with the
"has an oracle" verdict; types and locals come from the engine's type environment and
:func:`~oracular.java.prefix.body_scope` (the checks need no targets or focal method, which are
the costly part of a prefix analysis); fixes are rendered by the engine's :class:`Renderer`.
Each test body is walked once (:attr:`TestContext.nodes`) and the checks share that walk.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tree_sitter import Node

from oracular.candidates.render import Renderer
from oracular.candidates.style import junit4_supports_assert_throws
from oracular.candidates.text import canonical_expression
from oracular.engine import FileAnalysis, OracleEngine, TestStatus
from oracular.engine.scope import env_for_test
from oracular.java import syntax
from oracular.java.declarations import MethodInfo
from oracular.java.junit import TestMethod
from oracular.java.oracle_statements import call_chain
from oracular.java.oracles import HelperScope, find_oracle, is_oracle_call
from oracular.java.prefix import FocalMethod, PrefixAnalysis, body_scope
from oracular.java.source import SourceError, SourceText, load_source
from oracular.java.types import LITERAL_TYPES, TypeEnv
from oracular.quality.finding import Finding, Fix, Severity

if TYPE_CHECKING:
    from oracular.incremental import MethodMemo

T = TypeVar("T")
PREFIX_LENGTH = 12
"""How much of a long string input must show up in an asserted string to count as checked."""
MIN_SUBSTRING = 3
"""A string input counts as checked when it occurs inside an asserted string, but only from this
length on: ``"a"`` occurs in nearly every string. (A ``char`` has no other way to show up.)"""


def name_of(node: Node | None) -> str | None:
    """The variable a name expression denotes: ``x`` or ``this.x`` -> ``x``; anything else ``None``."""
    if node is None:
        return None
    if node.type == "identifier":
        return syntax.text(node)
    if node.type == "field_access" and syntax.text(node.child_by_field_name("object")) == "this":
        return syntax.text(node.child_by_field_name("field"))
    return None


def is_literal(node: Node) -> bool:
    """A literal, a negated numeric literal included (``-1`` parses as a unary expression)."""
    if node.type == "unary_expression" and syntax.text(node)[:1] in ("-", "+") and node.named_children:
        return node.named_children[-1].type in LITERAL_TYPES
    return node.type in LITERAL_TYPES


class ParsedFile:
    """A workspace file's tree, for the method bodies the index does not keep."""

    def __init__(self, source: SourceText) -> None:
        self.source = source
        self.declarations: dict[tuple[int, str], Node] = {
            (n.start_point[0], syntax.text(n.child_by_field_name("name"))): n
            for n in syntax.walk(source.root)
            if n.type in ("method_declaration", "constructor_declaration")
        }
        """Methods and constructors by (0-based line, name), as :class:`MethodInfo` locates them."""


@lru_cache(maxsize=64)
def _parsed(path: str, mtime_ns: int) -> ParsedFile | None:
    try:
        return ParsedFile(load_source(Path(path), lenient=True))
    except SourceError:
        return None


def parsed_file(path: str) -> ParsedFile | None:
    """A workspace file, parsed once per modification."""
    try:
        return _parsed(path, Path(path).stat().st_mtime_ns)
    except OSError:
        return None


def within(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


@dataclass
class Reach:
    """The values some assertions check, followed back through the test's variables.

    A name is *whole* when its value itself reaches an assertion (an argument, an operand, or a
    value stored into a whole name), *observed* when only calls on it do (``e.toString()``):
    then only what those calls return is checked. That distinction is what tells an unused
    input (``e.setFirstName("John")`` with only ``e.toString()`` asserted) from a used one.
    """

    whole: set[str] = field(default_factory=set)
    observed: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    keyed: dict[str, bool] = field(default_factory=dict)
    """Whether every call observing a name passes arguments (``getRowKey(0)``, ``get(k)``): such
    calls read one entry, while ``getMean()`` or ``size()`` may summarise every input."""
    literals: set[str] = field(default_factory=set)
    strings: list[str] = field(default_factory=list)

    @property
    def observed_methods(self) -> set[str]:
        return {m for methods in self.observed.values() for m in methods}

    def checks(self, name: str) -> bool:
        return name in self.whole or name in self.observed

    def mentions(self, literal: Node) -> bool:
        """Whether a literal's value occurs in the checked values (equal, or inside a string).

        Inside a string, escapes are ignored (a rendering may escape ``\\r``) and only the start
        of a long value is looked for (a rendering may truncate it).
        """
        text = canonical_expression(syntax.text(literal))
        if text in self.literals:
            return True
        content = (text[1:-1] if text[:1] in "\"'" else text).replace("\\", "")[:PREFIX_LENGTH]
        long_enough = len(content) >= MIN_SUBSTRING or literal.type == "character_literal"
        return long_enough and any(content in s.replace("\\", "") for s in self.strings)


def _role(expression: Node) -> str | None:
    """How a name expression is used: ``None`` as a whole value, else the member called on it."""
    parent = expression.parent
    if parent is None:
        return None
    if parent.type == "method_invocation" and _same(parent.child_by_field_name("object"), expression):
        return syntax.call_name(parent)
    if parent.type == "field_access" and _same(parent.child_by_field_name("object"), expression):
        return syntax.text(parent.child_by_field_name("field"))
    return None


def _same(a: Node | None, b: Node) -> bool:
    return a is not None and a.start_byte == b.start_byte and a.end_byte == b.end_byte and a.type == b.type


def is_member_name(node: Node) -> bool:
    """An identifier that names a method or a field of something else, not a variable."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "method_invocation":
        return _same(parent.child_by_field_name("name"), node)
    # ``this.x`` is handled at the field_access
    return parent.type == "field_access" and _same(parent.child_by_field_name("field"), node)


def flows_in(nodes: Iterable[Node]) -> dict[str, list[Node]]:
    """For each variable, the expressions whose values are stored into it (``nodes``: a body's walk).

    Declarations and assignments store their right-hand side. A call statement ``v.m(args)``
    stores its arguments into ``v`` (``list.add(x)``) and, since a static reading cannot tell
    which way data goes, ``v`` into its plain-name arguments (``parser.printHelpOn(sink)``).
    """
    flows: dict[str, list[Node]] = defaultdict(list)
    for node in nodes:
        if node.type == "variable_declarator":
            value = node.child_by_field_name("value")
            if value is not None:
                flows[syntax.text(node.child_by_field_name("name"))].append(value)
        elif node.type == "assignment_expression":
            key = name_of(node.child_by_field_name("left"))
            right = node.child_by_field_name("right")
            if key is not None and right is not None:
                flows[key].append(right)
        elif node.type == "enhanced_for_statement":
            value = node.child_by_field_name("value")
            if value is not None:
                flows[syntax.text(node.child_by_field_name("name"))].append(value)
        elif node.type == "method_invocation" and node.parent is not None:
            receiver = node.child_by_field_name("object")
            key = name_of(receiver)
            args = node.child_by_field_name("arguments")
            if key is None or args is None or node.parent.type != "expression_statement":
                continue
            flows[key].append(args)
            for arg in args.named_children:
                name = name_of(arg)
                if name is not None and receiver is not None:
                    flows[name].append(receiver)
    return flows


def reach(roots: list[Node], flows: dict[str, list[Node]], seeds: Iterable[str] = ()) -> Reach:
    """Everything ``roots`` (assertion expressions) check, through :func:`flows_in`.

    ``seeds`` are variables checked whole without appearing in the roots (fields an asserting
    helper reads).
    """
    result = Reach()
    pending = list(roots)
    for name in seeds:
        result.whole.add(name)
        pending += flows.get(name, [])
    seen: set[tuple[int, int]] = set()
    while pending:
        root = pending.pop()
        if (root.start_byte, root.end_byte) in seen:
            continue
        seen.add((root.start_byte, root.end_byte))
        for node in syntax.walk_skipping_classes(root):
            # A root that is a plain name is a value stored somewhere checked: whole.
            member = _role(node) if node is not root else None
            if is_literal(node):
                if (
                    node.parent is not None
                    and node.parent.type == "unary_expression"
                    and is_literal(node.parent)
                ):
                    continue  # the sign belongs to it: ``-1`` was recorded whole
                text = canonical_expression(syntax.text(node))
                result.literals.add(text)
                if node.type in ("string_literal", "text_block"):
                    result.strings.append(text.strip('"'))
                continue
            if node.type == "identifier" and is_member_name(node):
                continue
            key = name_of(node)
            if key is None:
                continue
            if member is not None:
                result.observed[key].add(member)
                parent = node.parent
                args = parent.child_by_field_name("arguments") if parent is not None else None
                has_args = (
                    parent is not None
                    and parent.type == "method_invocation"
                    and bool(args is not None and args.named_children)
                )
                result.keyed[key] = result.keyed.get(key, True) and has_args
            elif key not in result.whole:
                result.whole.add(key)
                pending += flows.get(key, [])
    return result


@dataclass
class TestContext:
    """One complete, non-empty test with what the checks read from it."""

    status: TestStatus
    env: TypeEnv
    """The body's locals and their types, the test class's fields, the workspace."""
    statements: list[Node]
    """The body's top-level statements."""
    reassigned: set[str]
    """Locals assigned after their declaration (a lambda must not capture them)."""
    assertions: list[Node] = field(default_factory=list)
    """The outermost assertion expressions, in source order (nested ones belong to them)."""
    helper_fields: dict[tuple[int, int], set[str]] = field(default_factory=dict)
    """Per asserting-helper call (by byte range): the test class's fields the helper asserts on
    (``assertHelpLines(...)`` checking ``sink.toString()``)."""

    @property
    def test(self) -> TestMethod:
        return self.status.test

    @property
    def name(self) -> str:
        return self.status.test.name

    @property
    def has_oracle(self) -> bool:
        return self.status.evidence is not None

    @cached_property
    def nodes(self) -> list[Node]:
        """The body's nodes outside nested classes, in :func:`syntax.walk_skipping_classes` order.

        Walked once per test; the checks that look at the whole body share it.
        """
        body = self.test.body
        assert body is not None  # complete tests have one
        return list(syntax.walk_skipping_classes(body))

    def prefix_of(self, statements: list[Node] | None = None) -> PrefixAnalysis:
        """``statements`` (default: the body's) as a prefix to render a given oracle against.

        No targets or focal method: the oracle is already chosen.
        """
        chosen = self.statements if statements is None else statements
        return PrefixAnalysis(chosen, [], None, self.env, False, self.reassigned)

    @cached_property
    def flows(self) -> dict[str, list[Node]]:
        return flows_in(self.nodes)

    @cached_property
    def reach(self) -> Reach:
        """What all the test's assertions check together."""
        return self.reach_of(self.assertions)

    def reach_of(self, assertions: list[Node]) -> Reach:
        seeds = set().union(*(self.helper_fields.get((a.start_byte, a.end_byte), ()) for a in assertions))
        return reach(assertions, self.flows, seeds)

    def is_variable(self, name: str) -> bool:
        """A local, a parameter or a field, not a class name."""
        return self.env.variable_type(name) is not None

    @cached_property
    def links(self) -> dict[str, set[str]]:
        """Variables that exchange data in some statement, either way (undirected :attr:`flows`)."""
        links: dict[str, set[str]] = defaultdict(set)
        for name, nodes in self.flows.items():
            for node in nodes:
                for inner in syntax.walk_skipping_classes(node):
                    other = name_of(inner)
                    if other is not None and other != name and not is_member_name(inner):
                        links[name].add(other)
                        links[other].add(name)
        return links

    def connected(self, names: list[str]) -> set[str]:
        """``names`` and every variable linked to them, transitively (class names stop the walk)."""
        found = {n for n in names if self.is_variable(n)}
        pending = list(found)
        while pending:
            for other in self.links.get(pending.pop(), ()):
                if other not in found and self.is_variable(other):
                    found.add(other)
                    pending.append(other)
        return found

    def asserts_in(self, node: Node) -> bool:
        return any(within(a, node) or within(node, a) for a in self.assertions)

    @cached_property
    def throws_by_design(self) -> bool:
        """The whole body is expected to throw: ``@Test(expected=...)`` or an ``ExpectedException`` rule."""
        if self.test.expected_exception:
            return True
        return any(
            n.type == "method_invocation"
            and syntax.call_name(n) == "expect"
            and name_of(n.child_by_field_name("object")) is not None
            for n in self.nodes
        )


class FileContext:
    """One analysed document: its tests' contexts (built when first asked for), renderers and
    finding construction."""

    def __init__(
        self, engine: OracleEngine, analysis: FileAnalysis, fixes: bool = True, memo: MethodMemo | None = None
    ) -> None:
        self.engine = engine
        self.analysis = analysis
        self.source = analysis.source
        self.fixes = fixes
        """Whether checks should build quick fixes (a batch scan only wants the findings)."""
        self.junit4_assert_throws = junit4_supports_assert_throws(engine.project_root, self.source.text)
        self.memo = memo
        """Results of the document's unchanged methods, from earlier versions (if kept)."""
        self.read_whole_file = False
        """Set by :meth:`whole_file`: what was computed since depends on more than one method."""
        self._helpers: dict[tuple[str, str], list[MethodInfo]] = {}
        self._contexts: dict[int, TestContext | None] = {}
        self._whole: dict[Callable[[Node], Any], Any] = {}

    def context_of(self, status: TestStatus) -> TestContext | None:
        """The context of one complete, non-empty test (``None`` for any other), built once."""
        key = status.test.node.id
        if key not in self._contexts:
            self._contexts[key] = self._build(status)
        return self._contexts[key]

    def _build(self, status: TestStatus) -> TestContext | None:
        if status.incomplete or status.test.body is None:
            return None
        env = env_for_test(self.engine.index, self.analysis, status)
        body = body_scope(status.test.node, env)
        if body is None:
            return None
        statements, reassigned = body
        decls = self.analysis.decls
        scope = HelperScope(status.classes, self.engine.index, decls.package, decls.imports)
        context = TestContext(status, env, statements, reassigned)
        self._find_assertions(context, scope)
        return context

    @cached_property
    def tests(self) -> list[TestContext]:
        """Every complete, non-empty test's context, in document order."""
        return [c for s in self.analysis.statuses if (c := self.context_of(s)) is not None]

    def whole_file(self, compute: Callable[[Node], T]) -> T:
        """``compute`` over the whole tree, once per document; marks :attr:`read_whole_file`."""
        self.read_whole_file = True
        if compute not in self._whole:
            self._whole[compute] = compute(self.source.root)
        return self._whole[compute]

    # -- assertions ---------------------------------------------------------------------
    def _find_assertions(self, context: TestContext, scope: HelperScope) -> None:
        """Fill ``context.assertions`` (outermost first, not looking inside one) and helper fields."""
        body = context.test.body
        assert body is not None
        stack = [body]
        while stack:
            node = stack.pop()
            if node.type in ("class_body", "class_declaration", "interface_declaration"):
                continue
            helpers = self._asserting_helpers(node, context.status, scope)
            if helpers or self._is_oracle(node):
                context.assertions.append(node)
                read = {c.split(".", 1)[0] for h in helpers for c in h.called if "." in c}
                context.helper_fields[(node.start_byte, node.end_byte)] = read & context.env.fields.keys()
                continue
            stack.extend(reversed(node.children))

    def _is_oracle(self, node: Node) -> bool:
        """``assert``, or a call chain with an assertion entry point (``assertThat(x).isTrue()``)."""
        if node.type == "assert_statement":
            return True
        extra = self.engine.settings.extra_assertion_methods
        return node.type == "method_invocation" and any(
            is_oracle_call(syntax.call_name(c), extra) for c in call_chain(node)
        )

    def _asserting_helpers(self, node: Node, status: TestStatus, scope: HelperScope) -> list[MethodInfo]:
        """The helper declarations a call may reach that assert (as the engine follows helpers)."""
        if node.type != "method_invocation":
            return []
        receiver = node.child_by_field_name("object")
        name = syntax.call_name(node)
        if receiver is not None:
            if receiver.type != "identifier":
                return []
            name = f"{syntax.text(receiver)}.{name}"
        key = (status.test.class_name, name)
        if key not in self._helpers:
            extra = self.engine.settings.extra_assertion_methods
            self._helpers[key] = [h for h in scope[name] if find_oracle(h, scope, extra) is not None]
        return self._helpers[key]

    # -- output -------------------------------------------------------------------------
    def renderer(self, test: TestMethod, focal: FocalMethod | None = None) -> Renderer:
        return self.engine.renderer_for(self.analysis, test.flavour, self.junit4_assert_throws, focal)

    def finding(
        self,
        code: str,
        severity: Severity,
        message: str,
        start: Node,
        end: Node | None = None,
        test: str | None = None,
        fixes: list[Fix] | tuple[Fix, ...] = (),
    ) -> Finding:
        """A finding spanning ``start`` to ``end`` (default: ``start`` alone)."""
        last = end if end is not None else start
        return Finding(
            code,
            severity,
            message,
            self.source.position(start.start_byte),
            self.source.position(last.end_byte),
            test,
            tuple(fixes),
        )
