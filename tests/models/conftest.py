"""Fixtures for the neural-oracle tests: a tiny random encoder, the real tokenizer, a mined corpus.

Why tiny and random: the tests check the plumbing (formatting, masking, batching, calibration,
storage, fallback), which does not depend on what the weights know. A 2-layer, 32-wide encoder
keeps every test well under a second; the tokenizer is the real one, because truncation and
identifier splitting are only meaningful on the real vocabulary. Only ``test_shipped.py`` loads
the shipped weights, and it is skipped until they exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import torch
from tokenizers import Tokenizer
from transformers import BertConfig

from oracular.corpus.lists import CorpusLists
from oracular.corpus.mine import mine_corpus
from oracular.engine import OracleEngine
from oracular.java.source import load_source
from oracular.models import store
from oracular.models.backbone import BackboneMissing, load_tokenizer
from oracular.models.calibration import Calibration
from oracular.models.inputs import InputFormatter, InputSettings
from oracular.models.layout import default_model_dir
from oracular.models.network import OracleNetwork
from oracular.ranking.problem import OracleProblem

from ..corpus.test_mine import DEV, TRAIN, make_cache

STACK_FOCAL = {
    "class": "Stack",
    "method": "pop",
    "signature": "public E pop()",
    "javadoc": "Removes the top item.\n@return the item\n@throws EmptyStackException if the stack is empty",
    "throws": [],
    "exception_types": ["EmptyStackException"],
}
STACK_STATEMENTS = ["Stack<Integer> s = new Stack<>();", "s.push(1);", "s.push(2);", "s.pop();"]
STACK_CANDIDATES = [
    "assertEquals(1, s.size())",
    "assertEquals(2, s.size())",
    "assertTrue(s.isEmpty())",
    "assertFalse(s.isEmpty())",
    "assertNotNull(s)",
    "assertThrows(EmptyStackException.class)",
]


def tiny_config() -> BertConfig:
    return BertConfig(
        vocab_size=30522,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=320,
    )


def tiny_network(seed: int = 0, cross_layers: int | None = None) -> OracleNetwork:
    torch.manual_seed(seed)
    return OracleNetwork(tiny_config(), cross_layers).eval()


def engine_problems(engine: OracleEngine, path: Path) -> list[OracleProblem]:
    """The problems the engine would hand its ranker for each oracle-free test in ``path``."""
    analysis = engine.analyse(load_source(path))
    problems = []
    for status in analysis.oracle_free:
        prefix = engine.prefix_for(analysis, status)
        if prefix is not None:
            problems.append(OracleProblem(status.test.name, prefix, engine.candidates_for(prefix, status)))
    return problems


@pytest.fixture(scope="session")
def tokenizer() -> Tokenizer:
    """The backbone's tokenizer, else the same files beside the shipped weights: a lent GPU
    machine has no network to install the backbone package, and its CUDA tests need a tokenizer."""
    try:
        return load_tokenizer()
    except BackboneMissing:
        if not (default_model_dir() / "tokenizer.json").is_file():
            raise
        return load_tokenizer(default_model_dir())


@pytest.fixture
def formatter(tokenizer: Tokenizer) -> InputFormatter:
    return InputFormatter(tokenizer, InputSettings())


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved tiny model (candidates cross into the top layer only), calibration not the identity."""
    directory = tmp_path_factory.mktemp("model") / "oracles"
    calibration = Calibration(temperature=0.7, exception_scale=1.5, exception_bias=-0.2, abstain_below=0.3)
    stages = ["exception", "ranker"]
    config = store.ModelConfig.for_encoder(
        tiny_config(), cross_layers=1, calibration=calibration, stages=stages
    )
    store.save(directory, tiny_network(cross_layers=1), config)
    return directory


@pytest.fixture(scope="session")
def tiny_template_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same tiny model reading templates (models v2: :mod:`oracular.candidates.templates`)."""
    directory = tmp_path_factory.mktemp("model-v2") / "oracles"
    config = store.ModelConfig.for_encoder(
        tiny_config(),
        cross_layers=1,
        calibration=Calibration(temperature=0.7),
        stages=["exception", "ranker"],
        inputs=InputSettings(templates=True),
    )
    store.save(directory, tiny_network(cross_layers=1), config)
    return directory


@dataclass(frozen=True)
class MinedCorpus:
    cache: Path
    datasets: Path
    dictionary: Path


@pytest.fixture(scope="session")
def mined(tmp_path_factory: pytest.TempPathFactory) -> MinedCorpus:
    """The fixture corpus mined as ``oracular corpus mine`` does it (alpha, beta: train; gamma: dev)."""
    cache, _ = make_cache(tmp_path_factory.mktemp("corpus"))
    dictionary = cache / "global_dictionary.json"
    report = mine_corpus(CorpusLists(TRAIN, DEV), cache, dictionary_path=dictionary, jobs=1, progress=False)
    return MinedCorpus(cache, report.out_dir, dictionary)
