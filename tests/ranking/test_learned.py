"""The learned ranker: a softmax per test over each mode's linear model, saved with the network,
read by feature name; the engine ranks and decides with it where the model has
one (the hand-set steps otherwise, or when asked)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from oracular.engine import EngineSettings, OracleEngine
from oracular.models.store import ModelConfig
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.features import FEATURES
from oracular.ranking.learned import MODES, LearnedRanker, LinearModel

from ..conftest import java
from ..java.test_neighbours import HABITS_TEST


def model(**weights: float) -> LearnedRanker:
    vector = LinearModel(tuple(weights.get(name, 0.0) for name in FEATURES))
    return LearnedRanker(FEATURES, {m: vector for m in MODES}, {"static": 0.5, "observed": 0.2}, {"tests": 3})


def test_probabilities_are_a_softmax_of_the_models_utilities() -> None:
    ranker = model(ranker_logit=1.0)
    rows = [[0.0] * len(FEATURES), [0.0] * len(FEATURES)]
    rows[1][FEATURES.index("ranker_logit")] = math.log(3)
    assert ranker.probabilities(rows, observed=False) == pytest.approx([0.25, 0.75])
    assert ranker.probabilities([], observed=True) == []
    assert (ranker.threshold(False), ranker.threshold(True)) == (0.5, 0.2)


def test_the_null_takes_its_share_and_travels_in_the_config() -> None:
    """A null utility equal to the first candidate's: of e^0 + e^log3 + e^0, the null's third of
    the mass is not listed."""
    rows = [[0.0] * len(FEATURES), [0.0] * len(FEATURES)]
    rows[1][FEATURES.index("ranker_logit")] = math.log(3)
    weights = LinearModel(tuple(float(name == "ranker_logit") for name in FEATURES), null=0.0)
    ranker = LearnedRanker(FEATURES, {"static": weights}, {"static": 0.5}, {})
    assert ranker.probabilities(rows, observed=False) == pytest.approx([0.2, 0.6])
    assert LearnedRanker.from_config(ranker.to_config()) == ranker


def test_it_travels_in_the_config_read_by_feature_name() -> None:
    """A model fitted before a feature existed weighs it 0 (it ranks as when fitted); one that
    weighs a feature this version does not compute is refused."""
    ranker = model(holds=2.0, cannot_hold=-1.0)
    config = ModelConfig({"hidden_size": 8}, learned_ranker=ranker)
    assert ModelConfig.from_json(config.to_json()).learned_ranker == ranker
    data = ranker.to_config()
    older = {**data, "features": data["features"][1:][::-1],
             "models": {m: w[1:][::-1] for m, w in data["models"].items()}}  # fmt: skip
    loaded = LearnedRanker.from_config(older)
    assert loaded.features == FEATURES
    assert loaded.models["static"].weights == model(holds=2.0, cannot_hold=-1.0).models["static"].weights
    data["features"] = ["no_such_feature", *data["features"][1:]]
    with pytest.raises(ValueError, match="no_such_feature"):
        LearnedRanker.from_config(data)
    data["features"] = data["features"][1:]
    with pytest.raises(ValueError, match="weights for"):
        LearnedRanker.from_config(data)


class Learned(BaselineRanker):
    """The baseline with a learned ranker that trusts the ranker's own order and the file's habit."""

    @property
    def learned_ranker(self) -> LearnedRanker:
        return model(ranker_logit=1.0, asserted_alike=5.0)


def test_the_engine_ranks_with_the_learned_ranker_where_the_model_has_one(engine: OracleEngine) -> None:
    settings = replace(engine.settings, abstain_below=None)  # the learned ranker's thresholds
    learned = OracleEngine(engine.index, Learned(), settings, engine.project_root, engine.global_dictionary)
    assert learned.pipeline_for(learned.learned_for(False)).is_learned
    assert learned.pipeline_for(learned.learned_for(False)).names == (
        "join-helpers", "judge", "equality-helpers", "learned", "mutant-kills"
    )  # fmt: skip
    assert not engine.pipeline_for(engine.learned_for(False)).is_learned
    (report,) = learned.suggest(java(HABITS_TEST)).tests
    scores = [s.score for s in report.suggestions]
    assert not report.suggestions[0].vacuous  # never one that cannot fail first (assertNotNull(new ...))
    rest = scores[1:]
    assert rest == sorted(rest, reverse=True) and sum(scores) <= 1.0  # probabilities, the best first
    assert report.suggestions[0].oracle.endswith(("s.size());", "s.isEmpty());"))  # what the others assert on
    assert report.confidence == scores[0]
    assert report.abstained == (scores[0] < 0.5)  # the static threshold
    hand = OracleEngine(engine.index, Learned(), replace(engine.settings, ranking="hand"))
    assert hand.learned_for(False) is None and not hand.pipeline_for(None).is_learned
    assert EngineSettings().ranking == "auto"


class StaticOnly(BaselineRanker):
    """A learned ranker fitted for static mode alone (too few observed training tests)."""

    @property
    def learned_ranker(self) -> LearnedRanker:
        full = model(ranker_logit=1.0)
        return LearnedRanker(FEATURES, {"static": full.models["static"]}, {"static": 0.5}, {})


def test_a_mode_the_learned_ranker_was_not_fitted_for_keeps_the_hand_set_steps(engine: OracleEngine) -> None:
    partial = OracleEngine(engine.index, StaticOnly(), engine.settings, engine.project_root)
    assert partial.pipeline_for(partial.learned_for(False)).is_learned
    assert partial.learned_for(True) is None
    ranker = StaticOnly().learned_ranker
    assert ranker.covers(False) and not ranker.covers(True)
    assert LearnedRanker.from_config(ranker.to_config()) == ranker
