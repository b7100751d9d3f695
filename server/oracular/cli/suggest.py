"""``oracular suggest PATH...``: ranked oracles for the oracle-free tests of files and folders.

One file prints its listing (or JSON document, diff, write) as it always has; folders and several
files run as a batch (:mod:`oracular.cli.batch`): test sources found as ``scan`` finds them, JSON
Lines, a progress bar and a summary. ``--check`` (each listed oracle compiled and run) takes one file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from oracular.cli.common import engine_for, error
from oracular.cli.running import add_check_arguments
from oracular.engine import EngineSettings
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import test_sources


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("suggest", help="ranked oracles for test files and folders")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="test files or folders")
    parser.add_argument("--line", type=int, help="only the test containing this 1-based line (one file)")
    top_k = EngineSettings().top_k
    parser.add_argument(
        "--top", type=int, default=top_k, metavar="K", help=f"suggestions per test (default {top_k})"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help="machine-readable output (JSON Lines for several files)"
    )
    output.add_argument("--diff", action="store_true", help="print the top-1 oracles as a unified diff")
    output.add_argument("--write", action="store_true", help="insert the top-1 oracles into each file")
    batch = parser.add_argument_group("batches")
    batch.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    batch.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="run on a Ray cluster ('auto', 'ray://HOST:10001'; default $RAY_ADDRESS, else no Ray)",
    )
    add_check_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Observe (unless ``--no-check``), rank, then list, print JSON, diff or write.

    Running the code is the default, as ``mvn test``, EvoSuite or Randoop run the code a user
    points them at: observed values are the strongest oracles, and say of every listed oracle
    whether it holds now. ``--check`` also runs each listed oracle as it would be inserted. Without
    a JDK it falls back to static ranking and says why.
    """
    if args.top < 1:
        error("--top must be at least 1")
        return 2
    if missing := [p for p in args.paths if not p.exists()]:
        error(f"no such file or directory: {', '.join(map(str, missing))}")
        return 2
    single = len(args.paths) == 1 and args.paths[0].is_file()
    if not single and (args.line is not None or args.check):
        error("--line and --check take one file")
        return 2
    if args.check and not (args.diff or args.write):
        return _checked(args, args.paths[0])
    files = [p for p in args.paths if p.is_file()]
    files += [p for p in test_sources([p for p in args.paths if p.is_dir()]) if p not in files]
    if not files:
        error(f"no test sources under {', '.join(map(str, args.paths))}")
        return 2
    from oracular.cli.batch import run_batch

    return run_batch(args, files, single)


def _checked(args: argparse.Namespace, path: Path) -> int:
    """One file's listing or JSON with each oracle compiled and run as inserted."""
    from oracular.cli.running import checker_for, print_checked
    from oracular.execution.observe import ValueObserver

    try:
        source = load_source(path)
    except SourceError as exc:
        error(str(exc))
        return 2
    engine = engine_for([path], EngineSettings(top_k=args.top))
    checker = checker_for(args)
    try:
        report = engine.suggest(source, line=args.line, observer=ValueObserver(checker))
        return print_checked(args, report, checker)
    finally:
        checker.close()
