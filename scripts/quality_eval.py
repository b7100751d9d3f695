"""Run the oracle-quality checks over the dev projects: counts per check, and samples to hand-check.

Why: a check's default (on or off) is decided by its precision on real code, which only a
person reading the flagged tests can judge. This script produces the two halves of that:

    .venv/bin/python scripts/quality_eval.py run [--only PKGS]   # findings of every check -> JSONL cache
    .venv/bin/python scripts/quality_eval.py counts          # Markdown table: check x project
    .venv/bin/python scripts/quality_eval.py sample CODE -n 25 [--seed 8]   # findings with their code

``run`` checks each dev package's test files with every check switched on (fixes are not
built), one worker process per package. ``sample`` draws with a fixed seed, so the sample
judged in ``docs/quality.md`` can be drawn again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.cli.common import engine_for
from oracular.corpus.lists import DEV_FILE, read_package_list
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import iter_java_files
from oracular.quality import CHECKS, QualitySettings, check_file
from oracular.ranking.baseline import BaselineRanker

REPO = Path(__file__).resolve().parents[1]
SRC = default_cache_dir() / "src"
"""Where ``oracular corpus fetch`` unpacks the packages."""
PACKAGES = REPO.parent / "shared" / "corpus" / DEV_FILE
CACHE = default_cache_dir() / "quality" / "findings.jsonl"
DEFAULT_SEED = 8
CONTEXT_LINES = 12


def scan_package(package: str, src: Path) -> list[dict]:
    """Every finding of every check in one package's test files (paths relative to ``src``)."""
    root = src / package
    if not root.is_dir():
        return []
    engine = engine_for([root])
    engine.ranker = BaselineRanker()  # nothing is ranked without fixes; never load a model
    settings = QualitySettings.only(CHECKS)
    rows = []
    for path in iter_java_files([root]):
        if not engine.index.is_test_file(path):
            continue
        try:
            source = load_source(path, lenient=True)
        except SourceError:
            continue
        analysis = engine.analyse(source)
        tests = len(analysis.statuses)
        for finding in check_file(engine, analysis, settings, fixes=False):
            rows.append(
                {
                    "package": package,
                    "path": str(path.relative_to(src)),
                    "line": finding.line,
                    "code": finding.code,
                    "test": finding.test,
                    "message": finding.message,
                }
            )
        rows.append({"package": package, "path": str(path.relative_to(src)), "tests": tests})
    return rows


def run(args: argparse.Namespace) -> int:
    """Scan the packages (``--only``: some of them, keeping the others' cached rows)."""
    packages = read_package_list(args.packages)
    kept: list[str] = []
    if args.only:
        packages = [p for p in packages if p in args.only.split(",")]
        if args.cache.exists():
            lines = args.cache.read_text(encoding="utf-8").splitlines()
            kept = [line for line in lines if json.loads(line)["package"] not in packages]
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, args.cache.open("w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in kept)
        futures = {package: pool.submit(scan_package, package, args.src) for package in packages}
        for package, future in futures.items():
            rows = future.result()
            for row in rows:
                out.write(json.dumps(row) + "\n")
            out.flush()
            found = sum(1 for r in rows if "code" in r)
            print(f"{package}: {found} findings", file=sys.stderr)
    return 0


def load(cache: Path) -> tuple[list[dict], Counter[str]]:
    findings, tests = [], Counter()
    for line in cache.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "code" in row:
            findings.append(row)
        else:
            tests[row["package"]] += row["tests"]
    return findings, tests


def counts(args: argparse.Namespace) -> int:
    findings, tests = load(args.cache)
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for row in findings:
        table[row["package"]][row["code"]] += 1
    codes = list(CHECKS)
    print("| project | tests | " + " | ".join(f"`{c}`" for c in codes) + " |")
    print("|---|---:|" + "---:|" * len(codes))
    for package in read_package_list(args.packages):
        cells = " | ".join(str(table[package][c]) for c in codes)
        print(f"| {package} | {tests[package]} | {cells} |")
    totals = " | ".join(f"**{sum(table[p][c] for p in table)}**" for c in codes)
    print(f"| **total** | **{sum(tests.values())}** | {totals} |")
    return 0


def sample(args: argparse.Namespace) -> int:
    findings, _ = load(args.cache)
    pool = [row for row in findings if row["code"] == args.code]
    chosen = random.Random(args.seed).sample(pool, min(args.n, len(pool)))
    for number, row in enumerate(chosen, start=1):
        print(f"=== {number}. {row['path']}:{row['line']} ({row['test'] or 'class'})")
        print(f"    {row['message']}")
        lines = (args.src / row["path"]).read_text(encoding="utf-8", errors="replace").splitlines()
        first = max(0, row["line"] - 1 - CONTEXT_LINES)
        for index in range(first, min(len(lines), row["line"] + CONTEXT_LINES)):
            marker = ">>" if index == row["line"] - 1 else "  "
            print(f"{marker}{index + 1:5d} {lines[index]}")
    print(f"({len(chosen)} of {len(pool)} {args.code} findings, seed {args.seed})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", type=Path, default=SRC, help="unpacked sources (default: %(default)s)")
    parser.add_argument("--packages", type=Path, default=PACKAGES, help="package list (default: dev)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="findings JSONL (default: %(default)s)")
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="check every dev package, write the findings cache")
    run_parser.add_argument("--jobs", type=int, default=2)
    run_parser.add_argument("--only", metavar="PKGS", help="comma-separated packages to re-scan")
    run_parser.set_defaults(func=run)
    commands.add_parser("counts", help="Markdown table of findings per check and project").set_defaults(
        func=counts
    )
    sample_parser = commands.add_parser("sample", help="a fixed-seed random sample of one check's findings")
    sample_parser.add_argument("code", choices=list(CHECKS))
    sample_parser.add_argument("-n", type=int, default=25)
    sample_parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    sample_parser.set_defaults(func=sample)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
