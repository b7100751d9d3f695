"""``suggest``'s options for running the code (observed values, ``--check``) and its checked listing.

Why a module of its own: the execution package (JVMs, classpaths) is imported only when code
runs, so ``oracular suggest --no-check`` pays nothing for it; batch ``suggest`` shares these.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from oracular.candidates.observed import NOT_OBSERVED
from oracular.engine import FileReport, Suggestion, TestReport

if TYPE_CHECKING:
    from oracular.execution.oracle_checks import OracleChecker
    from oracular.execution.sandbox import SandboxMode


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("running the code (scratch copies only)")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="also compile and run each listed oracle as inserted (holds / fails / does not compile)",
    )
    mode.add_argument(
        "--no-check",
        action="store_true",
        help="static ranking only: never compile or run the project's code",
    )
    add_run_arguments(group)


def add_run_arguments(group: argparse._ArgumentGroup) -> None:
    """How the code runs: time limit, classpath, sandbox; ``suggest`` and ``pseudo-tested`` share them."""
    group.add_argument(
        "--check-timeout",
        type=float,
        default=5.0,
        metavar="S",
        help="time limit per run test (default 5)",
    )
    group.add_argument(
        "--classpath",
        default=None,
        metavar="CP",
        help=f"classpath for runs ('{os.pathsep}'-separated; default: discovered from the build)",
    )
    group.add_argument(
        "--sandbox",
        choices=("require", "prefer", "off"),
        default="prefer",
        help="contain the code that runs with Bubblewrap: require it (run nothing without it), prefer it "
        "(default: without it where it cannot run, and say so) or off",
    )
    group.add_argument(
        "--output-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="compiled classes to run against (repeatable; with --classpath, like the setting)",
    )


def checker_for(args: argparse.Namespace) -> OracleChecker:
    from oracular.execution.classpath import ClasspathSettings
    from oracular.execution.oracle_checks import CheckSettings, OracleChecker
    from oracular.execution.sandbox import SandboxSettings, availability, sandboxed

    if args.sandbox != "off" and not sandboxed(args.sandbox):
        print(f"oracular: {availability(args.sandbox)}", file=sys.stderr)

    entries = tuple(e for e in (args.classpath or "").split(os.pathsep) if e)
    settings = CheckSettings(
        timeout_s=args.check_timeout,
        classpath=ClasspathSettings(entries, tuple(args.output_dir)),
        sandbox=SandboxSettings(args.sandbox),
    )
    return OracleChecker(settings)


def mode_line(report: FileReport, observing: bool, sandbox: SandboxMode = "prefer") -> str:
    """Which mode ran, and why: what a user needs to trust (or distrust) the listing."""
    if not report.tests:
        return ""
    if not observing:
        return "static ranking only (--no-check): values were not observed"
    if any(t.observed for t in report.tests):
        from oracular.execution.sandbox import sandboxed

        where = "in a sandbox" if sandboxed(sandbox) else "without a sandbox"
        return f"values observed by running each test's prefix in a scratch copy, {where}"
    why = next((n for n in report.notes if n.startswith(NOT_OBSERVED)), None)
    if why is not None:
        return f"static ranking only: {why}"
    return "static ranking only: no test could be run here"


def print_checked(args: argparse.Namespace, report: FileReport, checker: OracleChecker) -> int:
    """Run each suggested oracle as it would be inserted, then print it (listing or ``--json``)."""
    from oracular.cli.listing import print_human
    from oracular.execution.oracle_checks import format_check

    check = checker.check(report)
    if args.json:
        document = report.to_json()
        for test, test_json in zip(report.tests, document["tests"], strict=True):
            for suggestion, suggestion_json in zip(test.suggestions, test_json["suggestions"], strict=True):
                result = check.result_for(test, suggestion)
                suggestion_json["check"] = result.to_json() if result is not None else None
        document["check"] = check.to_json()
        document["mode"] = mode_line(report, True, args.sandbox)
        json.dump(document, sys.stdout, indent=2)
        print()
        return 0

    def annotate(test: TestReport, suggestion: Suggestion) -> str:
        result = check.result_for(test, suggestion) if check.error is None else None
        return format_check(result) if result is not None else (suggestion.observed_summary() or "")

    print_human(report, annotate)
    if mode := mode_line(report, True, args.sandbox):
        print(mode)
    if check.error:
        print(f"not checked: {check.error}")
    elif check.classpath is not None:
        print(check.classpath.describe())
        if check.missing_imports:
            print(f"imports nothing on the classpath provides: {', '.join(check.missing_imports)}")
    return 0
