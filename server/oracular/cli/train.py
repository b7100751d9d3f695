"""``oracular train exception|ranker|all|calibrate|prior|confidence``: fine-tune the neural oracles
on the mined corpus, or re-fit what sits on top of their weights.

torch and the model code are imported only when the command runs: every other sub-command
(``scan`` above all) must start without paying for them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.cache import DATASETS_DIR, default_cache_dir
from oracular.cli.common import error
from oracular.models.devices import DEVICES
from oracular.models.layout import default_model_dir
from oracular.options import add_options, values_of
from oracular.ranking.learned import MIN_TESTS, MODES
from oracular.training.settings import TrainSettings

if TYPE_CHECKING:
    from oracular.ranking.confidence import AnswerConfidence
    from oracular.training.confidence import Answers


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "train",
        help="train the exception classifier and/or the assertion ranker",
        description="Train a stage of the neural oracles (both share one encoder), calibrate on dev, save.",
    )
    parser.add_argument(
        "stage",
        choices=("exception", "ranker", "all", "calibrate", "prior", "confidence", "learned-ranker"),
        help="calibrate: no training, re-fit the calibration of the model in --out on dev; "
        "prior: fit the template prior of the (version 2) model in --out on train, then calibrate; "
        "confidence: fit when the model in --out answers, on --eval's realistic evaluations; "
        "learned-ranker: fit the ranking steps and when to answer on --features (train projects)",
    )
    add_data_arguments(parser)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="model folder, continued if it holds one (default: the models folder's oracles/)",
    )
    add_options(parser, TrainSettings)
    # each stage's own default: the calibration's (TrainSettings'), the answer confidence's
    parser.set_defaults(target_precision=None)
    _add_fitting_arguments(parser)
    parser.set_defaults(run=run)


def _add_fitting_arguments(parser: argparse.ArgumentParser) -> None:
    """What the prior, confidence and learned-ranker stages fit on."""
    parser.add_argument(
        "--l2", type=float, default=None, metavar="L", help="prior, confidence: L2 penalty on feature weights"
    )
    parser.add_argument(
        "--features",
        type=Path,
        nargs="+",
        default=[],
        metavar="JSONL",
        help="learned-ranker: 'oracular eval --realistic TRAIN_PROJECTS --features' outputs to fit on",
    )
    parser.add_argument(
        "--min-tests",
        type=int,
        default=MIN_TESTS,
        metavar="N",
        help=f"learned-ranker: fit a mode only with at least N tests of it (default {MIN_TESTS})",
    )
    parser.add_argument(
        "--keep-mode",
        choices=MODES,
        action="append",
        default=[],
        help="learned-ranker: keep the model's fitted model and threshold of this mode, fit the others",
    )
    parser.add_argument(
        "--eval",
        type=Path,
        nargs="+",
        default=[],
        metavar="JSON",
        help="confidence: 'oracular eval --realistic --json' outputs of the model in --out to fit on",
    )
    parser.add_argument(
        "--check",
        type=Path,
        nargs="*",
        default=[],
        metavar="JSON",
        help="confidence: evaluations of other projects to measure the fitted confidence on",
    )
    parser.add_argument(
        "--threshold-eval",
        type=Path,
        nargs="*",
        default=None,
        metavar="JSON",
        help="confidence: evaluations to choose the thresholds (one per mode) on (default: --eval); "
        "a --check project among them is measured at thresholds chosen without it",
    )
    parser.add_argument(
        "--keep-weights",
        action="store_true",
        help="confidence: keep the model's fitted confidence, only choose its thresholds again",
    )


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """``--data``, ``--device`` and ``-q``: shared with ``oracular eval``."""
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        metavar="DIR",
        help="datasets folder from 'oracular corpus mine' (default: CACHE/datasets)",
    )
    parser.add_argument("--device", choices=DEVICES, default="auto")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars")


def data_dir(args: argparse.Namespace) -> Path:
    return (args.data or default_cache_dir() / DATASETS_DIR).expanduser()


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(message)s")
    if args.stage == "confidence":
        return fit_answer_confidence(args)
    if args.stage == "learned-ranker":
        return fit_learned_ranker(args)
    from oracular.corpus.folds import parse_fold
    from oracular.models.devices import DeviceUnavailable
    from oracular.training.data import dataset_path
    from oracular.training.trainer import train

    data = data_dir(args)
    kinds = {"exception": ["exception"], "ranker": ["assertion"]}.get(args.stage, ["exception", "assertion"])
    splits = ["dev"] if args.stage == "calibrate" else ["train", "dev"]  # calibrate reads no train data
    missing = [p for k in kinds for s in splits if not (p := dataset_path(data, s, k)).is_file()]
    if missing:
        error(f"missing {', '.join(map(str, missing))}: run 'oracular corpus mine' first")
        return 2
    settings = values_of(
        TrainSettings,
        args,
        stage=args.stage,
        data=data,
        out=args.out or default_model_dir(),
        device=args.device,
        progress=not args.quiet,
    )
    try:
        if settings.hold_out is not None:
            parse_fold(settings.hold_out)
            if args.stage not in ("exception", "ranker", "all"):
                raise ValueError(
                    "--hold-out leaves projects out of the network's training: stages exception, ranker, all"
                )
        if args.stage == "prior":
            from oracular.training.prior import train_prior

            l2 = 1e-3 if args.l2 is None else args.l2
            train_prior(settings.out, data, args.limit, args.dev_limit, args.seed, l2, not args.quiet)
            settings = dataclasses.replace(settings, stage="calibrate")
        result = train(settings)
    except DeviceUnavailable as exc:
        error(str(exc))
        return 2
    except ValueError as exc:
        error(str(exc))
        return 2
    print(f"saved {result.directory} after {result.steps} steps in {result.seconds:.0f} s")
    print(json.dumps({"calibration": result.calibration.to_json(), "dev": result.dev}, indent=1))
    return 0


def fit_answer_confidence(args: argparse.Namespace) -> int:
    """Fit the answer confidence on ``--eval`` (or keep the model's), choose its thresholds on
    ``--threshold-eval``, print its precision there and on ``--check``, save it in the model's
    config (the weights stay as they are)."""
    from oracular.models.store import load_config, save_config
    from oracular.training.confidence import (
        L2,
        TARGET_PRECISION,
        choose_thresholds,
        fit_confidence,
        load_answers,
    )

    directory = args.out or default_model_dir()
    if not args.eval and not args.keep_weights:
        error("--eval: give the realistic evaluations to fit on")
        return 2
    precision = TARGET_PRECISION if args.target_precision is None else args.target_precision
    try:
        # unless kept, the fitted confidence is replaced: it may predate these features
        config = load_config(directory, answer=args.keep_weights)
        if args.keep_weights and config.answer is None:
            raise ValueError(f"--keep-weights: {directory} has no fitted answer confidence")
        answers = load_answers(args.eval) if args.eval else None
        model = (
            config.answer
            if args.keep_weights
            else fit_confidence(answers, precision, L2 if args.l2 is None else args.l2)
        )
        thresholds_on = load_answers(args.threshold_eval) if args.threshold_eval else answers
        if thresholds_on is None:
            raise ValueError("--keep-weights: give --threshold-eval (or --eval) to choose the thresholds on")
        choose_thresholds(model, thresholds_on, precision)
        checks = [load_answers([path]) for path in args.check]
    except (OSError, ValueError) as exc:
        error(str(exc))
        return 2
    measured = [*((("fitted on", answers),) if answers else ()), *(("checked on", c) for c in checks)]
    _print_precision(model, measured, thresholds_on, precision)
    config.answer = model
    save_config(directory, config)
    print(f"\nsaved in {directory / 'config.json'}")
    return 0


def _print_precision(
    model: AnswerConfidence,
    measured: Sequence[tuple[str, Answers]],
    thresholds_on: Answers,
    precision: float,
) -> None:
    """Each of ``measured``'s precision by share answered and at the chosen thresholds; a checked
    project the thresholds were chosen on is also measured at thresholds chosen without it, since
    its own figure flatters the confidence."""
    from oracular.evaluation.realistic import percent
    from oracular.training.confidence import at_threshold, held_out_at_threshold, precision_table

    static = model.threshold if model.static_threshold is None else model.static_threshold
    thresholds = f"{model.threshold:.3f} (values observed), {static:.3f} (not)"
    for title, on in measured:
        print(f"\n{title} {'; '.join(on.sources)} ({on.tests} tests)\n")
        print("| answered | precision, top-1 score | precision, confidence |\n|---:|---:|---:|")
        for share, plain, fitted in precision_table(model, on):
            print(f"| {share:.0%} | {percent(plain)} | {percent(fitted)} |")
        share, right = at_threshold(model, on)
        print(f"\nat the thresholds {thresholds}: {share:.1%} answered, precision {percent(right)}")
        if title == "checked on" and set(on.per_project) & set(thresholds_on.per_project):
            share, right = held_out_at_threshold(model, thresholds_on, on, precision)
            print(
                f"each project at thresholds chosen without it: {share:.1%} answered, "
                f"precision {percent(right)}"
            )


def fit_learned_ranker(args: argparse.Namespace) -> int:
    """Fit the learned ranker on ``--features`` (folds grouped by project), print its out-of-fold
    figures beside the hand-set steps', and save it in the model's config (the weights stay)."""
    from oracular.models.store import load_config, save_config
    from oracular.training.learned_ranker import L2, TARGET_PRECISION, train_learned_ranker, with_kept_modes

    if not args.features:
        error(
            "--features: give the labelled candidates to fit on ('oracular eval --realistic ... --features')"
        )
        return 2
    directory = args.out or default_model_dir()
    precision = TARGET_PRECISION if args.target_precision is None else args.target_precision
    try:
        config = load_config(directory)
        model, report = train_learned_ranker(
            args.features, L2 if args.l2 is None else args.l2, target=precision, min_tests=args.min_tests,
            skip=args.keep_mode,
        )  # fmt: skip
        model = with_kept_modes(model, config.learned_ranker, args.keep_mode)
    except (OSError, ValueError) as exc:
        error(str(exc))
        return 2
    print(json.dumps({"out_of_fold": report, "thresholds": model.thresholds}, indent=1))
    config.learned_ranker = model
    save_config(directory, config)
    print(f"saved in {directory / 'config.json'}")
    return 0
