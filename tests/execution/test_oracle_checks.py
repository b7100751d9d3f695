"""Execution checks on the bundled example: real javac, real JUnit (Debian's jars), real verdicts."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import pytest

from oracular.candidates.render import TextEdit
from oracular.engine import FileReport, Suggestion
from oracular.execution.jvm import TestOutcome
from oracular.execution.oracle_checks import (
    CheckCancelled,
    CheckResult,
    CheckStatus,
    OracleChecker,
    Verdict,
    classify,
    demote_uncompilable,
    format_check,
)
from oracular.execution.runner import ScratchOutcome

from ..conftest import EXAMPLE
from .conftest import TEST_PACKAGE, report_for, require_toolchain


def _by_oracle(report: FileReport, check, test_name: str) -> dict[str, CheckResult]:
    test = next(t for t in report.tests if t.test.name == test_name)
    results = {}
    for s in test.suggestions:
        result = check.result_for(test, s)
        assert result is not None, s.oracle
        results[s.oracle] = result
    return results


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return digest.hexdigest()


# -- pure: formatting and classification -------------------------------------------------------
def test_format_check_reads_like_a_title_suffix() -> None:
    fails = CheckResult(CheckStatus.FAILS, observed="was 1", verdict=Verdict.POSSIBLE_BUG)
    assert format_check(fails) == "fails now: was 1 — possible bug"
    assert format_check(CheckResult(CheckStatus.HOLDS)) == "holds now"
    assert format_check(CheckResult(CheckStatus.NO_COMPILE, detail="cannot find symbol")) == (
        "does not compile: cannot find symbol"
    )
    assert format_check(CheckResult(CheckStatus.UNCHECKED, detail="the test ran past its time limit")) == (
        "not checked: the test ran past its time limit"
    )
    assert format_check(None) == "checking…"
    long = CheckResult(CheckStatus.FAILS, observed="was " + "x" * 200, verdict=Verdict.WRONG_GUESS)
    assert len(format_check(long)) < 90


def _suggestion(
    rank: int, score: float, kind: str = "assertion", assertion: str = "assertEquals"
) -> Suggestion:
    candidate = type("C", (), {"kind": kind, "assertion": assertion})()
    return Suggestion(rank, score, candidate, None, [])  # type: ignore[arg-type]


def test_classify_verdicts_observed_values_and_first_throw() -> None:
    failed = "org.opentest4j.AssertionFailedError"
    nothing = "Expected java.lang.IllegalStateException to be thrown, but nothing was thrown."
    outcome = ScratchOutcome(
        compile_errors={"t:4": "cannot find symbol"},
        results={
            "t:bare": TestOutcome("passed"),
            "t:1": TestOutcome("failed", exception=failed, message="expected: <0> but was: <1>", actual="1"),
            "t:2": TestOutcome("passed"),
            "t:3": TestOutcome(
                "failed", exception="junit.framework.AssertionFailedError", message="expected:<5> but was:<1>"
            ),
            "t:5": TestOutcome("failed", exception=failed, message=nothing),
            "t:6": TestOutcome("timeout"),
        },
    )
    suggestions = [
        _suggestion(1, 0.9),
        _suggestion(2, 0.8),
        _suggestion(3, 0.7),
        _suggestion(4, 0.6),
        _suggestion(5, 0.2, "exception", "assertThrows"),
        _suggestion(6, 0.1),
    ]
    keys = [f"t:{i}" for i in range(1, 7)]
    results = classify(suggestions, outcome, keys, "t:bare")
    first, second, third, fourth, fifth, sixth = results
    assert (first.status, first.observed, first.verdict) == (CheckStatus.FAILS, "was 1", Verdict.POSSIBLE_BUG)
    assert second.status is CheckStatus.HOLDS
    # Only the most confident failing candidate is a possible bug (one per test) ...
    assert (third.status, third.observed, third.verdict) == (CheckStatus.FAILS, "was 1", Verdict.WRONG_GUESS)
    assert (fourth.status, fourth.detail) == (CheckStatus.NO_COMPILE, "cannot find symbol")
    # ... and an unconfident one never.
    assert (fifth.status, fifth.observed) == (CheckStatus.FAILS, "nothing thrown")
    assert fifth.verdict is Verdict.WRONG_GUESS
    assert sixth.status is CheckStatus.UNCHECKED and "time limit" in sixth.detail

    threw = ScratchOutcome(
        results={
            "t:bare": TestOutcome("failed", exception="java.lang.IllegalStateException"),
            "t:1": TestOutcome("failed", exception="java.lang.IllegalStateException"),
        }
    )
    only = classify([_suggestion(1, 0.9)], threw, ["t:1"], "t:bare")[0]
    assert only.status is CheckStatus.UNCHECKED
    assert format_check(only) == "not checked: the test throws IllegalStateException before the oracle"

    # xom's parser classes, loaded by name, were never compiled on demand: no verdict on the oracle
    unloaded = ScratchOutcome(
        results={
            "t:bare": TestOutcome("failed", exception="java.lang.NoClassDefFoundError", message="nu/xom/X"),
            "t:1": TestOutcome("failed", exception="java.lang.NoClassDefFoundError", message="nu/xom/X"),
        }
    )
    linkage = classify([_suggestion(1, 0.9, "exception", "assertThrows")], unloaded, ["t:1"], "t:bare")[0]
    assert linkage.status is CheckStatus.UNCHECKED and linkage.verdict is None
    assert "could not be loaded here: NoClassDefFoundError" in format_check(linkage)


def test_uncompilable_candidates_are_demoted_not_hidden() -> None:
    suggestions = [_suggestion(1, 0.9), _suggestion(2, 0.5), _suggestion(3, 0.1)]
    results = [CheckResult(CheckStatus.NO_COMPILE, detail="x"), CheckResult(CheckStatus.FAILS), None]
    reordered = demote_uncompilable(suggestions, results)
    assert [(s.rank, s.score) for s, _ in reordered] == [(1, 0.5), (2, 0.1), (3, 0.9)]
    assert reordered[-1][1] is results[0]


# -- real javac + JUnit -------------------------------------------------------------------------
def test_checks_classify_the_example_candidates(checker: OracleChecker) -> None:
    require_toolchain()
    before = _digest(EXAMPLE)
    report = report_for(EXAMPLE / TEST_PACKAGE / "BoundedCounterTest.java")
    check = checker.check(report)
    assert check.error is None, check.error
    assert check.classpath is not None and check.classpath.strategy == "fallback"
    assert check.missing_imports == []

    negative = _by_oracle(report, check, "testNegativeMax")
    assert negative["assertThrows(IllegalArgumentException.class, () -> new BoundedCounter(-1));"].status is (
        CheckStatus.HOLDS
    )
    past_max = _by_oracle(report, check, "testIncrementPastMax")
    assertions = {o: r for o, r in past_max.items() if not o.startswith("assertThrows")}
    assert assertions and all(r.status is CheckStatus.UNCHECKED for r in assertions.values())
    assert all("throws IllegalStateException before the oracle" in r.detail for r in assertions.values())
    assert past_max["assertThrows(IllegalStateException.class, () -> c.increment());"].status is (
        CheckStatus.HOLDS
    )
    value = _by_oracle(report, check, "testValueAfterIncrement")
    assert value["assertEquals(1, v);"].status is CheckStatus.HOLDS
    wrong = value["assertEquals(5, v);"]
    assert (wrong.status, wrong.observed) == (CheckStatus.FAILS, "was 1")
    assert format_check(wrong) == "fails now: was 1 — likely wrong guess"
    assert value["assertThrows(Exception.class, () -> c.value());"].observed == "nothing thrown"
    assert _digest(EXAMPLE) == before  # scratch copies only


def test_strings_and_static_methods(checker: OracleChecker) -> None:
    require_toolchain()
    report = report_for(EXAMPLE / TEST_PACKAGE / "TextUtilsTest.java")
    check = checker.check(report)
    reverse = _by_oracle(report, check, "testReverse")
    assert reverse['assertEquals("abc", r);'].observed == 'was "cba"'
    assert reverse["assertNotNull(r);"].status is CheckStatus.HOLDS
    null = _by_oracle(report, check, "testReverseNull")
    assert null["assertThrows(NullPointerException.class, () -> TextUtils.reverse(null));"].status is (
        CheckStatus.HOLDS
    )


def _write_test(project: Path, name: str, text: str) -> Path:
    path = project / TEST_PACKAGE / f"{name}.java"
    path.write_text(text, encoding="utf-8")
    return path


def test_junit4_and_junit3_classes_run_too(checker: OracleChecker, project: Path) -> None:
    require_toolchain()
    junit4 = _write_test(
        project,
        "CounterJ4Test",
        """package org.example.stack;

import org.junit.Test;

public class CounterJ4Test {
    @Test
    public void valueAfterIncrement() {
        BoundedCounter c = new BoundedCounter(3);
        c.increment();
        int v = c.value();
    }
}
""",
    )
    junit3 = _write_test(
        project,
        "CounterJ3Test",
        """package org.example.stack;

import junit.framework.TestCase;

public class CounterJ3Test extends TestCase {
    public void testAtMax() {
        BoundedCounter c = new BoundedCounter(1);
        c.increment();
        boolean full = c.isAtMax();
    }
}
""",
    )
    for path, test, holding in ((junit4, "valueAfterIncrement", "assertEquals(1, v);"),
                                (junit3, "testAtMax", "assertTrue(full);")):  # fmt: skip
        report = report_for(path)
        check = checker.check(report)
        assert check.error is None
        results = _by_oracle(report, check, test)
        assert results[holding].status is CheckStatus.HOLDS, (path.name, results)
        assert any(r.status is CheckStatus.FAILS for r in results.values()), (path.name, results)


def test_an_uncompilable_candidate_is_reported_and_the_others_still_run(
    checker: OracleChecker, project: Path
) -> None:
    require_toolchain()
    report = report_for(project / TEST_PACKAGE / "BoundedCounterTest.java")
    test = next(t for t in report.tests if t.test.name == "testValueAfterIncrement")
    broken = test.suggestions[0]
    edit = broken.rendered.statement_edit
    bad_edit = TextEdit(edit.start, edit.end, "\n        assertEquals(0, c.itemCount());")
    bad = dataclasses.replace(broken, rendered=dataclasses.replace(broken.rendered, statement_edit=bad_edit))
    test.suggestions[0] = bad
    check = checker.check(report)
    results = [check.result_for(test, s) for s in test.suggestions]
    assert results[0] is not None and results[0].status is CheckStatus.NO_COMPILE
    assert "cannot find symbol" in results[0].detail
    assert any(r is not None and r.status is CheckStatus.HOLDS for r in results[1:])


def test_a_test_that_hangs_is_stopped_and_reported(checker: OracleChecker, project: Path) -> None:
    require_toolchain()
    path = _write_test(
        project,
        "HangTest",
        """package org.example.stack;

import org.junit.jupiter.api.Test;

class HangTest {
    @Test
    void spins() {
        BoundedCounter c = new BoundedCounter(5);
        while (c.value() >= 0) {
            c.reset();
        }
        int v = c.value();
    }
}
""",
    )
    report = report_for(path, top_k=1)
    settings = checker.settings
    checker.settings = dataclasses.replace(settings, timeout_s=1.0)  # same warm JVM, shorter limit
    try:
        check = checker.check(report)
    finally:
        checker.settings = settings
    results = _by_oracle(report, check, "spins")
    assert all(r.status is CheckStatus.UNCHECKED and "time limit" in r.detail for r in results.values())


def test_results_are_cached_by_content_and_checks_can_be_cancelled(checker: OracleChecker) -> None:
    require_toolchain()
    report = report_for(EXAMPLE / TEST_PACKAGE / "StackTest.java", top_k=2)
    cached, settings = checker, checker.settings
    cached.settings = dataclasses.replace(settings, use_cache=True)
    try:
        first = cached.check(report)
        second = cached.check(report)
        assert not first.cached and second.cached
        assert first.results == second.results
        with pytest.raises(CheckCancelled):
            cached.check(report_for(EXAMPLE / TEST_PACKAGE / "TextUtilsTest.java"), cancelled=lambda: True)
        # In the background, with the same answer.
        assert cached.submit(report).result(timeout=120).results == first.results
    finally:
        cached.settings = settings


def test_a_file_without_tests_to_check_needs_no_jvm(checker: OracleChecker) -> None:
    report = report_for(EXAMPLE / TEST_PACKAGE / "StackTest.java")
    empty = FileReport(report.path, [], report.analysis)
    assert checker.check(empty).results == {}


def test_stale_classes_compiled_for_an_earlier_check_are_rebuilt(
    checker: OracleChecker, project: Path
) -> None:
    """``long m = c.getMax();`` compiles against both versions of getMax(), but its old class file
    calls ``getMax()I``: the check must not blame the oracle for a NoSuchMethodError."""
    require_toolchain()
    main = project / "src/main/java/org/example/stack"
    (main / "Limits.java").write_text(
        "package org.example.stack;\n\npublic final class Limits {\n"
        "    public static long maxOf(BoundedCounter c) {\n"
        "        long m = c.getMax();\n        return m;\n    }\n}\n",
        encoding="utf-8",
    )
    path = _write_test(
        project,
        "LimitsTest",
        "package org.example.stack;\n\nimport org.junit.jupiter.api.Test;\n\nclass LimitsTest {\n"
        "    @Test\n    void max() {\n        long m = Limits.maxOf(new BoundedCounter(4));\n    }\n}\n",
    )
    before = checker.check(report_for(path, top_k=2))
    assert any(
        r.status is CheckStatus.HOLDS or r.status is CheckStatus.FAILS for r in before.results.values()
    )
    counter = main / "BoundedCounter.java"
    counter.write_text(
        counter.read_text().replace("public int getMax()", "public long getMax()"), encoding="utf-8"
    )
    after = checker.check(report_for(path, top_k=2))
    assert after.error is None
    assert all("NoSuchMethodError" not in r.detail for r in after.results.values()), after.results
    assert [r.status for r in after.results.values()] == [r.status for r in before.results.values()]


def test_the_key_of_remembered_runs_is_made_without_a_jdk(tmp_path: Path, monkeypatch) -> None:
    """Where no helper can start (no JDK, or a sandbox required and refused), the evaluation's
    key of a file's runs is still made (the run itself then says why nothing ran)."""
    from oracular.execution import oracle_checks
    from oracular.execution.classpath import ClasspathSettings
    from oracular.execution.toolchain import ToolchainMissing

    def no_jdk(*_args, **_kwargs):
        raise ToolchainMissing("no JDK on PATH")

    monkeypatch.setattr(oracle_checks, "find_toolchain", no_jdk)
    test = tmp_path / "src" / "test" / "java" / "T.java"
    test.parent.mkdir(parents=True)
    test.write_text("class T {}", encoding="utf-8")
    settings = oracle_checks.CheckSettings(
        classpath=ClasspathSettings(use_build_tools=False), use_cache=False
    )
    checker = OracleChecker(settings)
    assert checker.runs_key(test).endswith("no helper: no JDK on PATH")
