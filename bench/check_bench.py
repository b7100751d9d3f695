"""Benchmark execution checks: compiling and running one test's top-5 candidates.

Why: the issue's budget is "checking the top-5 candidates of one test on the bundled example:
under 3 s warm". A check is one javac and one JVM run in Oracular's helper JVM, so its latency
depends on whether the helper is already running and its javac warmed up. This script times:

1. **helper build** (first use ever): compiling the JVM helper into the cache (once per JDK and
   helper version; normally already done);
2. **cold**: a new :class:`OracleChecker` (helper JVM started, javac cold), results cache off;
3. **warm**: the same checker again, ``--repeat`` times, results cache off (a new scratch text
   each time, so nothing is reused but the warm JVM and javac's compiled project classes);
4. **cached**: the same check with the results cache on, second time (a content-hash hit);
5. **end to end**: ``oracular suggest FILE --line N --check --top 5`` as a subprocess on a copy
   of the project (Python start-up, engine, classpath, JVM start, cold javac compiling the
   project's classes on demand, run): a first check in a workspace, from the command line.

Run from the repository root with the project's virtual environment::

    .venv/bin/python bench/check_bench.py                         # StackTest.testPushThreePopOnce
    .venv/bin/python bench/check_bench.py --repeat 20 --json /tmp/check.json
    .venv/bin/python bench/check_bench.py --file path/to/FooTest.java --line 42

Classpath discovery is done once up front (Maven offline is asked once and cached by POM
fingerprint), so the figures are those of the check itself.
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

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings, FileReport, OracleEngine
from oracular.execution.classpath import discover
from oracular.execution.oracle_checks import CheckSettings, OracleChecker, format_check
from oracular.execution.toolchain import find_toolchain
from oracular.java.source import load_source, parse_text
from oracular.java.workspace import project_root

REPO = Path(__file__).resolve().parents[1]
DEFAULT_FILE = REPO / "examples/stack/src/test/java/org/example/stack/StackTest.java"
DEFAULT_LINE = 47  # testPushThreePopOnce: five candidates


def report_for(engine: OracleEngine, path: Path, line: int, salt: int = 0) -> FileReport:
    """The engine's report for the test at ``line``; ``salt`` makes the scratch text unique."""
    source = load_source(path)
    if salt:
        source = parse_text(source.text + f"\n// {salt}\n", path)
    return engine.suggest(source, line=line)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--line", type=int, default=DEFAULT_LINE, help="a 1-based line inside the test")
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    os.environ.setdefault("ORACULAR_RANKER", "baseline")
    path = args.file.resolve()

    # 1. The helper, in a fresh cache so its build is timed.
    with tempfile.TemporaryDirectory(prefix="oracular-bench-") as fresh:
        start = time.perf_counter()
        find_toolchain(Path(fresh))
        helper_s = time.perf_counter() - start
    find_toolchain()
    classpath = discover(project_root(path))

    engine = engine_for([path], EngineSettings(top_k=args.top))
    report = report_for(engine, path, args.line)
    if not report.tests or not report.tests[0].suggestions:
        print(f"no oracle-free test with suggestions at {path}:{args.line}", file=sys.stderr)
        return 2
    test = report.tests[0]

    # 2. Cold: a new checker, JVM start and cold javac.
    checker = OracleChecker(CheckSettings(use_cache=False))
    start = time.perf_counter()
    check = checker.check(report)
    cold_s = time.perf_counter() - start
    if check.error:
        print(f"check failed: {check.error}", file=sys.stderr)
        return 1
    verdicts = [
        f"{s.rank}. {s.oracle}  · {format_check(check.result_for(test, s))}" for s in test.suggestions
    ]

    # 3. Warm: same JVM, a new scratch text each time (no cache can answer).
    warm, compile_s, run_s = [], [], []
    for i in range(args.repeat):
        salted = report_for(engine, path, args.line, salt=i + 1)
        start = time.perf_counter()
        result = checker.check(salted)
        warm.append(time.perf_counter() - start)
        compile_s.append(result.compile_s)
        run_s.append(result.run_s)

    # 4. Cached: a content-hash hit.
    checker.settings = CheckSettings(use_cache=True)
    checker.check(report)
    start = time.perf_counter()
    cached = checker.check(report)
    cached_s = time.perf_counter() - start
    assert cached.cached
    checker.close()

    # 5. The CLI end to end, cold process, on a copy of the project (so no cached result answers
    #    and javac compiles the project's classes on demand, as for a first check in a workspace).
    script = Path(sys.executable).with_name("oracular")
    command = [str(script)] if script.exists() else [shutil.which("oracular") or "oracular"]
    root = project_root(path)
    with tempfile.TemporaryDirectory(prefix="oracular-bench-project-") as tmp:
        copy_root = Path(tmp) / root.name
        shutil.copytree(root, copy_root, ignore=shutil.ignore_patterns(".git", "target", "build"))
        copy = copy_root / path.relative_to(root)
        cli = [*command, "suggest", str(copy), "--line", str(args.line), "--top", str(args.top), "--check"]
        start = time.perf_counter()
        subprocess.run(cli, capture_output=True, text=True, check=True)
        cli_s = time.perf_counter() - start

    quantiles = statistics.quantiles(warm, n=20) if len(warm) >= 2 else warm * 19
    result = {
        "file": str(path),
        "test": test.test.name,
        "candidates": len(test.suggestions),
        "classpath": classpath.describe(),
        "helper_build_s": round(helper_s, 3),
        "cold_s": round(cold_s, 3),
        "warm_p50_s": round(statistics.median(warm), 3),
        "warm_p95_s": round(quantiles[18], 3),
        "warm_max_s": round(max(warm), 3),
        "warm_compile_p50_s": round(statistics.median(compile_s), 3),
        "warm_run_p50_s": round(statistics.median(run_s), 3),
        "cached_s": round(cached_s, 4),
        "cli_end_to_end_s": round(cli_s, 3),
        "warm_samples_s": [round(w, 3) for w in warm],
        "machine": {
            "cpus": str(os.cpu_count()),
            "python": platform.python_version(),
            "java": find_toolchain().java_version,
            "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        },
    }
    print(f"{path.name}:{args.line} {test.test.name}, top-{len(test.suggestions)} candidates")
    for line in verdicts:
        print(f"  {line}")
    print(classpath.describe())
    rows = [
        ("helper build (first use ever)", result["helper_build_s"]),
        ("check, cold (new helper JVM)", result["cold_s"]),
        (f"check, warm p50 (n={args.repeat})", result["warm_p50_s"]),
        ("check, warm p95", result["warm_p95_s"]),
        ("  of which javac (p50)", result["warm_compile_p50_s"]),
        ("  of which JUnit run (p50)", result["warm_run_p50_s"]),
        ("check, cached (content hash hit)", result["cached_s"]),
        ("oracular suggest --check, end to end", result["cli_end_to_end_s"]),
    ]
    for name, seconds in rows:
        print(f"{name:40s} {seconds:8.3f} s")
    print(f"load average during the run: {result['machine']['load']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
