"""How far int8 takes the network from fp32: exception F1 and template top-1/top-5 on dev samples.

Each scheme scores the same realistic dev samples (``oracular corpus realistic``'s dev split: the
tune projects) with the shipped calibration and prior: fp32, int8 with one scale per weight matrix
(what ``models.inference.quantise`` does) and int8 with one scale per output channel. The network
alone, not the engine: whether a scheme helps the engine is for ``oracular eval --realistic`` on
tune to say (``docs/training.md``).

    .venv/bin/python scripts/int8_fidelity.py --data REALISTIC [--limit 600] [--model DIR]
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path

import torch

from oracular.models import store
from oracular.models.calibration import exception_probability
from oracular.models.inference import LoadedModel, quantise
from oracular.models.inputs import InputFormatter
from oracular.models.layout import default_model_dir
from oracular.training.data import dataset_path, exception_texts, read_samples, sample_statements
from oracular.training.prior import template_accuracy, template_samples

SCHEMES = {"fp32": None, "int8 per matrix": "per-tensor", "int8 per channel": "per-channel"}
"""Each row's :func:`~oracular.models.inference.quantise` scheme (``None``: not quantised)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a realistic dataset (its dev split)")
    parser.add_argument("--limit", type=int, default=600, help="dev samples of each kind (seeded)")
    parser.add_argument("--model", type=Path, default=None, help="default: the shipped model")
    args = parser.parse_args()
    network, config, tokenizer = store.load(args.model or default_model_dir())
    formatter = InputFormatter(tokenizer, config.inputs)
    throwing = read_samples(dataset_path(args.data, "dev", "exception"), args.limit, 13)
    asserting = read_samples(dataset_path(args.data, "dev", "assertion"), args.limit, 13)
    contexts = [
        formatter.encode(sample_statements(s), s.get("focal"), exception_texts(s) or ["x"], s["test"])
        for s in throwing
    ]
    labels = [bool(s.get("label")) for s in throwing]
    calibration = config.calibration
    print("| network alone | exception F1 | template top-1 / top-5 | time |\n|---|---:|---:|---:|")
    for name, scheme in SCHEMES.items():
        copied = copy.deepcopy(network)
        if scheme is not None:
            copied = quantise(copied, scheme)
        model = LoadedModel(copied, formatter, calibration, "cpu", config.prior)
        start = time.perf_counter()
        accuracy = template_accuracy(template_samples(model, asserting, False, name, None), config.prior)
        logits = torch.tensor([model.logits(c)[0] for c in contexts])
        elapsed = time.perf_counter() - start
        probabilities = exception_probability(logits, calibration).tolist()
        said = [p >= calibration.exception_threshold for p in probabilities]
        hits = sum(s and t for s, t in zip(said, labels, strict=True))
        f1 = 2 * hits / max(1, sum(said) + sum(labels))
        top = f"{100 * accuracy['top1']:.1f} / {100 * accuracy['top5']:.1f}%"
        print(f"| {name} | {f1:.3f} | {top} | {elapsed:.0f} s |")


if __name__ == "__main__":
    main()
