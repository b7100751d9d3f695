"""What the engine answers: ranked, rendered oracles per test (:class:`Suggestion`,
:class:`TestReport`) and per file (:class:`FileReport`), and their JSON (the shape the CLI's
``--json`` and the editors rely on)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import (
    Verdict,
)
from oracular.candidates.render import ImportLine, RenderedOracle, Renderer, TextEdit
from oracular.engine.analysis import FileAnalysis
from oracular.java.junit import TestMethod
from oracular.java.prefix import FocalMethod
from oracular.ranking.confidence import AnswerView

if TYPE_CHECKING:
    from oracular.incremental import Reuse


@dataclass
class Suggestion:
    rank: int
    score: float
    candidate: Candidate
    rendered: RenderedOracle
    edits: list[TextEdit]
    """The statement edit followed by the import edits it needs."""
    verdict: Verdict | None = None
    """What the observed run says of it: ``holds`` or ``fails`` (with the value seen)."""
    possible_bug: bool = False
    """It fails now although the ranker was confident in it: the code may be wrong."""
    vacuous: bool = False
    """It cannot fail (``assertNotNull`` on a ``new`` object...): offered last."""

    @property
    def kind(self) -> str:
        return self.candidate.kind

    @property
    def oracle(self) -> str:
        return self.rendered.oracle

    @property
    def source(self) -> str:
        """Where the expected value came from (``observed``, ``literal``...), or the oracle's kind."""
        expected = self.candidate.expected
        return expected.source if expected is not None else self.kind

    @property
    def observed_holds(self) -> bool:
        """Running the test showed that this oracle holds on the code as it is."""
        return self.verdict is not None and self.verdict.status == "holds"

    def observed_summary(self) -> str | None:
        """``holds now (observed)``, ``fails now: was 2 — possible bug``, or ``None`` when unknown."""
        if self.verdict is None:
            return None
        if self.verdict.status == "holds":
            return "holds now (observed)"
        why = "possible bug" if self.possible_bug else "likely wrong guess"
        seen = self.verdict.observed
        seen = seen if seen.startswith(("threw ", "nothing thrown", "the helper")) else f"was {seen}"
        return f"fails now: {seen} — {why}"

    def to_json(self) -> dict:
        document = {
            "rank": self.rank,
            "kind": self.kind,
            "oracle": self.oracle,
            "score": round(self.score, 4),
            "source": self.source,
            "edits": [e.to_lsp() for e in self.edits],
        }
        if self.verdict is not None:
            document["observed"] = {
                "status": self.verdict.status,
                "value": self.verdict.observed,
                "possibleBug": self.possible_bug,
            }
        if self.vacuous:
            document["vacuous"] = True
        return document


@dataclass
class TestReport:
    test: TestMethod
    focal: FocalMethod | None
    exception_probability: float
    exception_type: str
    abstained: bool
    suggestions: list[Suggestion]
    reason: str | None = None
    """Why nothing is suggested (empty body, no target), when that is the case."""
    observed: bool = False
    """The test's prefix was run and its targets' values observed (see ``execution.observe``)."""
    unobserved: str | None = None
    """Why not, where running was tried (:meth:`~oracular.candidates.observed.FileObservation.unobserved`)."""
    ended_early: str | None = None
    """What an observed prefix threw before its last statements: it ran, but no value at its end
    was read (:attr:`~oracular.candidates.observed.TestObservation.thrown_before`)."""
    confidence: float | None = None
    """How sure the ranker is of the top-1 (what abstention compares); ``None``: not asked,
    there is no top-1 that can fail."""
    view: AnswerView | None = None
    """What :attr:`confidence` was computed from (:mod:`oracular.ranking.confidence`)."""
    features: list[tuple[Candidate, list[float]]] | None = None
    """Every candidate with its learned-ranker features, where the engine's settings ask for them."""

    @property
    def line(self) -> int:
        """1-based line of the method name."""
        return self.test.line + 1

    @property
    def confident(self) -> bool:
        """Whether there is an oracle to offer as the answer: the editor inserts only these."""
        return not self.abstained and bool(self.suggestions)

    def to_json(self) -> dict:
        focal = None
        if self.focal is not None:
            focal = {
                "class": self.focal.cls.name,
                "method": self.focal.name,
                "signature": self.focal.signature,
                "path": self.focal.cls.path,
            }
        return {
            "method": self.test.name,
            "line": self.line,
            "focal": focal,
            "exception": {"probability": round(self.exception_probability, 4), "type": self.exception_type},
            "abstained": self.abstained,
            **({"confidence": round(self.confidence, 4)} if self.confidence is not None else {}),
            "observed": self.observed,
            **({"unobserved": self.unobserved} if self.unobserved is not None else {}),
            "suggestions": [s.to_json() for s in self.suggestions],
        }


@dataclass
class FileReport:
    path: str
    tests: list[TestReport]
    analysis: FileAnalysis
    renderer: Renderer | None = None
    notes: list[str] = field(default_factory=list)
    """What the user should know about how the answers were made (why values were not observed)."""

    def to_json(self) -> dict:
        return {"file": self.path, "tests": [t.to_json() for t in self.tests], "notes": self.notes}

    def top_edits(self) -> list[TextEdit]:
        """The top-1 oracle of every non-abstaining test, with their imports merged."""
        edits: list[TextEdit] = []
        imports: set[ImportLine] = set()
        for report in self.tests:
            if not report.confident:
                continue
            edits.append(report.suggestions[0].rendered.statement_edit)
            imports |= report.suggestions[0].rendered.imports
        if self.renderer is not None:
            edits = self.renderer.import_edits(imports) + edits
        return edits


def moved_report(reuse: Reuse, test: TestMethod) -> TestReport:
    """A kept static report for ``test`` of a new version, its edits moved with the method."""
    kept: TestReport = reuse.value
    suggestions = [
        replace(
            s,
            rendered=replace(s.rendered, statement_edit=reuse.edit(s.rendered.statement_edit)),
            edits=[reuse.edit(e) for e in s.edits],
        )
        for s in kept.suggestions
    ]
    return replace(kept, test=test, suggestions=suggestions)
