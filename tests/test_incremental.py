"""Typed memo keys: every input a kept per-method result depends on is a field of its key, so a
change to any of them is a different key, never a stale result."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from oracular.candidates.helpers import HelperHabit
from oracular.engine.analysis import EvidenceKey, ObservedReportKey, ReportKey
from oracular.execution.observe import ObservationKey
from oracular.execution.oracle_checks import CheckKey
from oracular.incremental import KeptResults, MemoKey, MethodMemo
from oracular.java.junit import find_test_methods
from oracular.java.source import parse_text
from oracular.java.targets import Target
from oracular.quality.runner import FindingsKey
from oracular.quality.untested_precondition import NewTestKey, Precondition, SummaryKey

from .conftest import java

PRECONDITION = Precondition("IllegalArgumentException", "when n < 0", 0, "-1")
REPORT = ReportKey(frozenset(), (), (), 0.0, 0, (), None)
REPORT_OTHER = dataclasses.replace(REPORT, with_oracle=1)
KEYS: list[tuple[MemoKey, dict[str, Any]]] = [
    # a key, and for each field another value
    (EvidenceKey(), {}),
    (SummaryKey(), {}),
    (
        ReportKey(
            frozenset({".size()"}), (".size()",), ("IOException",), 0.5, 3, (HelperHabit("check", 2),), None
        ),
        {
            "asserted": frozenset(),
            "asserted_reads": (),
            "expected_exceptions": (),
            "own_helpers": 0.0,
            "with_oracle": 4,
            "helper_habits": (HelperHabit("check", 3),),
            "first_habit": ("truth", ".isEmpty()"),
        },
    ),
    (FindingsKey(("unused-input",), True), {"codes": ("unused-input", "brittle"), "fixes": False}),
    (
        ObservedReportKey(REPORT, (("x", 1),), None),
        {"report": REPORT_OTHER, "observation": (("x", 2),), "unobserved": "ran past its time limit"},
    ),
    (
        ObservationKey("classpath-a", (Target("x", "int", "variable"),)),
        {"context": "classpath-b", "targets": (Target("x", "long", "variable"),)},
    ),
    (
        CheckKey("classpath-a", 0.5, ((1, "assertion"),)),
        {"context": "classpath-b", "bug_score": 0.6, "suggestions": ()},
    ),
    (
        NewTestKey("p.Box", "put", 3, PRECONDITION, ("testPut",)),
        {
            "owner": "p.Bag",
            "method": "get",
            "line": 4,
            "precondition": dataclasses.replace(PRECONDITION, violating="-2"),
            "names": ("testPut", "testPut1"),
        },
    ),
]


@pytest.mark.parametrize(
    ("key", "others"), KEYS, ids=lambda k: type(k).__name__ if isinstance(k, MemoKey) else ""
)
def test_changing_any_field_changes_the_key(key: MemoKey, others: dict[str, Any]) -> None:
    assert dataclasses.is_dataclass(key) and type(key).__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert set(others) == {f.name for f in dataclasses.fields(key)}  # every field is tried
    for name, value in others.items():
        changed = dataclasses.replace(key, **{name: value})
        assert changed != key and hash(changed) != hash(key), name


def test_the_memo_keeps_a_result_per_key_and_kinds_do_not_collide() -> None:
    source = java(
        """
        class ATest {
            @org.junit.jupiter.api.Test
            void t() { int x = 1; }
        }
        """
    )
    tests = find_test_methods(source, [])
    memo = MethodMemo()
    memo.begin(source, tests, context=())
    report, findings = KEYS[2][0], FindingsKey(("unused-input",), True)
    memo.put(report, tests[0], "report")
    memo.put(findings, tests[0], "findings")
    memo.finish()
    again = parse_text(source.text)
    tests = find_test_methods(again, [])
    memo.begin(again, tests, context=())
    assert memo.get(report, tests[0]).value == "report"  # type: ignore[union-attr]
    assert memo.get(findings, tests[0]).value == "findings"  # type: ignore[union-attr]
    assert memo.get(dataclasses.replace(findings, fixes=False), tests[0]) is None
    assert memo.get(EvidenceKey(), tests[0]) is None


def test_kept_results_serve_each_version_by_the_key_its_analysis_gave_and_drop_the_oldest() -> None:
    source = java(
        """
        class ATest {
            @org.junit.jupiter.api.Test
            void t() { int x = 1; }
            @org.junit.jupiter.api.Test
            void u() { int y = 2; }
        }
        """
    )
    memo = MethodMemo()
    memo.begin(source, find_test_methods(source, []), context=())
    first = dict(memo.keys)
    kept = KeptResults(size=2)
    for test in find_test_methods(source, []):
        kept.put(EvidenceKey(), first[test.node.id], f"{test.name}'s result")
    grown = parse_text(source.text.replace("int x = 1; }", "int x = 1;\n        x++; }"))
    memo.begin(grown, find_test_methods(grown, []), context=())  # a newer version: new keys
    t, u = find_test_methods(grown, [])
    assert kept.get(EvidenceKey(), memo.keys[t.node.id]) is None  # t changed
    reuse = kept.get(EvidenceKey(), memo.keys[u.node.id])
    assert reuse is not None and reuse.value == "u's result" and reuse.delta == 1  # moved down a line
    assert kept.get(REPORT, memo.keys[u.node.id]) is None  # another kind
    assert kept.get(EvidenceKey(), None) is None  # a version analysed without keys
    kept.put(REPORT, memo.keys[t.node.id], 1)  # a third entry: the least recently used (t's) goes
    assert kept.get(EvidenceKey(), first[find_test_methods(source, [])[0].node.id]) is None
    assert kept.get(EvidenceKey(), memo.keys[u.node.id]) is not None
    assert kept.get(REPORT, memo.keys[t.node.id]).value == 1  # type: ignore[union-attr]
    kept.retain([memo.keys[t.node.id]])  # one version's methods: u's results go
    assert kept.get(REPORT, memo.keys[t.node.id]) is not None
    assert kept.get(EvidenceKey(), memo.keys[u.node.id]) is None
