"""How often each ranker names the thrown type, over every throwing dev sample (issue 4, item 2).

``oracular eval`` reports type accuracy only among the samples a ranker predicts to throw, which
flatters a ranker that rarely predicts it. This asks the type of every throwing sample, and how
often the thrown type is among the engine's exception candidates at all: no ranker that picks
among them can do better.

    .venv/bin/python scripts/exception_types.py [--limit 1000] [--model DIR]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from oracular.cache import DATASETS_DIR, default_cache_dir
from oracular.candidates.values import GLOBAL_DICTIONARY, load_global_dictionary, models_dir
from oracular.evaluation.ranking import exception_outcome, replay
from oracular.models.inference import load_model
from oracular.models.layout import default_model_dir
from oracular.ranking.baseline import BaselineRanker
from oracular.training.data import dataset_path, read_samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=1000, help="dev exception samples (seeded, as eval)")
    parser.add_argument("--model", type=Path, default=None, help="default: the shipped model")
    args = parser.parse_args()
    path = dataset_path(default_cache_dir() / DATASETS_DIR, "dev", "exception")
    throwing = [s for s in read_samples(path, args.limit, 13) if s["label"]]
    dictionary = load_global_dictionary(models_dir() / GLOBAL_DICTIONARY)
    problems = replay(throwing, default_cache_dir() / "src", dictionary).problems
    pairs = [
        (s, p, [c.exception for c in p.candidates if c.kind == "exception"])
        for s, p in zip(throwing, problems, strict=True)
        if p is not None
    ]
    pairs = [(s, p, types) for s, p, types in pairs if types]
    rankers = {"neural": load_model(args.model or default_model_dir(), "cpu"), "baseline": BaselineRanker()}

    def named(sample: dict, exception_type: str | None) -> bool:
        return bool(exception_outcome(sample, 1.0, exception_type or "").type_correct)

    rows = {
        "thrown type among the candidates": sum(any(named(s, t) for t in types) for s, _, types in pairs),
        "first candidate type": sum(named(s, types[0]) for s, _, types in pairs),
        **{
            f"{name} ranker's type": sum(named(s, r.rank(p).exception_type) for s, p, _ in pairs)
            for name, r in rankers.items()
        },
    }
    single = sum(len(types) == 1 for _, _, types in pairs)
    print(f"{len(pairs)} throwing dev samples with exception candidates ({single} with one type)\n")
    print("| | samples | share |\n|---|---:|---:|")
    for label, count in rows.items():
        print(f"| {label} | {count} | {100 * count / max(1, len(pairs)):.1f}% |")


if __name__ == "__main__":
    main()
