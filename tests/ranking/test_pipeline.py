"""The ranking pipeline: its steps in one visible order, each one left out by name, and the
weights, which come from the settings, the model's config or the defaults."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from oracular.engine import EngineSettings, OracleEngine
from oracular.models.store import ModelConfig
from oracular.ranking.pipeline import STEP_NAMES, RankingPipeline
from oracular.ranking.weights import RankingWeights

from ..conftest import java
from ..java.test_neighbours import HABITS_TEST


def test_the_steps_run_in_the_documented_order() -> None:
    assert STEP_NAMES == (
        "asserted-alike", "guard-verdict", "first-check", "join-helpers", "judge", "equality-helpers",
        "witnessed-exception", "settled-targets", "named-values", "passing-helpers", "fewer-helper-calls",
        "mutant-kills",
    )  # fmt: skip
    assert RankingPipeline().names == STEP_NAMES


def test_a_step_is_left_out_by_name_and_an_unknown_name_is_an_error() -> None:
    assert "judge" not in RankingPipeline().without(["judge"]).names
    assert len(RankingPipeline().without(["judge", "named-values"]).names) == len(STEP_NAMES) - 2
    with pytest.raises(ValueError, match="unknown ranking steps: nonsense"):
        RankingPipeline().without(["nonsense"])


def test_the_weights_round_trip_through_a_model_config_and_refuse_unknown_names() -> None:
    weights = RankingWeights(settled=0.5, shown_calls=3)
    assert RankingWeights.from_config(json.loads(json.dumps(weights.to_config()))) == weights
    with pytest.raises(ValueError, match="unknown ranking weights: surely"):
        RankingWeights.from_config({"surely": 0.9})
    config = ModelConfig({"hidden_size": 8}, ranking_weights=weights)
    assert ModelConfig.from_json(config.to_json()).ranking_weights == weights
    assert "ranking_weights" not in ModelConfig({"hidden_size": 8}).to_json()


def _top(engine: OracleEngine, text: str) -> list[list[str]]:
    return [[s.oracle for s in t.suggestions] for t in engine.suggest(java(text)).tests]


def test_the_engine_ranks_with_its_settings_weights_and_without_its_ablated_steps(
    engine: OracleEngine,
) -> None:
    """HABITS_TEST's oracle-free test acts on a stack whose size the file's other tests assert on:
    ``asserted-alike`` raises that assertion; without it (or with its weight at 1) it is lower."""
    habitual = _top(engine, HABITS_TEST)
    flat = OracleEngine(
        engine.index, engine.ranker, replace(engine.settings, weights=RankingWeights(asserted_alike=1.0))
    )
    ablated = OracleEngine(
        engine.index, engine.ranker, replace(engine.settings, ablate=frozenset({"asserted-alike"}))
    )
    assert _top(flat, HABITS_TEST) == _top(ablated, HABITS_TEST) != habitual
    assert engine.weights == RankingWeights()  # the baseline ranker has no model, so no weights of its own
    assert OracleEngine(settings=EngineSettings(weights=RankingWeights(settled=0.1))).weights.settled == 0.1
