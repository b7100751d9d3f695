"""Remembered runs: a second evaluation of the same tests runs nothing again, a change runs again."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from oracular.candidates.observed import FileObservation, ObservedValue, TestObservation
from oracular.evaluation.run_cache import CachedObserver, cached_checks
from oracular.java.source import parse_text

SOURCE = "class FooTest { @Test void t() { int x = 1; } }"


def plan(line: int, *targets: str, kind: str = "observer") -> Any:
    test = SimpleNamespace(line=line, name="t")
    return SimpleNamespace(test=test, targets=[SimpleNamespace(expression=t, kind=kind) for t in targets])


class CountingObserver:
    def __init__(self) -> None:
        self.calls = 0

    def observe(self, source, plans, cancelled=None) -> FileObservation:
        self.calls += 1
        value = ObservedValue("literal", "int", "1")
        return FileObservation({1: TestObservation(values={"x": value}, completed=True)}, ["ran"])


def test_an_observation_is_run_once_per_text_and_targets(tmp_path: Path) -> None:
    inner = CountingObserver()
    observer = CachedObserver(inner, tmp_path)
    source = parse_text(SOURCE)
    first = observer.observe(source, [plan(1, "x")])
    again = observer.observe(source, [plan(1, "x")])
    assert inner.calls == 1 and observer.reused == 1 and again == first
    observer.observe(source, [plan(1, "x", "y")])  # other targets
    observer.observe(parse_text(SOURCE.replace("1", "2")), [plan(1, "x")])  # other code
    observer.observe(source, [plan(1, "x", kind="action")])  # read alone, not after the others
    assert inner.calls == 4
    assert CachedObserver(inner, tmp_path).observe(source, [plan(1, "x")]) == first  # another process
    assert inner.calls == 4


def test_a_broken_entry_is_run_again(tmp_path: Path) -> None:
    inner = CountingObserver()
    source = parse_text(SOURCE)
    CachedObserver(inner, tmp_path).observe(source, [plan(1, "x")])
    for entry in (tmp_path / "observe").iterdir():
        entry.write_bytes(b"not a pickle")
    CachedObserver(inner, tmp_path).observe(source, [plan(1, "x")])
    assert inner.calls == 2


def test_top_checks_are_remembered_per_file_and_oracles(tmp_path: Path) -> None:
    calls = []

    def check(report: Any) -> dict[tuple[int, int], str]:
        calls.append(report)
        return {(3, 1): "holds"}

    remembered = cached_checks(check, tmp_path)
    analysis = SimpleNamespace(source=parse_text(SOURCE))
    top = SimpleNamespace(line=3, suggestions=[SimpleNamespace(oracle="assertEquals(1, x);")])
    report = SimpleNamespace(analysis=analysis, tests=[top])
    assert remembered(report) == {(3, 1): "holds"} == remembered(report)
    assert len(calls) == 1
    other = SimpleNamespace(line=3, suggestions=[SimpleNamespace(oracle="assertEquals(2, x);")])
    remembered(SimpleNamespace(analysis=analysis, tests=[other]))
    assert len(calls) == 2


def test_a_changed_classpath_runs_again(tmp_path: Path) -> None:
    """Installing a jar changes what compiles: remembered runs of the old classpath are not reused."""
    inner = CountingObserver()
    source = parse_text(SOURCE)
    classpath = {"value": "junit.jar"}

    def environment(path: Path | None) -> str:
        return classpath["value"]

    CachedObserver(inner, tmp_path, environment).observe(source, [plan(1, "x")])
    CachedObserver(inner, tmp_path, environment).observe(source, [plan(1, "x")])
    assert inner.calls == 1
    classpath["value"] = "junit.jar:jaxen.jar"
    CachedObserver(inner, tmp_path, environment).observe(source, [plan(1, "x")])
    assert inner.calls == 2

    calls = []

    def check(report: Any) -> dict[tuple[int, int], str]:
        calls.append(report)
        return {(3, 1): "holds"}

    top = SimpleNamespace(line=3, suggestions=[SimpleNamespace(oracle="assertEquals(1, x);")])
    report = SimpleNamespace(analysis=SimpleNamespace(source=source), tests=[top])
    cached_checks(check, tmp_path, environment)(report)
    classpath["value"] = "junit.jar"
    cached_checks(check, tmp_path, environment)(report)
    assert len(calls) == 2
