"""Runs of the code under test, remembered between evaluations of the same tests.

Why: evaluating a second model (or the baseline) on the same dev tests observes exactly the
same prefixes (what is run and read depends on the static analysis, never on the ranker), and
running them is most of an evaluation's time. A run is keyed by the oracle-free copy's bytes,
what is read in it, and a fingerprint of the code that runs and reads it; any change runs again.
Only evaluations use this: an editor's document changes between runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import oracular
from oracular.candidates.observed import FileObservation, ObservationPlan, Observer
from oracular.engine import FileReport
from oracular.evaluation.realistic import TopChecker
from oracular.java.source import SourceText

_HARNESS = ("execution", "candidates/observed.py")
_CODE = (".py", ".java")
"""The code whose change makes a remembered run stale."""


@cache
def harness_fingerprint() -> str:
    root = Path(oracular.__file__).parent
    digest = hashlib.sha256()
    for part in _HARNESS:
        path = root / part
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in _CODE)
        for file in files:
            digest.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


def _key(*parts: Any) -> str:
    digest = hashlib.sha256(harness_fingerprint().encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else json.dumps(part, sort_keys=True).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(tmp, path)


class CachedObserver:
    """An :class:`~oracular.candidates.observed.Observer` that runs each distinct request once."""

    def __init__(
        self, inner: Observer, directory: Path, environment: Callable[[Path | None], str] | None = None
    ) -> None:
        self.inner = inner
        self.directory = directory
        self.environment = environment or _no_environment
        """What a file's runs depend on besides its text, as text (:meth:`OracleChecker.runs_key`):
        part of the key."""
        self.reused = 0

    def observe(
        self,
        source: SourceText,
        plans: Sequence[ObservationPlan],
        cancelled: Callable[[], bool] | None = None,
    ) -> FileObservation:
        # a target's kind decides how it is read (an action alone), so it is part of the request
        wanted = [(p.test.line, p.test.name, [(t.expression, t.kind) for t in p.targets]) for p in plans]
        key = _key(source.data, wanted, self.environment(source.path))
        path = self.directory / "observe" / f"{key}.pickle"
        try:
            observation = pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            observation = None
        if isinstance(observation, FileObservation):
            self.reused += 1
            return observation
        observation = self.inner.observe(source, plans, cancelled)
        _write(path, pickle.dumps(observation))
        return observation


def _no_environment(path: Path | None) -> str:
    return ""


def cached_checks(
    check: TopChecker, directory: Path, environment: Callable[[Path | None], str] | None = None
) -> TopChecker:
    """``check`` (each test's top-1 run on the correct code), once per distinct file, oracles and
    ``environment`` (the file's classpath, as for :class:`CachedObserver`)."""
    environment = environment or _no_environment

    def remembered(report: FileReport) -> dict[tuple[int, int], str]:
        asked = [(t.line, [s.oracle for s in t.suggestions]) for t in report.tests]
        source = report.analysis.source
        path = directory / "check" / f"{_key(source.data, asked, environment(source.path))}.json"
        try:
            return {(line, rank): status for line, rank, status in json.loads(path.read_text())}
        except (OSError, ValueError, TypeError):
            pass
        statuses = check(report)
        _write(path, json.dumps([[line, rank, s] for (line, rank), s in statuses.items()]).encode())
        return statuses

    return remembered
