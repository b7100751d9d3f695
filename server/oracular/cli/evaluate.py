"""``oracular eval``: the neural oracles and the baseline on dev, side by side, as Markdown.

Both rankers answer the same problems, rebuilt by the engine from the corpus sources (see
:mod:`oracular.evaluation.ranking`); the output is what ``docs/eval.md`` holds.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.cli.common import emit, error
from oracular.cli.mutants import add_mutant_arguments, run_mutants
from oracular.cli.train import add_data_arguments, data_dir
from oracular.models.layout import default_model_dir
from oracular.ranking.pipeline import STEP_NAMES


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("eval", help="evaluate the neural oracles against the baseline (Markdown)")
    parser.add_argument("--split", choices=("dev", "train"), default="dev")
    add_data_arguments(parser)
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        metavar="DIR",
        help="corpus cache holding the mined packages in src/ (default: $ORACULAR_CACHE, ~/.cache/oracular)",
    )
    parser.add_argument(
        "--dictionary",
        type=Path,
        default=None,
        metavar="FILE",
        help="the global dictionary the datasets were mined with (default: the models folder's)",
    )
    parser.add_argument(
        "--model",
        type=Path,
        action="append",
        default=None,
        metavar="DIR",
        help="default: the shipped model; repeat to compare models (each named by its folder)",
    )
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="samples per dataset (seeded)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("-o", "--output", type=Path, default=None, metavar="FILE", help="instead of stdout")
    add_mutant_arguments(parser)
    add_realistic_arguments(parser)
    parser.set_defaults(run=run)


def add_realistic_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("realistic evaluation (--realistic)")
    group.add_argument(
        "--realistic",
        nargs="*",
        default=None,
        metavar="PROJECT",
        help="dev tests cut right before their oracle, nothing appended, answered as in the editor "
        "(corpus package names or folders; default: every dev package in the corpus cache)",
    )
    group.add_argument(
        "--no-observe",
        action="store_true",
        help="static ranking only: do not run the prefixes to observe values (nor the top-1 oracles)",
    )
    group.add_argument(
        "--one-cut",
        action="store_true",
        help="cut each test in a copy of its own file, the file's other tests as written (the editor's view; "
        "one suggestion run per test, not per file)",
    )
    group.add_argument(
        "--kind",
        choices=("assertion", "exception"),
        default=None,
        help="only the tests whose developer oracle is of this kind (before --max-tests draws): e.g. "
        "exception type accuracy over every throwing test",
    )
    group.add_argument(
        "--check-timeout", type=float, default=5.0, metavar="S", help="time limit per run test (default 5)"
    )
    group.add_argument(
        "--ablate",
        action="append",
        default=[],
        choices=STEP_NAMES,
        metavar="STEP",
        help=f"leave this ranking step out, to measure what it does (repeatable; {', '.join(STEP_NAMES)})",
    )
    group.add_argument(
        "--fresh-runs",
        action="store_true",
        help="run every prefix and top-1 again instead of reusing the runs an earlier evaluation of the "
        "same tests made (kept in CACHE/eval-runs, keyed by the code and the harness)",
    )
    group.add_argument(
        "--features",
        type=Path,
        default=None,
        metavar="FILE",
        help="also write each judged test's candidates, their learned-ranker features and which are the "
        "developer's (JSON Lines): training data for 'oracular train learned-ranker'",
    )
    add_headline_arguments(parser)


def add_headline_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the headline table (--headline)")
    group.add_argument(
        "--headline",
        action="store_true",
        help="the headline table: tune and report splits, one-cut and all-cut, static and observed "
        "(eight realistic evaluations, kept in --runs; see docs/eval.md)",
    )
    group.add_argument(
        "--runs",
        type=Path,
        default=None,
        metavar="DIR",
        help="where its evaluations go (default: CACHE/eval-headline)",
    )
    group.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=None,
        metavar="DIR",
        help="tabulate the evaluations already in DIR, run nothing",
    )
    group.add_argument(
        "--against",
        type=Path,
        default=None,
        metavar="DIR",
        help="also say, per cell, how many tests turned right and wrong against the evaluations in "
        "DIR (another table's --runs), and how large a difference chance gives at that turnover",
    )


def run(args: argparse.Namespace) -> int:
    if args.mutants is not None and args.realistic is not None:
        error("--mutants and --realistic are two evaluations: run them one at a time")
        return 2
    if args.mutants is not None:
        return run_mutants(args)
    if args.headline:
        from oracular.cli.headline import run_headline

        return run_headline(args)
    if args.realistic is not None:
        from oracular.cli.realistic import run_realistic

        return run_realistic(args)
    return _run_dev(args)


def _run_dev(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    from oracular.candidates.values import GLOBAL_DICTIONARY, load_global_dictionary, models_dir
    from oracular.evaluation.ranking import dev_report, train_positive_rate
    from oracular.models.devices import DeviceUnavailable
    from oracular.training.data import dataset_path, read_samples

    data = data_dir(args)
    paths = {kind: dataset_path(data, args.split, kind) for kind in ("exception", "assertion")}
    if missing := [str(p) for p in paths.values() if not p.is_file()]:
        error(f"missing {', '.join(missing)}: run 'oracular corpus mine' first")
        return 2
    try:
        text = dev_report(
            args.split,
            {kind: read_samples(path, args.limit, args.seed) for kind, path in paths.items()},
            sources=(args.cache or default_cache_dir()).expanduser() / "src",
            dictionary=load_global_dictionary(args.dictionary or models_dir() / GLOBAL_DICTIONARY),
            model_dirs=args.model or [default_model_dir()],
            device=args.device,
            positive_rate=train_positive_rate(data),
            progress=not args.quiet,
        )
    except DeviceUnavailable as exc:
        error(str(exc))
        return 2
    emit(text, args.output, "evaluation")
    return 0
