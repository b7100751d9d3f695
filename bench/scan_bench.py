"""Benchmark ``oracular scan`` over a real Java project.

Why: ``oracular scan`` is what a user (or CI) runs over a whole project, and the language server
does the same work when it opens a workspace: build the workspace index, then analyse every test
file for tests with no oracle. This script times those phases separately so that a regression in
one of them (parsing, index lookups, oracle detection, start-up imports) shows up on its own.

What it measures, each repeated ``--repeat`` times and reported as the median:

1. **index (cold)**: a new :class:`WorkspaceIndex` over the project root plus ``refresh()``
   (every ``.java`` file parsed; the OS file cache is warm after the first repeat).
2. **index (incremental)**: ``refresh()`` again with nothing changed (stat calls only).
3. **scan**: what ``oracular scan DIR`` does after building its index (see
   ``oracular.cli.scan.run``): walk the files, keep test sources, ``load_source`` + ``analyse``
   each; reported as files/s, test methods/s, and the oracle-free and incomplete counts.
4. **end-to-end**: ``oracular scan DIR`` as a subprocess (interpreter start-up, imports, index,
   scan and printing), wall time.
5. **peak RSS**: ``getrusage`` maximum resident set size of this process (index + scan) and of
   the largest ``oracular scan`` child.

Run it (the project is a Debian source package unpacked by Oracular's corpus fetcher into
``<cache>/src/<package>/``; ``<cache>`` is ``$ORACULAR_CACHE``, else ``$XDG_CACHE_HOME/oracular``,
else ``~/.cache/oracular``)::

    .venv/bin/python bench/scan_bench.py                      # commons-io from the cache
    .venv/bin/python bench/scan_bench.py --package commons-csv --repeat 5
    .venv/bin/python bench/scan_bench.py --project path/to/java/project --json out.json
    .venv/bin/python bench/scan_bench.py --list 10            # also print 10 oracle-free tests
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.engine import OracleEngine
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import WorkspaceIndex, iter_java_files, project_root

DEFAULT_PACKAGE = "commons-io"


def package_dir(package: str) -> Path:
    return default_cache_dir() / "src" / package


@dataclass
class ScanCounts:
    java_files: int = 0
    test_files: int = 0
    failed_files: int = 0
    tests: int = 0
    oracle_free: int = 0
    incomplete: int = 0
    oracle_free_tests: list[str] = field(default_factory=list)


@dataclass
class Result:
    project: str
    repeat: int
    index_files: int
    index_failed: int
    index_cold_s: float
    index_incremental_s: float
    scan_s: float
    scan_files_per_s: float
    scan_tests_per_s: float
    end_to_end_s: float
    end_to_end_lines: int
    peak_rss_mib: float
    peak_rss_child_mib: float
    counts: ScanCounts
    samples: dict[str, list[float]]
    machine: dict[str, str]


def scan(engine: OracleEngine, paths: list[Path]) -> ScanCounts:
    """Mirror of ``oracular.cli.scan.run`` (without ``--all-files``), counting instead of printing."""
    counts = ScanCounts()
    for path in iter_java_files(paths):
        counts.java_files += 1
        if not engine.index.is_test_file(path) and path not in paths:
            continue
        counts.test_files += 1
        try:
            source = load_source(path, lenient=True)
        except SourceError:
            counts.failed_files += 1
            continue
        for status in engine.analyse(source).statuses:
            counts.tests += 1
            if status.incomplete:
                counts.incomplete += 1
            elif status.oracle_free:
                counts.oracle_free += 1
                counts.oracle_free_tests.append(
                    f"{path}:{status.test.line + 1} {status.test.class_name}.{status.test.name}"
                )
    return counts


def oracular_command() -> list[str]:
    script = Path(sys.executable).with_name("oracular")
    if script.exists():
        return [str(script)]
    found = shutil.which("oracular")
    return [found] if found else [sys.executable, "-m", "oracular.cli.main"]


def end_to_end(project: Path) -> tuple[float, int]:
    """Wall time of ``oracular scan DIR`` as a subprocess, and how many lines it printed."""
    start = time.perf_counter()
    proc = subprocess.run(
        [*oracular_command(), "scan", str(project)], capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"oracular scan failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed, len(proc.stdout.splitlines())


def rss_mib(who: int) -> float:
    # Linux reports ru_maxrss in KiB, macOS in bytes.
    peak = resource.getrusage(who).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def machine() -> dict[str, str]:
    return {
        "cpus": str(os.cpu_count()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
    }


def run(project: Path, repeat: int) -> Result:
    project = project.resolve()
    paths = [project]
    roots = sorted({project_root(p) for p in paths})  # as oracular.cli.common.engine_for
    samples: dict[str, list[float]] = {"index_cold": [], "index_incremental": [], "scan": [], "e2e": []}
    counts = ScanCounts()
    files = failed = lines = 0
    for _ in range(repeat):
        start = time.perf_counter()
        index = WorkspaceIndex(roots)
        stats = index.refresh()
        samples["index_cold"].append(time.perf_counter() - start)
        files, failed = stats.files, stats.failed

        start = time.perf_counter()
        again = index.refresh()
        samples["index_incremental"].append(time.perf_counter() - start)
        if again.parsed:
            print(f"warning: incremental refresh re-parsed {again.parsed} files", file=sys.stderr)

        engine = OracleEngine(index, project_root=roots[0])
        start = time.perf_counter()
        counts = scan(engine, paths)
        samples["scan"].append(time.perf_counter() - start)
    peak_self = rss_mib(resource.RUSAGE_SELF)
    for _ in range(repeat):
        elapsed, lines = end_to_end(project)
        samples["e2e"].append(elapsed)
    scan_s = statistics.median(samples["scan"])
    return Result(
        project=str(project),
        repeat=repeat,
        index_files=files,
        index_failed=failed,
        index_cold_s=statistics.median(samples["index_cold"]),
        index_incremental_s=statistics.median(samples["index_incremental"]),
        scan_s=scan_s,
        scan_files_per_s=counts.test_files / scan_s if scan_s else 0.0,
        scan_tests_per_s=counts.tests / scan_s if scan_s else 0.0,
        end_to_end_s=statistics.median(samples["e2e"]),
        end_to_end_lines=lines,
        peak_rss_mib=peak_self,
        peak_rss_child_mib=rss_mib(resource.RUSAGE_CHILDREN),
        counts=counts,
        samples=samples,
        machine=machine(),
    )


def table(result: Result) -> str:
    c = result.counts
    rows = [
        (
            "index build, cold",
            f"{result.index_cold_s:.3f} s",
            f"{result.index_files} .java files parsed"
            f" ({result.index_files / result.index_cold_s:.0f} files/s, {result.index_failed} failed)",
        ),
        ("index refresh, nothing changed", f"{result.index_incremental_s * 1000:.1f} ms", "stat only"),
        (
            "scan (analyse test files)",
            f"{result.scan_s:.3f} s",
            f"{c.test_files} test files ({result.scan_files_per_s:.0f} files/s), {c.tests} tests "
            f"({result.scan_tests_per_s:.0f} tests/s)",
        ),
        (
            "oracle-free tests found",
            str(c.oracle_free),
            f"{c.incomplete} incomplete (skipped), {c.failed_files} files unreadable",
        ),
        (
            "`oracular scan DIR` end to end",
            f"{result.end_to_end_s:.3f} s",
            f"subprocess wall time, {result.end_to_end_lines} lines printed",
        ),
        (
            "peak RSS",
            f"{result.peak_rss_mib:.0f} MiB",
            f"benchmark process (index + scan); `oracular scan` child: {result.peak_rss_child_mib:.0f} MiB",
        ),
    ]
    out = ["| measure | median | notes |", "|---|---:|---|"]
    out += [f"| {name} | {value} | {notes} |" for name, value, notes in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--project", type=Path, help="Java project directory to scan")
    where.add_argument("--package", help=f"Debian package in the corpus cache (default {DEFAULT_PACKAGE})")
    parser.add_argument("--repeat", type=int, default=3, help="repeats; medians are reported (default 3)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument(
        "--list", type=int, default=0, metavar="N", help="print the first N oracle-free tests"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    project = args.project or package_dir(args.package or DEFAULT_PACKAGE)
    if not project.is_dir():
        parser.error(f"no such project directory: {project} (fetch it with Oracular's corpus fetcher)")

    result = run(project, args.repeat)
    print(
        f"Project: {result.project}  (repeat={result.repeat}, median; {result.machine['cpus']} CPUs,"
        f" Python {result.machine['python']}, {result.machine['date']})\n"
    )
    print(table(result))
    if args.list:
        print(f"\nFirst {args.list} oracle-free tests:")
        for line in result.counts.oracle_free_tests[: args.list]:
            print(f"  {line}")
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
