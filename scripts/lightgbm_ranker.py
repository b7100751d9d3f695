"""Compare the learned ranker's conditional logit with LightGBM's lambdarank on the same data and
folds: out-of-fold top-1 / top-5 per mode, beside the ranker's own order and the hand-set steps'.

Why a script: the issue asks for both to be measured; the shipped ranker is the one the engine can
run without another dependency unless the trees win clearly. LightGBM is not a dependency of
Oracular (``pip install lightgbm`` to run this).

    .venv/bin/python scripts/lightgbm_ranker.py FEATURES.jsonl... [--folds 5]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import lightgbm
import numpy as np

from oracular.ranking.features import FEATURES
from oracular.training.learned_ranker import FOLDS, OutOfFold, cross_validate, folds_of, load_tests

RANKER = FEATURES.index("ranker_logit")


def lambdarank(tests, folds: int) -> list[OutOfFold]:
    found = []
    for held in folds_of(tests, folds):
        for mode in ("static", "observed"):
            train = [t for t in tests if t.project not in held and t.mode == mode and bool(t.labels.any())]
            test = [t for t in tests if t.project in held and t.mode == mode]
            if not train or not test:
                continue
            model = lightgbm.LGBMRanker(
                objective="lambdarank", n_estimators=200, learning_rate=0.05, num_leaves=15,
                min_child_samples=20, verbose=-1,
            )  # fmt: skip
            x = np.concatenate([t.rows.numpy() for t in train])
            y = np.concatenate([t.labels.numpy().astype(int) for t in train])
            model.fit(x, y, group=[len(t.labels) for t in train])
            for t in test:
                found.append(OutOfFold(t, model.predict(t.rows.numpy()).tolist()))
    return found


def row(name: str, scored: list[OutOfFold], order=None) -> str:
    cells = []
    for mode in ("static", "observed"):
        items = [s for s in scored if s.test.mode == mode]
        if not items:
            cells.append("—")
            continue
        top1 = sum(s.right_at(1, order(s) if order else None) for s in items) / len(items)
        top5 = sum(s.right_at(5, order(s) if order else None) for s in items) / len(items)
        cells.append(f"{top1:.1%} / {top5:.1%} ({len(items)})")
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("features", type=Path, nargs="+")
    parser.add_argument("--folds", type=int, default=FOLDS)
    args = parser.parse_args()
    tests = load_tests(args.features)
    logit = cross_validate(tests, args.folds)
    trees = lambdarank(tests, args.folds)

    def ranker_order(s: OutOfFold) -> list[int]:
        return sorted(range(len(s.test.labels)), key=lambda i: -float(s.test.rows[i, RANKER]))

    print("| ranking (out of fold) | static top-1 / top-5 (tests) | observed top-1 / top-5 (tests) |")
    print("|---|---:|---:|")
    print(row("the ranker's own order", logit, ranker_order))
    print(row("the hand-set steps (as offered)", logit, lambda s: s.test.offered))
    print(row("learned: conditional logit", logit))
    print(row("learned: LightGBM lambdarank", trees))


if __name__ == "__main__":
    main()
