"""Whether to answer: the top oracle is offered only when it can fail, does not fail on the code as
it runs (unless it is shown as a possible bug), and the ranker is confident enough in it
(:mod:`oracular.ranking.confidence` reads the answer's view)."""

from __future__ import annotations

from collections.abc import Callable

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS
from oracular.engine.analysis import FileAnalysis
from oracular.engine.reports import TestReport
from oracular.java.neighbours import member_path
from oracular.java.types import simple_exception
from oracular.ranking.confidence import VIEW_SIZE, AnswerView, Offered


def answer_view(report: TestReport, analysis: FileAnalysis) -> AnswerView:
    """What the answer confidence reads of a ranked test (:mod:`oracular.ranking.confidence`)."""
    expected = {simple_exception(e) for e in analysis.expected_exceptions}

    def habit(candidate: Candidate) -> bool:
        """The file's other tests assert on its member path, or expect its exception type."""
        if candidate.kind == "exception":
            return simple_exception(candidate.exception) in expected
        if candidate.kind == "helper":
            return True  # offered only as the file's habit
        target = candidate.target
        return target is not None and member_path(target.expression) in analysis.asserted

    offered = tuple(
        Offered(
            s.score,
            s.kind,
            s.candidate.assertion,
            s.candidate.expected.source if s.candidate.expected is not None else None,
            s.candidate.target.expression if s.candidate.target is not None else None,
            s.verdict.status if s.verdict is not None else None,
            habit(s.candidate),
        )
        for s in report.suggestions[:VIEW_SIZE]
    )
    return AnswerView(
        report.observed, report.exception_probability, offered, analysis.own_helpers, analysis.with_oracle
    )


def decide_abstention(
    report: TestReport,
    analysis: FileAnalysis,
    confidence: Callable[[AnswerView], float],
    threshold: Callable[[AnswerView], float],
) -> None:
    """Offer the top oracle when it can fail and the engine is confident enough in it: its
    ``confidence`` (the ranker's answer confidence, or a learned ranker's top-1 probability) at
    least ``threshold`` (the user's, else the ranker's for the view's mode).

    Never a top oracle that fails on the code as it runs unless it is the possible bug: the
    developer's code is the reference, so an answer known to fail there is a false alarm (an
    oracle-free test whose prefix runs through, where only ``assertThrows`` was left to offer).
    Its confidence is still computed, for the evaluation's records."""
    top = report.suggestions[0] if report.suggestions else None
    if top is None:
        report.abstained = True
        return
    if top.vacuous:
        report.abstained = True
        report.reason = "no oracle that can fail (only vacuous ones hold)"
        return
    report.view = answer_view(report, analysis)
    report.confidence = confidence(report.view)
    limit = threshold(report.view)
    if report.confidence < limit:
        report.abstained = True
        report.reason = f"no confident oracle (confidence {report.confidence:.2f} < {limit:.2f})"
    elif top.verdict is not None and top.verdict.status == FAILS and not top.possible_bug:
        report.abstained = True
        report.reason = f"the first oracle fails on the code as it runs ({top.verdict.observed})"
