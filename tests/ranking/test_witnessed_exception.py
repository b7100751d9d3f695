"""Step ``witnessed-exception``: the exception the running prefix threw is a confident answer."""

from __future__ import annotations

from collections.abc import Sequence

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import FAILS, HOLDS, ObservedValue, TestObservation, Verdict, verdict
from oracular.candidates.strength import offer_order
from oracular.ranking.steps.witnessed_exception import raise_witnessed_exception
from oracular.ranking.weights import RankingWeights

from ..conftest import target

WEIGHTS = RankingWeights()


def raised_by_run(
    candidates: Sequence[Candidate],
    verdicts: Sequence[Verdict | None],
    scores: Sequence[float],
    observation: TestObservation,
    expected: Sequence[str] = (),
) -> list[float]:
    return raise_witnessed_exception(
        candidates, verdicts, scores, observation, expected, WEIGHTS.thrown, WEIGHTS.habit_margin
    )


def test_the_exception_the_prefix_was_seen_to_throw_is_a_confident_answer() -> None:
    candidates = [
        Candidate("exception", "assertThrows", None, exception="IllegalStateException"),
        Candidate("exception", "assertThrows", None, exception="IllegalArgumentException"),
        Candidate("assertion", "assertNotNull", target("x", "Object")),
    ]
    thrown = TestObservation(thrown="java.lang.IllegalStateException")
    verdicts = [verdict(c, thrown) for c in candidates]
    assert [v.status if v else None for v in verdicts] == [HOLDS, None, None]
    assert raised_by_run(candidates, verdicts, [0.15, 0.3, 0.2], thrown) == [0.87, 0.3, 0.2]
    assert raised_by_run(candidates, verdicts, [0.95, 0.3, 0.2], thrown) == [0.95, 0.3, 0.2]  # never lowered
    ran = TestObservation(values={"x": ObservedValue("object", "java.lang.Object", "")}, completed=True)
    assert raised_by_run(candidates, [None, None, None], [0.15, 0.3, 0.2], ran) == [0.15, 0.3, 0.2]


def test_a_supertype_of_the_thrown_class_holds_too_and_the_ranker_picks_among_the_holding() -> None:
    """joptsimple's tests expect ``OptionException`` where ``parse`` throws its subclass
    ``MissingRequiredOptionsException``: once the run reports the thrown class's superclasses,
    both hold, any other type fails; the thrown class, observed first, stays first when the
    ranker was unsure of both."""
    candidates = [
        Candidate("exception", "assertThrows", None, exception="MissingRequiredOptionsException"),
        Candidate("exception", "assertThrows", None, exception="joptsimple.OptionException"),
        Candidate("exception", "assertThrows", None, exception="IllegalStateException"),
    ]
    ancestors = ("joptsimple.OptionException", "java.lang.RuntimeException", "java.lang.Exception")
    thrown = TestObservation(
        thrown="joptsimple.MissingRequiredOptionsException",
        thrown_ancestors=(*ancestors, "java.lang.Throwable"),
    )
    verdicts = [verdict(c, thrown) for c in candidates]
    assert [v.status if v else None for v in verdicts] == [HOLDS, HOLDS, FAILS]
    raised = raised_by_run(candidates, verdicts, [0.2, 0.6, 0.1], thrown)
    assert raised == [0.87, 0.87, 0.1]
    assert offer_order(raised, verdicts, [False] * 3, WEIGHTS.possible_bug)[:2] == [0, 1]
    # the file's tests catch the superclass (the most often expected type that holds goes first)
    habitual = raised_by_run(
        candidates, verdicts, [0.2, 0.6, 0.1], thrown, ("IllegalStateException", "OptionException")
    )
    assert habitual == [0.87, 0.871, 0.1] and offer_order(
        habitual, verdicts, [False] * 3, WEIGHTS.possible_bug
    )[:2] == [1, 0]
    assert raised_by_run(candidates, verdicts, [0.2, 0.6, 0.1], thrown, ("IOException",)) == raised
    nested = TestObservation(thrown="a.ArcsSet$Inconsistent", thrown_ancestors=("java.lang.Throwable",))
    spelt = Candidate("exception", "assertThrows", None, exception="ArcsSet.Inconsistent")
    assert verdict(spelt, nested) == Verdict(HOLDS, "threw ArcsSet.Inconsistent")  # a nested class
    unknown = TestObservation(thrown="joptsimple.MissingRequiredOptionsException")  # an older run
    assert [v.status if v else None for v in (verdict(c, unknown) for c in candidates)] == [HOLDS, None, None]
