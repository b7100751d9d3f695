"""The suite's own assertion helpers as oracle candidates: ``assertOptionDetected(options, "a")``.

Why: many suites check through helpers of their own (joptsimple's ``assertOptionDetected``,
xmlunit's ``assertXMLEqual``, java-diff-utils' ``verify``), and where a file's tests do, its
developer writes the next test's oracle with them too: on the 8 reported dev projects, 78 of 652
realistic tests end in such a call, which JUnit's assertions alone can never match. The helpers
worth offering are those the test's name names (xmlunit's ``testCompareComment``,
``assertDifferentComments``), then those the file's other tests close with
(:attr:`oracular.engine.FileAnalysis.helper_habits`), each scored by the share of those tests that
check with it first. Their arguments are type-correct values the prefix holds: its locals, its
literals, the test class's fields, the fixture's literals, the constants, the targets, in the
order the file's other calls of the helper suggest; when the code runs, each call is run too
(:mod:`oracular.execution.observe`), and one that passes gets its helper's whole share.

The models never see these candidates (they were trained on JUnit's assertions): the engine adds
them after ranking, with the habit's share as their score.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from oracular.candidates.grammar import Candidate, lines_read
from oracular.candidates.observed import TestObservation
from oracular.candidates.text import canonical_expression, split_arguments
from oracular.java import syntax
from oracular.java.declarations import MethodInfo
from oracular.java.identifiers import identifier_words, test_name_words
from oracular.java.junit import TEST_ANNOTATIONS
from oracular.java.prefix import PrefixAnalysis
from oracular.java.prefix_values import prefix_literals
from oracular.java.targets import Target
from oracular.java.types import fits, is_boolean, is_primitive, split_generic, unboxed

MAX_HELPERS = 3
"""Helpers offered per test: a fourth is rarely the habit."""
MAX_CALLS_PER_HELPER = 8
"""Argument choices per helper: each is run when the code runs, alone (a helper may change state)."""
MAX_READ_OFF_CALLS = 2
"""Calls per helper that pass a value read off another argument (:func:`resolve_read_offs`),
beyond :data:`MAX_CALLS_PER_HELPER`."""
MAX_TUPLES_TRIED = 4096
"""Argument tuples looked through per helper overload, for its calls and for those reading a value
off another argument: a helper of many parameters has millions (8 options for each of 8 parameters:
16.7 million), and where few pass the filters the search walked them all (libxtc-rats-java's train
tests held a batch evaluation for over 20 minutes, 2026-12-06)."""
MAX_OPTIONS = 8
"""Values tried per parameter."""
MAX_LINE_TEXTS = 2
"""Texts tried per helper taking expected lines (``sink.toString()``...)."""
MAX_LINES = 16
"""The most lines such a call is written with (the observing helper reads no longer array)."""
TEXT_TARGETS = frozenset({"observer", "field", "chain", "variable"})
STRINGS = frozenset({"String", "java.lang.String"})
ARGUMENT_TARGETS = frozenset({"observer", "field", "chain", "query"})
"""Targets passed as arguments (``builder.getDocument()``); actions would change state, and the
last statement's own call (``s.pop()``) would run twice."""


@dataclass(frozen=True)
class HelperOffer:
    """One helper call offered: its score (the share, less for each further argument choice) and
    its helper's share (what it scores once it passed)."""

    candidate: Candidate
    score: float
    share: float
    read_off: tuple[int, ...] = ()
    """The positions of arguments read off another argument (``names[0]`` beside ``names``): the
    call cannot fail as written, and is offered only with the values the run read there
    (:func:`resolve_read_offs`)."""
    compares: str | None = None
    """For an equality helper (:func:`equality_parameter`), the type it compares: the offer is no
    call yet, but the helper written for each holding ``assertEquals`` on a target of that type
    (:class:`~oracular.ranking.steps.helper_calls.EqualityHelpers`)."""


@dataclass(frozen=True)
class HelperHabit:
    """A helper the file's tests check through: its name as called, how many tests do, what they
    pass it (``(position, argument)`` in canonical form, :mod:`oracular.candidates.text`), and how
    many check with it first, before any other assertion: how likely the next test's first
    oracle is a call of it (its candidates' score is that share of the file's tests)."""

    name: str
    uses: int
    passed: frozenset[tuple[int, str]] = frozenset()
    first: int = 0


def callable_overloads(methods: Iterable[MethodInfo]) -> list[MethodInfo]:
    """The declarations a helper call can be written for: ``void`` methods (one that returns a
    value, commons-email's ``getMailServer()``, is a fixture that checks on the way, not an
    oracle), no tests (annotated, or named so: commons-csv's ``testEqualsSkipHeaderRecord()``
    lacks its ``@Test``) or varargs; the fewest parameters first (a leading message parameter is the
    rarer overload)."""
    found = [
        m
        for m in methods
        if m.return_type == "void"
        and not TEST_ANNOTATIONS.intersection(m.annotations)
        and not m.name.lstrip("_").startswith("test")  # a test's body (jackson's _testEofExceptions)
        and not any(t.endswith("...") for t, _ in m.params)
    ]
    return sorted(found, key=lambda m: len(m.params))


def equality_parameter(overloads: Sequence[MethodInfo]) -> str | None:
    """The type an overload compares, expected value first, actual second, both of that type and
    named so (jackson's ``assertToken(JsonToken expToken, JsonToken actToken)``, woodstox's
    ``assertTokenType(int expType, int actType)``): the suite's own ``assertEquals``, given what
    the prefix computes and its observed value, which no argument of the prefix holds."""
    for method in overloads:
        if len(method.params) != 2:
            continue
        (expected_type, expected), (actual_type, actual) = method.params
        if (
            expected_type == actual_type
            and not is_boolean(expected_type)
            and expected_type not in ("Object", "java.lang.Object")
            and expected.lower().startswith("exp")
            and actual.lower().startswith("act")
        ):
            return expected_type
    return None


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
    """Every value a helper's parameter of ``param_type`` may be given: the prefix's locals (as
    declared) and literals, the test's fields, the fixture's literals, the constants, then the
    targets the prefix computes (:func:`_likeliest` orders and keeps the likeliest). An ``Object``
    parameter takes the locals and fields only: it accepts any value, and commons-csv's
    ``assertNotEquals(Object, Object)`` given a literal and a format's text holds whatever the code
    does (the top-1 of 7 of its tests that check with ``assertEquals`` when it took any value)."""
    if is_boolean(param_type):
        return ["true", "false"]
    env = prefix.env

    constant = {name for name, _ in constants}
    fields = [(name, t) for name, t in env.fields.items() if name not in constant]
    options = [name for name, t in env.locals.items() if t and t != "var" and fits(param_type, t, env)]
    if param_type in ("Object", "java.lang.Object"):
        return list(dict.fromkeys(options + [name for name, t in fields if fits(param_type, t, env)]))
    options += [text for text, t in literals if fits(param_type, t, env)]
    options += [name for name, t in fields if fits(param_type, t, env)]
    if param_type in ("String", "java.lang.String"):
        options += env.set_up_literals
    if param_type in ("char", "Character"):
        options += _short_text_characters(literals)
    options += [name for name, t in constants if fits(param_type, t, env)]
    options += [
        t.expression
        for t in prefix.targets
        if t.kind in ARGUMENT_TARGETS and t.type and fits(param_type, t.type, env)
    ]
    return list(dict.fromkeys(options))


def _likeliest(
    options: list[str],
    position: int,
    passed: frozenset[tuple[int, str]],
    made: Mapping[str, str],
    literals: Sequence[tuple[str, str]],
    named: Callable[[str], bool],
) -> list[str]:
    """The :data:`MAX_OPTIONS` likeliest of ``options``: the prefix's locals (``made``) first, then
    the values the file's other tests pass at ``position``, then the rest; within each, the texts
    the prefix's own literals contain first, then those the test's name names. The file's habit
    names the argument too (joptsimple's tests pass an option's name, ``"file"``, where they parse
    ``"--file"``), which matters most where the code does not run; another test's local names
    nothing of this one; xmlunit's ``testCompareComment`` passes ``COMMENT_VALUE``."""
    texts = [text[1:-1] for text, _ in literals if text[:1] in "\"'"]

    def key(option: str) -> tuple[bool, bool, bool, bool]:
        inner = option[1:-1] if option[:1] in "\"'" else None
        mentioned = inner is not None and any(inner in text for text in texts)
        habit = (position, canonical_expression(option)) in passed
        return option not in made, not habit, not mentioned, not named(option)

    return sorted(options, key=key)[:MAX_OPTIONS]


def named_by(test_name: str) -> Callable[[str], bool]:
    """Whether an identifier says half or more of what the test's name says it checks:
    ``testCompareComment`` names ``assertDifferentComments``; ``testNoNativeTypeIdForJson`` does
    not name ``assertType`` (a word of five), nor ``testZipArchiveCreation`` ``checkArchiveContent``."""
    words = {w.removesuffix("s") for w in test_name_words(test_name)}
    return lambda name: bool(words) and 2 * len(words & _stems(name)) >= len(words)


def _stems(name: str) -> set[str]:
    """An identifier's words without a plural ``s``: ``assertDifferentComments`` names ``comment``."""
    return {w.removesuffix("s") for w in identifier_words(name)}


def _calls(
    options: Sequence[Sequence[str]],
    made: frozenset[str],
    alike: Sequence[tuple[int, int]],
    type_of: Mapping[str, str],
    read_offs: bool = False,
) -> Iterator[tuple[str, ...]]:
    """Argument tuples in order, none passing one value twice (``verify(a, a)``, booleans apart)
    and each passing at least one of ``made``, what the prefix made: a helper given only literals
    and constants (commons-io's ``checkCollectionsEmpty(".java")``) checks nothing the test did.
    Parameters declared alike (``alike``: pairs of positions) take values of one type: commons-csv's
    ``assertNotEquals(Object right, Object left)`` compares two formats, never a format with the
    character one of them returns (which differs whatever the code does).

    A value read off another argument (``assertSize(s, s.size())``) cannot fail: such tuples are
    left out, or with ``read_offs`` they alone are given, where each such value is a number, a
    character, a boolean or a text, which the run can read and the call then pass as written
    (:func:`resolve_read_offs`); of the first :data:`MAX_TUPLES_TRIED` tuples, the likeliest
    (each parameter's options come likeliest first, the last parameter's varying fastest)."""
    for arguments in itertools.islice(itertools.product(*options), MAX_TUPLES_TRIED):
        values = [a for a in arguments if a not in ("true", "false")]
        read_off = _read_off(arguments)
        mixed = any(
            type_of.get(arguments[i], "") != type_of.get(arguments[j], "")
            and arguments[i] in type_of
            and arguments[j] in type_of
            for i, j in alike
        )
        wanted = bool(read_off) and all(_writable(type_of.get(arguments[i], "")) for i in read_off)
        if (
            len(set(values)) == len(values)
            and (wanted if read_offs else not read_off)
            and not mixed
            and (not arguments or made.intersection(values))
        ):
            yield arguments


def _read_off(arguments: Sequence[str]) -> tuple[int, ...]:
    """The positions of arguments read off another one: ``s.size()`` beside ``s``, ``names[0]``
    beside ``names``."""
    return tuple(
        i
        for i, a in enumerate(arguments)
        if any(b not in ("true", "false") and a.startswith((f"{b}.", f"{b}[")) for b in arguments)
    )


def _writable(type_text: str) -> bool:
    """A type whose observed values are written as literals (``3``, ``'a'``, ``"s"``)."""
    return is_primitive(unboxed(type_text)) or type_text in STRINGS


def _made(prefix: PrefixAnalysis) -> frozenset[str]:
    """What the prefix made or touched, as arguments: its locals, the fields it names, its targets."""
    named = {node_text for statement in prefix.statements for node_text in _identifiers(statement)}
    fields = {name for name in prefix.env.fields if name in named}
    return frozenset({*prefix.env.locals, *fields, *(t.expression for t in prefix.targets)})


def _types(
    prefix: PrefixAnalysis, constants: Sequence[tuple[str, str]], literals: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """The declared type of each value :func:`argument_options` may offer, where known."""
    env = prefix.env
    known = [*literals, *constants, *env.fields.items(), *env.locals.items()]
    known += [(t.expression, t.type) for t in prefix.targets if t.type]
    return {text: split_generic(t)[0] for text, t in known if t and t != "var"}


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
    test_name: str = "",
    call_decay: float = 0.9,
    named_share: float = 0.5,
) -> list[HelperOffer]:
    """Calls of the file's helpers with the prefix's values, each with its score: the share of the
    file's tests with an oracle that check with it first (see the module docstring), each further
    argument choice keeping ``call_decay`` of the one before's. The helpers the test's name names
    come first (xmlunit's ``testCompareComment``, ``assertDifferentComments``), at ``named_share``
    at least, then the file's habit's order (the two weights:
    :class:`~oracular.ranking.weights.RankingWeights`)."""
    if with_oracle <= 0:
        return []
    named = named_by(test_name)

    literals = [(v.text, v.type) for v in prefix_literals(prefix.statements)]
    made = _made(prefix)
    type_of = _types(prefix, constants, literals)
    found: list[HelperOffer] = []
    offered = 0
    texts = [t.expression for t in prefix.targets if t.kind in TEXT_TARGETS and t.type in STRINGS]
    for habit in sorted(habits, key=lambda h: not named(h.name)):
        methods = scope.get(habit.name, ())
        overloads = callable_overloads(methods)
        takes_lines = bool(texts) and any(_takes_lines(m) for m in methods)
        if not overloads and not takes_lines:  # a library's (AssertJ's ``assertThat``), or not reachable
            continue
        offered += 1
        if offered > MAX_HELPERS:
            break
        share = habit.first / with_oracle
        if named(habit.name):  # the test's name says which helper it needs
            share = max(share, named_share)
        if takes_lines:
            lines = [(Candidate("helper", habit.name, lines_of=t), ()) for t in texts[:MAX_LINE_TEXTS]]
            found += _offers(lines, share, call_decay)
        calls = _argument_calls(overloads, habit.passed, prefix, constants, literals, named, made, type_of)
        written = [(Candidate("helper", habit.name, arguments=a), off) for a, off in calls]
        found += _offers(written, share, call_decay)
        compared = equality_parameter(overloads)
        if compared is not None:
            found.append(HelperOffer(Candidate("helper", habit.name), share, share, compares=compared))
    return found


def _offers(
    calls: Sequence[tuple[Candidate, tuple[int, ...]]], share: float, call_decay: float
) -> list[HelperOffer]:
    """One helper's calls (with their read-off positions), in order, each further one keeping
    ``call_decay`` of the one before's score."""
    return [
        HelperOffer(candidate, share * call_decay**n, share, read_off)
        for n, (candidate, read_off) in enumerate(calls)
    ]


def _argument_calls(
    overloads: Sequence[MethodInfo],
    passed: frozenset[tuple[int, str]],
    prefix: PrefixAnalysis,
    constants: Sequence[tuple[str, str]],
    literals: Sequence[tuple[str, str]],
    named: Callable[[str], bool],
    made: frozenset[str],
    type_of: Mapping[str, str],
) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Up to :data:`MAX_CALLS_PER_HELPER` argument tuples for one helper, its ``overloads`` in
    order (the fewest parameters first), each one's likeliest first (:func:`_likeliest`, :func:`_calls`);
    then up to :data:`MAX_READ_OFF_CALLS` that pass a value read off another argument, each with
    those positions; ``passed``: what the file's other tests pass it (:attr:`HelperHabit.passed`)."""
    locals_ = prefix.env.locals
    calls: list[tuple[str, ...]] = []
    read_offs: list[tuple[str, ...]] = []
    for method in overloads:
        options = [
            _likeliest(argument_options(t, prefix, constants, literals), i, passed, locals_, literals, named)
            for i, t in enumerate(_erased(method))
        ]
        alike = _alike(method)
        if len(calls) < MAX_CALLS_PER_HELPER:
            found_calls = _calls(options, made, alike, type_of)
            room = MAX_CALLS_PER_HELPER - len(calls)
            calls += [c for c in itertools.islice(found_calls, room) if c not in calls]
        if len(read_offs) < MAX_READ_OFF_CALLS:
            found_read_offs = _calls(options, made, alike, type_of, read_offs=True)
            spare = MAX_READ_OFF_CALLS - len(read_offs)
            read_offs += [c for c in itertools.islice(found_read_offs, spare) if c not in read_offs]
    return [(c, ()) for c in calls] + [(c, _read_off(c)) for c in read_offs]


def _erased(method: MethodInfo) -> list[str]:
    """The parameter types a call can be given values for: a type parameter of the method's own
    takes any object, as ``Object`` does (jmock's matcher tests, as Hamcrest's, check with ``<T> void
    assertMatches(Matcher<T> matcher, T arg)``: no value fitted ``T``, so it was never offered)."""
    return ["Object" if t in method.type_params else t for t, _ in method.params]


def _alike(method: MethodInfo) -> list[tuple[int, int]]:
    """The pairs of positions of ``method``'s parameters declared alike (:func:`_calls` gives them
    values of one type)."""
    return [
        (i, j)
        for i, (one, _) in enumerate(method.params)
        for j, (other, _) in enumerate(method.params)
        if i < j and one == other
    ]


def _takes_lines(method: MethodInfo) -> bool:
    """A ``void`` helper whose one parameter is the expected lines (``String... expectedLines``),
    not a test (:func:`callable_overloads` leaves varargs out: no prefix value is a list of lines)."""
    return (
        method.return_type == "void"
        and [t for t, _ in method.params] in (["String..."], ["java.lang.String..."])
        and not TEST_ANNOTATIONS.intersection(method.annotations)
        and not method.name.lstrip("_").startswith("test")
    )


def resolve_lines(
    offers: Sequence[HelperOffer], observation: TestObservation | None, names: Mapping[str, str]
) -> list[HelperOffer]:
    """``offers`` with each call of a helper taking expected lines given the lines the code
    produced, as literals (a literal some constant the test names bare holds, that constant:
    joptsimple's ``EMPTY`` for ``""``); without them (not run, over :data:`MAX_LINES` lines,
    not text) it cannot be written, and is left out."""
    found: list[HelperOffer] = []
    for offer in offers:
        candidate = offer.candidate
        if candidate.lines_of is None:
            found.append(offer)
            continue
        seen = observation.values.get(lines_read(candidate.lines_of)) if observation is not None else None
        if seen is None or seen.kind != "array" or "{" not in seen.payload:
            continue
        lines = split_arguments(seen.payload[seen.payload.index("{") + 1 : seen.payload.rindex("}")])
        if 0 < len(lines) <= MAX_LINES:
            arguments = tuple(names.get(line, line) for line in lines)
            found.append(
                dataclasses.replace(offer, candidate=dataclasses.replace(candidate, arguments=arguments))
            )
    return found


def resolve_read_offs(
    offers: Sequence[HelperOffer], observation: TestObservation | None
) -> list[HelperOffer]:
    """``offers`` with each call that passes a value read off another argument given the value the
    run read there, as a literal, and judged by the call it ran: libparanamer's
    ``assertThatParameterNamesMatch(names[0], names)`` cannot fail, ``assertThatParameterNamesMatch("s",
    names)`` is its developer's oracle. Without such a value (not run, the prefix threw, an object,
    a value the two runs disagree on) the call is left out, as is a call another offer already makes."""
    found: list[HelperOffer] = []
    seen: set[tuple] = set()
    for offer in offers:
        resolved = _resolved(offer, observation) if offer.read_off else offer
        if resolved is not None and resolved.candidate.key not in seen:
            seen.add(resolved.candidate.key)
            found.append(resolved)
    return found


def _resolved(offer: HelperOffer, observation: TestObservation | None) -> HelperOffer | None:
    if observation is None or observation.thrown is not None or observation.thrown_before is not None:
        return None  # not run, or no statement after the prefix runs: nothing to write
    candidate = offer.candidate
    arguments = list(candidate.arguments)
    for i in offer.read_off:
        value = observation.values.get(arguments[i])
        if value is None or value.kind not in ("literal", "boolean"):
            return None
        arguments[i] = value.payload
    written = dataclasses.replace(candidate, arguments=tuple(arguments), ran_as=candidate.read)
    return dataclasses.replace(offer, candidate=written, read_off=())


def helper_reads(candidates: Iterable[Candidate]) -> list[Target]:
    """What running the code should try for the helper candidates: each call, alone, passes or
    fails; for a helper taking expected lines, the lines of its text are read too."""
    found: list[Target] = []
    for c in candidates:
        if c.kind == "helper":
            found.append(Target(c.read, "boolean", "helper"))
            if c.lines_of is not None:
                found.append(Target(lines_read(c.lines_of), "String[]", "value"))
    return found
