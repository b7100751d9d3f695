"""What a pseudo-testing run found, per method and per mutant, as users and JSON read it.

Verdicts, as Descartes names them: a method is **pseudo-tested** when every one of its extreme
mutants survives the tests that execute it, **partially tested** when some do, **tested** when
none does. A surviving mutant's cause per executing test is Reneri's: ``no infection`` (the call
returned and left what the mutant would), ``no propagation`` (it did not, but nothing the test
can read differs at its end) or ``weak oracle`` (a value the test could assert on differs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from oracular.candidates.render import TextEdit
from oracular.mutation.calls import CalledMethod
from oracular.mutation.operators import Mutant


class Cause(StrEnum):
    NO_INFECTION = "no infection"
    NO_PROPAGATION = "no propagation"
    WEAK_ORACLE = "weak oracle"


class MethodVerdict(StrEnum):
    TESTED = "tested"
    PARTIALLY_TESTED = "partially tested"
    PSEUDO_TESTED = "pseudo-tested"
    NOT_RUN = "not run"
    """No mutant of it compiled, or no test was seen running it."""


@dataclass
class KillingOracle:
    """An oracle for one test that holds on the code and fails on surviving mutants."""

    test: str
    test_line: int
    """1-based line of the test's declaration."""
    statement: str
    """The text inserted, as the quick fix inserts it."""
    edits: list[TextEdit]
    """The statement's edit and any import it needs, against the analysed version."""
    imports: list[str] = field(default_factory=list)
    """The import lines it needs, as text (for the scratch copy that runs it)."""
    target: str = ""
    expected: str = ""
    """The target and the value it asserts (how the ranking recognises the same oracle)."""
    kills: list[str] = field(default_factory=list)
    """Ids of the surviving mutants it was run against and made fail."""
    holds: bool = False
    """It passed on the original code."""

    def to_json(self) -> dict:
        return {"test": self.test, "testLine": self.test_line, "statement": self.statement,
                "kills": self.kills, "holds": self.holds}  # fmt: skip


@dataclass
class MutantResult:
    mutant: Mutant
    executed_by: list[str]
    """The tests that call the method (and passed on the original code)."""
    killed_by: list[str] = field(default_factory=list)
    stillborn: bool = False
    """The mutant did not compile (javac): not counted."""
    causes: dict[str, Cause] = field(default_factory=dict)
    """Per executing test, for a surviving mutant: why it survived."""
    not_reached: list[str] = field(default_factory=list)
    """Tests that call the method in their source but never ran it (the probe saw no call)."""

    @property
    def survived(self) -> bool:
        return not self.stillborn and bool(self.executed_by) and not self.killed_by

    def to_json(self) -> dict:
        return {
            **self.mutant.to_json(),
            "replacement": self.mutant.replacement,
            "executedBy": self.executed_by,
            "killedBy": self.killed_by,
            "stillborn": self.stillborn,
            "causes": {test: str(cause) for test, cause in self.causes.items()},
            "notReached": self.not_reached,
        }


@dataclass
class MethodResult:
    method: CalledMethod
    tests: list[str]
    """The tests that call it."""
    mutants: list[MutantResult] = field(default_factory=list)
    oracles: list[KillingOracle] = field(default_factory=list)

    @property
    def live(self) -> list[MutantResult]:
        """The mutants that compiled and ran against at least one passing test."""
        return [m for m in self.mutants if not m.stillborn and m.executed_by]

    @property
    def verdict(self) -> MethodVerdict:
        live = self.live
        if not live:
            return MethodVerdict.NOT_RUN
        survived = sum(m.survived for m in live)
        if survived == 0:
            return MethodVerdict.TESTED
        return MethodVerdict.PSEUDO_TESTED if survived == len(live) else MethodVerdict.PARTIALLY_TESTED

    def kills_of(self, oracle: KillingOracle) -> int:
        """How many of this method's mutants ``oracle`` kills (it may kill other methods' too)."""
        return len({m.mutant.id for m in self.mutants}.intersection(oracle.kills))

    def describe(self) -> str:
        """``pseudo-tested: 0 of 2 extreme mutants killed (StackTest)``: a code lens's title."""
        live = self.live
        if not live:
            compiled = [m for m in self.mutants if not m.stillborn]
            why = "no test ran it" if compiled else "its extreme mutants do not compile"
            return f"{self.verdict}: {why}"
        killed = sum(not m.survived for m in live)
        return f"{self.verdict}: {killed} of {len(live)} extreme mutants killed"

    def to_json(self) -> dict:
        return {
            "method": self.method.label,
            "class": self.method.class_name,
            "path": str(self.method.path),
            "line": self.method.line + 1,
            "verdict": str(self.verdict),
            "tests": self.tests,
            "mutants": [m.to_json() for m in self.mutants],
            "oracles": [o.to_json() for o in self.oracles],
        }


@dataclass
class ClassResult:
    """One test file's run: its called methods' verdicts, or why nothing ran."""

    path: Path
    methods: list[MethodResult] = field(default_factory=list)
    error: str | None = None
    failing_tests: list[str] = field(default_factory=list)
    """Tests that fail on the original code: left out, they cannot tell a mutant apart."""
    mutants_run: int = 0
    elapsed_s: float = 0.0
    cached: bool = False
    """Remembered from an earlier run of the same inputs."""
    oracles_tried: int = 0
    """Killing oracles rendered and run; those that held and killed are the methods' ``oracles``."""

    @property
    def oracles(self) -> list[KillingOracle]:
        """Each killing oracle once, in the order the methods list them."""
        return list({id(o): o for m in self.methods for o in m.oracles}.values())

    def killed_methods(self, oracle: KillingOracle) -> list[str]:
        """The methods (labels) some of whose mutants ``oracle`` kills."""
        return [m.method.label for m in self.methods if m.kills_of(oracle)]

    def to_json(self) -> dict:
        return {
            "path": str(self.path),
            "error": self.error,
            "failingTests": self.failing_tests,
            "mutantsRun": self.mutants_run,
            "elapsed_s": round(self.elapsed_s, 3),
            "cached": self.cached,
            "oraclesTried": self.oracles_tried,
            "methods": [m.to_json() for m in self.methods],
        }


__all__ = ["Cause", "ClassResult", "KillingOracle", "MethodResult", "MethodVerdict", "MutantResult"]
