"""Which oracles are worth offering first: those that hold now and can fail, never the vacuous ones.

Why: measured on unseen projects, about 4 in 10 top-1 suggestions were ``assertNotNull(x)`` on a
value the prefix had just computed, which rarely fails (never, after ``new``), and the unchecked
top-1 failed on correct code for 42-66% of tests. A user judges an oracle by whether it holds on
the code as it is and whether it would catch a change. So the offered order is:

1. the best-scored oracle that holds now (observed): what "add oracle" inserts;
2. the ranker's most confident expectation that fails now, if confident: a possible bug, shown
   second ("expected 3, was 2") so that no cut to the top few hides it;
3. the other oracles that hold now, best score first (an ``assertNotNull`` says less than any
   other holding oracle, and waits with the wrong guesses when there is one); a workspace
   object's whole ``toString()`` after the focused ones: it pins every field's formatting, so
   it fails on cosmetic changes and says nothing of what the test did (on realistic dev tests,
   5 of 36 such top-1 oracles were the developer's, 4 of them a ``StringWriter``'s text);
4. oracles nobody could judge (no observation, or a value only running it would tell), by score;
5. oracles that fail now and were guesses;
6. oracles that cannot fail: ``assertNotNull`` on a ``new`` object (or its class checked with
   ``instanceof``), a value compared with itself, an assertion on a local that only restates its
   literal initialiser, the length of an array the prefix created or the size of a fixed-size
   list it built (``Arrays.asList(...)``), an array or list of literals the prefix wrote compared
   with those literals, a literal asserted.

One exception to 3: the not-null check of what the first oracle asserts on keeps the last place
shown (:func:`not_null_in_sight`).

Oracles that cannot hold (``assertNull`` on a ``new`` object) are not offered at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, NAMED_SOURCES, Verdict
from oracular.candidates.text import canonical_expression
from oracular.java.assertions import (
    ASSERT_ARRAY_EQUALS,
    ASSERT_EQUALS,
    ASSERT_NOT_NULL,
    ASSERT_NULL,
)
from oracular.java.neighbours import FirstCheck, read_base, read_path
from oracular.java.prefix import PrefixAnalysis, Target

_LITERAL_TARGETS = frozenset({"true", "false", "null"})


def cannot_fail(candidate: Candidate, prefix: PrefixAnalysis) -> bool:
    """Whether ``candidate`` holds whatever the code under test does (see the module docstring)."""
    target = candidate.target
    if candidate.kind != "assertion" or target is None:
        return False
    expression = target.expression
    if expression in _LITERAL_TARGETS or expression[:1].isdigit() or expression.startswith(('"', "'")):
        return True
    if target.kind == "instance":  # x instanceof C, where the test itself made x with new C(...)
        built = prefix.history.built.get(target.receiver or "")
        return built is not None and (target.method or "").rsplit(".", 1)[-1] == built.rsplit(".", 1)[-1]
    if candidate.expected is not None and candidate.expected.text == expression:
        return True
    history = prefix.history
    if target.kind == "variable" and expression in history.restated:
        return True
    # the array of literals the test itself wrote, seen unchanged (args4j's ``args = new
    # String[] {"horse"}``, handed to the parser: its content is the test's input)
    written = history.literal_arrays.get(expression) if target.kind == "variable" else None
    if (
        written is not None
        and candidate.expected is not None
        and _elements(candidate.expected.text) == _elements(written)
    ):
        return True
    expected = candidate.expected
    if expected is not None and restates_list(target, expected.text, history.literal_lists):
        return True
    size = history.sized.get(target.receiver or "")
    if size is not None and expression == f"{target.receiver}{size}":
        return True
    if candidate.assertion == ASSERT_NOT_NULL:
        return expression.startswith("new ") or (target.kind == "variable" and expression in history.fresh)
    return False


def _elements(array: str) -> str | None:
    """An array's elements in canonical spelling: ``new String[] {"a", "b"}``, ``{"a","b"}`` and an
    observed ``new java.lang.String[] {"a", "b"}`` read alike."""
    start = array.find("{")
    return canonical_expression(array[start:]) if start >= 0 else None


def restates_list(target: Target, expected: str, lists: dict[str, list[str]]) -> bool:
    """An equality of a list of literals the test built (java-diff-utils' ``revList =
    Arrays.asList("C", "B")``, handed to the diff) with those literals, or of its ``toString()``
    with their rendering (``"[C, B]"``): a value the unit left as the test wrote it."""
    if target.kind == "variable" and target.expression in lists:
        start = expected.find("(")
        if start < 0 or not expected.endswith(")"):
            return False
        return canonical_expression(expected[start + 1 : -1]) == canonical_expression(
            ", ".join(lists[target.expression])
        )
    elements = lists.get(target.receiver or "")
    if elements is None or target.method != "toString":
        return False
    texts = [e[1:-1] if e[:1] in "\"'" else e for e in elements]
    return "\\" not in "".join(texts) and expected == f'"[{", ".join(texts)}]"'


def cannot_hold(candidate: Candidate, prefix: PrefixAnalysis) -> bool:
    """Whether ``candidate`` fails whatever the code under test does, so it is never offered:
    ``assertNull`` on an object the prefix built with ``new`` (commons-math3's
    ``assertNull(test)`` after ``test = new KolmogorovSmirnovTest(...)`` was a top-1), and
    ``assertEquals`` between two locals built as different classes (``assertEquals(c, id)``
    after ``new Constant(3)`` and ``new Identity()``), and an exception oracle around a statement
    that only declares literals (:attr:`PrefixAnalysis.cannot_throw`: the top-1 of 6 of the 8 dev
    projects' 652 tests, commons-math3's ``final double[] b = {98765432.1};`` wrapped in a
    ``try``/``fail``)."""
    if candidate.kind == "exception":
        return prefix.cannot_throw
    target = candidate.target
    if candidate.kind != "assertion" or target is None or target.kind != "variable":
        return False
    history = prefix.history
    if candidate.assertion == ASSERT_NULL:
        return target.expression in history.fresh
    if candidate.assertion == ASSERT_EQUALS and candidate.expected is not None:
        one, other = candidate.expected.text, target.expression
        if one in history.fresh and other in history.fresh:
            classes = history.built.get(one), history.built.get(other)
            return None not in classes and classes[0] != classes[1]
    return False


def renders_whole_object(candidate: Candidate, prefix: PrefixAnalysis) -> bool:
    """An assertion on ``x.toString()`` where ``x`` is a workspace object (see the module
    docstring); a JDK writer's or buffer's text is what the unit wrote, the usual oracle. A chain
    (``a.getB().toString()``) is judged by its base ``a``: the enumerator chains only observers."""
    target = candidate.target
    if candidate.kind != "assertion" or target is None or target.method != "toString" or not target.receiver:
        return False
    receiver_type = prefix.env.variable_type(target.receiver)
    return receiver_type is None or prefix.env.resolve_class(receiver_type) is not None


def implied(
    candidates: Sequence[Candidate],
    verdicts: Sequence[Verdict | None],
    vacuous: Sequence[bool],
    habit: FirstCheck | None = None,
) -> list[bool]:
    """Holding ``assertNotNull`` oracles when another oracle that can fail holds too, and holding
    counts and first elements of a value that holds equal to one the test named.

    "Not null" is what almost every computed value is: it says least of all holding oracles (on
    unseen projects, 38% of top-1 suggestions were such ``assertNotNull`` oracles). And a value
    equal to the array or list the test declared (opencsv's ``assertArrayEquals(expectedValues,
    columnValues)``) has its length too: ``assertEquals(2, columnValues.length)`` came first in
    five such dev tests; so did ``assertEquals("one", format.getHeader()[0])`` before commons-csv's
    ``assertArrayEquals(header, format.getHeader())``.
    """
    holding = [
        v is not None and v.status == HOLDS and not vague for v, vague in zip(verdicts, vacuous, strict=True)
    ]
    stronger = any(h and c.assertion != ASSERT_NOT_NULL for c, h in zip(candidates, holding, strict=True))
    named = {
        c.target.expression
        for c, h in zip(candidates, holding, strict=True)
        if h and c.target is not None and c.expected is not None and c.expected.source in NAMED_SOURCES
        and c.assertion in (ASSERT_EQUALS, ASSERT_ARRAY_EQUALS)
    }  # fmt: skip
    parts = {f"{x}{part}" for x in named for part in (".length", ".size()", "[0]")}
    return [
        (stronger and c.assertion == ASSERT_NOT_NULL and not _the_habit(c, habit))
        or (c.target is not None and c.target.expression in parts)
        for c in candidates
    ]


def _the_habit(candidate: Candidate, habit: FirstCheck | None) -> bool:
    """A not-null check of what the file's tests check first that way (java-diff-utils'
    ``DiffUtilsTest`` opens nine of its tests with ``assertNotNull(patch)``): the file says it
    is worth saying first, though it says little."""
    target = candidate.target
    return (
        habit is not None
        and habit[0] == "null"
        and target is not None
        and read_path(target.expression) == habit[1]
    )


def offer_order(
    scores: Sequence[float],
    verdicts: Sequence[Verdict | None],
    vacuous: Sequence[bool],
    bug_score: float,
    weaker: Sequence[bool] | None = None,
    renderings: Sequence[bool] | None = None,
    failing: Sequence[bool] | None = None,
) -> list[int]:
    """Candidate indices in the order they are offered (tiers of the module docstring, then score).

    ``bug_score``: a failing expectation's score for a possible bug (:func:`is_possible_bug`);
    ``weaker``: holding oracles that another holding one implies (:func:`implied`);
    ``renderings``: oracles on a whole object's ``toString()`` (:func:`renders_whole_object`);
    ``failing``: the failures that may be bugs (:func:`expectations_failing`), else every failure.
    """
    if failing is None:
        failing = [v is not None and v.status == FAILS for v in verdicts]

    def tier(i: int) -> float:
        verdict = verdicts[i]
        if vacuous[i]:
            return 6
        if weaker is not None and weaker[i]:
            return 5
        if verdict is not None and verdict.status == HOLDS:
            return 3.5 if renderings is not None and renderings[i] else 3
        if verdict is not None and verdict.status == FAILS:
            return 2 if is_possible_bug(i, scores, failing, bug_score) else 5
        return 4

    order = sorted(range(len(scores)), key=lambda i: (tier(i), -scores[i]))
    best_holding = next((i for i in order if tier(i) in (3, 3.5)), None)
    if best_holding is not None:
        order.remove(best_holding)
        order.insert(0, best_holding)
    return order


def not_null_in_sight(
    order: Sequence[int],
    candidates: Sequence[Candidate],
    weaker: Sequence[bool],
    vacuous: Sequence[bool],
    shown: int,
) -> list[int]:
    """``order`` with the implied not-null check of what the first oracle asserts on (its target,
    the target's receiver: ``list`` for ``assertEquals(2, list.size())``, or the variable it reads
    from: ``patch`` for ``assertEquals(4, patch.getDeltas().size())``) moved to the last place
    shown.

    Why: developers often say only that much, where running the test shows a stronger oracle that
    holds (opencsv's ``assertNotNull(capturedExceptions)`` after ``getCapturedExceptions()``,
    where ``assertEquals(0, capturedExceptions.size())`` is the top-1): 22 of the 43 not-null
    oracles of the 8 dev projects' realistic tests were offered after the fifth place. The weak
    check on the same value is the alternative a user who wants less would look for; one slot,
    never the first, never one that cannot fail (``assertNotNull(s)`` after ``s = new
    Stack<>()``), and only for the first oracle's value: the others' would crowd out what the
    code does now (the bundled example's ``assertEquals(0, s.size())`` beside a possible bug).
    """
    if (
        len(order) <= shown
        or shown < 2
        or any(candidates[i].assertion == ASSERT_NOT_NULL for i in order[:shown])
    ):
        return list(order)
    first = candidates[order[0]].target
    subjects = {first.expression, first.receiver} if first is not None else set()
    if first is not None and (base := read_base(first.expression)) is not None:
        subjects.add(base)
    chosen = next(
        (
            i for i in order[shown:]
            if weaker[i] and not vacuous[i] and candidates[i].assertion == ASSERT_NOT_NULL
            and candidates[i].target is not None and candidates[i].target.expression in subjects
        ),
        None,
    )  # fmt: skip
    if chosen is None:
        return list(order)
    moved = [i for i in order if i != chosen]
    moved.insert(shown - 1, chosen)
    return moved


def expectations_failing(candidates: Sequence[Candidate], failing: Sequence[bool]) -> list[bool]:
    """``failing`` for the ranker's expectations only. A call of the suite's own helper is scored
    by the file's habit, not by a confidence in what it checks, and when it fails it was most likely
    given the wrong arguments: joptsimple's ``assertOptionDetected(options, "a")`` where the test
    passed ``"-quiet"`` was 7 of the 41 possible bugs shown on the 8 dev projects' correct code."""
    return [fails and c.kind != "helper" for c, fails in zip(candidates, failing, strict=True)]


def is_possible_bug(index: int, scores: Sequence[float], failing: Sequence[bool], bug_score: float) -> bool:
    """The ranker's most confident expectation among those that fail now, if it was confident: the
    code may be wrong, not the guess. One per test: a ranker sure of several things the code does
    otherwise is more likely wrong itself, and a list of "bugs" would hide the real one.

    The one rule for "possible bug", whether the failure was observed or found by running the oracle.
    """
    if not failing[index] or scores[index] < bug_score:
        return False
    return scores[index] == max(score for score, fails in zip(scores, failing, strict=True) if fails)
