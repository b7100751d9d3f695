"""Mined samples (``oracular corpus mine`` JSONL) as model examples.

A sample's prefix is stored as the synthesised test method; it is parsed back with the miner's
own :func:`~oracular.java.method_text.parse_method`, so the statement texts are the ones the engine
reads from a live test (``PrefixAnalysis.statements``). Exception candidates are rebuilt with the
grammar's own functions, so their texts are exactly the engine's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracular.candidates.grammar import exception_candidates
from oracular.candidates.text import candidate_text
from oracular.java import syntax
from oracular.java.method_text import parse_method
from oracular.java.types import base_name
from oracular.models.inputs import Encoded, InputFormatter

SPLITS = ("train", "dev")
KINDS = ("exception", "assertion")


@dataclass(frozen=True)
class Example:
    encoded: Encoded
    is_exception: list[bool]
    """Per candidate: an ``assertThrows`` candidate (scored within the exception group)."""
    labels: list[int]
    """Indices of the correct candidates (the developer's assertion, or the thrown type)."""
    throws: bool | None
    """For exception samples, whether the prefix must throw; ``None`` for assertion samples."""
    sample: dict[str, Any]


def dataset_path(data: Path, split: str, kind: str) -> Path:
    return data / split / f"{kind}.jsonl"


def read_samples(
    path: Path,
    limit: int | None = None,
    seed: int = 0,
    keep: Callable[[dict[str, Any]], bool] | None = None,
) -> list[dict[str, Any]]:
    """The samples ``keep`` accepts, or a seeded uniform ``limit`` of them, in file order.

    Streams the file with reservoir sampling: the train split is hundreds of megabytes, and a
    subset must neither hold all of it in memory nor be the file's head (files are in package
    order, so a head would be a handful of big projects).
    """
    rng = random.Random(seed)
    chosen: list[tuple[int, dict[str, Any]]] = []
    seen = 0
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            sample = json.loads(line)
            if keep is not None and not keep(sample):
                continue
            if limit is None or len(chosen) < limit:
                chosen.append((seen, sample))
            else:
                slot = rng.randrange(seen + 1)
                if slot < limit:
                    chosen[slot] = (seen, sample)
            seen += 1
    return [sample for _, sample in sorted(chosen, key=lambda pair: pair[0])]


def sample_statements(sample: dict[str, Any]) -> list[str]:
    body = parse_method(sample["prefix"]).child_by_field_name("body")
    return [syntax.text(s) for s in syntax.statements(body)] if body is not None else []


def exception_texts(sample: dict[str, Any]) -> list[str]:
    """The engine's exception candidates of an exception sample, as the network reads them."""
    return [candidate_text(c) for c in exception_candidates(sample.get("exceptions") or [])]


def exception_labels(sample: dict[str, Any]) -> list[int]:
    """The exception candidates naming the thrown type (none when it is not listed)."""
    thrown = sample.get("exception")
    candidates = exception_candidates(sample.get("exceptions") or [])
    return [
        i for i, c in enumerate(candidates) if thrown and base_name(c.exception or "") == base_name(thrown)
    ]


def exception_example(sample: dict[str, Any], formatter: InputFormatter) -> Example:
    """Context plus the engine's exception candidates; the label is the thrown type, if listed."""
    texts = exception_texts(sample)
    encoded = formatter.encode(sample_statements(sample), sample.get("focal"), texts, sample["test"])
    return Example(encoded, [True] * len(texts), exception_labels(sample), bool(sample["label"]), sample)


def assertion_example(
    sample: dict[str, Any],
    formatter: InputFormatter,
    max_candidates: int | None = None,
    rng: random.Random | None = None,
) -> Example:
    """All candidates (evaluation), or for training the correct ones plus sampled wrong assertions.

    Training drops the exception candidates (they are not in the assertion softmax) and, with
    ``max_candidates``, samples the negatives: a sampled softmax, far cheaper on a CPU, with the
    full candidate set kept for calibration and evaluation.
    """
    texts: Sequence[str] = sample["candidates"]
    is_exception = [source == "exception" for source in sample["candidate_sources"]]
    keep = list(range(len(texts)))
    if max_candidates is not None:
        labels = set(sample["labels"])
        negatives = [i for i in keep if i not in labels and not is_exception[i]]
        room = max(0, max_candidates - len(labels))
        if len(negatives) > room:
            negatives = (rng or random.Random(0)).sample(negatives, room)
        keep = sorted(labels | set(negatives))
    position = {old: new for new, old in enumerate(keep)}
    encoded = formatter.encode(
        sample_statements(sample), sample.get("focal"), [texts[i] for i in keep], sample["test"]
    )
    labels_kept = [position[i] for i in sample["labels"] if i in position]
    return Example(encoded, [is_exception[i] for i in keep], labels_kept, None, sample)
