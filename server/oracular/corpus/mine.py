"""Mine the fetched corpus into train/dev JSONL datasets, per package, in parallel, incrementally.

Why the shape: mining ~340 projects must fit in minutes on 2 cores when little changed, so each
package is mined in its own worker process into ``<cache>/mined/<pkg>.jsonl.gz`` plus a small
``.meta.json`` that says which sources and which code produced it; a package is re-mined only
when either changed. The global dictionary is learnt from the train split and its size K chosen
on dev, so the order is: mine train, count values, mine dev (ranking each sample under every K
of the sweep), pick K, then assemble the final datasets, deduplicated across packages, with
candidate sets completed by the chosen dictionary. Dev samples whose prefix already occurs in
train are dropped, so published metrics are never measured on training data.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

import oracular
from oracular.cache import DATASETS_DIR
from oracular.candidates.text import candidate_text
from oracular.corpus.dictionary import (
    MAX_K,
    SWEEP_KS,
    Dictionary,
    choose_k,
    count_values,
    top_values,
    write_dictionary,
)
from oracular.corpus.fetch import MARKER_NAME
from oracular.corpus.lists import CorpusLists, Split
from oracular.corpus.samples import CATEGORIES, FileMiner, build_sample_candidates, ground_truth_labels
from oracular.engine import OracleEngine
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import WorkspaceIndex, iter_java_files
from oracular.parallel import run_all
from oracular.ranking.baseline import BaselineRanker

logger = logging.getLogger("oracular.corpus")

MINED_DIR = "mined"
_CODE_DIRS = ("java", "candidates", "ranking", "corpus", "engine")
_RAW_ONLY = ("targets", "values", "sweep", "statements_key", "key")


def code_fingerprint() -> str:
    """A hash of the analysis code: mined caches are stale once it changes."""
    root = Path(oracular.__file__).parent
    digest = hashlib.sha256()
    files = sorted(p for d in _CODE_DIRS for p in (root / d).rglob("*.py"))
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _dictionary_key(sweep: dict[int, Dictionary] | None) -> str | None:
    if not sweep:
        return None
    return hashlib.sha256(json.dumps(sweep[MAX_K], sort_keys=True).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class PackageTask:
    package: str
    split: Split
    root: Path
    out_dir: Path
    fingerprint: str
    sweep: dict[int, Dictionary] | None = None

    @property
    def samples_path(self) -> Path:
        return self.out_dir / f"{self.package}.jsonl.gz"

    @property
    def meta_path(self) -> Path:
        return self.out_dir / f"{self.package}.meta.json"

    def cache_key(self) -> dict[str, Any]:
        marker = json.loads((self.root / MARKER_NAME).read_text(encoding="utf-8"))
        return {
            "fingerprint": self.fingerprint,
            "split": self.split,
            "source": f"{marker.get('version')}@{marker.get('fetched_at')}",
            "dictionary": _dictionary_key(self.sweep),
        }


def read_meta(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def mine_package(task: PackageTask) -> dict[str, Any]:
    """Mine one package (in a worker process); returns its meta, also written beside the samples."""
    key = task.cache_key()
    meta = read_meta(task.meta_path)
    if meta is not None and meta.get("key") == key and task.samples_path.exists():
        return {**meta, "cached": True}
    start = time.monotonic()
    index = WorkspaceIndex([task.root])
    index.refresh()
    index_s = time.monotonic() - start
    engine = OracleEngine(index, project_root=task.root)
    ranker = BaselineRanker() if task.sweep else None
    stats: dict[str, Counter[str]] = {
        name: Counter() for name in ("categories", "by_family", "in_grammar_by_family", "counts")
    }
    failures: list[str] = []
    tmp = task.samples_path.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as out:
        for path in iter_java_files([task.root]):
            if not index.is_test_file(path):
                continue
            relative = path.relative_to(task.root)
            stats["counts"]["test_files"] += 1
            try:
                source = load_source(path, lenient=True)
                meta_fields = {"package": task.package, "split": task.split, "file": str(relative)}
                mined = FileMiner(engine, engine.analyse(source), meta_fields, ranker, task.sweep).run()
            except (SourceError, RecursionError, ValueError) as exc:
                stats["counts"]["files_failed"] += 1
                failures.append(f"{relative}: {exc}"[:300])
                continue
            for sample in mined.exception + mined.assertion:
                out.write(json.dumps(sample, separators=(",", ":")) + "\n")
            stats["categories"].update(mined.categories)
            stats["by_family"].update(mined.assertions_by_family)
            stats["in_grammar_by_family"].update(mined.in_grammar_by_family)
            stats["counts"].update(mined.counts)
            stats["counts"]["exception_samples"] += len(mined.exception)
            stats["counts"]["assertion_samples"] += len(mined.assertion)
    tmp.replace(task.samples_path)
    meta = {
        "package": task.package,
        "split": task.split,
        "key": key,
        "elapsed_s": round(time.monotonic() - start, 2),
        "index_s": round(index_s, 2),
        **{name: dict(counter) for name, counter in stats.items()},
        "failures": failures[:20],
    }
    task.meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return {**meta, "cached": False}


class PackageMiner:
    """The mining worker of :func:`oracular.parallel.run_all`: one package per call, nothing kept."""

    def __call__(self, task: PackageTask) -> dict[str, Any]:
        return mine_package(task)

    def close(self) -> None:
        pass


def _run_tasks(
    tasks: list[PackageTask], jobs: int, progress: bool, desc: str, ray: str | None = None
) -> list[dict[str, Any]]:
    """Mine ``tasks`` in ``jobs`` worker processes (or on Ray); a crashed package is logged, never fatal."""
    results: list[dict[str, Any]] = []
    with tqdm(total=len(tasks), desc=desc, unit="pkg", disable=not progress) as bar:
        for task, meta in run_all(PackageMiner, tasks, jobs, ray):
            if isinstance(meta, BaseException):  # one package must never stop the corpus
                logger.warning("%s: mining failed: %s: %s", task.package, type(meta).__name__, meta)
                meta = {
                    "package": task.package,
                    "split": task.split,
                    "error": f"{type(meta).__name__}: {meta}",
                }
            results.append(meta)
            bar.set_postfix_str(task.package, refresh=False)
            bar.update()
    return results


def _iter_samples(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def _dedup_key(sample: dict[str, Any]) -> bytes:
    """Same kind, same prefix statements (test name aside), same oracle: the same sample."""
    label = sample.get("key") if sample["type"] == "assertion" else f"{sample['label']}:{sample['exception']}"
    text = f"{sample['type']}\0{sample['statements_key']}\0{label}"
    return hashlib.sha1(text.encode()).digest()


class Deduplicator:
    """First occurrence wins, train packages before dev ones; counts what it dropped, per package."""

    def __init__(self) -> None:
        self.first_split: dict[bytes, Split] = {}
        self.dropped: Counter[str] = Counter()
        self.overlap: Counter[str] = Counter()
        """Dropped because the same sample is in the other split (dev samples seen in train)."""

    def unique(
        self, package: str, split: Split, samples: Iterator[dict[str, Any]]
    ) -> Iterator[dict[str, Any]]:
        for sample in samples:
            key = _dedup_key(sample)
            first = self.first_split.get(key)
            if first is not None:
                self.dropped[package] += 1
                if first != split:
                    self.overlap[package] += 1
                continue
            self.first_split[key] = split
            yield sample


def finalise_assertion(sample: dict[str, Any], dictionary: Dictionary) -> dict[str, Any]:
    """The published form: candidates as canonical texts with their value sources, labels marked."""
    candidates = build_sample_candidates(sample, dictionary)
    labels = ground_truth_labels(candidates, sample["key"])
    final = _strip(sample)
    final["candidates"] = [candidate_text(c) for c in candidates]
    final["candidate_sources"] = [c.expected.source if c.expected else c.kind for c in candidates]
    final["labels"] = labels
    final["in_candidates"] = bool(labels)
    return final


def _strip(sample: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sample.items() if k not in _RAW_ONLY}


@dataclass
class MineReport:
    """Totals of a :func:`mine_corpus` run; ``stats`` is what ``stats.json`` and the report hold."""

    out_dir: Path
    stats: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        lines = []
        for split in ("train", "dev"):
            totals = Counter(self.stats["splits"][split])
            lines.append(
                f"{split}: {totals['packages_mined']} packages, {totals['tests']} tests, "
                f"{totals['exception_samples']} exception samples ({totals['exception_positive']} throwing), "
                f"{totals['assertion_samples']} assertion samples "
                f"({totals['assertion_in_candidates']} with the developer's oracle among the candidates)"
            )
        lines.append(f"global dictionary: K={self.stats['dictionary']['k']} (chosen on dev)")
        lines.append(f"datasets in {self.out_dir}; took {self.stats['elapsed_s']:.0f} s")
        return "\n".join(lines)


def _sweep_scores(dev_samples: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Baseline top-1/top-5/coverage over all dev assertion samples, for each K of the sweep."""
    total = max(1, len(dev_samples))
    scores: dict[str, dict[str, float]] = {}
    for k in SWEEP_KS:
        ranks = [s.get("sweep", {}).get(str(k)) for s in dev_samples]
        scores[str(k)] = {
            "top1": sum(1 for r in ranks if r == 1) / total,
            "top5": sum(1 for r in ranks if r is not None and r <= 5) / total,
            "in_candidates": sum(1 for r in ranks if r is not None) / total,
        }
    return scores


def _package_tasks(
    names: list[str],
    split: Split,
    sweep: dict[int, Dictionary] | None,
    cache_dir: Path,
    mined_dir: Path,
    fingerprint: str,
) -> list[PackageTask]:
    """The fetched packages among ``names``, as mining tasks. Biggest first, so the longest package
    does not start last."""
    roots = [(n, cache_dir / "src" / n) for n in names]
    available = [(n, r) for n, r in roots if (r / MARKER_NAME).is_file()]
    available.sort(key=lambda nr: -int(json.loads((nr[1] / MARKER_NAME).read_text()).get("test_files", 0)))
    return [PackageTask(n, split, r, mined_dir, fingerprint, sweep) for n, r in available]


def _train_value_counts(
    train_ok: list[PackageTask], dedup: Deduplicator, progress: bool
) -> dict[str, Counter[str]]:
    """The values of the deduplicated train assertions (:func:`count_values`), summed over the
    packages: the global dictionary is learnt from train only."""
    counts: dict[str, Counter[str]] = {}
    for task in tqdm(train_ok, desc="count values", unit="pkg", disable=not progress):
        assertions = (s for s in _iter_samples(task.samples_path) if s["type"] == "assertion")
        for key, counter in count_values(dedup.unique(task.package, "train", assertions)).items():
            counts.setdefault(key, Counter()).update(counter)
    return counts


def _dev_assertions(dev_tasks: list[PackageTask], dedup: Deduplicator) -> list[dict[str, Any]]:
    """The mined dev assertion samples that ``dedup`` has not seen (in train, or earlier in dev)."""
    return [
        s
        for task in dev_tasks
        if task.samples_path.exists()
        for s in dedup.unique(
            task.package, "dev", (x for x in _iter_samples(task.samples_path) if x["type"] == "assertion")
        )
    ]


def mine_corpus(
    lists: CorpusLists,
    cache_dir: Path,
    out_dir: Path | None = None,
    dictionary_path: Path | None = None,
    *,
    jobs: int = 2,
    progress: bool = True,
    ray: str | None = None,
) -> MineReport:
    """Mine every fetched listed package and write ``<out>/{train,dev}/{exception,assertion}.jsonl``.

    ``jobs`` worker processes mine one package at a time each; with ``ray`` (a Ray address, see
    :mod:`oracular.parallel`) the packages are mined on that cluster, whose nodes must see the
    cache folder at the same path.
    """
    start = time.monotonic()
    out_dir = out_dir or cache_dir / DATASETS_DIR
    mined_dir = cache_dir / MINED_DIR
    mined_dir.mkdir(parents=True, exist_ok=True)
    fingerprint = code_fingerprint()
    train_tasks = _package_tasks(lists.train, "train", None, cache_dir, mined_dir, fingerprint)
    metas = _run_tasks(train_tasks, jobs, progress, "mine train", ray)

    dedup = Deduplicator()
    train_ok = [t for t in train_tasks if t.samples_path.exists()]
    counts = _train_value_counts(train_ok, dedup, progress)
    sweep = {k: top_values(counts, k) for k in SWEEP_KS}

    dev_tasks = _package_tasks(lists.dev, "dev", sweep, cache_dir, mined_dir, fingerprint)
    metas += _run_tasks(dev_tasks, jobs, progress, "mine dev", ray)

    # Choose K on the deduplicated dev samples (dedup state continues from train).
    dev_samples = _dev_assertions(dev_tasks, dedup)
    sweep_scores = _sweep_scores(dev_samples)
    k = choose_k(sweep_scores)
    dictionary = sweep[k]
    del dev_samples
    if dictionary_path is not None:
        write_dictionary(
            dictionary_path,
            dictionary,
            k,
            {"split": "train", "packages": len(train_ok), "sweep": sweep_scores},
        )

    stats = _assemble(train_tasks + dev_tasks, out_dir, dictionary, progress)
    stats["packages"] = {m["package"]: m for m in metas}
    for meta in metas:
        totals = stats["splits"][meta["split"]]
        totals["tests"] = totals.get("tests", 0) + meta.get("counts", {}).get("tests", 0)
    stats["listed"] = {"train": len(lists.train), "dev": len(lists.dev)}
    stats["dictionary"] = _dictionary_stats(k, sweep_scores, counts)
    stats["elapsed_s"] = round(time.monotonic() - start, 1)
    stats["jobs"] = jobs
    stats["fingerprint"] = fingerprint
    (out_dir / "stats.json").write_text(json.dumps(stats, indent=1) + "\n", encoding="utf-8")
    return MineReport(out_dir, stats)


def _dictionary_stats(
    k: int, sweep_scores: dict[str, dict[str, float]], counts: dict[str, Counter[str]]
) -> dict[str, Any]:
    """The global dictionary in ``stats.json``: the K chosen, the dev sweep it was chosen on, and
    each target type's ten most frequent train values with their counts, for the corpus report."""
    return {
        "k": k,
        "sweep": sweep_scores,
        "values": {t: list(v) for t, v in top_values(counts, 10).items()},
        "counts": {t: dict(c.most_common(10)) for t, c in counts.items()},
    }


def _assemble(
    tasks: list[PackageTask], out_dir: Path, dictionary: Dictionary, progress: bool
) -> dict[str, Any]:
    """Write the deduplicated, finalised datasets and return their statistics."""
    dedup = Deduplicator()
    splits: dict[str, dict[str, Any]] = {}
    handles = {}
    for split in ("train", "dev"):
        (out_dir / split).mkdir(parents=True, exist_ok=True)
        for kind in ("exception", "assertion"):
            handles[split, kind] = (out_dir / split / f"{kind}.jsonl").open("w", encoding="utf-8")
        splits[split] = Counter()
    in_candidates_by_family: dict[str, Counter[str]] = {"train": Counter(), "dev": Counter()}
    samples_by_family: dict[str, Counter[str]] = {"train": Counter(), "dev": Counter()}
    try:
        for task in tqdm(tasks, desc="assemble", unit="pkg", disable=not progress):
            if not task.samples_path.exists():
                continue
            totals = splits[task.split]
            totals["packages_mined"] += 1
            for sample in dedup.unique(task.package, task.split, _iter_samples(task.samples_path)):
                if sample["type"] == "assertion":
                    final = finalise_assertion(sample, dictionary)
                    totals["assertion_samples"] += 1
                    totals["assertion_in_grammar"] += final["in_grammar"]
                    totals["assertion_in_candidates"] += final["in_candidates"]
                    samples_by_family[task.split][final["family"]] += 1
                    in_candidates_by_family[task.split][final["family"]] += final["in_candidates"]
                else:
                    final = _strip(sample)
                    totals["exception_samples"] += 1
                    totals["exception_positive"] += final["label"]
                handles[task.split, sample["type"]].write(json.dumps(final, separators=(",", ":")) + "\n")
    finally:
        for handle in handles.values():
            handle.close()
    return {
        "splits": {s: dict(c) for s, c in splits.items()},
        "samples_by_family": {s: dict(c) for s, c in samples_by_family.items()},
        "in_candidates_by_family": {s: dict(c) for s, c in in_candidates_by_family.items()},
        "duplicates_dropped": dict(dedup.dropped),
        "dev_overlapping_train": dict(dedup.overlap),
        "categories": list(CATEGORIES),
    }
