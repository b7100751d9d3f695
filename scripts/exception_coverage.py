"""How often a throwing test's type is among the engine's exception candidates (issue 15, item 2).

Why: the exception stage names a type by ranking the candidates, so a type that is not offered
cannot be named, and "type accuracy over all throwing samples" is capped by this share. It reads
realistic datasets (``oracular corpus realistic``), whose exception samples store the
candidate types the engine offered (``exceptions``) and the type the developer expected; give
two folders mined before and after a change to the candidates to compare them on the same tests.

    .venv/bin/python scripts/exception_coverage.py DATA [DATA ...] [--split dev] [--top 8] [--model [DIR]]

``--model`` also ranks each folder's throwing samples with a model (default: the shipped one) and
reports its type accuracy over all of them, as ``oracular train prior`` measures it: with and
without the bonuses the model's prior gives the engine's first type and a type the test's name says.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from oracular.java.types import base_name


def coverage(path: Path) -> tuple[dict[tuple, bool], Counter[str], int]:
    """Per throwing sample (by test), whether its type is offered; the types missed; the
    samples offering no type at all."""
    offered: dict[tuple, bool] = {}
    missed: Counter[str] = Counter()
    empty = 0
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            sample = json.loads(line)
            if not sample["label"]:
                continue
            thrown = base_name(sample["exception"] or "")
            hit = thrown in {base_name(t) for t in sample["exceptions"]}
            offered[(sample["package"], sample["file"], sample["line"])] = hit
            missed.update([] if hit else [thrown])
            empty += not sample["exceptions"]
    return offered, missed, empty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, nargs="+", help="realistic datasets folders")
    parser.add_argument("--split", default="dev", choices=("dev", "train"))
    parser.add_argument("--top", type=int, default=8, help="most often missed types to list")
    parser.add_argument("--model", type=Path, nargs="?", const=Path(), default=None, help="type accuracy too")
    args = parser.parse_args()
    runs = {folder: coverage(folder / args.split / "exception.jsonl") for folder in args.data}
    common = set.intersection(*(set(offered) for offered, _, _ in runs.values()))
    print(f"{len(common)} throwing {args.split} samples in every folder\n")
    print("| folder | type offered | no type offered | most often missed |\n|---|---:|---:|---|")
    for folder, (offered, missed, empty) in runs.items():
        share = sum(offered[key] for key in common) / max(1, len(common))
        top = ", ".join(f"{name} {count}" for name, count in missed.most_common(args.top))
        print(f"| {folder} | {100 * share:.1f}% | {empty} | {top} |")
    if args.model is not None:
        print()
        type_accuracy(args.model if args.model != Path() else None, args.data, args.split)


def type_accuracy(model_dir: Path | None, folders: list[Path], split: str) -> None:
    from oracular.models.inference import load_model
    from oracular.models.layout import default_model_dir
    from oracular.training.data import dataset_path, read_samples
    from oracular.training.prior import ExceptionBonuses, exception_type_accuracy, exception_type_samples

    model = load_model(model_dir or default_model_dir(), "cpu")
    prior = model.prior
    bonuses = ExceptionBonuses(prior.exception_first, prior.exception_named, prior.exception_condition)
    print(
        "| folder | throwing samples | type accuracy | with the prior's bonuses (first "
        f"{bonuses.first:+.1f}, named {bonuses.named:+.1f}, condition {bonuses.condition:+.1f}) |"
    )
    print("|---|---:|---:|---:|")
    for folder in folders:
        samples = read_samples(dataset_path(folder, split, "exception"), None, 13)
        scored = exception_type_samples(model, samples, progress=False)
        plain, first = exception_type_accuracy(scored), exception_type_accuracy(scored, bonuses)
        print(
            f"| {folder} | {plain['samples']} | {100 * plain['type_accuracy_all']:.1f}% "
            f"| {100 * first['type_accuracy_all']:.1f}% |"
        )


if __name__ == "__main__":
    main()
