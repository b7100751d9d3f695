"""``oracular suggest FILE``: ranked oracles for the oracle-free tests of one file."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.candidates.render import TextEdit
from oracular.cli.common import engine_for, error
from oracular.cli.listing import print_human
from oracular.engine import EngineSettings, FileReport
from oracular.execution.cli import add_check_arguments
from oracular.java.source import SourceError, SourceText, load_source

if TYPE_CHECKING:
    from oracular.execution.checks import OracleChecker


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("suggest", help="ranked oracles for a test file")
    parser.add_argument("file", type=Path, metavar="FILE")
    parser.add_argument("--line", type=int, help="only the test containing this 1-based line")
    parser.add_argument("--top", type=int, default=5, metavar="K", help="suggestions per test (default 5)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="machine-readable output")
    output.add_argument("--diff", action="store_true", help="print the top-1 oracles as a unified diff")
    output.add_argument("--write", action="store_true", help="insert the top-1 oracles into FILE")
    add_check_arguments(parser)
    parser.set_defaults(run=run)


def apply_edits(source: SourceText, edits: list[TextEdit]) -> str:
    """Apply non-overlapping LSP edits, last first so earlier offsets stay valid."""
    data = source.data
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        start = source.offset(*edit.start)
        end = source.offset(*edit.end)
        data = data[:start] + edit.new_text.encode("utf-8") + data[end:]
    return data.decode("utf-8")


def write_if_unchanged(path: Path, original: bytes, new_text: str) -> bool:
    """Atomically replace ``path``, but only if nobody changed it since we read it."""
    if path.read_bytes() != original:
        return False
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".oracular")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(new_text)
        os.chmod(tmp, path.stat().st_mode & 0o7777)
        if path.read_bytes() != original:
            return False
        os.replace(tmp, path)
        return True
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


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
    try:
        source = load_source(args.file)
    except SourceError as exc:
        error(str(exc))
        return 2
    original = source.data
    engine = engine_for([args.file], EngineSettings(top_k=args.top))
    if args.no_check:
        return _emit(args, source, original, engine.suggest(source, line=args.line), None)
    from oracular.execution.cli import checker_for
    from oracular.execution.observe import ValueObserver

    checker = checker_for(args)
    try:
        report = engine.suggest(source, line=args.line, observer=ValueObserver(checker))
        return _emit(args, source, original, report, checker)
    finally:
        checker.close()


def _emit(
    args: argparse.Namespace,
    source: SourceText,
    original: bytes,
    report: FileReport,
    checker: OracleChecker | None,
) -> int:
    from oracular.execution.cli import mode_line

    if checker is not None and args.check and not (args.diff or args.write):
        from oracular.execution.cli import print_checked

        return print_checked(args, report, checker)
    if args.json:
        document = report.to_json()
        document["mode"] = mode_line(report, checker is not None)
        json.dump(document, sys.stdout, indent=2)
        print()
        return 0
    if not (args.diff or args.write):
        print_human(report, lambda _test, suggestion: suggestion.observed_summary() or "")
        if mode := mode_line(report, checker is not None):
            print(mode)
        return 0
    new_text = apply_edits(source, report.top_edits())
    if args.diff:
        sys.stdout.writelines(
            difflib.unified_diff(
                source.text.splitlines(keepends=True),
                new_text.splitlines(keepends=True),
                fromfile=f"a/{args.file}",
                tofile=f"b/{args.file}",
            )
        )
        return 0
    if new_text == source.text:
        print(f"{args.file}: nothing to write")
        return 0
    if not write_if_unchanged(args.file, original, new_text):
        error(f"{args.file} changed while oracles were computed; nothing written")
        return 1
    print(f"{args.file}: wrote {sum(t.confident for t in report.tests)} oracle(s)")
    if mode := mode_line(report, checker is not None):
        print(mode)
    return 0
