"""``oracular`` entry point: one sub-command per job, each in its own module."""

from __future__ import annotations

import argparse
import sys

from oracular import __version__
from oracular.cli import corpus, evaluate, pseudo_tested, scan, serve, suggest, train


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="oracular",
        description="Find JUnit tests with no oracle and suggest the missing one.",
    )
    parser.add_argument("--version", action="version", version=f"oracular {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (scan, suggest, pseudo_tested, corpus, serve, train, evaluate):
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
