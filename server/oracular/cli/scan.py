"""``oracular scan PATH...``: list every oracle-free test under files or folders.

``--all`` adds the oracle-quality findings (unused inputs, discarded results, swallowed
exceptions...; see :mod:`oracular.quality`) of the tests that do have an oracle, one per line as
``path:line: code: message``. ``--json`` prints everything as one JSON document instead.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from oracular.cli.common import engine_for, error
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import test_sources
from oracular.quality import CHECKS, QualitySettings, check_file


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("scan", help="list oracle-free tests (file:line method)")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--all-files", action="store_true", help="also scan files outside test source roots")
    parser.add_argument(
        "--all", action="store_true", help="also report oracle-quality findings (path:line: code: message)"
    )
    parser.add_argument(
        "--checks",
        metavar="CODES",
        help=f"quality checks for --all, comma-separated (default: those on by default): {','.join(CHECKS)}",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of lines")
    parser.set_defaults(run=run)


def _settings(args: argparse.Namespace) -> QualitySettings | None:
    """The checks to run, ``None`` without ``--all``; raises ``ValueError`` on an unknown code."""
    if not args.all:
        return None
    if args.checks is None:
        return QualitySettings()
    return QualitySettings.only(code.strip() for code in args.checks.split(",") if code.strip())


def run(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        error(f"no such file or directory: {', '.join(map(str, missing))}")
        return 2
    try:
        settings = _settings(args)
    except ValueError as exc:
        error(str(exc))
        return 2
    sources = list(test_sources(args.paths, args.all_files))
    engine = engine_for(args.paths, keep=sources)
    failures = 0
    files = []
    for path in sources:
        try:
            source = load_source(path, lenient=True, parsed=engine.index.take(path))
        except SourceError as exc:
            error(str(exc))
            failures += 1
            continue
        analysis = engine.analyse(source)
        oracle_free = [s.test for s in analysis.statuses if s.oracle_free]
        findings = check_file(engine, analysis, settings, fixes=False) if settings is not None else []
        if args.json:
            if oracle_free or findings:
                files.append(
                    {
                        "file": str(path),
                        "oracle_free": [
                            {"class": t.class_name, "method": t.name, "line": t.line + 1} for t in oracle_free
                        ],
                        "findings": [f.to_json() for f in findings],
                    }
                )
            continue
        for test in oracle_free:
            print(f"{path}:{test.line + 1} {test.class_name}.{test.name}")
        for finding in findings:
            print(f"{path}:{finding.line}: {finding.code}: {finding.message}")
    if args.json:
        print(json.dumps({"files": files}, indent=1))
    return 1 if failures else 0
