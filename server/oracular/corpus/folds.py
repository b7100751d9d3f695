"""Folds of the train projects, for a network cross-fitted by project.

Why: what sits on top of the network (calibration, template prior, learned ranker, answer
thresholds) is fitted on the train split, where the network's scores are in-sample: it was
trained on those very tests, names the developer's exception type first for 94% of the static
train tests that offer it against 73% on tune, and so every fit on train trusts it more than
unseen code warrants (``docs/eval.md``). A network trained with one fold of projects held out
(``oracular train --hold-out K/N``) scores that fold out of sample; N such networks score all of
train so. A project's fold is a hash of its name: the same in every run and on every machine,
whatever the list's order or length, so a collection and its network always agree.
"""

from __future__ import annotations

import hashlib
import sys


def parse_fold(text: str) -> tuple[int, int]:
    """``"K/N"`` -> ``(K, N)``: fold K (counted from 0) of N >= 2; a one-line error otherwise."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"a fold is K/N, fold K (from 0) of N, not {text!r}") from None
    if n < 2 or not 0 <= k < n:
        raise ValueError(f"fold {text}: N must be at least 2 and K one of 0..N-1")
    return k, n


def fold_of(package: str, folds: int) -> int:
    """The fold (of ``folds``) a project belongs to."""
    return int(hashlib.sha256(package.encode()).hexdigest(), 16) % folds


def held_out(package: str, fold: tuple[int, int] | None) -> bool:
    """Whether a network trained with ``--hold-out K/N`` (``fold``: :func:`parse_fold`'s) left
    ``package`` out (never, for none)."""
    return fold is not None and fold_of(package, fold[1]) == fold[0]


def main(argv: list[str] | None = None) -> int:
    """``python -m oracular.corpus.folds K/N < names``: the names (one a line) of fold K, for
    collecting a fold's features with the network that held it out (``scripts/train_features.sh``)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("error: usage: python -m oracular.corpus.folds K/N < names", file=sys.stderr)
        return 2
    try:
        fold = parse_fold(args[0])
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in sys.stdin:
        if (name := line.strip()) and held_out(name, fold):
            print(name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
