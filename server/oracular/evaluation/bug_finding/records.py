"""What the bug-finding phases hand each other and what they add up to.

A test file's :class:`TestFile` collects, phase by phase, its selected tests (with what each
ranker suggests), then its scratch class's outcomes on the correct code; the mutant phase reads
them. Every compared oracle source is a variant *kind*; a test's variant of a kind is one method
of the scratch class, keyed by :func:`variant_key`. The figures per kind are a :class:`Row`, and
a project's are a :class:`ProjectResult`, which ``--json`` writes and reads back.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracular.corpus.devtests import DevTest
from oracular.engine import FileAnalysis, Suggestion
from oracular.execution.runner import ScratchOutcome
from oracular.execution.scratch import ScratchClass
from oracular.java.source import SourceText

BARE, DEV, REGRESSION, OBSERVE, CHECKED = "bare", "dev", "regression", "observe", "checked"
OBSERVED = "observed"
"""The ``tops`` label of the first ranker's top-1 when the prefixes' values were observed."""
CHECK_TOP_K = 5
"""The checked row picks the first of this many candidates that holds on the correct code."""


def variant_key(index: int, kind: str) -> str:
    """The scratch-class key of test ``index``'s variant of ``kind``."""
    return f"{index}:{kind}"


def test_key(file_id: str, index: int) -> str:
    """A selected test across the phases: its file's :attr:`TestFile.id` and its index."""
    return f"{file_id}:{index}"


RANKED = "rank:"


def rank_kind(label: str) -> str:
    """The kind of a ranker's top-1 (``label``: the ranker's, or :data:`OBSERVED`)."""
    return f"{RANKED}{label}"


@dataclass
class Row:
    """One compared oracle source: how it does on correct code and on mutants."""

    label: str
    tests: int = 0
    """Tests for which this source produced an oracle."""
    compiled: int = 0
    failing: int = 0
    """Compiled, but failed on the correct code (false positives)."""
    usable: int = 0
    """Passed on the correct code in both runs: these run against the mutants."""
    killed: set[str] = field(default_factory=set)
    attributable: int = 0
    failing_confident: int = 0
    """False positives a check would have called "possible bug" (score >= BUG_SCORE)."""
    stored_kills: int = 0
    """The kill count of a row read back from JSON (mutant ids are not stored there)."""

    @property
    def compile_rate(self) -> float:
        return self.compiled / self.tests if self.tests else 0.0

    @property
    def fp_rate(self) -> float:
        return self.failing / self.compiled if self.compiled else 0.0

    @property
    def killed_count(self) -> int:
        return len(self.killed) if self.killed else self.stored_kills

    @classmethod
    def from_json(cls, data: dict) -> Row:
        row = cls(data["label"], data["tests"], data["compiled"], data["failing"], data["usable"])
        row.attributable, row.failing_confident = data["attributable"], data["failing_confident"]
        row.stored_kills = data["killed"]
        return row

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "tests": self.tests,
            "compiled": self.compiled,
            "failing": self.failing,
            "usable": self.usable,
            "killed": self.killed_count,
            "attributable": self.attributable,
            "failing_confident": self.failing_confident,
        }


@dataclass
class ProjectResult:
    name: str
    version: str
    root: Path
    classpath: str
    rankers: list[str]
    ranker_note: str
    build: dict[str, Any] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    timings: dict[str, float] = field(default_factory=dict)
    rows: dict[str, Row] = field(default_factory=dict)
    mutants_by_operator: Counter[str] = field(default_factory=Counter)
    sampled_by_operator: Counter[str] = field(default_factory=Counter)
    killed_by_operator: dict[str, Counter[str]] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)
    """A few mutants only an inserted oracle killed, for the report."""
    details: list[dict[str, Any]] = field(default_factory=list)
    """Per evaluated test: each variant's oracle and what it did on the correct code (for audit)."""
    jobs: int = 1

    def as_strong(self, kind: str) -> tuple[int, int]:
        """How often a ranker's top-1 that is not the developer's oracle is as good an answer:
        ``(tests, caught)``: the tests where it held on the correct code and differs from a
        developer's oracle that held too and caught a mutant the bare prefix did not, and of
        those, the ones where it caught every such mutant."""
        tests = caught = 0
        for detail in self.details:
            variants = detail["variants"]
            top, dev, bare = variants.get(kind), variants.get(DEV), variants.get(BARE, {})
            if top is None or dev is None or top.get("developers", True) or "kills" not in top:
                continue
            if top["status"] != "passed" or dev["status"] != "passed":
                continue
            needed = set(dev["kills"]) - set(bare.get("kills", []))
            if needed:
                tests += 1
                caught += needed <= set(top["kills"])
        return tests, caught

    @classmethod
    def from_json(cls, data: dict) -> ProjectResult:
        """A result read back from ``--json`` output (to re-render the report without re-running)."""
        result = cls(
            data["name"], data["version"], Path(data["root"]), data["classpath"], data["rankers"],
            data["ranker_note"], data["build"], Counter(data["counts"]), data["timings"],
        )  # fmt: skip
        result.rows = {k: Row.from_json(v) for k, v in data["rows"].items()}
        result.mutants_by_operator = Counter(data["mutants_by_operator"])
        result.sampled_by_operator = Counter(data["sampled_by_operator"])
        result.killed_by_operator = {k: Counter(v) for k, v in data["killed_by_operator"].items()}
        result.examples, result.jobs, result.details = data["examples"], data["jobs"], data.get("details", [])
        return result

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "version": self.version,
            "root": str(self.root),
            "classpath": self.classpath,
            "rankers": self.rankers,
            "ranker_note": self.ranker_note,
            "build": self.build,
            "counts": dict(self.counts),
            "timings": self.timings,
            "rows": {k: r.to_json() for k, r in self.rows.items()},
            "mutants_by_operator": dict(self.mutants_by_operator),
            "sampled_by_operator": dict(self.sampled_by_operator),
            "killed_by_operator": {k: dict(v) for k, v in self.killed_by_operator.items()},
            "examples": self.examples,
            "jobs": self.jobs,
            "details": self.details,
        }


@dataclass
class Selected:
    """A cut developer test, with what each ranker suggests for it."""

    cut: DevTest
    index: int
    tops: dict[str, Suggestion | None]
    focal_path: Path
    focal_class: str
    """Binary name of the top-level class holding the focal method."""
    target: str | None
    """The expression the regression oracle records (the first ranker's target, else the first)."""
    candidates: list[Suggestion] = field(default_factory=list)
    """The first ranker's top-K, for the checked row (the first of them that holds)."""
    checked: Suggestion | None = None

    def top_of(self, kind: str) -> Suggestion | None:
        """The top-1 that a ranker's kind inserts (``None`` for the other kinds)."""
        return self.tops.get(kind.removeprefix(RANKED)) if kind.startswith(RANKED) else None


@dataclass
class TestFile:
    path: Path
    copy: SourceText
    """The file with the selected tests cut before their oracle."""
    analysis: FileAnalysis
    tests: list[Selected] = field(default_factory=list)
    offered: set[str] = field(default_factory=set)
    """Variant keys of the final scratch class (before any was left out for not compiling)."""
    scratch: ScratchClass | None = None
    out_dir: Path | None = None
    first: ScratchOutcome | None = None
    final: ScratchOutcome | None = None

    @property
    def id(self) -> str:
        return hashlib.sha1(str(self.path).encode()).hexdigest()[:12]


Usable = dict[str, list[tuple[TestFile, Selected, str]]]
"""Focal file -> the (test file, test, variant kind) that pass on the correct code: what the
mutants of that file are run against."""
