"""Candidate sets and rankings per fixture, against golden files.

Regenerate after an intended change with ``ORACULAR_UPDATE_GOLDEN=1 pytest tests/engine/test_golden.py``
and review the diff: every line is an oracle a user would be offered.
"""

import json
import os

import pytest

from oracular.engine import OracleEngine
from oracular.java.source import load_source

from ..conftest import EXAMPLE_TESTS, FIXTURES, REPO, fixture_source

GOLDEN = REPO / "tests" / "golden"
CASES = [
    "TargetsTest.java",
    "Junit3StyleTest.java",
    "Junit4StyleTest.java",
    "Junit5StyleTest.java",
    "TestNgStyleTest.java",
    "HelperOracleTest.java",
]


def snapshot(engine: OracleEngine, source) -> dict:
    report = engine.suggest(source)
    result = {}
    for test in report.tests:
        result[test.test.name] = {
            "focal": f"{test.focal.cls.name}.{test.focal.name}" if test.focal else None,
            "exception": [round(test.exception_probability, 2), test.exception_type],
            "candidates": sorted(s.oracle for s in test.suggestions),
            "top3": [s.oracle for s in test.suggestions[:3]],
        }
    return result


@pytest.mark.parametrize("name", [*CASES, "example:StackTest.java", "example:TextUtilsTest.java"])
def test_golden_candidates(engine: OracleEngine, name: str) -> None:
    source = (
        load_source(EXAMPLE_TESTS / name.split(":")[1])
        if name.startswith("example:")
        else fixture_source(name)
    )
    actual = snapshot(engine, source)
    golden = GOLDEN / (name.replace("example:", "example-").removesuffix(".java") + ".json")
    if os.environ.get("ORACULAR_UPDATE_GOLDEN") or not golden.exists():
        golden.write_text(json.dumps(actual, indent=2) + "\n")
        if not os.environ.get("ORACULAR_UPDATE_GOLDEN"):
            pytest.fail(f"golden file {golden.name} was missing and has been written; review and commit it")
    assert actual == json.loads(golden.read_text())


def test_candidate_sets_are_type_correct(engine: OracleEngine) -> None:
    report = engine.suggest(fixture_source("TargetsTest.java"))
    by_test = {t.test.name: [s.oracle for s in t.suggestions] for t in report.tests}
    # boolean -> only assertTrue/False; primitives never get null checks
    on_b = [o for o in by_test["lastIsBooleanComparison"] if o.endswith("(b);") or ", b)" in o]
    assert sorted(o.split("(")[0] for o in on_b) == ["assertFalse", "assertTrue"]
    assert not any("Null" in o and "(n)" in o for o in by_test["lastIsLocalDeclaration"])

    # floating point gets a delta; a char gets char values only; strings get string values
    def equals_on(test: str, target: str) -> list[str]:
        return [o for o in by_test[test] if o.startswith("assertEquals") and f", {target}" in o]

    assert equals_on("lastIsDouble", "d") and all(
        o.endswith(", d, 0.0001);") for o in equals_on("lastIsDouble", "d")
    )
    assert equals_on("lastIsChar", "c);") and all("'" in o for o in equals_on("lastIsChar", "c);"))
    assert all('"' in o or "Stack." not in o for o in equals_on("lastIsString", "t);"))
    # a variable is never compared with the literal it was initialised with
    assert "assertEquals(3L, big);" not in by_test["lastIsLong"]
    # a bare non-void call is wrapped, not repeated
    assert "assertEquals(1, s.peek());" in by_test["lastIsBareNonVoidCall"]
    # a void call: assert on the receiver's observers
    assert {"assertFalse(s.isEmpty());", "assertEquals(2, s.size());"} <= set(by_test["lastIsVoidCall"])


def test_fixture_dir_exists() -> None:
    assert FIXTURES.is_dir()
