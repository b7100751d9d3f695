"""Realistic template samples: tests cut before their oracle, nothing appended, labelled templates."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from oracular.candidates.grammar import Candidate
from oracular.candidates.values import Value
from oracular.cli.main import main
from oracular.corpus.lists import CorpusLists
from oracular.corpus.normalise import GroundTruth
from oracular.corpus.realistic import (
    RealisticTask,
    is_developers,
    mine_realistic,
    mine_realistic_package,
    realistic_tasks,
)
from oracular.java.targets import Target
from oracular.models.backbone import load_tokenizer
from oracular.models.inputs import InputFormatter, InputSettings
from oracular.training.data import assertion_example, exception_example

from .test_mine import DEV, make_cache, read_jsonl

SIZE = Target("c.value()", "long", "observer")


def truth(method: str, actual: str, expected: str | None = None) -> GroundTruth:
    return GroundTruth(method, actual, expected, "JUnit 5", simple_expected=True)


def test_a_template_is_the_developers_up_to_the_value_and_argument_order() -> None:
    slot = Value("?", "long", "slot")
    equals = Candidate("assertion", "assertEquals", SIZE, slot)
    assert is_developers(equals, truth("assertEquals", "c.value()", "1"))
    assert is_developers(equals, truth("assertEquals", "1", "c.value()"))  # swapped by the developer
    assert not is_developers(equals, truth("assertEquals", "c.size()", "1"))
    assert not is_developers(equals, truth("assertNotNull", "c.value()"))
    zero = Target("c.isZero()", "boolean", "observer")
    assert is_developers(Candidate("assertion", "assertTrue", zero), truth("assertTrue", "c.isZero()"))
    assert not is_developers(Candidate("assertion", "assertFalse", zero), truth("assertTrue", "c.isZero()"))


TUNED = "commons-csv"
"""A tune project's name for the fixture's ``gamma``: only tune projects make the dev split."""


def make_realistic_cache(root: Path) -> tuple[Path, Path]:
    """The fixture corpus with a tune project beside its report one (``gamma``) in the dev list."""
    cache, lists = make_cache(root)
    shutil.copytree(cache / "src" / "gamma", cache / "src" / TUNED)
    (lists / "dev-packages.txt").write_text("\n".join([*DEV, TUNED]) + "\n")
    return cache, lists


def mine_fixture_corpus(root: Path) -> Path:
    """The fixture corpus's realistic datasets, mined as ``oracular corpus realistic`` does."""
    cache, lists = make_realistic_cache(root)
    out = cache / "realistic"
    mine_realistic(
        realistic_tasks(CorpusLists.load(lists), cache / "src", 100, 13), out, jobs=1, progress=False
    )
    return out


@pytest.fixture(scope="module")
def realistic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mine_fixture_corpus(tmp_path_factory.mktemp("corpus"))


def test_samples_are_cut_before_the_oracle_with_nothing_appended(realistic: Path) -> None:
    samples = {s["test"]: s for s in read_jsonl(realistic / "train" / "assertion.jsonl")}
    once = samples["CounterTest.incrementsByOne"]
    assert "c.value()" not in once["prefix"]  # the corpus would have appended the asserted call
    assert once["developer"] == "assertEquals(1, c.value())"
    assert [once["candidates"][i] for i in once["labels"]] == ["assertEquals(?, c.value())"]
    assert all(
        "?" not in t or t.startswith(("assertEquals(?, ", "assertArrayEquals(?, "))
        for t in once["candidates"]
    )
    assert set(once["candidate_sources"]) == {"template"}
    null = samples["CounterTest.nameIsNull"]
    assert [null["candidates"][i] for i in null["labels"]] == ["assertNull(name)"]


def test_every_cut_test_is_an_exception_sample_labelled_by_what_it_expects(realistic: Path) -> None:
    samples = {s["test"]: s for s in read_jsonl(realistic / "train" / "exception.jsonl")}
    assert samples["CounterTest.rejectsNegativeStep"]["label"] is True
    assert samples["CounterTest.rejectsNegativeStep"]["exception"] == "IllegalArgumentException"
    assert samples["CounterTest.incrementsByOne"]["label"] is False
    dev = read_jsonl(realistic / "dev" / "exception.jsonl")
    assert dev and {s["package"] for s in dev} == {TUNED}  # never a report project
    summary = json.loads((realistic / "summary.json").read_text())
    assert summary["train"]["exception_samples"] == len(samples)


def test_training_reads_the_samples_as_it_reads_mined_ones(realistic: Path) -> None:
    formatter = InputFormatter(load_tokenizer(), InputSettings(templates=True))
    for sample in read_jsonl(realistic / "train" / "assertion.jsonl"):
        example = assertion_example(sample, formatter, max_candidates=4)
        assert example.labels and not any(example.is_exception)
    for sample in read_jsonl(realistic / "train" / "exception.jsonl"):
        exception_example(sample, formatter)


def test_the_command_writes_both_splits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache, lists = make_realistic_cache(tmp_path)
    out = tmp_path / "out"
    args = ["corpus", "realistic", "--cache", str(cache), "--lists-dir", str(lists), "--out", str(out)]
    assert main([*args, "--jobs", "1", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "train: " in printed and "dev: " in printed
    assert (out / "train" / "assertion.jsonl").stat().st_size > 0


def test_one_cut_keeps_the_files_other_tests_as_the_editor_sees_them(tmp_path: Path) -> None:
    """Cut together, a file's tests lose the oracles their neighbours' habits are read from."""
    cache, _ = make_cache(tmp_path)
    task = RealisticTask("alpha", "train", cache / "src" / "alpha", 100, 13, one_cut=True)
    alone, _ = mine_realistic_package(task)
    together, _ = mine_realistic_package(replace(task, one_cut=False))

    def exception_samples(samples: list[dict]) -> dict[str, dict]:
        return {s["test"]: s for s in samples if s["type"] == "exception"}

    assert exception_samples(alone).keys() == exception_samples(together).keys()
    cut = exception_samples(alone)["CounterTest.incrementsByOne"]
    assert {".value()", ".isZero()"} <= set(cut["asserted"])
    # increment() throws nothing; rejectsNegativeStep, kept as written, expects this
    assert cut["exceptions"] == ["IllegalArgumentException"]
    assert exception_samples(together)["CounterTest.incrementsByOne"]["exceptions"] == []
    assert ".isZero()" not in exception_samples(together)["CounterTest.incrementsByOne"]["asserted"]
