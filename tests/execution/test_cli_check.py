"""``oracular suggest --check``: a ``check`` per suggestion in the JSON, verdicts in the listing."""

from __future__ import annotations

import json

from oracular.cli.main import main

from ..conftest import EXAMPLE
from .conftest import TEST_PACKAGE, require_toolchain

COUNTER = EXAMPLE / TEST_PACKAGE / "BoundedCounterTest.java"


def test_suggest_check_json(capsys) -> None:
    require_toolchain()
    assert main(["suggest", str(COUNTER), "--check", "--json", "--classpath", ""]) == 0
    document = json.loads(capsys.readouterr().out)
    checks = {
        (test["method"], s["oracle"]): s["check"] for test in document["tests"] for s in test["suggestions"]
    }
    assert all(c is not None for c in checks.values())
    assert {c["status"] for c in checks.values()} <= {"holds", "fails", "does-not-compile", "unchecked"}
    wrong = checks[("testValueAfterIncrement", "assertEquals(5, v);")]
    assert wrong == {
        "status": "fails",
        "observed": "was 1",
        "verdict": "likely wrong guess",
        "detail": "AssertionFailedError: expected: <5> but was: <1>",
        "summary": "fails now: was 1 — likely wrong guess",
    }
    assert checks[("testValueAfterIncrement", "assertEquals(1, v);")]["status"] == "holds"
    context = document["check"]
    assert context["error"] is None
    assert context["classpath"]["strategy"] in ("maven", "fallback")
    assert context["elapsed_s"] > 0


def test_suggest_check_listing_and_refusals(capsys) -> None:
    require_toolchain()
    assert main(["suggest", str(COUNTER), "--check", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "assertThrows(IllegalArgumentException.class, () -> new BoundedCounter(-1));  · holds now" in out
    assert "· not checked: the test throws IllegalStateException before the oracle" in out
    assert "classpath from " in out
    assert main(["suggest", str(COUNTER), "--check", "--diff"]) == 2
    assert "--check goes with" in capsys.readouterr().err
