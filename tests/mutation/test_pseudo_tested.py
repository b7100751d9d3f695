"""Pseudo-tested methods on the fixture project, with a real JVM: verdicts, causes, killing oracles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracular.cli.common import engine_for
from oracular.cli.main import main
from oracular.execution.classpath import ClasspathSettings
from oracular.execution.oracle_checks import CheckSettings, OracleChecker
from oracular.java.source import load_source
from oracular.mutation.calls import called_methods
from oracular.mutation.pseudo_tested import PseudoTester
from oracular.mutation.records import Cause, MethodVerdict
from oracular.ranking.baseline import BaselineRanker

from .conftest import PSEUDO_MAIN, PSEUDO_TEST, require_toolchain


def _run(root: Path, checker: OracleChecker):
    path = root / PSEUDO_TEST
    engine = engine_for([path], ranker=BaselineRanker())
    steps: list[tuple[str, int, int]] = []
    result = PseudoTester(engine, checker).run(load_source(path), lambda *step: steps.append(step))
    return result, steps


def test_the_calls_of_each_test_name_the_main_methods(pseudo_project: Path) -> None:
    path = pseudo_project / PSEUDO_TEST
    engine = engine_for([path], ranker=BaselineRanker())
    calls = called_methods(engine.index, engine.analyse(load_source(path))).tests
    by_label = {m.label: tests for m, tests in calls.items()}
    assert by_label["IntStack.pop"] == ["pushThenPop", "trimKeepsElements"]
    assert by_label["IntStack.size"] == ["sizeIsCounted"]
    assert by_label["IntStack.push"] == [
        "pushThenPop",
        "notEmptyAfterPush",
        "sizeIsCounted",
        "trimKeepsElements",
    ]
    assert "IntStack.<init>" not in by_label  # constructors are not mutated


def test_verdicts_causes_and_the_oracle_that_kills(pseudo_project: Path, checker: OracleChecker) -> None:
    require_toolchain()
    result, steps = _run(pseudo_project, checker)
    assert result.error is None and result.failing_tests == []
    verdicts = {m.method.label: m.verdict for m in result.methods}
    assert verdicts == {
        "IntStack.push": MethodVerdict.TESTED,
        "IntStack.pop": MethodVerdict.TESTED,
        "IntStack.isEmpty": MethodVerdict.PARTIALLY_TESTED,  # `return true` killed, `return false` not
        "IntStack.size": MethodVerdict.PSEUDO_TESTED,
        "IntStack.trimToSize": MethodVerdict.PSEUDO_TESTED,
    }
    by_label = {m.method.label: m for m in result.methods}
    (survivor,) = [m for m in by_label["IntStack.isEmpty"].mutants if m.survived]
    assert survivor.mutant.replacement == "{ return false; }"
    assert survivor.causes == {"notEmptyAfterPush": Cause.NO_INFECTION}  # it returns false anyway
    (trim,) = by_label["IntStack.trimToSize"].mutants
    assert trim.causes == {"trimKeepsElements": Cause.NO_PROPAGATION}  # the array shrinks, unseen
    (size,) = by_label["IntStack.size"].mutants
    assert size.causes == {"sizeIsCounted": Cause.WEAK_ORACLE}
    (oracle,) = by_label["IntStack.size"].oracles
    assert (oracle.test, oracle.statement, oracle.holds) == (
        "sizeIsCounted",
        "assertEquals(2, s.size());",
        True,
    )
    assert oracle.kills == [size.mutant.id]
    assert by_label["IntStack.trimToSize"].oracles == []  # nothing a test reads tells it apart
    assert result.mutants_run == 6
    assert steps[0] == ("IntStack.push", 0, 5) and steps[-1][0] == "why mutants survive"


def test_a_failing_test_is_left_out_and_said(pseudo_project: Path, checker: OracleChecker) -> None:
    require_toolchain()
    path = pseudo_project / PSEUDO_TEST
    text = path.read_text().replace("assertEquals(2, s.pop());", "assertEquals(3, s.pop());")
    path.write_text(text)
    result, _ = _run(pseudo_project, checker)
    assert result.failing_tests == ["pushThenPop"]
    pop = next(m for m in result.methods if m.method.label == "IntStack.pop")
    assert pop.mutants[0].executed_by == ["trimKeepsElements"]


def test_the_command_lists_verdicts_and_a_summary(
    pseudo_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_toolchain()
    assert main(["pseudo-tested", str(pseudo_project / "src/test")]) == 0
    out = capsys.readouterr().out
    assert "IntStackTest.java: 5 method(s) called: 2 pseudo-tested, 1 partially tested, 2 tested" in out
    assert "{ return false; } survives notEmptyAfterPush: no infection" in out
    assert "kills 1: in sizeIsCounted (line 25): assertEquals(2, s.size());" in out
    assert "1 file(s), 5 method(s): 2 pseudo-tested" in out
    assert "weak-oracle mutants with a killing oracle: 1 of 1" in out
    assert main(["pseudo-tested", "--json", "--no-causes", str(pseudo_project / PSEUDO_TEST)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    document = json.loads(line)
    assert {m["method"]: m["verdict"] for m in document["methods"]}["IntStack.size"] == "pseudo-tested"
    assert all(m["oracles"] == [] for m in document["methods"])  # --no-causes


def test_the_command_says_what_is_wrong_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pseudo-tested", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.strip() == f"oracular: no such file or directory: {tmp_path / 'missing'}"


def test_a_second_run_of_the_same_inputs_is_remembered(pseudo_project: Path) -> None:
    require_toolchain()
    settings = CheckSettings(classpath=ClasspathSettings(use_build_tools=False), use_cache=True)
    checker = OracleChecker(settings)
    try:
        first, _ = _run(pseudo_project, checker)
        again, steps = _run(pseudo_project, checker)
        assert not first.cached and again.cached and steps == []  # nothing ran
        assert [m.to_json() for m in again.methods] == [m.to_json() for m in first.methods]
        main = pseudo_project / PSEUDO_MAIN
        main.write_text(main.read_text().replace("return count;", "return count + 0;"))
        changed, _ = _run(pseudo_project, checker)
        assert not changed.cached  # the project changed: run again
    finally:
        checker.close()
