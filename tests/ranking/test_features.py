"""The learned ranker's features: one row per candidate in :data:`FEATURES`' order, the ranker's
score and the hand steps' signals as numbers; the engine records them when asked, and the realistic
evaluation labels them with the developer's oracle."""

from __future__ import annotations

from dataclasses import replace

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import HOLDS, ObservedValue, TestObservation, Verdict
from oracular.candidates.values import Value
from oracular.engine import OracleEngine
from oracular.java.guard_calls import GuardVerdict
from oracular.ranking.features import FEATURES, candidate_features
from oracular.ranking.scored import Ranked, RankingContext, Scored

from ..conftest import java, target
from ..java.test_targets import analysed


def test_a_row_says_the_rankers_score_and_what_the_run_showed(engine: OracleEngine) -> None:
    prefix = analysed(engine, "int x = 1 + 1;")
    equals = Candidate("assertion", "assertEquals", target("x", "int"), Value("2", "int", "observed"))
    thrown = Candidate("exception", "assertThrows", exception="IllegalStateException")
    ranked = Ranked((Scored(equals, 0.2, 0.2, Verdict(HOLDS, "2")), Scored(thrown, 0.6, 0.6)), 0.4)
    observation = TestObservation(values={"x": ObservedValue("literal", "int", "2")}, completed=True)
    rows = candidate_features(ranked, RankingContext(prefix, observation=observation))
    assert [len(r) for r in rows] == [len(FEATURES)] * 2
    first, second = (dict(zip(FEATURES, r, strict=True)) for r in rows)
    assert (first["ranker_rank"], second["ranker_rank"]) == (0.5, 1.0)
    assert first["ranker_share"] == 0.2 / 0.6 and second["ranker_share"] == 1.0
    assert (first["holds"], first["source_observed"], first["method_assertEquals"], first["observed"]) == (
        1,
        1,
        1,
        1,
    )
    assert (second["is_exception"], second["unjudged"], second["exception_probability"]) == (1, 1, 0.4)


HABIT = """
package org.example.stack;
import static org.junit.jupiter.api.Assertions.*;
class HabitTest {
    @org.junit.jupiter.api.Test
    void first() { Stack<Integer> s = new Stack<>(); s.push(1); assertEquals(1, s.size()); }
    @org.junit.jupiter.api.Test
    void oracleFree() { Stack<Integer> s = new Stack<>(); s.push(2); s.push(3); }
}
"""


def test_the_engine_records_every_candidates_features_when_asked(engine: OracleEngine) -> None:
    plain = engine.suggest(java(HABIT)).tests[0]
    assert plain.features is None
    settings = replace(engine.settings, record_features=True)
    recording = OracleEngine(
        engine.index, engine.ranker, settings, engine.project_root, engine.global_dictionary
    )
    (report,) = recording.suggest(java(HABIT)).tests
    assert report.features is not None and len(report.features) >= len(report.suggestions)
    alike = [dict(zip(FEATURES, row, strict=True))["asserted_alike"] for _, row in report.features]
    assert any(alike)  # s.size() is what the file's other test asserts on
    assert [s.oracle for s in report.suggestions] == [
        s.oracle for s in plain.suggestions
    ]  # nothing else moves
    assert "features" not in report.to_json()


def test_a_certain_guard_tells_the_type_it_names_from_its_ancestors_and_the_types_it_rules_out(
    engine: OracleEngine,
) -> None:
    """``guard_type`` holds for the thrown type and every ancestor alike; ``guard_named`` for the
    one the file's tests name only, ``guard_excluded`` for a type neither thrown nor caught; and
    ``exception_order`` says where the engine's evidence put each type, whatever the guard."""
    prefix = analysed(engine, "int x = 1;")
    prefix.guard_verdict = GuardVerdict(
        "NotPositiveException", ("MathIllegalArgumentException", "IllegalArgumentException"), certain=True
    )
    names = ("NotPositiveException", "IllegalArgumentException", "NullPointerException")
    candidates = [Candidate("exception", "assertThrows", exception=name) for name in names]
    ranked = Ranked(tuple(Scored(c, 0.3, 0.3) for c in candidates), 0.9)
    rows = [dict(zip(FEATURES, r, strict=True)) for r in candidate_features(ranked, RankingContext(prefix))]
    assert [(r["guard_type"], r["guard_named"], r["guard_excluded"]) for r in rows] == [
        (1, 1, 0),
        (1, 0, 0),
        (0, 0, 1),
    ]
    assert [r["exception_order"] for r in rows] == [1, 1 / 2, 1 / 3]  # the engine's evidence order
    prefix.guard_verdict = replace(prefix.guard_verdict, certain=False)
    rows = [dict(zip(FEATURES, r, strict=True)) for r in candidate_features(ranked, RankingContext(prefix))]
    assert not any(r["guard_named"] or r["guard_excluded"] or r["guard_type"] for r in rows)
