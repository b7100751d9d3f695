"""Step ``named-values``: a holding named value takes the observed literal's score."""

from __future__ import annotations

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, ObservedValue, TestObservation, Verdict
from oracular.candidates.values import Value
from oracular.ranking.steps.named_values import prefers_name, swap_to_named_values

from ..conftest import target


def test_a_holding_named_value_takes_the_observed_literals_place() -> None:
    observation = TestObservation(
        values={
            "e.getMessage()": ObservedValue("literal", "java.lang.String", '"some message"'),
            "rows.size()": ObservedValue("literal", "int", "2"),
        },
        completed=True,
    )
    message = target("e.getMessage()", "String", "observer")
    size = target("rows.size()", "int", "observer")
    candidates = [
        Candidate("assertion", "assertEquals", message, Value('"some message"', "String", "observed")),
        Candidate("assertion", "assertEquals", message, Value("TEST_MESSAGE", "String", "constant")),
        Candidate("assertion", "assertEquals", size, Value("2", "int", "observed")),
        Candidate("assertion", "assertEquals", size, Value("count", "int", "variable")),
        Candidate("assertion", "assertEquals", message, Value("other", "String", "variable")),
    ]
    holds = Verdict(HOLDS, "x")
    verdicts = [holds, holds, holds, holds, holds]
    scores = [0.5, 0.01, 0.3, 0.02, 0.005]
    # the constant takes the literal's score; a small integer stays literal (``count`` may equal
    # it by chance), and so does a local the prefix computed rather than initialised
    assert swap_to_named_values(candidates, verdicts, scores, observation, {"count"}) == [
        0.01,
        0.5,
        0.3,
        0.02,
        0.005,
    ]
    # a constant that fails now, or was never read, is no substitute
    assert (
        swap_to_named_values(
            candidates, [holds, Verdict(FAILS, "x"), holds, holds, holds], scores, observation, set()
        )
        == scores
    )
    assert (
        swap_to_named_values(candidates, [holds, None, holds, holds, holds], scores, observation, set())
        == scores
    )


def test_which_names_a_developer_writes_for_a_value() -> None:
    two = ObservedValue("literal", "int", "2")
    big = ObservedValue("literal", "int", "10001")
    assert prefers_name(Value("ROWS", "int", "constant"), big, set())
    assert not prefers_name(Value("ONE", "int", "constant"), two, set())  # a small number: coincidence
    assert prefers_name(Value("expectedSize", "int", "variable"), two, set())  # unless it says so
    assert prefers_name(Value("limit", "int", "variable"), big, {"limit"})  # initialised with a literal
    assert not prefers_name(Value("n", "int", "variable"), big, set())  # computed: maybe the target itself
    assert not prefers_name(Value("10001", "int", "literal"), big, set())
