"""The headline table: its figures per cell, exception F1 read off the top-1, the reasons a prefix
was not observed grouped by cause, and ``oracular eval --headline --from`` over saved runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.evaluation.headline import CELLS, Cell, against, exception_f1, figures, headline, reason_group
from oracular.evaluation.realistic import Judged, ProjectRun


def judged(
    kind: str = "assertion", rank: int | None = 1, top1: str = "assertEquals(1, x)", **more: object
) -> Judged:
    fields = {"project": "p", "file": "F.java", "test": "T.t", "kind": kind, "appended": False,
              "developer": top1, "offered": True, "rank": rank, "top1": top1, **more}  # fmt: skip
    return Judged(**fields)  # type: ignore[arg-type]


def test_the_figures_of_a_cell() -> None:
    cell = [
        judged(observed=True, alarm=True),
        judged(rank=3, observed=True, top1_method="assertNotNull"),
        judged(rank=None, offered=False, unobserved="the test class does not compile here: x"),
        judged("exception", top1="assertThrows(X.class)", type_right=True, top1_method="assertThrows"),
    ]
    found = figures(cell)
    assert (found["tests"], found["observed"], found["top1"], found["top5"]) == (4, 0.5, 0.5, 0.75)
    assert (found["observed_top1"], found["observed_top5"]) == (0.5, 1.0)
    assert (found["answered"], found["right_when_answered"]) == (0.75, pytest.approx(2 / 3))
    assert (found["type_accuracy"], found["not_null"], found["false_alarms"]) == (
        1.0,
        pytest.approx(1 / 3),
        0.5,
    )
    assert found["exception_f1"] == 1.0


def test_answered_observed_counts_the_observed_tests_alone() -> None:
    """The issue's answering target is over the tests whose prefix ran: an unobserved test answered
    (by the static ranker) does not count there."""
    cell = [judged(observed=True), judged(observed=True, offered=False), judged(observed=False)]
    found = figures(cell)
    assert (found["answered"], found["observed_answered"]) == (pytest.approx(2 / 3), 0.5)


def test_exception_f1_reads_the_top1_as_the_engines_verdict() -> None:
    said_and_did = judged("exception", top1="assertThrows(X.class)", top1_method="assertThrows")
    missed = judged("exception", top1="assertEquals(1, x)", top1_method="assertEquals")
    false_alarm = judged(top1="assertThrows(Y.class)", top1_method="assertThrows")
    assert exception_f1([said_and_did, missed, false_alarm, judged()]) == pytest.approx(0.5)
    # JUnit 3 and 4 get try/fail/catch: the same verdict, written otherwise
    try_fail = "try {\n    f();\n    fail();\n} catch (X e) {}"
    junit4 = judged("exception", top1=try_fail, top1_method="assertThrows")
    assert exception_f1([junit4, missed]) == pytest.approx(2 / 3)
    assert exception_f1([judged()]) is None  # no throwing test, nothing said to throw


@pytest.mark.parametrize(
    ("why", "group"),
    [
        (
            "the test class does not compile here: A.java:3: unmappable character (0xF6)",
            "the sources' encoding",
        ),
        (
            "the test class does not compile here: line 2: package com.x does not exist",
            "a package is missing",
        ),
        ("the test class does not compile here: line 9: cannot find symbol: class Y", "a class or member"),
        ("no JDK on PATH (java/javac not found)", "no JDK"),
        ("not run", "not run"),
        ("did not run: its class failed before it ran: TimeoutException: no folder", "its test class"),
        ("did not run: JUnit did not find it: no such method", "JUnit did not run it"),
        ("the prefix threw IOException in 1 of 2 runs", "the prefix does not run the same way twice"),
        ("something new: details", "something new"),
    ],
)
def test_reasons_are_grouped_by_their_general_cause(why: str, group: str) -> None:
    assert reason_group(why).startswith(group)


def test_prefixes_that_ended_early_are_counted_apart_among_the_observed() -> None:
    """They ran (observed, as the issue counts them), but nothing at the cut was read."""
    cell = [
        judged(observed=True),
        judged(observed=True, ended_early="java.lang.IllegalStateException"),
        judged(observed=False, unobserved="not run"),
    ]
    text = headline({Cell("report", "one-cut", "observed"): cell})
    assert "| report | one-cut | observed | 3 | 66.7% |" in text
    assert "nothing at the cut was read (report, one-cut): 1." in text


def test_the_table_from_saved_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for cell in CELLS[:2]:
        run = ProjectRun("p", "1", [judged(observed=cell.mode == "observed")])
        (tmp_path / f"{cell.name}.json").write_text(json.dumps([run.to_json()]), encoding="utf-8")
    assert main(["eval", "--headline", "--from", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| tune | one-cut | static | 1 | 0.0% | 100.0% |" in out
    assert "| tune | one-cut | observed | 1 | 100.0% | 100.0% |" in out
    assert "report" not in out.split("\n\n")[0]  # cells not run are not rows
    assert headline({Cell("tune", "one-cut", "static"): [judged()]}).count("\n| tune") == 1
    assert main(["eval", "--headline", "--from", str(tmp_path / "none")]) == 2


def test_a_table_against_another_counts_the_tests_each_cell_turned() -> None:
    cell = Cell("report", "one-cut", "static")
    before = [
        judged(test="T.a"),
        judged(test="T.b", rank=3),
        judged(test="T.c", rank=None),
        judged(test="T.d"),
    ]
    # a right, b turns right, c enters the top five, d turns wrong (out of the five); e is new
    after = [judged(test="T.a"), judged(test="T.b"), judged(test="T.c", rank=2),
             judged(test="T.d", rank=None), judged(test="T.e")]  # fmt: skip
    table = against({cell: before}, {cell: after, Cell("tune", "one-cut", "static"): after})
    assert "| report | one-cut | static | 4 | 2 -> 2, 1 / 1, 1.4 | 3 -> 3, 1 / 1, 1.4 |" in table
    assert "| tune |" not in table  # a cell run once is not compared


def test_the_table_against_saved_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for folder, rank in (("old", None), ("new", 1)):
        (tmp_path / folder).mkdir()
        run = ProjectRun("p", "1", [judged(rank=rank)])
        (tmp_path / folder / "report-all-cut-static.json").write_text(
            json.dumps([run.to_json()]), encoding="utf-8"
        )
    new, old = str(tmp_path / "new"), str(tmp_path / "old")
    assert main(["eval", "--headline", "--from", new, "--against", old]) == 0
    assert (
        "| report | all-cut | static | 1 | 0 -> 1, 1 / 0, 1.0 | 0 -> 1, 1 / 0, 1.0 |"
        in capsys.readouterr().out
    )
    assert main(["eval", "--headline", "--from", new, "--against", str(tmp_path / "none")]) == 2
    assert "no evaluation in" in capsys.readouterr().err
