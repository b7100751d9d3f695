"""``oracular corpus fetch|mine|realistic|report``: build the training corpus from Debian source packages."""

from __future__ import annotations

import argparse
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.cache import DATASETS_DIR, REALISTIC_DIR, default_cache_dir
from oracular.candidates.values import GLOBAL_DICTIONARY, models_dir
from oracular.cli.common import emit, error

if TYPE_CHECKING:
    from oracular.corpus.lists import CorpusLists

# The corpus pipeline is imported by each command as it runs: ``oracular serve`` registers these
# sub-commands too, and the language server must not load the offline pipeline.


def register(commands: argparse._SubParsersAction) -> None:
    """``oracular corpus`` and its steps, in the order they run; each step's options are its own
    function's, so one step's many options never hide another's."""
    parser = commands.add_parser("corpus", help="fetch, mine and report on the training corpus")
    jobs = parser.add_subparsers(dest="corpus_command", required=True, metavar="STEP")
    _register_fetch(jobs)
    _register_mine(jobs)
    _register_realistic(jobs)
    _register_report(jobs)


def _register_fetch(jobs: argparse._SubParsersAction) -> None:
    fetch = jobs.add_parser("fetch", help="download and unpack the listed Debian source packages")
    fetch.add_argument(
        "--list",
        type=Path,
        action="append",
        dest="lists",
        metavar="FILE",
        help="package list (repeatable; default: the shared train and dev lists)",
    )
    _common(fetch)
    fetch.add_argument("--jobs", type=int, default=4, help="packages downloaded at once (default 4)")
    fetch.add_argument("--json", action="store_true", help="print the per-package report as JSON")
    fetch.set_defaults(run=run_fetch)


def _register_mine(jobs: argparse._SubParsersAction) -> None:
    mine = jobs.add_parser("mine", help="mine the fetched packages into train/dev JSONL datasets")
    _common(mine)
    mine.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="datasets folder (default: CACHE/datasets)"
    )
    mine.add_argument(
        "--dictionary",
        type=Path,
        default=None,
        metavar="FILE",
        help="where to write the global dictionary (default: the models folder's global_dictionary.json)",
    )
    mine.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 2, help="worker processes (default: all cores)"
    )
    mine.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="mine on a Ray cluster ('auto', 'ray://HOST:10001'; default $RAY_ADDRESS, else local processes)",
    )
    mine.set_defaults(run=run_mine)


def _register_realistic(jobs: argparse._SubParsersAction) -> None:
    cut = jobs.add_parser(
        "realistic",
        help="cut the fetched packages' tests before their oracle into template samples (models v2)",
    )
    _common(cut)
    cut.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="datasets folder (default: CACHE/realistic)"
    )
    cut.add_argument(
        "--max-tests", type=int, default=200, metavar="N", help="tests cut per package, seeded (default 200)"
    )
    cut.add_argument("--seed", type=int, default=13)
    cut.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 2, help="worker processes (default: all cores)"
    )
    cut.add_argument(
        "--one-cut",
        action="store_true",
        help="cut each test in a copy of its own file, the other tests kept as written, as in the editor "
        "(slower: one analysis per test, not per file)",
    )
    cut.set_defaults(run=run_realistic)


def _register_report(jobs: argparse._SubParsersAction) -> None:
    report = jobs.add_parser("report", help="write the corpus report (Markdown) from the mined statistics")
    _common(report)
    report.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="datasets folder (default: CACHE/datasets)"
    )
    report.add_argument(
        "-o", "--output", type=Path, default=None, metavar="FILE", help="write here instead of stdout"
    )
    report.set_defaults(run=run_report)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        metavar="DIR",
        help="corpus cache (default: $ORACULAR_CACHE or ~/.cache/oracular)",
    )
    parser.add_argument("--lists-dir", type=Path, default=None, metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def _setup_logging(quiet: bool) -> None:
    logging.basicConfig(level=logging.WARNING if quiet else logging.INFO, format="%(message)s")


def _cache(args: argparse.Namespace) -> Path:
    return (args.cache or default_cache_dir()).expanduser()


def _lists(args: argparse.Namespace) -> CorpusLists:
    from oracular.corpus.lists import CorpusLists

    return CorpusLists.load(args.lists_dir)


def _lists_or_error(args: argparse.Namespace) -> CorpusLists | None:
    """The train and dev lists, or ``None`` once the reason they cannot be read is printed."""
    try:
        return _lists(args)
    except (OSError, ValueError) as exc:
        error(str(exc))
        return None


def run_fetch(args: argparse.Namespace) -> int:
    from oracular.corpus.lists import read_package_list

    _setup_logging(args.quiet)
    try:
        if args.lists:
            names = [name for path in args.lists for name in read_package_list(path)]
        else:
            lists = _lists(args)
            names = lists.train + lists.dev
    except (OSError, ValueError) as exc:
        error(str(exc))
        return 2
    from oracular.corpus.fetch import fetch_packages

    report = fetch_packages(names, _cache(args), jobs=args.jobs, progress=not args.quiet)
    print(report.to_json() if args.json else report.summary())
    return 0


def run_mine(args: argparse.Namespace) -> int:
    _setup_logging(args.quiet)
    lists = _lists_or_error(args)
    if lists is None:
        return 2
    cache = _cache(args)
    if not (cache / "src").is_dir():
        error(f"nothing fetched in {cache}: run 'oracular corpus fetch' first")
        return 2
    dictionary = args.dictionary or models_dir() / GLOBAL_DICTIONARY
    from oracular.corpus.mine import mine_corpus
    from oracular.parallel import RayUnavailable, ray_address

    try:
        report = mine_corpus(
            lists,
            cache,
            args.out,
            dictionary,
            jobs=args.jobs,
            progress=not args.quiet,
            ray=ray_address(args.ray),
        )
    except RayUnavailable as exc:
        error(str(exc))
        return 2
    print(report.summary())
    print(f"global dictionary written to {dictionary}")
    return 0


def run_realistic(args: argparse.Namespace) -> int:
    from oracular.corpus.realistic import mine_realistic, realistic_tasks

    _setup_logging(args.quiet)
    lists = _lists_or_error(args)
    if lists is None:
        return 2
    sources = _cache(args) / "src"
    tasks = realistic_tasks(lists, sources, args.max_tests, args.seed, args.one_cut)
    if not tasks:
        error(f"nothing fetched in {sources}: run 'oracular corpus fetch' first")
        return 2
    out = args.out or _cache(args) / REALISTIC_DIR
    totals = mine_realistic(tasks, out, jobs=args.jobs, progress=not args.quiet)
    for split, counts in sorted(totals.items()):
        print(f"{split}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"samples written to {out}")
    return 0


def run_report(args: argparse.Namespace) -> int:
    from oracular.corpus.report import render_report

    stats_path = (args.out or _cache(args) / DATASETS_DIR) / "stats.json"
    try:
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        error(f"cannot read {stats_path} ({exc}): run 'oracular corpus mine' first")
        return 2
    text = render_report(stats)
    emit(text, args.output, "report")
    return 0
