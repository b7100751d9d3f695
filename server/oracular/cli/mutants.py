"""``oracular eval --mutants``: the bug-finding evaluation's options and its run.

The evaluation itself (:mod:`oracular.evaluation.bug_finding`) is imported only when asked for.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path


def add_mutant_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("bug-finding evaluation (--mutants)")
    group.add_argument(
        "--mutants",
        nargs="*",
        default=None,
        metavar="PROJECT",
        help="mutation analysis of inserted oracles on dev projects (corpus package names or folders; "
        "default: the dev projects that compile with Debian's jars)",
    )
    group.add_argument(
        "--max-tests", type=int, default=200, metavar="N", help="tests per project (seeded sample)"
    )
    group.add_argument(
        "--max-mutants", type=int, default=500, metavar="N", help="mutants per project (seeded sample)"
    )
    group.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, metavar="N", help="helper JVMs (one per core)"
    )
    group.add_argument(
        "--operators",
        default=None,
        metavar="OPS",
        help="comma-separated mutation operators (default: all; see docs/execution.md)",
    )
    group.add_argument("--json", type=Path, default=None, metavar="FILE", help="also write the raw figures")


def run_mutants(args: argparse.Namespace) -> int:
    import logging

    from oracular.cache import default_cache_dir, write_atomically
    from oracular.cli.common import emit, error, package_roots
    from oracular.evaluation.bug_finding import DEFAULT_PROJECTS, evaluate_project, markdown
    from oracular.execution.jvm import HelperFailed
    from oracular.execution.toolchain import ToolchainMissing
    from oracular.mutation.operators import OPERATORS

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    sources = (args.cache or default_cache_dir()).expanduser() / "src"
    names = args.mutants or list(DEFAULT_PROJECTS)
    roots = package_roots(names, sources)
    if roots is None:
        return 2
    operators = [o.strip() for o in args.operators.split(",") if o.strip()] if args.operators else OPERATORS
    if unknown := sorted(set(operators) - set(OPERATORS)):
        error(f"unknown mutation operator(s) {', '.join(unknown)}; known: {', '.join(OPERATORS)}")
        return 2
    results = []
    failed = 0
    for root in roots:
        try:
            results.append(
                evaluate_project(
                    root,
                    max_tests=args.max_tests,
                    max_mutants=args.max_mutants,
                    jobs=max(1, args.jobs),
                    seed=args.seed,
                    progress=not args.quiet,
                    operators=operators,
                )
            )
        except ToolchainMissing as exc:
            error(str(exc))
            return 2
        except (HelperFailed, TimeoutError) as exc:  # one project's JVM must not cost the others
            error(f"{root.name}: not evaluated: {exc}")
            failed += 1
            continue
        if args.json is not None:  # after each project: a run stopped half-way keeps what it did
            write_atomically(args.json, json.dumps([r.to_json() for r in results], indent=1) + "\n")
    text = markdown(results)
    emit(text, args.output, "evaluation")
    return 1 if failed else 0
