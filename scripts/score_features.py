"""Learned-ranker models scored on another split's features: top-1 / top-5, and the share answered
and right when answered at each model's own threshold, in the order the engine offers.

Why a script: a fitting recipe (an L2, a feature set, a collection) is chosen on the tune projects,
never on report, and running the engine for each candidate model costs an evaluation per model;
the tune projects' features (``oracular eval --realistic TUNE... --features F``, any model: the
features come before the learned ranker) are scored here in seconds. 4.9's L2 was chosen so.

    .venv/bin/python scripts/score_features.py TUNE-FEATURES.jsonl --mode observed \\
        --model models/oracles --model NEW

With several models, each after the first also says how many tests' top-1 it turned against the
first's (:func:`turned`): the size of a chance difference at that turnover.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from oracular.evaluation.headline import turnover
from oracular.models.store import load_config
from oracular.ranking.learned import MODES
from oracular.training.learned_ranker import OutOfFold, figures, load_tests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("features", type=Path, nargs="+", help="'eval --realistic --features' outputs")
    parser.add_argument("--model", type=Path, action="append", required=True, help="a model folder (repeat)")
    parser.add_argument("--mode", choices=MODES, default="observed")
    args = parser.parse_args()
    tests = [t for t in load_tests(args.features) if t.mode == args.mode]
    if not tests:
        parser.error(f"no {args.mode} test in the features")
    observed = args.mode == "observed"
    first: list[bool] | None = None
    for folder in args.model:
        ranker = load_config(folder).learned_ranker
        if ranker is None or not ranker.covers(observed):
            print(f"{folder}: no learned ranker for {args.mode} tests")
            continue
        threshold = ranker.threshold(observed)
        scored = [OutOfFold(t, ranker.probabilities(t.rows.tolist(), observed)) for t in tests]
        found = figures(scored, {args.mode: threshold})[args.mode]
        print(
            f"{folder}: {found['tests']} tests, top-1 {100 * found['top1']:.1f}%, "
            f"top-5 {100 * found['top5']:.1f}%, "
            f"threshold {threshold:.3f}, answered {100 * found['answered']:.1f}% "
            f"right {100 * (found['right_when_answered'] or 0):.1f}%"
        )
        right = [s.right_at(1) for s in scored]
        if first is None:
            first = right
        else:
            print(f"  {turned(first, right)}")


def turned(before: list[bool], after: list[bool]) -> str:
    """The tests whose top-1 turned right and wrong against the first model, and the net
    change's standard deviation at that turnover (:func:`~oracular.evaluation.headline.turnover`)."""
    gained, lost, sd = turnover(before, after)
    return f"top-1 against the first: {gained} gained, {lost} lost, net change's sd {sd:.1f} tests"


if __name__ == "__main__":
    main()
