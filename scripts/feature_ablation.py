"""What the learned ranker's features are worth out of fold: the conditional logit fitted with all
of them, then with each named group zeroed, on the same train data and project folds.

Why a script: a feature earns its place by what it adds on projects the fit did not see, and a
feature collection takes half an hour or more; zeroing a column (its fitted weight is then 0, as
a model fitted without it) measures a feature on one collection. Per mode: top-1 / top-5, the
share answered and right when answered at the threshold chosen out of fold for
:data:`~oracular.training.learned_ranker.TARGET_PRECISION`, and exception type accuracy (over the
tests whose right candidate is an exception oracle, the first exception oracle in the order: the
type's rank where the right type is offered, not the evaluation's type accuracy).

    .venv/bin/python scripts/feature_ablation.py FEATURES/chunk-*.jsonl --drop target_order,exception_order
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from oracular.ranking.features import FEATURES
from oracular.ranking.learned import MODES
from oracular.training.learned_ranker import (
    FOLDS,
    LabelledTest,
    OutOfFold,
    choose_threshold,
    cross_validate,
    figures,
    load_tests,
)

EXCEPTION = FEATURES.index("is_exception")


def zeroed(tests: list[LabelledTest], names: list[str]) -> list[LabelledTest]:
    columns = [FEATURES.index(name) for name in names]
    found = []
    for test in tests:
        rows = test.rows.clone()
        rows[:, columns] = 0.0
        found.append(replace(test, rows=rows))
    return found


def type_accuracy(items: list[OutOfFold]) -> tuple[float, int]:
    throwing = [s for s in items if any(s.test.labels[i] and s.test.rows[i, EXCEPTION] for i in s.order)]
    right = 0
    for s in throwing:
        first = next(i for i in s.order if s.test.rows[i, EXCEPTION])
        right += bool(s.test.labels[first])
    return (right / len(throwing) if throwing else 0.0), len(throwing)


def line(name: str, scored: list[OutOfFold]) -> str:
    cells = []
    for mode in MODES:
        items = [s for s in scored if s.test.mode == mode]
        if not items:
            cells.append("—")
            continue
        threshold = choose_threshold(items)
        figure = figures(items, {mode: threshold})[mode]
        accuracy, throwing = type_accuracy(items)
        right = figure["right_when_answered"]
        cells.append(
            f"{figure['top1']:.1%} / {figure['top5']:.1%}, {figure['answered']:.1%} at "
            f"{right if right is None else f'{right:.1%}'}, type {accuracy:.1%} of {throwing} ({len(items)})"
        )
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features", type=Path, nargs="+")
    parser.add_argument("--drop", action="append", default=[], help="features zeroed together, by commas")
    parser.add_argument("--folds", type=int, default=FOLDS)
    args = parser.parse_args()
    tests = load_tests(args.features)
    print("| features (out of fold) | static: top-1 / top-5, answered at right, type | observed: the same |")
    print("|---|---:|---:|")
    print(line("all", cross_validate(tests, args.folds)))
    for group in args.drop:
        names = group.split(",")
        unknown = [n for n in names if n not in FEATURES]
        if unknown:
            parser.error(f"not a feature: {', '.join(unknown)}")
        print(line(f"without {group}", cross_validate(zeroed(tests, names), args.folds)))


if __name__ == "__main__":
    main()
