"""Benchmark the sandbox's cost: helper start and observation runs, with and without Bubblewrap.

Why: every run of the user's code (observation on each debounced edit, ``--check``, the mutant
runs) goes through a helper JVM started in the sandbox (:mod:`oracular.execution.sandbox`). Its
price is paid twice: once per helper start (bwrap's namespaces, the cgroup, the JVM) and on every
run (none expected: the helper is already inside). Both modes are measured in the same process, on
the same machine, interleaved, so load affects both alike:

1. **helper start**: a new :class:`JvmWorker` started and answering a ``PING`` (``--starts`` times);
2. **observation run, warm**: the example's oracle-free tests observed by a warm checker, results
   cache off, a new scratch text each time (``--repeat`` times): what an edit in the editor costs.

Run from the repository root with the project's virtual environment::

    .venv/bin/python bench/sandbox_bench.py
    .venv/bin/python bench/sandbox_bench.py --repeat 30 --starts 10 --json /tmp/sandbox.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.execution.jvm import JvmWorker
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import CheckSettings, OracleChecker
from oracular.execution.sandbox import SandboxMode, SandboxSettings, bwrap_problem
from oracular.execution.toolchain import find_toolchain
from oracular.java.source import load_source, parse_text

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FILE = REPO / "examples/stack/src/test/java/org/example/stack/StackTest.java"
MODES: tuple[SandboxMode, ...] = ("off", "require")


def quantiles(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=20) if len(samples) >= 2 else samples * 19
    return {"p50_s": round(statistics.median(samples), 3), "p95_s": round(cuts[18], 3)}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--repeat", type=int, default=20, help="observation runs per mode")
    parser.add_argument("--starts", type=int, default=8, help="helper starts per mode")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if (problem := bwrap_problem()) is not None:
        print(f"no sandbox to measure here: {problem}", file=sys.stderr)
        return 2
    os.environ.setdefault("ORACULAR_RANKER", "baseline")
    path = args.file.resolve()
    toolchain = find_toolchain()
    engine = engine_for([path], EngineSettings(top_k=5))
    text = load_source(path).text

    starts: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(args.starts):
        for mode in MODES:
            worker = JvmWorker(toolchain, sandbox=SandboxSettings(mode))
            began = time.perf_counter()
            worker.ping()
            starts[mode].append(time.perf_counter() - began)
            worker.close()

    checkers = {
        mode: OracleChecker(CheckSettings(use_cache=False, sandbox=SandboxSettings(mode))) for mode in MODES
    }
    runs: dict[str, list[float]] = {mode: [] for mode in MODES}
    observed: dict[str, int] = {}
    for i in range(args.repeat + 1):  # the first round warms each helper and javac
        for mode, checker in checkers.items():
            source = parse_text(f"{text}\n// {mode} {i}\n", path)
            began = time.perf_counter()
            report = engine.suggest(source, observer=ValueObserver(checker))
            if i:
                runs[mode].append(time.perf_counter() - began)
            observed[mode] = sum(t.observed for t in report.tests)
    for checker in checkers.values():
        checker.close()

    result = {
        "file": str(path),
        "tests": len(report.tests),
        "observed": observed,
        "helper_start": {mode: quantiles(samples) for mode, samples in starts.items()},
        "observation_run": {mode: quantiles(samples) for mode, samples in runs.items()},
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "java": toolchain.java_version,
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        },
    }
    print(f"{path.name}: {result['tests']} oracle-free tests, observed per mode: {observed}")
    print(f"{'':34s} {'no sandbox':>12s} {'sandbox':>12s}")
    for name, key in (("helper start", "helper_start"), ("observation run, warm", "observation_run")):
        for q in ("p50_s", "p95_s"):
            off, on = result[key]["off"][q], result[key]["require"][q]
            print(f"{name + ' ' + q[:3]:34s} {off:10.3f} s {on:10.3f} s")
    print(f"load average during the run: {result['machine']['load']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
