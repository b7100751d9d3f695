"""How identifier splitting changes what the model sees, on dev samples (issue 4, item 1).

all-MiniLM-L6-v2's WordPiece vocabulary is uncased English: an unsplit ``assertEquals`` or
``getKeyNotInPopulatedMap`` becomes a run of sub-word pieces that match no English word. This
prints, with and without splitting, the tokens per context and candidate, how often the prefix
has to be truncated (its start is cut: less of the test reaches the model), and how many pieces
an identifier costs. The accuracy effect needs a training run per variant (``oracular train
--no-split-identifiers``); see models/MODEL_CARD.md for what was run.

    .venv/bin/python scripts/tokenisation_stats.py [--limit 2000]
"""

from __future__ import annotations

import argparse
import re
import statistics

from oracular.cache import DATASETS_DIR, default_cache_dir
from oracular.models.backbone import load_tokenizer
from oracular.models.inputs import InputFormatter, InputSettings, focal_text, prefix_text, split_identifiers
from oracular.training.data import dataset_path, read_samples, sample_statements

IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=2000, help="dev assertion samples (seeded)")
    args = parser.parse_args()
    path = dataset_path(default_cache_dir() / DATASETS_DIR, "dev", "assertion")
    samples = [
        (sample_statements(s), s.get("focal"), s["candidates"]) for s in read_samples(path, args.limit, 13)
    ]  # parsed once for both settings
    tokenizer = load_tokenizer()
    print(f"{len(samples)} dev assertion samples\n")
    print("| | split identifiers | unsplit |\n|---|---:|---:|")
    rows: dict[str, list[str]] = {}
    for split in (True, False):
        settings = InputSettings(split_identifiers=split)
        formatter = InputFormatter(tokenizer, settings)
        prefix_lengths, truncated, candidate_lengths, pieces = [], 0, [], []
        for statements, focal, candidates in samples:
            texts = [prefix_text(statements), focal_text(focal)]
            if split:
                texts = [split_identifiers(t) for t in texts]
            prefix_ids, focal_ids = (e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=False))
            budget = settings.max_context - 3 - min(len(focal_ids), settings.max_focal)
            prefix_lengths.append(len(prefix_ids))
            truncated += len(prefix_ids) > budget
            encoded = formatter.encode(statements, focal, candidates)
            candidate_lengths += [len(c) for c in encoded.candidates]
            for word in IDENTIFIER.findall(prefix_text(statements))[:50]:
                text = split_identifiers(word) if split else word
                pieces.append(len(tokenizer.encode(text, add_special_tokens=False).ids))
        for name, value in (
            ("prefix tokens, median", f"{statistics.median(prefix_lengths):.0f}"),
            ("prefixes truncated", f"{100 * truncated / len(samples):.1f}%"),
            ("candidate tokens, mean", f"{statistics.mean(candidate_lengths):.1f}"),
            ("WordPiece tokens per identifier, mean", f"{statistics.mean(pieces):.2f}"),
        ):
            rows.setdefault(name, []).append(value)
    for name, values in rows.items():
        print(f"| {name} | {' | '.join(values)} |")


if __name__ == "__main__":
    main()
