"""Steps ``asserted-alike`` and ``first-check``: the file's habits raise the assertions they name,
keeping the best score."""

from __future__ import annotations

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.values import Value
from oracular.engine import OracleEngine
from oracular.java.targets import Target
from oracular.ranking.steps.file_habits import raise_asserted_alike, raise_first_check
from oracular.ranking.weights import RankingWeights

from ..java.test_targets import analysed

WEIGHTS = RankingWeights()


def alike(candidates: list[Candidate], scores: list[float], asserted: frozenset[str], prefix) -> list[float]:
    return raise_asserted_alike(candidates, scores, asserted, prefix, WEIGHTS.asserted_alike)


def first(candidates: list[Candidate], scores: list[float], habit: tuple[str, str] | None) -> list[float]:
    return raise_first_check(candidates, scores, habit, WEIGHTS.first_check)


def test_assertions_alike_the_files_are_weighed_up_keeping_the_best_score(engine: OracleEngine) -> None:
    def on(expression: str, assertion: str = "assertTrue") -> Candidate:
        return Candidate("assertion", assertion, Target(expression, "boolean", "observer"))

    candidates = [
        on("s.isEmpty()"),
        on("s.contains(1)"),
        Candidate(
            "assertion", "assertEquals", Target("s.size()", "int", "observer"), Value("2", "int", "literal")
        ),
        Candidate("exception", "assertThrows", None, exception="X"),
    ]
    scores = [0.3, 0.2, 0.1, 0.4]
    acts = analysed(engine, "Stack<Integer> s = new Stack<>(); s.push(1);")
    weighed = alike(candidates, scores, frozenset({".size()"}), acts)
    assert weighed[3] == 0.4  # the exception stage's score is its own
    assert max(weighed[:3]) == pytest.approx(0.3)  # no surer of the test than the ranker was
    assert weighed[2] / weighed[0] == pytest.approx(WEIGHTS.asserted_alike / 3)
    assert weighed[1] / weighed[0] == pytest.approx(2 / 3)
    assert alike(candidates, scores, frozenset(), acts) == scores
    assert alike(candidates, scores, frozenset({".other()"}), acts) == scores
    # a prefix that ends by computing a value: that value is the oracle, whatever the file does
    for body in ("int n = new Stack<Integer>().size();", "Stack<Integer> s = new Stack<>(); s.pop();"):
        computes = analysed(engine, body)
        assert computes.computes_value
        assert alike(candidates, scores, frozenset({".size()"}), computes) == scores
    assert not acts.computes_value


def test_the_first_check_habit_weighs_its_assertions_up_keeping_the_best_score() -> None:
    def on(expression: str, assertion: str, value: str | None = None) -> Candidate:
        expected = Value(value, "int", "literal") if value is not None else None
        return Candidate("assertion", assertion, Target(expression, "int", "observer"), expected)

    candidates = [
        on("s.peek()", "assertEquals", "5"),
        on("s.contains(5)", "assertFalse"),
        on("t.size()", "assertTrue"),
    ]
    scores = [0.5, 0.1, 0.2]
    weighed = first(candidates, scores, ("truth", ".contains()"))
    assert max(weighed) == pytest.approx(0.5)  # no surer of the test than the ranker was
    assert weighed[1] / weighed[0] == pytest.approx(WEIGHTS.first_check / 5)
    assert weighed[2] / weighed[0] == pytest.approx(0.2 / 0.5)
    assert first(candidates, scores, None) == scores
    assert first(candidates, scores, ("equals", ".contains()")) == scores  # another family
