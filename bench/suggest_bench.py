"""Benchmark ``oracular suggest`` on a large real test file with its oracles stripped, as a user runs it.

Why: the observer-targets issue's budget is "``oracular suggest`` on a 1,700-line test file
<= 10 s including the JVM start". By default the file is commons-csv's ``CSVPrinterTest.java``
(1,710 lines) from the corpus cache, with every test cut right before its first oracle (the
realistic evaluation's cut, nothing appended), in a copy of the project. Each run is a fresh
``oracular suggest FILE --json`` process (Python start-up, index, model, classpath, JVM start,
observation, ranking, checking the listed oracles), timed three ways:

1. **cold**: a fresh cache folder (``ORACULAR_CACHE``): the helper JVM compiled, the project's
   classes compiled on demand, nothing reused: the first run on a new machine;
2. **warm**: the same cache again with a small change to the file each time (a comment), so no
   result is reused but the compiled helper and project classes are: a user's next run;
3. **static** (``--no-check``): no JVM at all, the figure to compare with.

Run from the repository root with the project's virtual environment::

    .venv/bin/python bench/suggest_bench.py                     # CSVPrinterTest, 3 warm runs
    .venv/bin/python bench/suggest_bench.py --repeat 5 --json /tmp/suggest.json
    .venv/bin/python bench/suggest_bench.py --project DIR --file path/in/project/FooTest.java
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.cli.common import engine_for
from oracular.corpus.devtests import cut_file, oracle_free_copy
from oracular.java.source import load_source

DEFAULT_PACKAGE = "commons-csv"
DEFAULT_FILE = "src/test/java/org/apache/commons/csv/CSVPrinterTest.java"


def strip_oracles(path: Path) -> int:
    """Rewrite ``path`` with every test cut before its first oracle; the number of tests cut."""
    engine = engine_for([path])
    source = load_source(path, lenient=True)
    cuts = cut_file(engine, engine.analyse(source), append_call=False)
    path.write_text(oracle_free_copy(source, engine.analyse(source), cuts).text, encoding="utf-8")
    return len(cuts)


def run_suggest(path: Path, cache: Path, *extra: str) -> tuple[float, dict]:
    env = {**os.environ, "ORACULAR_CACHE": str(cache)}
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "oracular", "suggest", str(path), "--json", *extra],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        raise SystemExit(f"oracular suggest failed ({result.returncode}): {result.stderr[-2000:]}")
    return elapsed, json.loads(result.stdout)


def summary(document: dict) -> dict:
    tests = document["tests"]
    return {
        "tests": len(tests),
        "observed": sum(t["observed"] for t in tests),
        "offered": sum(not t["abstained"] for t in tests),
        "mode": document.get("mode"),
        "check_s": document.get("check", {}).get("elapsed_s") if document.get("check") else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, default=None, help="default: commons-csv from the cache")
    parser.add_argument("--file", default=DEFAULT_FILE, help="the test file, relative to the project")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs (default 3)")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    args = parser.parse_args()
    project = args.project or default_cache_dir() / "src" / DEFAULT_PACKAGE
    if not (project / args.file).is_file():
        raise SystemExit(f"{project / args.file} not found (run 'oracular corpus fetch' or pass --project)")
    with tempfile.TemporaryDirectory(prefix="oracular-suggest-bench-") as tmp:
        copy = Path(tmp) / project.name
        shutil.copytree(project, copy, symlinks=True)
        path = copy / args.file
        cut = strip_oracles(path)
        lines = path.read_text(encoding="utf-8").count("\n")
        cache = Path(tmp) / "cache"
        cold, document = run_suggest(path, cache)
        warm = []
        for i in range(args.repeat):
            with path.open("a", encoding="utf-8") as handle:
                handle.write(f"// run {i}\n")  # a new scratch text: no result is reused
            elapsed, document = run_suggest(path, cache)
            warm.append(elapsed)
        static, static_document = run_suggest(path, cache, "--no-check")
    figures = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
        "file": args.file,
        "lines": lines,
        "tests_cut": cut,
        "cold_s": round(cold, 2),
        "warm_s": [round(w, 2) for w in warm],
        "warm_median_s": round(statistics.median(warm), 2),
        "static_s": round(static, 2),
        "observed_run": summary(document),
        "static_run": summary(static_document),
    }
    print(json.dumps(figures, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
