"""``brittle-assertion``: an assertion whose checked value comes from outside the test's control.

OraclePolish calls such assertions brittle: they depend on inputs the test does not set, so
they pass or fail with the run, not with the code. Statically we can see three such inputs:
the clock, an unseeded random source, and a static field that changes while tests run.

Sources are followed through the test's variables (``long t0 = System.nanoTime(); ...
assertTrue(elapsed < 100)``), except where the test has the value under control:

- a captured value the test also hands to the unit (``Date now = new Date();
  printer.print(now); assertEquals("..." + now, out.toString())``) is the same on both sides;
- two clock readings around the call (``assertTrue(before <= t && t <= after)``) bracket it;
- a clock value overwritten before use (``cal = Calendar.getInstance(); cal.set(2008, ...)``);
- a value compared with itself (``assertEquals(date, copy(date))``), or handed to the unit as an
  input (``timeout.deadlineNanoTime(System.nanoTime() - 1)``).

A non-final static field counts only when something assigns it outside one-time set-up
(``@BeforeClass``, a static initialiser) and per-test set-up does not reset it: a
never-reassigned one is a missing ``final``, and one reset in ``setUp()`` is under control.
One finding per test and source, on the first assertion.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from tree_sitter import Node

from oracular.java import syntax
from oracular.java.declarations import ClassInfo, is_per_test_set_up
from oracular.quality.context import (
    FileContext,
    ParsedFile,
    TestContext,
    is_member_name,
    name_of,
    parsed_file,
)
from oracular.quality.finding import Finding, Severity

CODE = "brittle-assertion"
ON_BY_DEFAULT = True
"""Hand-checked precision on dev: 19 of 22 findings (86%) (``docs/quality.md``); on from 80%."""
SUMMARY = "an assertion that depends on the clock, an unseeded random source or a changing static field"
CLOCK_CALLS = frozenset(
    {("System", "currentTimeMillis"), ("System", "nanoTime"), ("Calendar", "getInstance"),
     ("Clock", "systemUTC"), ("Clock", "systemDefaultZone")}
)  # fmt: skip
CLOCK_NOW = frozenset(
    {"Instant", "LocalDate", "LocalDateTime", "LocalTime", "ZonedDateTime", "OffsetDateTime", "OffsetTime",
     "Year", "YearMonth", "MonthDay", "DateTime"}
)  # fmt: skip
"""Classes whose ``now()`` reads the clock (``java.time``, Joda's ``DateTime``)."""
CLOCK_NEW = frozenset({"Date", "GregorianCalendar", "DateTime"})
"""Classes whose no-argument constructor reads the clock."""
RANDOM_CALLS = frozenset({("Math", "random"), ("ThreadLocalRandom", "current")})
"""Not ``UUID.randomUUID()``: tests use it as a value that is merely unique, and it is."""
RANDOM_NEW = frozenset({"Random", "SecureRandom"})
"""Unseeded (no-argument) instances are random sources; ``new Random(42)`` is under control."""
_SETS = re.compile(r"^(set[A-Z]?\w*|clear)$")
ONE_TIME_SETUP = frozenset({"BeforeClass", "BeforeAll", "BeforeSuite", "BeforeTest", "BeforeGroups"})


def _arity(node: Node) -> int:
    args = node.child_by_field_name("arguments")
    return len(args.named_children) if args is not None else 0


def call_source(node: Node) -> str | None:
    """``the clock (System.nanoTime())`` if ``node`` itself reads the clock or a random source."""
    if node.type == "method_invocation":
        receiver = syntax.text(node.child_by_field_name("object")).rsplit(".", 1)[-1]
        pair = (receiver, syntax.call_name(node))
        if pair in CLOCK_CALLS or (pair[1] == "now" and receiver in CLOCK_NOW):
            return f"the clock ({receiver}.{pair[1]}())"
        if pair in RANDOM_CALLS:
            return f"a random source ({receiver}.{pair[1]}())"
    elif node.type == "object_creation_expression" and _arity(node) == 0:
        created = syntax.text(node.child_by_field_name("type")).rsplit(".", 1)[-1]
        if created in CLOCK_NEW:
            return f"the clock (new {created}())"
        if created in RANDOM_NEW:
            return f"a random source (new {created}())"
    return None


def reassigned_statics(root: Node) -> set[str]:
    """Names assigned in ``root`` while tests run, and not reset before each test.

    Assignments in one-time set-up (field initialisers, static blocks, ``@BeforeClass``) do not
    count; a field that per-test set-up (``setUp()``, ``@Before``) resets is under control too:
    the test observes what the code under test did to it since.
    """
    assigned, reset = set(), set()
    for node in syntax.walk(root):
        if node.type == "assignment_expression":
            target = node.child_by_field_name("left")
        elif node.type == "update_expression":
            target = next((c for c in node.named_children), None)
        else:
            continue
        if target is not None and target.type == "field_access":
            target = target.child_by_field_name("field")
        owner = syntax.enclosing(
            node, "method_declaration", "constructor_declaration", "static_initializer", "lambda_expression"
        )
        if (
            target is None
            or target.type != "identifier"
            or owner is None
            or owner.type == "static_initializer"
        ):
            continue
        annotations = {syntax.annotation_name(a) for a in syntax.annotations(owner)}
        if annotations & ONE_TIME_SETUP:
            continue
        name = syntax.text(owner.child_by_field_name("name"))
        if owner.type == "method_declaration" and is_per_test_set_up(name, annotations):
            reset.add(syntax.text(target))
        else:
            assigned.add(syntax.text(target))
    return assigned - reset


@lru_cache(maxsize=64)
def _reassigned_in(parsed: ParsedFile) -> set[str]:
    return reassigned_statics(parsed.source.root)


class Sources:
    """The uncontrolled inputs of one test, and which of its variables carry them."""

    def __init__(self, ctx: TestContext, mutated: Callable[[], set[str]]) -> None:
        self.ctx = ctx
        self.mutated = mutated
        self.controlled = self._controlled()
        self.tainted = self._tainted()

    def _controlled(self) -> set[str]:
        """Variables whose value the test pins down.

        Passed to calls outside the assertions, the value is shared by both sides; set afterwards
        (``Calendar cal = Calendar.getInstance(); cal.set(2008, 9, 6, ...)``), it is overwritten.
        """
        found = set()
        for node in self.ctx.nodes:
            if node.type == "argument_list" and not self.ctx.asserts_in(node):
                found |= {n for n in (name_of(a) for a in node.named_children) if n is not None}
            elif node.type == "method_invocation" and _SETS.match(syntax.call_name(node)):
                receiver = name_of(node.child_by_field_name("object"))
                if receiver is not None:
                    found.add(receiver)
        return found

    def _tainted(self) -> dict[str, str]:
        """Variable -> the clock or random source its value comes from (transitively).

        Arguments handed to a call on a variable (``timeout.deadline(System.nanoTime() - 1)``)
        are inputs the test sets, not values it reads back, so they do not taint it.
        """
        tainted: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for name, nodes in self.ctx.flows.items():
                if name in tainted:
                    continue
                values = [n for n in nodes if n.type != "argument_list"]
                source = next((s for node in values if (s := self._first_source(node, tainted))), None)
                if source is not None:
                    tainted[name] = source
                    changed = True
        return tainted

    def _first_source(self, node: Node, tainted: dict[str, str]) -> str | None:
        for inner in syntax.walk_skipping_classes(node):
            source = call_source(inner)
            name = name_of(inner)
            if source is None and name is not None and name not in self.controlled:
                source = tainted.get(name)
            if source is not None:
                return source
        return None

    def static_field(self, node: Node) -> str | None:
        """``the static field Foo.bar, reassigned while tests run`` if ``node`` names one."""
        owner: ClassInfo | None = None
        name = name_of(node)
        if name is not None:
            if self.ctx.env.locals.get(name) is not None or (
                node.type == "identifier" and is_member_name(node)
            ):
                return None
            owner = next((c for c in self.ctx.status.classes if name in c.fields), None)
        elif node.type == "field_access":
            name = syntax.text(node.child_by_field_name("field"))
            owner = self.ctx.env.resolve_class(syntax.text(node.child_by_field_name("object")))
        if owner is None or name is None or name not in owner.fields:
            return None
        modifiers = owner.fields[name].modifiers
        if "static" not in modifiers or "final" in modifiers or not self._reassigned(owner, name):
            return None
        return f"the static field {owner.name}.{name}, which is reassigned while tests run"

    def _reassigned(self, owner: ClassInfo, name: str) -> bool:
        if name in self.mutated():
            return True
        parsed = parsed_file(owner.path) if owner.path and not owner.is_test else None
        return parsed is not None and name in _reassigned_in(parsed)

    def of(self, assertion: Node) -> list[str]:
        """The uncontrolled inputs one assertion depends on, in order of appearance."""
        nodes = list(syntax.walk_skipping_classes(assertion))
        uses = Counter(name_of(n) for n in nodes)
        found: list[str] = []
        carriers = set()
        for node in nodes:
            source = call_source(node) or self.static_field(node)
            name = name_of(node)
            # A value on both sides (``assertEquals(date, copy(date))``) is compared with itself.
            if source is None and name in self.tainted and name not in self.controlled and uses[name] == 1:
                source = self.tainted[name]
                carriers.add(name)
            if source is not None and source not in found:
                found.append(source)
        if len(carriers) >= 2:  # ``before <= t && t <= after``: the readings bracket the value
            found = [s for s in found if not s.startswith("the clock")]
        return found


def check(file: FileContext, ctx: TestContext) -> list[Finding]:
    findings = []
    # A whole-file walk, rarely needed (:meth:`FileContext.whole_file` says the result then
    # depends on other methods too).
    sources = Sources(ctx, lambda: file.whole_file(reassigned_statics))
    reported: set[str] = set()
    for assertion in ctx.assertions:
        new = [s for s in sources.of(assertion) if s not in reported]
        if new:
            reported |= set(new)
            message = f"this assertion depends on {' and '.join(new)}: it can pass or fail from run to run"
            findings.append(file.finding(CODE, Severity.INFORMATION, message, assertion, test=ctx.name))
    return findings
