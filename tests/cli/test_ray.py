"""Batch ``suggest`` and ``corpus mine`` on Ray give what the local run gives.

The test starts its own local Ray (two CPUs) in this process; the commands find it already
initialised. Skipped only where Ray is not installed (``pip install 'oracular[ray]'``; the
development install includes it).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.corpus.lists import CorpusLists
from oracular.corpus.mine import mine_corpus

from ..conftest import EXAMPLE, FIXTURES
from ..corpus.test_mine import DEV, TRAIN, make_cache
from ..execution.conftest import require_toolchain
from ..mutation.conftest import PSEUDO

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Ray's workers inherit this process's environment at start: a private cache for their runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORACULAR_CACHE", str(tmp_path_factory.mktemp("ray-cache")))
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield
        ray.shutdown()


def json_lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    code = main(["suggest", *args, "--json", "--no-check"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return sorted(out.splitlines())


@pytest.mark.parametrize("folder", [EXAMPLE, FIXTURES], ids=["example", "fixtures"])
def test_suggest_on_ray_gives_the_local_json_lines(
    local_ray: None, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = json_lines(capsys, str(folder))
    on_ray = json_lines(capsys, str(folder), "--ray", "auto")
    assert len(local) > 1
    assert on_ray == local  # byte for byte, order aside


def test_write_on_ray(local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    local, remote = tmp_path / "local", tmp_path / "remote"
    for copy in (local, remote):
        shutil.copytree(EXAMPLE, copy)
    assert main(["suggest", str(local), "--write", "--no-check"]) == 0
    assert main(["suggest", str(remote), "--write", "--no-check", "--ray", "auto"]) == 0
    capsys.readouterr()
    for path in sorted(local.rglob("*.java")):
        assert (remote / path.relative_to(local)).read_bytes() == path.read_bytes()


def test_corpus_mine_on_ray_gives_the_local_datasets(local_ray: None, tmp_path: Path) -> None:
    datasets = {}
    for where, address in (("local", None), ("ray", "auto")):
        cache, _ = make_cache(tmp_path / where)
        report = mine_corpus(
            CorpusLists(TRAIN, DEV),
            cache,
            dictionary_path=cache / "dictionary.json",
            jobs=1,
            progress=False,
            ray=address,
        )
        assert not any("error" in meta for meta in report.stats["packages"].values())
        datasets[where] = {
            path.relative_to(report.out_dir): path.read_bytes()
            for path in sorted(report.out_dir.rglob("*.jsonl"))
        }
    assert datasets["ray"] == datasets["local"]
    assert datasets["local"]


def test_pseudo_tested_on_ray_gives_the_local_verdicts(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The run on Ray compiles and runs the mutants in its actor's own helper JVM (another time
    limit than the local run's: nothing remembered is shared)."""
    require_toolchain()
    root = tmp_path / "pseudo"
    shutil.copytree(PSEUDO, root)

    def verdicts(*extra: str) -> list[dict[str, str]]:
        assert main(["pseudo-tested", "--json", "--no-causes", str(root / "src/test"), *extra]) == 0
        lines = capsys.readouterr().out.splitlines()
        return [{m["method"]: m["verdict"] for m in json.loads(line)["methods"]} for line in lines]

    local = verdicts("--check-timeout", "5")
    assert local and local[0]["IntStack.size"] == "pseudo-tested"
    assert verdicts("--check-timeout", "6", "--ray", "auto") == local
