"""The learned ranker's features: one row per candidate in :data:`FEATURES`' order, the ranker's
score and the hand steps' signals as numbers; the engine records them when asked, and the realistic
evaluation labels them with the developer's oracle."""

from __future__ import annotations

from dataclasses import replace

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import HOLDS, ObservedValue, TestObservation, Verdict
from oracular.candidates.values import Value
from oracular.engine import OracleEngine
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
