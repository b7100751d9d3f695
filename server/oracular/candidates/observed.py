"""Values observed by running a test's prefix, as oracle candidates and as a verdict on any candidate.

Why: the value the code really produces is the strongest candidate there is. Once a target's value
is known, ``assertEquals(<observed>, target)`` (or ``assertTrue``/``assertNull``...) holds now by
construction, and every other candidate for that target can be told apart without running it:
it holds, or it fails with "was <observed>". A failing oracle the ranker was sure of is the bug
signal; one it was unsure of is a wrong guess.

Everything here is pure: :mod:`oracular.execution.observe` runs the code and fills
:class:`TestObservation`; the engine turns it into candidates and statuses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Protocol

from oracular.candidates.grammar import Candidate
from oracular.candidates.type_names import TypeNamer
from oracular.candidates.values import Value
from oracular.java.assertions import (
    ASSERT_ARRAY_EQUALS,
    ASSERT_EQUALS,
    ASSERT_FALSE,
    ASSERT_NOT_NULL,
    ASSERT_NULL,
    ASSERT_TRUE,
)
from oracular.java.junit import TestMethod
from oracular.java.prefix import PrefixAnalysis
from oracular.java.source import SourceText
from oracular.java.targets import Target
from oracular.java.types import is_floating, is_integral, is_primitive, split_generic, unboxed, written_name

if TYPE_CHECKING:
    from oracular.incremental import MethodKey

HOLDS, FAILS = "holds", "fails"
REFERENCE_KINDS = frozenset({"object", "string", "array", "list", "enum", "class"})
"""Observed kinds that are objects for sure (a ``literal`` may be a primitive)."""


@dataclass(frozen=True)
class ObservedValue:
    """One target's value, as ``oracular.exec.Observe`` recorded it (see its Javadoc for kinds)."""

    kind: str
    """``boolean``, ``literal``, ``enum``, ``class``, ``array``, ``list``, ``string``, ``null``,
    ``object`` or ``thrown``."""
    type: str
    """The static primitive type (``int``, ``char``...) when the expression has one, else the
    value's runtime class (``java.lang.Integer``); for ``enum``, the enum's canonical name; for
    ``thrown``, the exception's class."""
    payload: str
    """Java source recreating the value (``5L``, ``"a\\n"``, ``new int[] {1}``), the enum
    constant, the class's canonical name, the list's elements; the message for ``thrown``."""

    @property
    def non_null(self) -> bool:
        return self.kind not in ("null", "thrown")

    def describe(self) -> str:
        """How a user reads it: ``2``, ``"a"``, ``null``, ``RED``, ``a Foo``, ``threw X``."""
        if self.kind in ("literal", "boolean", "array", "string"):
            return self.payload
        if self.kind == "enum":
            return self.payload
        if self.kind == "class":
            return f"{self.payload.rsplit('.', 1)[-1]}.class"
        if self.kind == "list":
            return f"[{self.payload}]"
        if self.kind == "thrown":
            return f"threw {self.type.rsplit('.', 1)[-1]}"
        if self.kind == "null":
            return "null"
        return f"a {self.type.rsplit('.', 1)[-1].replace('$', '.')}"


@dataclass
class TestObservation:
    """What running one oracle-free test's prefix (twice) showed."""

    __test__ = False  # not a pytest test class

    values: dict[str, ObservedValue] = field(default_factory=dict)
    """Target expression -> its value, kept only when both runs agreed."""
    flaky: set[str] = field(default_factory=set)
    """Targets whose value differed between the two runs (clocks, hash codes, temporary paths) or
    held the run's day or time (:mod:`oracular.execution.clock_values`)."""
    thrown: str | None = None
    """The exception's class when the prefix itself threw (no target could be read then)."""
    thrown_ancestors: tuple[str, ...] = ()
    """:attr:`thrown`'s superclasses, nearest first, when the run reported them."""
    completed: bool = False
    """The prefix ran to its end without throwing (both times)."""
    thrown_before: str | None = None
    """The exception's class when the prefix threw before the statement an exception oracle
    wraps (the focal call): no oracle inserted at the end can hold then."""
    error: str | None = None
    """Why nothing was observed for this test (it does not compile here, a time limit)."""
    before: dict[str, ObservedValue] = field(default_factory=dict)
    """Target expression -> its value right before the action (:attr:`PrefixAnalysis.action`),
    when both runs agreed."""
    fresh: set[str] = field(default_factory=set)
    """Targets naming a local the action or a later statement declares: new, so changed."""
    kills: dict[tuple[str, str], int] = field(default_factory=dict)
    """(target expression, expected value) -> how many surviving extreme mutants an assertion of
    that value kills, where a pseudo-testing run of the same version found it
    (:mod:`oracular.mutation`); empty otherwise."""

    @property
    def ran(self) -> bool:
        return self.error is None

    def fingerprint(self) -> tuple:
        """Every field, hashable (collections sorted): what a ranking with it is kept under."""
        parts = []
        for name in (f.name for f in fields(self)):
            value = getattr(self, name)
            if isinstance(value, dict):
                value = tuple(sorted(value.items()))
            elif isinstance(value, set):
                value = tuple(sorted(value))
            parts.append(value)
        return tuple(parts)

    def changed(self, expression: str) -> bool | None:
        """Whether running the action changed ``expression``'s value; ``None`` when unknown (not
        read on both sides, or an object whose state its description does not show)."""
        after = self.values.get(expression)
        if after is None:
            return None
        if expression in self.fresh:
            return True
        before = self.before.get(expression)
        if before is None:
            return None
        if before != after:
            return True
        return None if after.kind == "object" else False


def _value_type(observed: ObservedValue) -> str:
    simple = observed.type.rsplit(".", 1)[-1]
    return "String" if simple == "String" else simple


LIMITS = {
    ("int", "2147483647"): "Integer.MAX_VALUE", ("int", "-2147483648"): "Integer.MIN_VALUE",
    ("long", "9223372036854775807L"): "Long.MAX_VALUE", ("long", "-9223372036854775808L"): "Long.MIN_VALUE",
    ("short", "32767"): "Short.MAX_VALUE", ("short", "-32768"): "Short.MIN_VALUE",
    ("double", "1.7976931348623157E308"): "Double.MAX_VALUE", ("double", "4.9E-324"): "Double.MIN_VALUE",
    ("float", "3.4028235E38f"): "Float.MAX_VALUE", ("float", "1.4E-45f"): "Float.MIN_VALUE",
    ("char", "'\\uffff'"): "Character.MAX_VALUE",
}  # fmt: skip
"""The limits of the primitive types, as the helper writes them, and the names a developer writes
instead: in the train projects' sources ``assertEquals(Integer.MAX_VALUE, ...`` is written 93
times, ``assertEquals(2147483647, ...`` 21 (``Long.MAX_VALUE`` 45 against 18, ``Integer.MIN_VALUE``
44 against 1, ``Double.MAX_VALUE`` 80 against none). Not the byte's: ``127`` and ``-128`` are
written bare four times as often as by name (36 against 9).

Named here, where the observed value becomes an expected one, not in the helper's output: the
payload stays a literal for what compares values (:func:`number`, the verdicts)."""


def expected_value(target: Target, observed: ObservedValue, namer: TypeNamer) -> Value | None:
    """The observed value as an expected value for ``assertEquals``/``assertArrayEquals``; a
    primitive type's limit by its name (:data:`LIMITS`)."""
    kind = observed.kind
    if kind == "literal":
        text = observed.payload
        if is_integral(target.type) and unboxed(target.type) not in ("int", "long") and text.startswith("("):
            text = text.split(")", 1)[1].strip()  # (short) 3 against a short target: plain 3
        primitive = unboxed(observed.type.rsplit(".", 1)[-1])
        if primitive == "double":
            text = short_double(text)
        return Value(LIMITS.get((primitive, text), text), _value_type(observed), "observed")
    if kind == "enum":
        text, imports = namer.spell(observed.type)
        enum_type = observed.type.rsplit(".", 1)[-1]
        return Value(f"{text}.{observed.payload}", enum_type, "observed", imports=imports)
    if kind == "class":
        text, imports = namer.spell(observed.payload)
        return Value(f"{text}.class", "Class", "observed", imports=imports)
    if kind == "array":
        return Value(_simplify_java_lang(observed.payload), "array", "observed")
    if kind == "list":
        if not observed.payload:
            return Value("Collections.emptyList()", "List", "observed", imports=("java.util.Collections",))
        return Value(f"Arrays.asList({observed.payload})", "List", "observed", imports=("java.util.Arrays",))
    return None


ROUNDING = 1e-12
"""How far (relative) a shortened double may be from the value: far below any delta a test uses,
far above the last-bit noise of a computation (``2.999999999999973`` for ``3.0``)."""
ROUNDED_DIGITS = 10
"""At most this many significant digits: a value that needs more (``0.7071067811865475``) is no
round number a developer would write, and stays exact."""


def short_double(text: str) -> str:
    """The shortest double literal within :data:`ROUNDING` of ``text``'s value, as a developer
    writes it (``assertEquals(3.0, result, 1e-10)``); ``text`` itself when there is none.

    The oracle still holds: doubles are compared within
    :data:`~oracular.candidates.grammar.FLOAT_DELTA`. Java already prints an exact value shortest.
    """
    try:
        value = float(text)
    except ValueError:
        return text  # Double.NaN and the infinities
    for digits in range(1, ROUNDED_DIGITS + 1):
        rounded = float(f"{value:.{digits}g}")
        if rounded == value:
            return text
        if abs(rounded - value) <= ROUNDING * abs(value):
            return repr(rounded)
    return text


def _simplify_java_lang(text: str) -> str:
    return text.replace("new java.lang.", "new ", 1) if text.startswith("new java.lang.") else text


def observed_candidates(target: Target, observed: ObservedValue, namer: TypeNamer) -> list[Candidate]:
    """The oracles that hold now for ``target``, by construction, most specific first."""
    if observed.kind == "boolean":
        return [Candidate("assertion", ASSERT_TRUE if observed.payload == "true" else ASSERT_FALSE, target)]
    if observed.kind == "null":
        return [Candidate("assertion", ASSERT_NULL, target)]
    found = []
    value = expected_value(target, observed, namer)
    if value is not None:
        method = ASSERT_ARRAY_EQUALS if observed.kind == "array" else ASSERT_EQUALS
        found.append(Candidate("assertion", method, target, value))
    if observed.kind in REFERENCE_KINDS and not is_primitive(target.type):
        found.append(Candidate("assertion", ASSERT_NOT_NULL, target))
    instance = runtime_class(target, observed, namer)
    if instance is not None:
        found.append(Candidate("assertion", ASSERT_TRUE, instance))
    return found


def runtime_class(target: Target, observed: ObservedValue, namer: TypeNamer) -> Target | None:
    """``x instanceof C`` for a variable or field whose value is of the workspace class ``C``, which
    its declared type does not name (opencsv's ``ICSVWriter csvWriter = builder.build()``, then
    ``assertTrue(csvWriter instanceof CSVWriter)``; args4j's ``Object value`` a sub-command
    fills): what a factory or a parser chose is only known once the code ran. Only where the file
    can name ``C`` as it is (a candidate brings no import)."""
    if observed.kind not in ("object", "string") or target.kind not in ("variable", "field"):
        return None
    canonical = observed.type.replace("$", ".")
    spelled, imports = namer.spell(canonical)
    simple = canonical.rsplit(".", 1)[-1]
    declared = split_generic(target.type or "")[0].rsplit(".", 1)[-1]
    if imports or declared == simple or not namer.visible(simple):
        return None
    return Target(
        f"{target.expression} instanceof {spelled}", "boolean", "instance", target.expression, spelled
    )


# -- verdicts on any candidate ---------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    status: str
    """``holds`` or ``fails``."""
    observed: str
    """What the target was: ``2``, ``null``, ``threw IllegalStateException``."""


def number(text: str) -> float | None:
    """The value of a Java numeric literal (``(short) 3``, ``5L``, ``0x1F``, ``1.5f``, ``1_000``)."""
    text = text.split(")", 1)[1] if text.startswith("(") else text
    text = text.strip().replace("_", "")
    hexadecimal = text.lower().lstrip("-").startswith("0x")
    text = text.rstrip("lL") if hexadecimal else text.rstrip("lLfFdD")
    try:
        return float(int(text, 16 if hexadecimal else 10))
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


CONTENT_KINDS = frozenset({"array", "list", "class"})
"""Observed kinds whose payload is the whole value: two of them are equal when their payloads are."""


_FLOATING_ELEMENTS = frozenset({"D", "F", "Ljava.lang.Double;", "Ljava.lang.Float;"})
"""What follows the ``[``s of a floating-point array's JVM class name (``[D``)."""


def _same_value(
    expected: Value,
    observed: ObservedValue,
    observation: TestObservation,
    floating: bool,
    by_content: bool = False,
) -> bool | None:
    """Whether ``expected`` equals the observed value; ``None``: unknown.

    A literal expected value is compared directly; a variable or a constant through its own
    observed value, when the harness read it (see :func:`value_reads`): opencsv's
    ``assertArrayEquals(expectedValues, columnValues)`` holds, ``assertArrayEquals(expectedNames,
    columnValues)`` fails. Arrays compare by content only for ``by_content`` (``assertArrayEquals``:
    ``assertEquals`` compares two arrays by identity), and unequal floating-point arrays stay
    unknown (a tolerance may accept them).
    """
    if expected.source in ("variable", "constant"):
        other = observation.values.get(expected.text)
        if other is None or other.kind == "thrown":
            return None
        if other.kind in ("boolean", "enum", "null"):
            # an enum constant by its type too: State.ON is not Switch.ON
            same_type = other.kind != "enum" or other.type == observed.type
            return same_type and (other.kind, other.payload) == (observed.kind, observed.payload)
        if other.kind in CONTENT_KINDS and observed.kind in CONTENT_KINDS:
            if "array" in (other.kind, observed.kind) and not by_content:
                return None
            if (other.kind, other.payload) == (observed.kind, observed.payload):
                return True
            return None if floating or observed.type.lstrip("[") in _FLOATING_ELEMENTS else False
        if other.kind != "literal" or observed.kind != "literal":
            return None
        expected = Value(other.payload, other.type, "observed")
    if observed.kind == "boolean":
        return expected.text == observed.payload if expected.text in ("true", "false") else None
    if observed.kind != "literal":
        return None
    a, b = expected.text, observed.payload
    if a.startswith(('"', "'")) or b.startswith(('"', "'")):
        return a == b if a[:1] == b[:1] else False
    x, y = number(a), number(b)
    if x is None or y is None:
        return None
    return abs(x - y) <= 1e-4 if floating else x == y


def verdict(candidate: Candidate, observation: TestObservation) -> Verdict | None:
    """Whether ``candidate`` holds on the observed run, or ``None`` when that is not known."""
    if candidate.kind == "exception":
        if observation.thrown_before is not None:
            return Verdict(FAILS, f"threw {written_name(observation.thrown_before)} earlier")
        if observation.thrown is None:
            return Verdict(FAILS, "nothing thrown") if observation.completed else None
        thrown = written_name(observation.thrown)
        expected = _last_name(candidate.exception or "Exception")
        caught = (observation.thrown, *observation.thrown_ancestors)
        if any(_last_name(name) == expected for name in caught):
            return Verdict(HOLDS, f"threw {thrown}")
        if observation.thrown_ancestors:  # the whole hierarchy is known: nothing else can catch it
            return Verdict(FAILS, f"threw {thrown}")
        return None  # a supertype may still match: only running it says
    if candidate.kind == "helper":
        return _helper_verdict(candidate, observation)
    target = candidate.target
    if target is None or observation.thrown is not None or observation.thrown_before is not None:
        return None
    if target.kind == "instance":  # x instanceof C: what x's value was, by its class
        value = observation.values.get(target.receiver or "")
        if value is None or value.kind == "thrown":
            return None
        holds = value.non_null and f".{value.type}".replace("$", ".").endswith(f".{target.method}")
        return Verdict(HOLDS if holds == (candidate.assertion == ASSERT_TRUE) else FAILS, value.describe())
    observed = observation.values.get(target.expression)
    if observed is None:
        return None
    shown = observed.describe()
    if observed.kind == "thrown":
        return Verdict(FAILS, shown)  # reading the target throws: no assertion on it can pass
    method = candidate.assertion
    if method in (ASSERT_NULL, ASSERT_NOT_NULL):
        holds = (method == ASSERT_NULL) != observed.non_null
        return Verdict(HOLDS if holds else FAILS, shown)
    if method in (ASSERT_TRUE, ASSERT_FALSE):
        if observed.kind != "boolean":
            return None
        holds = (observed.payload == "true") == (method == ASSERT_TRUE)
        return Verdict(HOLDS if holds else FAILS, shown)
    if candidate.expected is None:
        return None
    if observed.kind == "null":
        return Verdict(HOLDS if candidate.expected.text == "null" else FAILS, shown)
    if candidate.expected.source == "observed":
        return Verdict(HOLDS, shown)  # built from this very observation
    floating = is_floating(target.type) or is_floating(observed.type)
    same = _same_value(
        candidate.expected, observed, observation, floating, by_content=method == ASSERT_ARRAY_EQUALS
    )
    if same is None and method == ASSERT_EQUALS:
        equal = observation.values.get(equality_read(candidate.expected.text, target.expression))
        same = equal.payload == "true" if equal is not None and equal.kind == "boolean" else None
    if same is None:
        return None
    return Verdict(HOLDS if same else FAILS, shown)


def equality_read(expected: str, target: str) -> str:
    """What running the code reads to tell whether two objects are equal as ``assertEquals`` says:
    two values with no literal (xmlunit's ``Element`` s, args4j's ``Path`` s) compare only there."""
    return f"java.util.Objects.equals({expected}, {target})"


HELPER_PASSES = "the helper's checks pass"
HELPER_FAILS = "the helper's checks fail"


def _helper_verdict(candidate: Candidate, observation: TestObservation) -> Verdict | None:
    """A helper call holds when running it after the prefix threw nothing (its assertions passed:
    :func:`oracular.candidates.helpers.helper_reads`)."""
    if observation.thrown is not None or observation.thrown_before is not None:
        return None
    observed = observation.values.get(candidate.read)
    if observed is None:
        return None
    if observed.kind == "thrown":
        return Verdict(FAILS, observed.describe())
    return Verdict(HOLDS, HELPER_PASSES) if observed.payload == "true" else Verdict(FAILS, HELPER_FAILS)


NAMED_SOURCES = ("variable", "constant")
"""Expected values a developer names rather than writes out."""


MAX_VALUE_READS = 12
MAX_EQUALITY_READS = 4
"""Equalities of two locals read per test (:func:`equality_read`)."""


def value_reads(candidates: Iterable[Candidate]) -> list[Target]:
    """The variables and constants candidates expect, read too so that their verdicts are known:
    the test's locals first, then the constants it names bare (its own, those it imports), then
    the unit's (``CSVFormat.DEFAULT``...: commons-csv's dozen predefined formats took every read
    before the ``CRLF`` its tests expect); then whether two local objects a candidate compares are
    equal (:func:`equality_read`)."""
    found: dict[str, Value] = {}
    equalities: list[Target] = []
    for candidate in candidates:
        value = candidate.expected
        if value is not None and value.source in ("variable", "constant"):
            found.setdefault(value.text, value)
            target = candidate.target
            if (
                value.source == "variable"
                and candidate.assertion == ASSERT_EQUALS
                and target is not None
                and target.kind == "variable"
                and not is_primitive(unboxed(target.type or "int"))
                and target.type not in ("String", "java.lang.String")
                and len(equalities) < MAX_EQUALITY_READS
            ):
                equalities.append(Target(equality_read(value.text, target.expression), "boolean", "value"))
    ordered = sorted(found.values(), key=lambda v: (v.source != "variable", "." in v.text))
    return [*(Target(v.text, v.type, "value") for v in ordered[:MAX_VALUE_READS]), *equalities]


# -- what the engine asks of whoever runs the code ------------------------------------------------
@dataclass(frozen=True)
class ObservationPlan:
    """One oracle-free test to observe: run its prefix, then read each of ``targets``."""

    test: TestMethod
    prefix: PrefixAnalysis
    targets: tuple[Target, ...]
    key: MethodKey | None = None
    """The test's key in its version (:attr:`~oracular.engine.analysis.FileAnalysis.method_keys`):
    with the targets, what its observation is kept under; ``None``: not kept."""


NOT_OBSERVED = "values not observed: "
"""How a file's note says why none of its tests was observed."""


@dataclass
class FileObservation:
    tests: dict[int, TestObservation] = field(default_factory=dict)
    """By the test's 1-based line (:attr:`oracular.engine.TestReport.line`)."""
    notes: list[str] = field(default_factory=list)
    """What the user should know: the classpath used, why nothing could be observed."""
    elapsed_s: float = 0.0

    def unobserved(self, line: int) -> str | None:
        """Why the test at 1-based ``line`` was not observed, when running was tried and it was not:
        its own error (it does not compile here, a time limit), else the file's (no JDK, the class
        does not compile, no classpath), else ``not run`` (nothing was planned for it)."""
        test = self.tests.get(line)
        if test is not None:
            return test.error
        if not self.notes:
            return None  # nothing was tried: static ranking
        why = next((n for n in self.notes if n.startswith(NOT_OBSERVED)), None)
        return why.removeprefix(NOT_OBSERVED) if why is not None else "not run"


class Observer(Protocol):
    """Runs prefixes and reads their targets' values (:class:`oracular.execution.observe.ValueObserver`)."""

    def observe(
        self,
        source: SourceText,
        plans: Sequence[ObservationPlan],
        cancelled: Callable[[], bool] | None = None,
    ) -> FileObservation: ...


def _last_name(exception: str) -> str:
    """``a.ArcsSet$Inconsistent``, ``ArcsSet.Inconsistent`` -> ``Inconsistent``: how a thrown class
    and an oracle's type are compared, however each spells its outer class."""
    return written_name(exception).rsplit(".", 1)[-1]
