"""The bug-finding evaluation end to end on the bundled example, with a handful of mutants."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.evaluation.bug_finding import BARE, CHECKED, DEV, REGRESSION
from oracular.evaluation.bug_finding.records import ProjectResult
from oracular.execution.jvm import HelperFailed

from .conftest import TEST_PACKAGE, require_toolchain

DEVELOPER_TESTS = """package org.example.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CounterOracleTest {
    @Test
    void incrementOnce() {
        BoundedCounter c = new BoundedCounter(5);
        c.increment();
        assertEquals(1, c.value());
    }

    @Test
    void reachesMax() {
        BoundedCounter c = new BoundedCounter(1);
        c.increment();
        assertTrue(c.isAtMax());
    }

    @Test
    void rejectsNegativeMax() {
        assertThrows(IllegalArgumentException.class, () -> new BoundedCounter(-1));
    }
}
"""


def test_eval_mutants_on_the_example(project: Path, tmp_path: Path, capsys) -> None:
    """``oracular eval --mutants`` on a copy of the example, with a few mutants of two operators."""
    require_toolchain()
    (project / TEST_PACKAGE / "CounterOracleTest.java").write_text(DEVELOPER_TESTS, encoding="utf-8")
    out, raw = tmp_path / "eval.md", tmp_path / "eval.json"
    args = ["eval", "--mutants", str(project), "--max-mutants", "20", "--jobs", "1", "--operators",
            "increments,boundary", "-q", "-o", str(out), "--json", str(raw)]  # fmt: skip
    assert main(args) == 0
    assert "evaluation written to" in capsys.readouterr().out
    result = json.loads(raw.read_text(encoding="utf-8"))[0]
    rows, counts = result["rows"], result["counts"]
    assert result["rankers"] == ["baseline"]  # tests pin the baseline ranker
    assert set(rows) == {BARE, DEV, "rank:baseline", "rank:observed", CHECKED, REGRESSION}
    assert rows["rank:observed"]["failing"] == 0  # observed on the correct code, so it holds there
    # The three tests above plus the two of StackTest that have an oracle.
    assert counts["tests_selected"] == 5
    assert (rows[DEV]["tests"], rows[DEV]["compiled"], rows[DEV]["failing"]) == (5, 5, 0)
    assert rows[REGRESSION]["failing"] == 0
    assert rows[BARE]["failing"] == 1  # `new BoundedCounter(-1)` throws: "never throws" is wrong there
    assert rows[CHECKED]["failing"] == 0  # checked on the correct code by construction
    # `value++` -> `value--` is caught by asserting the value, never by running the prefix alone.
    assert any("increments: ++ -> --" in e for e in result["examples"]) or rows[DEV]["attributable"] >= 1
    assert rows[DEV]["attributable"] >= 1 and rows[REGRESSION]["attributable"] >= 1
    assert counts["mutants_run"] + counts.get("mutants_stillborn", 0) == counts["mutants_sampled"] >= 3
    assert set(result["sampled_by_operator"]) <= {"increments", "boundary"}
    for row in rows.values():
        assert row["attributable"] <= row["killed"]
    # each test's variants say what they caught, and whether a top-1 is the developer's oracle
    details = result["details"]
    assert all("kills" in v for d in details for v in d["variants"].values())
    assert any(d["variants"][DEV]["kills"] for d in details)
    assert all(isinstance(d["variants"]["rank:observed"]["developers"], bool) for d in details)
    tests, caught = ProjectResult.from_json(result).as_strong("rank:observed")
    assert 0 <= caught <= tests
    text = out.read_text(encoding="utf-8")
    assert "## stack" in text
    assert "| developer's oracle | 5 | 100.0% | 0.0% (0) |" in text


def test_only_the_sampled_tests_are_answered(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eligibility is read from the prefix; the rankers and the observation answer the sample alone
    (answering all of commons-math3's 2,531 eligible tests first took most of an hour)."""
    require_toolchain()
    from oracular.engine import OracleEngine

    (project / TEST_PACKAGE / "CounterOracleTest.java").write_text(DEVELOPER_TESTS, encoding="utf-8")
    answered = []
    suggest_test = OracleEngine.suggest_test

    def counting(self, analysis, status, *args, **kwargs):
        answered.append(status.test.name)
        return suggest_test(self, analysis, status, *args, **kwargs)

    monkeypatch.setattr(OracleEngine, "suggest_test", counting)
    raw = tmp_path / "eval.json"
    args = ["eval", "--mutants", str(project), "--max-tests", "2", "--max-mutants", "2", "--jobs", "1",
            "--operators", "increments", "-q", "--json", str(raw)]  # fmt: skip
    assert main(args) == 0
    counts = json.loads(raw.read_text(encoding="utf-8"))[0]["counts"]
    assert (counts["tests_eligible"], counts["tests_selected"]) == (5, 2)
    assert len(answered) == 4 and len(set(answered)) == 2  # observed and the baseline, per sampled test


def test_unknown_operators_are_refused(capsys) -> None:
    assert main(["eval", "--mutants", ".", "--operators", "boundary,nonsense"]) == 2
    assert "nonsense" in capsys.readouterr().err


def test_a_project_whose_helper_jvm_dies_costs_that_project_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """A JVM that died on commons-math (2026-12-02) ended a 12-project run after 41 minutes with
    a traceback and nothing written: now that project is one line, the others are kept."""
    import oracular.evaluation.bug_finding as bug_finding

    broken, fine = tmp_path / "broken", tmp_path / "fine"
    broken.mkdir(), fine.mkdir()

    def evaluate(root: Path, **_options) -> ProjectResult:
        if root == broken:
            raise HelperFailed("the helper JVM died while compiling: no output")
        return ProjectResult(root.name, "1.0", root, "", ["baseline"], "")

    monkeypatch.setattr(bug_finding, "evaluate_project", evaluate)
    raw = tmp_path / "eval.json"
    assert main(["eval", "--mutants", str(broken), str(fine), "-q", "--json", str(raw)]) == 1
    err = capsys.readouterr().err
    assert "broken: not evaluated: the helper JVM died" in err and "Traceback" not in err
    assert [r["name"] for r in json.loads(raw.read_text(encoding="utf-8"))] == ["fine"]


def _detail(top: dict, dev_kills: list[str], bare_kills: list[str] = ()) -> dict:
    return {"key": "f:0", "variants": {
        BARE: {"status": "passed", "kills": list(bare_kills)},
        DEV: {"status": "passed", "kills": dev_kills},
        "rank:observed": {"status": "passed", "developers": False, **top},
    }}  # fmt: skip


def test_a_top1_that_is_not_the_developers_counts_as_strong_where_it_catches_what_that_catches() -> None:
    result = ProjectResult("p", "1", Path("p"), "", [], "")
    result.details = [
        _detail({"kills": ["m2"]}, ["m1", "m2"], ["m1"]),  # catches m2, the one the oracle adds
        _detail({"kills": ["m1"]}, ["m3"]),  # misses m3
        _detail({"kills": [], "developers": True}, ["m3"]),  # the developer's own: not counted
        _detail({"kills": []}, ["m1"], ["m1"]),  # the developer's oracle adds nothing to its prefix
        _detail({"kills": ["m3"], "status": "failed"}, ["m3"]),  # fails on the correct code
    ]
    assert result.as_strong("rank:observed") == (2, 1)
    assert result.as_strong("rank:neural") == (0, 0)
