"""The suite's own assertion helpers as oracle candidates: ``assertOptionDetected(options, "a")``.

Why: many suites check through helpers of their own (joptsimple's ``assertOptionDetected``,
xmlunit's ``assertXMLEqual``, java-diff-utils' ``verify``), and where a file's tests do, its
developer writes the next test's oracle with them too: on the 8 reported dev projects, 78 of 652
realistic tests end in such a call, which JUnit's assertions alone can never match. The helpers
worth offering are those the file's other tests already check through (their oracle was found
through the helper, :class:`~oracular.java.oracles.OracleEvidence`), each scored by how many of
those tests do. Their arguments are type-correct values the prefix holds: its locals, the test
class's fields, its literals and the fixture's, the class's constants, the targets; when the
code runs, each call is run too (:mod:`oracular.execution.observe`), and the one that passes is
the answer.

The models never see these candidates (they were trained on JUnit's assertions): the engine adds
them after ranking, with the habit's share as their score.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import HOLDS, Verdict
from oracular.candidates.text import canonical_expression
from oracular.java import syntax
from oracular.java.declarations import MethodInfo
from oracular.java.junit import TEST_ANNOTATIONS
from oracular.java.prefix import PrefixAnalysis
from oracular.java.targets import Target, accepts
from oracular.java.types import LITERAL_TYPES, is_boolean, literal_type

MAX_HELPERS = 3
"""The file's most used helpers offered: a fourth is rarely the habit."""
MAX_CALLS_PER_HELPER = 8
"""Argument choices per helper: each is run when the code runs, alone (a helper may change state)."""
MAX_OPTIONS = 8
"""Values tried per parameter."""
CALL_DECAY = 0.9
"""Each further argument choice of a helper keeps this share of the one before's score, so that
the first choice (the prefix's own values, in the order it made them) leads when nothing ran."""
ARGUMENT_TARGETS = frozenset({"observer", "field", "chain", "query"})
"""Targets passed as arguments (``builder.getDocument()``); actions would change state, and the
last statement's own call (``s.pop()``) would run twice."""


@dataclass(frozen=True)
class HelperHabit:
    """A helper the file's tests check through: its name as called, how many tests do, and what
    they pass it: ``(position, argument)`` in canonical form (:mod:`oracular.candidates.text`)."""

    name: str
    uses: int
    passed: frozenset[tuple[int, str]] = frozenset()


def callable_overloads(methods: Iterable[MethodInfo]) -> list[MethodInfo]:
    """The declarations a helper call can be written for: ``void`` methods (one that returns a
    value, commons-email's ``getMailServer()``, is a fixture that checks on the way, not an
    oracle), no tests or varargs; the fewest parameters first (a leading message parameter is the
    rarer overload)."""
    found = [
        m
        for m in methods
        if m.return_type == "void"
        and not TEST_ANNOTATIONS.intersection(m.annotations)
        and not any(t.endswith("...") for t, _ in m.params)
    ]
    return sorted(found, key=lambda m: len(m.params))


def _literals(prefix: PrefixAnalysis) -> list[tuple[str, str]]:
    """The prefix's literals, in the order it writes them, with their types."""
    found: dict[str, str] = {}
    for statement in prefix.statements:
        for node in syntax.walk_skipping_classes(statement):
            value_type = literal_type(node) if node.type in LITERAL_TYPES else None
            if value_type is not None:
                found.setdefault(syntax.text(node), value_type)
    return list(found.items())


def _short_text_characters(literals: Sequence[tuple[str, str]]) -> list[str]:
    """Characters of short string literals as ``char`` values: an option spec ``"W;"`` names ``'W'``."""
    found: list[str] = []
    for text, value_type in literals:
        inner = text[1:-1]
        if value_type == "String" and 0 < len(inner) <= 3 and "\\" not in inner and "'" not in inner:
            found += [f"'{ch}'" for ch in inner]
    return found


def argument_options(
    param_type: str,
    prefix: PrefixAnalysis,
    constants: Sequence[tuple[str, str]],
    literals: Sequence[tuple[str, str]],
) -> list[str]:
    """Values a helper's parameter of ``param_type`` may be given, the likeliest first: the
    prefix's locals (as declared) and literals, the test's fields, the fixture's literals, the
    test class's constants, then the targets the prefix computes."""
    if is_boolean(param_type):
        return ["true", "false"]
    env = prefix.env
    constant = {name for name, _ in constants}
    fields = [(name, t) for name, t in env.fields.items() if name not in constant]
    options = [name for name, t in env.locals.items() if t and t != "var" and accepts(param_type, t)]
    options += [text for text, t in literals if accepts(param_type, t)]
    options += [name for name, t in fields if accepts(param_type, t)]
    if param_type in ("String", "java.lang.String"):
        options += env.set_up_literals
    if param_type in ("char", "Character"):
        options += _short_text_characters(literals)
    options += [name for name, t in constants if accepts(param_type, t)]
    options += [
        t.expression
        for t in prefix.targets
        if t.kind in ARGUMENT_TARGETS and t.type and accepts(param_type, t.type)
    ]
    return list(dict.fromkeys(options))[:MAX_OPTIONS]


def _passed_first(
    options: list[str],
    position: int,
    passed: frozenset[tuple[int, str]],
    made: Mapping[str, str],
    literals: Sequence[tuple[str, str]],
) -> list[str]:
    """``options`` with the prefix's locals (``made``) first, then the values the file's other
    tests pass at ``position``, then the rest; within each, the texts the prefix's own literals
    contain first. The file's habit names the argument too (joptsimple's tests pass an option's
    name, ``"file"``, where they parse ``"--file"``), which matters most where the code does not
    run; another test's local names nothing of this one."""
    texts = [text[1:-1] for text, _ in literals if text[:1] in "\"'"]

    def key(option: str) -> tuple[bool, bool, bool]:
        inner = option[1:-1] if option[:1] in "\"'" else None
        mentioned = inner is not None and any(inner in text for text in texts)
        return option not in made, (position, canonical_expression(option)) not in passed, not mentioned

    return sorted(options, key=key)


def _calls(options: Sequence[Sequence[str]], made: frozenset[str]) -> Iterator[tuple[str, ...]]:
    """Argument tuples in order, none passing one value twice (``verify(a, a)``, booleans apart)
    or a value read off another argument (``assertSize(s, s.size())`` cannot fail), and each
    passing at least one of ``made``, what the prefix made: a helper given only literals and
    constants (commons-io's ``checkCollectionsEmpty(".java")``) checks nothing the test did."""
    for arguments in itertools.product(*options):
        values = [a for a in arguments if a not in ("true", "false")]
        read_off = any(a.startswith(f"{b}.") for a in values for b in values)
        if len(set(values)) == len(values) and not read_off and (not arguments or made.intersection(values)):
            yield arguments


def _made(prefix: PrefixAnalysis) -> frozenset[str]:
    """What the prefix made or touched, as arguments: its locals, the fields it names, its targets."""
    named = {node_text for statement in prefix.statements for node_text in _identifiers(statement)}
    fields = {name for name in prefix.env.fields if name in named}
    return frozenset({*prefix.env.locals, *fields, *(t.expression for t in prefix.targets)})


def _identifiers(statement: Node) -> Iterator[str]:
    for node in syntax.walk_skipping_classes(statement):
        if node.type == "identifier":
            yield syntax.text(node)


def helper_candidates(
    habits: Sequence[HelperHabit],
    with_oracle: int,
    scope: Mapping[str, Sequence[MethodInfo]],
    prefix: PrefixAnalysis,
    constants: Sequence[tuple[str, str]] = (),
) -> list[tuple[Candidate, float]]:
    """Calls of the file's most used helpers with the prefix's values, each with its score: the
    share of the file's tests with an oracle that check through it (see the module docstring)."""
    if with_oracle <= 0:
        return []
    literals = _literals(prefix)
    made = _made(prefix)
    locals_ = prefix.env.locals
    found: list[tuple[Candidate, float]] = []
    offered = 0
    for habit in habits:
        overloads = callable_overloads(scope.get(habit.name, ()))
        if not overloads:  # a library's (AssertJ's ``assertThat``), or not reachable from here
            continue
        offered += 1
        if offered > MAX_HELPERS:
            break
        share = habit.uses / with_oracle
        calls: list[tuple[str, ...]] = []
        for method in overloads:
            options = [
                _passed_first(
                    argument_options(t, prefix, constants, literals), i, habit.passed, locals_, literals
                )
                for i, (t, _) in enumerate(method.params)
            ]
            room = MAX_CALLS_PER_HELPER - len(calls)
            calls += [c for c in itertools.islice(_calls(options, made), room) if c not in calls]
            if len(calls) >= MAX_CALLS_PER_HELPER:
                break
        found += [
            (Candidate("helper", habit.name, arguments=arguments), share * CALL_DECAY**n)
            for n, arguments in enumerate(calls)
        ]
    return found


def passed_in_full(
    candidates: Sequence[Candidate],
    verdicts: Sequence[Verdict | None],
    scores: Sequence[float],
    habits: Sequence[HelperHabit],
    with_oracle: int,
) -> list[float]:
    """``scores`` with each helper call that passed when run given its helper's whole share:
    :data:`CALL_DECAY` orders guesses at arguments, and a call that passed needs no guessing
    (joptsimple's ``assertOptionDetected(options, "file")`` came fifth, after the literals the
    test parses, ``"--file"``...)."""
    share = {h.name: h.uses / with_oracle for h in habits} if with_oracle > 0 else {}
    return [
        max(score, share.get(c.assertion, 0.0))
        if c.kind == "helper" and v is not None and v.status == HOLDS
        else score
        for c, v, score in zip(candidates, verdicts, scores, strict=True)
    ]


def helper_reads(candidates: Iterable[Candidate]) -> list[Target]:
    """What running the code should try for the helper candidates: each call, alone, passes or fails."""
    return [Target(c.call, "boolean", "helper") for c in candidates if c.kind == "helper"]
