"""The editor's runs, version after version: an edit in one test observes, ranks and checks that
test again and reuses the others' results, which must be exactly what running everything again
gives (positions moved with their methods); a change to the code under test runs everything."""

from __future__ import annotations

import os
from pathlib import Path

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings, FileReport, OracleEngine
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import FileCheck, OracleChecker
from oracular.incremental import KeptResults, MethodMemo
from oracular.java.source import parse_text
from oracular.ranking.baseline import BaselineRanker

from .conftest import require_toolchain
from .test_observe import write_project

COUNTER = """
package p;

public class Counter {
    private int count;

    public Counter add(int n) { count += n; return this; }
    public int count() { return count; }
    public boolean isEmpty() { return count == 0; }
}
"""

COUNTER_TEST = """
package p;

import org.junit.jupiter.api.Test;

class CounterTest {
    @Test
    void addsOne() {
        Counter c = new Counter().add(1);
        int n = c.count();
    }

    @Test
    void addsTwo() {
        Counter c = new Counter().add(2);
        int n = c.count();
    }

    @Test
    void startsEmpty() {
        Counter c = new Counter();
        boolean empty = c.isEmpty();
    }
}
"""


class Editor:
    """What the language server does per version (``lsp/code_runs.py``), with or without the kept
    results: analyse with the document's memo, observe, rank again, check."""

    def __init__(self, engine: OracleEngine, checker: OracleChecker, kept: bool) -> None:
        self.engine, self.checker = engine, checker
        self.memo = MethodMemo()
        self.observations, self.reports, self.checks = (KeptResults() if kept else None for _ in range(3))

    def version(self, text: str, path: Path) -> tuple[FileReport, FileCheck]:
        report = self.engine.suggest(parse_text(text, path), memo=self.memo)
        self.memo.finish()
        source, plans = report.analysis.source, self.engine.plans(report)
        observation = ValueObserver(self.checker).observe(source, plans, kept=self.observations)
        observed = self.engine.rerank(report, observation, kept=self.reports)
        return observed, self.checker.check(observed, kept=self.checks)


def _runs(report: FileReport, check: FileCheck) -> tuple[dict, dict]:
    results = {key: (str(r.status), r.observed, r.verdict) for key, r in check.results.items()}
    return report.to_json(), results


def test_an_edit_runs_its_own_test_again_and_reuses_exactly_the_others(
    tmp_path: Path, checker: OracleChecker
) -> None:
    require_toolchain()
    write_project(tmp_path, {"main/java/p/Counter": COUNTER, "test/java/p/CounterTest": COUNTER_TEST})
    path = tmp_path / "src/test/java/p/CounterTest.java"
    engine = engine_for([path], EngineSettings(), BaselineRanker())
    kept, fresh = Editor(engine, checker, kept=True), Editor(engine, checker, kept=False)
    text = path.read_text(encoding="utf-8")
    first, first_check = kept.version(text, path)
    assert all(t.observed for t in first.tests) and first_check.results

    # addsOne grows by a line and adds 5: the two tests below it move down, unchanged
    edited = text.replace("new Counter().add(1);", "new Counter().add(1);\n        c.add(5);")
    report, check = kept.version(edited, path)
    assert kept.observations.hits == 2 and kept.reports.hits == 2 and kept.checks.hits == 2
    assert _runs(report, check) == _runs(*fresh.version(edited, path))
    adds_one = next(t for t in report.tests if t.test.name == "addsOne")
    assert any("6" in s.oracle and s.observed_holds for s in adds_one.suggestions)  # run again: 1 + 5

    # the code under test changes on disk: every test runs again, and sees it
    counter = tmp_path / "src/main/java/p/Counter.java"
    counter.write_text(counter.read_text().replace("count += n;", "count += 2 * n;"), encoding="utf-8")
    os.utime(counter, ns=(counter.stat().st_atime_ns, counter.stat().st_mtime_ns + 10**9))
    hits = kept.observations.hits
    report, check = kept.version(edited, path)
    assert kept.observations.hits == hits
    adds_two = next(t for t in report.tests if t.test.name == "addsTwo")
    assert any("4" in s.oracle and s.observed_holds for s in adds_two.suggestions)
    assert _runs(report, check) == _runs(*fresh.version(edited, path))
