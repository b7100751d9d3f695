"""Training batches: of similar sizes, seeded per epoch and per batch, encoded ahead of the step.

Why each part: padding is most of a step on a CPU, so a batch holds samples of similar size
(:func:`bucketed`); a run cut short must resume on the very batches it would have trained on, so an
epoch's batch order follows (seed, epoch) and each batch's sampled wrong candidates (seed, epoch,
batch); and a GPU waits on the tokenizer unless batches are encoded ahead, in worker processes
(:func:`encoding_workers`). The candidate-slot masks are shared by the loss and the calibration.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch
from torch import Tensor

from oracular.models.inputs import InputFormatter
from oracular.training.data import Example, assertion_example, exception_example
from oracular.training.settings import TrainSettings


def example_cost(example: Example) -> tuple[int, int]:
    candidates = example.encoded.candidates
    return max((len(c) for c in candidates), default=0), len(example.encoded.context)


def _sample_cost(sample: dict[str, Any]) -> tuple[int, int]:
    """A proxy for an unencoded sample's padded size: its longest candidate, then its prefix."""
    return max((len(c) for c in sample.get("candidates", [])), default=0), len(sample["prefix"])


def bucketed(
    items: list[Any], size: int, rng: random.Random, cost: Callable[[Any], Any], shuffle: bool = True
) -> list[list[Any]]:
    """Batches of items of similar size, so padding wastes little (on a CPU, most of a step).

    Shuffled, then sorted by ``cost`` within pools of 50 batches: the batches stay a random mix
    of the data while each one holds neighbours in size.
    """
    order = rng.sample(items, len(items)) if shuffle else items
    pool = size * 50
    batches = []
    for start in range(0, len(order), pool):
        chunk = sorted(order[start : start + pool], key=cost)
        batches += [chunk[i : i + size] for i in range(0, len(chunk), size)]
    return batches


def epoch_batches(
    data: dict[str, list[dict[str, Any]]], settings: TrainSettings, epoch: int
) -> list[tuple[str, list[dict[str, Any]]]]:
    """One epoch's homogeneous batches of each kind, shuffled together, seeded by the epoch."""
    rng = random.Random(f"{settings.seed}:epoch:{epoch}")
    batches = [
        (kind, chunk)
        for kind, samples in data.items()
        for chunk in bucketed(samples, settings.batch_size, rng, _sample_cost)
    ]
    rng.shuffle(batches)
    return batches


def _train_examples(
    kind: str,
    samples: Sequence[dict[str, Any]],
    formatter: InputFormatter,
    settings: TrainSettings,
    rng: random.Random,
) -> list[Example]:
    """Encoded per batch, so each epoch samples fresh wrong candidates and memory holds only JSON."""
    if kind == "exception":
        return [exception_example(s, formatter) for s in samples]
    return [assertion_example(s, formatter, settings.train_candidates, rng) for s in samples]


def _batch_rng(seed: int, epoch: int, index: int) -> random.Random:
    """The randomness of one batch (its sampled wrong candidates): the same in a resumed run."""
    return random.Random(f"{seed}:{epoch}:{index}")


class _EncodedBatches(torch.utils.data.Dataset):
    """An epoch's batches from ``start`` on, encoded on demand (in a worker process, if any)."""

    def __init__(
        self,
        batches: list[tuple[str, list[dict[str, Any]]]],
        start: int,
        epoch: int,
        formatter: InputFormatter,
        settings: TrainSettings,
    ) -> None:
        self.batches, self.start, self.epoch = batches, start, epoch
        self.formatter, self.settings = formatter, settings

    def __len__(self) -> int:
        return len(self.batches) - self.start

    def __getitem__(self, offset: int) -> tuple[int, str, list[Example]]:
        index = self.start + offset
        kind, chunk = self.batches[index]
        rng = _batch_rng(self.settings.seed, self.epoch, index)
        return index, kind, _train_examples(kind, chunk, self.formatter, self.settings, rng)


def _as_is(item: Any) -> Any:
    """The loader's collate function: batches are already made (a module function: picklable)."""
    return item


def encoding_workers(settings: TrainSettings, device: str) -> int:
    if settings.workers is not None:
        return settings.workers
    return 0 if device == "cpu" else max(0, min(8, (os.cpu_count() or 1) - 2))


def encoded(
    batches: list[tuple[str, list[dict[str, Any]]]],
    start: int,
    epoch: int,
    formatter: InputFormatter,
    settings: TrainSettings,
    workers: int,
) -> Iterator[tuple[int, str, list[Example]]]:
    """An epoch's encoded batches in order, ``workers`` processes encoding ahead of the step."""
    dataset = _EncodedBatches(batches, start, epoch, formatter, settings)
    if workers:
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # the workers are the parallelism
    yield from torch.utils.data.DataLoader(
        dataset,
        batch_size=None,
        shuffle=False,
        num_workers=workers,
        collate_fn=_as_is,
        prefetch_factor=4 if workers else None,
        generator=torch.Generator().manual_seed(epoch),  # leaves the global RNG (dropout) alone
    )


def exception_flags(examples: Sequence[Example], count: int) -> Tensor:
    """(B, count) bool: which candidate slots hold an exception candidate."""
    out = torch.zeros((len(examples), count), dtype=torch.bool)
    for b, e in enumerate(examples):
        out[b, : len(e.is_exception)] = torch.tensor(e.is_exception, dtype=torch.bool)
    return out


def label_mask(examples: Sequence[Example], count: int) -> Tensor:
    """(B, count) bool: which candidate slots hold a correct candidate."""
    out = torch.zeros((len(examples), count), dtype=torch.bool)
    for b, e in enumerate(examples):
        out[b, e.labels] = True
    return out
