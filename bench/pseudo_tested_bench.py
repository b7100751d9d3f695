"""Benchmark ``oracular pseudo-tested`` over a project's test sources: time per class and overall.

Why: issue 44 asks for the time per test class (p50, p95) and for a whole project with
``--jobs 2``, beside what the runs found (methods per verdict, mutants run, the weak-oracle
mutants for which a verified killing oracle was offered). The command runs as a user runs it, one
process timed from start to exit, its JSON Lines kept; each class's own time is the ``elapsed_s``
of its document. The cache is private to the run (``$ORACULAR_CACHE`` in a temporary folder), so
no remembered run is reused.

Run from the repository root with the project's virtual environment::

    .venv/bin/python bench/pseudo_tested_bench.py --project ~/.cache/oracular/src/commons-csv
    .venv/bin/python bench/pseudo_tested_bench.py --project DIR --jobs 1 --json /tmp/pseudo.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from scan_bench import machine

from oracular.cache import default_cache_dir


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] if ordered else 0.0


def summarise(documents: list[dict]) -> dict:
    """Per-class times and what the runs found, from the command's JSON Lines."""
    ran = [d for d in documents if not d["error"]]
    verdicts: Counter[str] = Counter(m["verdict"] for d in ran for m in d["methods"])
    weak = offered = 0
    for document in ran:
        for method in document["methods"]:
            killed = {k for oracle in method["oracles"] for k in oracle["kills"]}
            for mutant in method["mutants"]:
                if "weak oracle" in mutant["causes"].values():
                    weak += 1
                    offered += mutant["id"] in killed
    times = [d["elapsed_s"] for d in ran]
    return {
        "files": len(documents),
        "classes_run": len(ran),
        "verdicts": dict(verdicts),
        "mutants_run": sum(d["mutantsRun"] for d in ran),
        "weak_oracle_mutants": weak,
        "with_killing_oracle": offered,
        "class_s_p50": round(statistics.median(times), 2) if times else None,
        "class_s_p95": round(percentile(times, 0.95), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, default=default_cache_dir() / "src" / "commons-csv")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the result here as JSON")
    args = parser.parse_args()
    if not args.project.is_dir():
        print(f"no project at {args.project} (oracular corpus fetch --list ...)", file=sys.stderr)
        return 2
    oracular = Path(sys.executable).with_name("oracular")
    with tempfile.TemporaryDirectory() as cache, tempfile.NamedTemporaryFile("w+") as out:
        env = {**os.environ, "ORACULAR_CACHE": cache}
        start = time.monotonic()
        command = [str(oracular), "pseudo-tested", "--json", "--jobs", str(args.jobs), str(args.project)]
        subprocess.run(command, stdout=out, stderr=subprocess.DEVNULL, env=env, check=False)
        wall = time.monotonic() - start
        out.seek(0)
        documents = [json.loads(line) for line in out if line.strip()]
    result = {"machine": machine(), "load": os.getloadavg()[0], "project": str(args.project),
              "jobs": args.jobs, "wall_s": round(wall, 1), **summarise(documents)}  # fmt: skip
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
