"""``oracular scan PATH...``: list every oracle-free test under files or folders."""

from __future__ import annotations

import argparse
from pathlib import Path

from oracular.cli.common import engine_for, error
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import iter_java_files


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("scan", help="list oracle-free tests (file:line method)")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--all-files", action="store_true", help="also scan files outside test source roots")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        error(f"no such file or directory: {', '.join(map(str, missing))}")
        return 2
    engine = engine_for(args.paths)
    failures = 0
    for path in iter_java_files(args.paths):
        if not args.all_files and not engine.index.is_test_file(path) and path not in args.paths:
            continue
        try:
            source = load_source(path, lenient=True)
        except SourceError as exc:
            error(str(exc))
            failures += 1
            continue
        for status in engine.analyse(source).statuses:
            if status.oracle_free:
                print(f"{path}:{status.test.line + 1} {status.test.class_name}.{status.test.name}")
    return 1 if failures else 0
