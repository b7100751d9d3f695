"""The mining pipeline end to end on the fixture corpus: split, dedup, dictionary, cache, report, CLI.

Why: these are the properties evaluation depends on. Dev samples must never be in train, the
global dictionary must be learnt from train only, and a re-run must reuse the per-package cache.
No network: the fixture packages are copied into a temporary cache as if fetched.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.corpus.fetch import MARKER_NAME
from oracular.corpus.lists import CorpusLists
from oracular.corpus.mine import MineReport, mine_corpus
from oracular.corpus.report import render_report

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"
TRAIN, DEV = ["alpha", "beta", "missing-package"], ["gamma"]


def make_cache(root: Path) -> tuple[Path, Path]:
    cache, lists = root / "cache", root / "lists"
    for name in ("alpha", "beta", "gamma"):
        shutil.copytree(CORPUS / name, cache / "src" / name)
        marker = {"package": name, "version": "1.0", "fetched_at": "2026-01-01T00:00:00", "test_files": 1}
        (cache / "src" / name / MARKER_NAME).write_text(json.dumps(marker))
    lists.mkdir()
    (lists / "train-packages.txt").write_text("\n".join(TRAIN) + "\n")
    (lists / "dev-packages.txt").write_text("\n".join(DEV) + "\n")
    return cache, lists


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> tuple[MineReport, Path]:
    cache, _ = make_cache(tmp_path_factory.mktemp("corpus"))
    dictionary = cache / "global_dictionary.json"
    report = mine_corpus(CorpusLists(TRAIN, DEV), cache, dictionary_path=dictionary, jobs=1, progress=False)
    return report, dictionary


def test_datasets_are_split_by_package(mined: tuple[MineReport, Path]) -> None:
    report, _ = mined
    for split, packages in (("train", {"alpha", "beta"}), ("dev", {"gamma"})):
        for kind in ("exception", "assertion"):
            samples = read_jsonl(report.out_dir / split / f"{kind}.jsonl")
            assert samples, (split, kind)
            assert {s["package"] for s in samples} <= packages
            assert all(s["split"] == split for s in samples)
    assert "missing-package" not in report.stats["packages"]


def test_assertion_samples_carry_candidates_and_labels(mined: tuple[MineReport, Path]) -> None:
    report, _ = mined
    samples = read_jsonl(report.out_dir / "train" / "assertion.jsonl")
    for sample in samples:
        assert sample["in_candidates"] == bool(sample["labels"])
        assert len(sample["candidates"]) == len(sample["candidate_sources"]) <= 64
        for label in sample["labels"]:
            assert sample["candidates"][label].startswith(sample["method"])
        assert "values" not in sample and "targets" not in sample
    assert any(s["in_candidates"] for s in samples)
    hamcrest = next(s for s in samples if s["family"] == "assertThat (Hamcrest)")
    assert hamcrest["assertion"] == 'assertEquals("x", s.peek())'


def test_duplicates_are_dropped_and_dev_never_repeats_train(mined: tuple[MineReport, Path]) -> None:
    report, _ = mined
    stats = report.stats
    assert stats["duplicates_dropped"]["beta"] >= 2  # beta's incrementsByOne copies alpha's (+ its negative)
    assert stats["dev_overlapping_train"]["gamma"] >= 2
    train = read_jsonl(report.out_dir / "train" / "assertion.jsonl")
    dev = read_jsonl(report.out_dir / "dev" / "assertion.jsonl")
    train_prefixes = {s["prefix"].split("{", 1)[1] for s in train}
    assert not any(s["prefix"].split("{", 1)[1] in train_prefixes for s in dev)


def test_dictionary_is_learnt_from_train_only(mined: tuple[MineReport, Path]) -> None:
    report, path = mined
    document = json.loads(path.read_text())
    assert document["k"] == report.stats["dictionary"]["k"]
    assert set(document["sweep"]) == {"0", "1", "3", "5", "10", "20"}
    values = [v for vs in report.stats["dictionary"]["values"].values() for v in vs]
    assert "1" in report.stats["dictionary"]["values"].get("long", [])  # twice in train
    assert "42" not in values  # twice, but only in dev


def test_second_run_reuses_the_cache(mined: tuple[MineReport, Path], tmp_path: Path) -> None:
    report, path = mined
    cache = report.out_dir.parent
    again = mine_corpus(CorpusLists(TRAIN, DEV), cache, dictionary_path=path, jobs=1, progress=False)
    assert all(meta["cached"] for meta in again.stats["packages"].values())
    assert again.stats["splits"] == report.stats["splits"]


def test_report_has_the_rq1_figures(mined: tuple[MineReport, Path]) -> None:
    text = render_report(mined[0].stats)
    for heading in (
        "## Packages",
        "## Test methods by oracle category",
        "## Grammar coverage",
        "## Global dictionary",
    ):
        assert heading in text
    assert "| must-throw |" in text and "| custom-helper |" in text
    assert "**all**" in text


def test_cli_fetchless_mine_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache, lists = make_cache(tmp_path)
    common = ["--cache", str(cache), "--lists-dir", str(lists), "-q"]
    assert main(["corpus", "mine", *common, "--dictionary", str(tmp_path / "dict.json"), "--jobs", "1"]) == 0
    assert "train: 2 packages" in capsys.readouterr().out
    output = tmp_path / "corpus.md"
    assert main(["corpus", "report", *common, "-o", str(output)]) == 0
    assert "## Grammar coverage" in output.read_text()


def test_cli_mine_without_a_fetch_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, lists = make_cache(tmp_path / "x")
    assert main(["corpus", "mine", "--cache", str(tmp_path / "empty"), "--lists-dir", str(lists), "-q"]) == 2
    assert "corpus fetch" in capsys.readouterr().err
