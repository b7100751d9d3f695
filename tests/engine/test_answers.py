"""Whether the engine answers: a top oracle that fails on the running code is never the answer,
unless it is shown as the possible bug."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, Verdict
from oracular.engine.answers import decide_abstention
from oracular.engine.reports import Suggestion
from oracular.engine.reports import TestReport as Report

THROWS = Candidate("exception", "assertThrows", exception="IllegalStateException")
ANALYSIS = SimpleNamespace(expected_exceptions=[], asserted=set(), own_helpers=(), with_oracle=3)


def _report(verdict: Verdict | None, possible_bug: bool) -> Report:
    top = Suggestion(1, 0.9, THROWS, None, [], verdict, possible_bug)  # type: ignore[arg-type]
    return Report(None, None, 0.9, "IllegalStateException", False, [top], observed=True)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("verdict", "possible_bug", "abstained"),
    [
        (Verdict(HOLDS, "threw IllegalStateException"), False, False),
        (None, False, False),
        (Verdict(FAILS, "nothing thrown"), True, False),
        (Verdict(FAILS, "nothing thrown"), False, True),
    ],
)
def test_a_confident_top_oracle_is_offered_unless_it_fails_without_being_the_possible_bug(
    verdict: Verdict | None, possible_bug: bool, abstained: bool
) -> None:
    report = _report(verdict, possible_bug)
    decide_abstention(report, ANALYSIS, lambda view: 0.8, lambda view: 0.5)  # type: ignore[arg-type]
    assert report.abstained is abstained
    assert report.confidence == 0.8, "the confidence is recorded either way"
    if abstained:
        assert report.reason == "the first oracle fails on the code as it runs (nothing thrown)"


def test_an_unconfident_top_oracle_gives_the_confidence_as_the_reason() -> None:
    report = _report(Verdict(FAILS, "nothing thrown"), False)
    decide_abstention(report, ANALYSIS, lambda view: 0.2, lambda view: 0.5)  # type: ignore[arg-type]
    assert report.abstained and report.reason == "no confident oracle (confidence 0.20 < 0.50)"
