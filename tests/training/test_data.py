"""Mined samples as model inputs, and the guarantee that training sees what the editor sends.

Why: a model trained on one formatting and served another fails silently. Every mined sample is
replayed through the engine here (as ``oracular eval`` does) and the live problem's inputs must
equal the ones training reads from the JSONL.
"""

from __future__ import annotations

import random

from oracular.candidates.values import load_global_dictionary
from oracular.evaluation.ranking import replay
from oracular.models.inference import problem_inputs
from oracular.models.inputs import InputFormatter
from oracular.training.data import (
    assertion_example,
    dataset_path,
    exception_example,
    read_samples,
    sample_statements,
)

from ..models.conftest import MinedCorpus


def test_training_and_inference_inputs_agree(mined: MinedCorpus) -> None:
    dictionary = load_global_dictionary(mined.dictionary)
    for split in ("train", "dev"):
        for kind in ("exception", "assertion"):
            samples = read_samples(dataset_path(mined.datasets, split, kind))
            replayed = replay(samples, mined.cache / "src", dictionary, progress=False)
            assert not replayed.failures, (split, kind, dict(replayed.failures))
            for sample, problem in zip(samples, replayed.problems, strict=True):
                assert problem is not None
                statements, focal, texts = problem_inputs(problem)
                assert statements == sample_statements(sample)
                assert focal == sample["focal"]
                if kind == "assertion":
                    assert texts == sample["candidates"]


def test_exception_examples_label_the_thrown_type(mined: MinedCorpus, formatter: InputFormatter) -> None:
    samples = read_samples(dataset_path(mined.datasets, "train", "exception"))
    throwing = [exception_example(s, formatter) for s in samples if s["label"]]
    assert throwing and all(e.throws for e in throwing)
    for example in throwing:
        assert all(example.is_exception)
        texts = example.sample["exceptions"] or ["Exception"]
        assert len(example.encoded.candidates) == len(texts)
        for label in example.labels:
            assert texts[label].rsplit(".", 1)[-1] == example.sample["exception"]
    quiet = [exception_example(s, formatter) for s in samples if not s["label"]]
    assert quiet and not any(e.throws or e.labels for e in quiet)


def test_training_samples_keep_the_answers_and_sample_wrong_assertions(
    mined: MinedCorpus, formatter: InputFormatter
) -> None:
    sample = next(
        s
        for s in read_samples(dataset_path(mined.datasets, "train", "assertion"))
        if len(s["candidates"]) > 3
    )
    full = assertion_example(sample, formatter)
    assert full.labels == sample["labels"] and len(full.encoded.candidates) == len(sample["candidates"])
    small = assertion_example(sample, formatter, max_candidates=2, rng=random.Random(0))
    assert len(small.encoded.candidates) == 2 and not any(small.is_exception)
    kept = [formatter.encode([], None, [sample["candidates"][i]]).candidates[0] for i in sample["labels"]]
    assert [small.encoded.candidates[i] for i in small.labels] == kept


def test_a_limit_is_a_seeded_random_subset(mined: MinedCorpus) -> None:
    path = dataset_path(mined.datasets, "train", "exception")
    everything = read_samples(path)
    subset = read_samples(path, limit=4, seed=1)
    assert len(subset) == 4 and subset == read_samples(path, limit=4, seed=1)
    assert all(s in everything for s in subset)
