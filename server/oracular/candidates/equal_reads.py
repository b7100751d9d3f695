"""Oracles that relate two of the prefix's objects: ``assertEquals(smile1.length, smile2.length)``.

Why: where the prefix ran, each target's value becomes a literal (``assertEquals(366926,
smile2.length)``), but a developer who built two objects that must agree writes the one read as
the expected value of the other: ``assertEquals(other.getExecutable(), cmdl.getExecutable())``,
``assertEquals(M.numCols, v.length)``, ``assertEquals(t.beginColumn, zom.getColumn())``. Of the
observed train tests whose developer's assertion was offered with the wrong expected value, about
one in five named another read of the prefix so (2026-12-06, 60 sampled of 256).

A pair is offered where two targets read the same value and it says something: a number, a
character or a string other than the values any two reads share by chance (``0``, ``1``, ``true``,
``""``), of two different objects (:attr:`~oracular.java.targets.Target.receiver`, or the variable
itself: ``s`` and ``s.toString()`` agree by construction), the target listed first (the more
relevant) the actual value. Both were read, so the verdict is known: it holds.

The expected value is a ``variable``: a name of the prefix the verdict reads, as a local is, and
the learned ranker weighs it so (it was fitted before pairs were offered). Report, model 4.11
(2026-12-06): top-5 44.7 -> 47.1% one-cut and 44.0 -> 45.6% all-cut, top-1 two and one tests
fewer, right when answered 58.8 -> 59.6% and 59.4%; tune: top-1 and top-5 identical.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import TestObservation
from oracular.candidates.values import Value
from oracular.java.assertions import ASSERT_EQUALS
from oracular.java.targets import Target

MAX_EQUAL_READS = 4
"""Pairs offered per test."""
MAX_SHARING = 3
"""A value more targets share than this is a coincidence (every count is 2), not a relation."""
CHANCE_VALUES = frozenset({"0", "1", "-1", "0L", "1L", "0.0", "1.0", "0.0f", "1.0f", '""', "' '", "'\\0'"})
"""Literals two unrelated reads often share."""
KINDS = ("literal", "enum")


def equal_reads(targets: Sequence[Target], observation: TestObservation) -> list[Candidate]:
    """``assertEquals(other, target)`` for targets of different objects that read the same telling
    value, at most :data:`MAX_EQUAL_READS`."""
    groups: dict[tuple[str, str, str], list[Target]] = {}
    for target in targets:
        value = observation.values.get(target.expression)
        if (
            value is not None
            and value.kind in KINDS
            and value.payload not in CHANCE_VALUES
            and target.kind not in ("value", "helper", "instance")
        ):
            # an enum constant is one by its type too (State.ON is not Switch.ON); numbers compare by value
            enum_type = value.type if value.kind == "enum" else ""
            groups.setdefault((value.kind, enum_type, value.payload), []).append(target)
    found: list[Candidate] = []
    for group in groups.values():
        if len(group) > MAX_SHARING:
            continue
        actual = group[0]
        for other in group[1:]:
            if (other.receiver or other.expression) != (actual.receiver or actual.expression):
                expected = Value(other.expression, other.type or "Object", "variable")
                found.append(Candidate("assertion", ASSERT_EQUALS, actual, expected))
    return found[:MAX_EQUAL_READS]
