"""Re-mine a realistic dev split with the current engine, for exactly the tests it already holds.

Why: a change to the engine's candidates (say, the exception types) changes what a dev sample
offers, and the dev figures must be measured on samples the current engine would make. Re-mining
the whole corpus takes over 20 minutes on 2 cores, mostly for train; the dev split alone takes
about a minute (``--jobs 2``). The tests kept are the old dev split's (same packages, seed and
``--max-tests``, and the samples whose prefix was seen in train already dropped), so old and
new figures compare sample for sample. Train is left as it is (link or copy it into OUT if a
command needs both).

    .venv/bin/python scripts/remine_realistic_dev.py OLD_DATA OUT [--max-tests 300] [--seed 13] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tqdm import tqdm

from oracular.cache import default_cache_dir
from oracular.corpus.realistic import RealisticTask, mine_realistic_package

KINDS = ("exception", "assertion")


def _key(sample: dict) -> tuple:
    return sample["package"], sample["file"], sample["line"], sample["test"], sample["type"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path, help="realistic datasets folder whose dev split to re-mine")
    parser.add_argument("out", type=Path, help="folder to write OUT/dev/{exception,assertion}.jsonl into")
    parser.add_argument("--max-tests", type=int, default=300, help="as the old split was mined (default 300)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=None, help="corpus cache (default: Oracular's)")
    args = parser.parse_args()
    keep = set()
    for kind in KINDS:
        with (args.old / "dev" / f"{kind}.jsonl").open(encoding="utf-8") as lines:
            keep.update(_key(json.loads(line)) for line in lines if line.strip())
    sources = (args.cache or default_cache_dir()) / "src"
    packages = sorted({key[0] for key in keep})
    tasks = [RealisticTask(name, "dev", sources / name, args.max_tests, args.seed) for name in packages]
    folder = args.out / "dev"
    folder.mkdir(parents=True, exist_ok=True)
    written = dict.fromkeys(KINDS, 0)
    files = {kind: (folder / f"{kind}.jsonl").open("w", encoding="utf-8") for kind in KINDS}
    try:
        with ProcessPoolExecutor(max(1, args.jobs)) as pool:
            results = pool.map(mine_realistic_package, tasks)
            for samples, _ in tqdm(results, total=len(tasks), desc="cut tests", unit="pkg"):
                for sample in samples:
                    if _key(sample) in keep:
                        files[sample["type"]].write(json.dumps(sample, separators=(",", ":")) + "\n")
                        written[sample["type"]] += 1
    finally:
        for handle in files.values():
            handle.close()
    print(f"{written} samples of the {len(keep)} kept written to {folder}")


if __name__ == "__main__":
    main()
