"""The global value dictionary: the most frequent expected values per type, from the train split.

Why this module exists: TOGA's third value source is a short list of values developers assert
on everywhere (``0``, ``1``, ``""``...). It must be computed from the train projects only (dev is
where its size K is chosen and where metrics are published), and K must stay small: every value
adds a candidate per target, and a larger vocabulary dilutes the ranking.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from oracular.candidates.text import canonical_expression
from oracular.candidates.values import dictionary_key
from oracular.java.assertions import ASSERT_EQUALS

SWEEP_KS = (0, 1, 3, 5, 10, 20)
LITERAL_TYPES = frozenset({"int", "long", "short", "byte", "double", "float", "char", "String"})
"""Types whose expected values are literals; ``Object`` targets would mix them all."""
MAX_K = max(SWEEP_KS)
_LITERAL_START = tuple("-+0123456789.\"'")

Dictionary = dict[str, tuple[str, ...]]


def count_values(samples: Iterable[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Literal expected values of ``assertEquals`` ground truths, per (unboxed) target type."""
    counts: dict[str, Counter[str]] = {}
    for sample in samples:
        expected, target_type = sample.get("expected"), sample.get("target_type")
        if sample.get("method") != ASSERT_EQUALS or not expected or not target_type:
            continue
        if not expected.startswith(_LITERAL_START) or "\n" in expected:
            continue
        key = dictionary_key(target_type)
        if key not in LITERAL_TYPES:
            continue
        counts.setdefault(key, Counter())[canonical_expression(expected)] += 1
    return counts


def top_values(counts: dict[str, Counter[str]], k: int, min_count: int = 2) -> Dictionary:
    """The ``k`` most frequent values per type (ties broken by value, for reproducibility)."""
    result: Dictionary = {}
    for key in sorted(counts):
        ranked = sorted(((-n, v) for v, n in counts[key].items() if n >= min_count))[:k]
        if ranked:
            result[key] = tuple(v for _, v in ranked)
    return result


def choose_k(sweep: dict[str, dict[str, float]]) -> int:
    """The K with the best dev top-1 (ties: the smaller K, which keeps candidate sets short)."""
    return min((-scores["top1"], int(k)) for k, scores in sweep.items())[1]


def write_dictionary(path: Path, dictionary: Dictionary, k: int, meta: dict[str, Any]) -> None:
    document = {
        "_comment": "Top-K literal expected values per type from the train split (`oracular corpus mine`).",
        "k": k,
        **meta,
        "values": {t: list(v) for t, v in dictionary.items()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
