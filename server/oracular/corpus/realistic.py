"""Realistic template samples: developer tests cut right before their first oracle, nothing
appended, each with every template the engine can offer on the cut prefix.

Why a second kind of sample (models v2): the mined corpus ends many assertion samples with the
asserted call appended (so that every sample has a target) and lists full candidates with
dictionary values. A user's oracle-free test has neither: the ranker must pick the target among
everything the prefix computes (:mod:`oracular.java.targets`), and the value comes from running
the code when it can. These samples are cut exactly as ``oracular eval --realistic`` cuts
(:func:`~oracular.corpus.devtests.cut_test`, ``append_call=False``), analysed as the editor
analyses the oracle-free copy, and their candidates are templates
(:mod:`oracular.candidates.templates`). Samples keep the mined corpus' JSON shape, so training,
calibration and the dev figures read them unchanged.

A template is the developer's when its assertion is theirs and its target is their asserted
expression (either argument of an equality: developers swap them), in canonical form.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import random
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from oracular.candidates.grammar import Candidate
from oracular.candidates.templates import target_templates, template_text
from oracular.candidates.text import canonical_expression
from oracular.corpus.devtests import DevTest, cut_file, find_status, oracle_free_copy
from oracular.corpus.lists import CorpusLists
from oracular.corpus.normalise import GroundTruth
from oracular.engine import FileAnalysis, OracleEngine, TestStatus
from oracular.java import syntax
from oracular.java.method_text import synthesise_method
from oracular.java.prefix import PrefixAnalysis
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import WorkspaceIndex, iter_java_files
from oracular.models.inputs import focal_context
from oracular.ranking.baseline import BaselineRanker

logger = logging.getLogger("oracular.corpus")


@dataclass(frozen=True)
class RealisticTask:
    package: str
    split: str
    root: Path
    max_tests: int
    seed: int
    one_cut: bool = False
    """Cut each test in a copy of its file of its own, the file's other tests left as written (the
    editor's view: their habits, :mod:`oracular.java.neighbours`, all there); by default a file's
    chosen tests are cut together, one analysis per file."""


def realistic_tasks(
    lists: CorpusLists, sources: Path, max_tests: int, seed: int, one_cut: bool = False
) -> list[RealisticTask]:
    """One task per fetched package: the train list's as ``train``, the *tune* projects' as ``dev``.

    Why not every dev project: what is fitted on the dev split (the calibration, its abstention
    threshold, the prior's checks) must never see the report projects, whose figures come from
    ``oracular eval --realistic`` on code nobody tuned on.
    """
    return [
        RealisticTask(name, split, sources / name, max_tests, seed, one_cut)
        for split, names in (("train", lists.train), ("dev", lists.tune))
        for name in names
        if (sources / name).is_dir()
    ]


def is_developers(template: Candidate, truth: GroundTruth) -> bool:
    """Whether ``template`` asserts what the developer asserted (value aside)."""
    if template.target is None or template.assertion != truth.method:
        return False
    target = canonical_expression(template.target.expression)
    if template.expected is None:
        return truth.expected is None and target == canonical_expression(truth.actual)
    if truth.expected is None:
        return False
    return target in (canonical_expression(truth.actual), canonical_expression(truth.expected))


def cut_prefixes(
    engine: OracleEngine, path: Path, cuts: list[DevTest], one_cut: bool = False
) -> Iterator[tuple[int, DevTest, TestStatus, PrefixAnalysis, FileAnalysis]]:
    """Each of a file's cuts with the analysis of its prefix in the oracle-free copy, as the
    editor sees it (cuts the copy cannot analyse are left out), and the copy's analysis; the
    number is the cut's place. ``one_cut``: a copy per cut (:attr:`RealisticTask.one_cut`)."""
    source = load_source(path, lenient=True)
    analysis = engine.analyse(source)
    shared = None if one_cut else engine.analyse(oracle_free_copy(source, analysis, cuts))
    for number, cut in enumerate(cuts):
        copy = shared or engine.analyse(oracle_free_copy(source, analysis, [cut]))
        status = find_status(copy, cut)
        prefix = engine.prefix_for(copy, status) if status is not None else None
        if status is not None and prefix is not None:
            yield number, cut, status, prefix, copy


def _samples(
    engine: OracleEngine, root: Path, path: Path, cuts: list[DevTest], one_cut: bool
) -> Iterator[dict[str, Any]]:
    """One exception sample per cut test, and an assertion sample where a template is the developer's."""
    for number, cut, status, prefix, copy in cut_prefixes(engine, path, cuts, one_cut):
        statements = [syntax.text(s) for s in prefix.statements]
        common = {
            "file": str(path.relative_to(root)),
            "line": cut.line,
            "test": f"{cut.class_name}.{cut.name}",
            "prefix": synthesise_method(status.test, number, statements),
            "focal": focal_context(prefix.focal, prefix.guard_verdict),
            "exceptions": prefix.exception_types(),
            # what the file's other tests assert on, and whether the prefix ends by computing a
            # value: the template prior's habit features (candidates/template_features.py)
            "asserted": sorted(copy.asserted),
            "computes_value": prefix.computes_value,
        }
        throws = cut.kind == "exception"
        yield {**common, "type": "exception", "label": throws, "exception": cut.exception if throws else None}
        if throws or cut.truth is None:
            continue
        templates = target_templates(prefix.targets)
        labels = [i for i, t in enumerate(templates) if is_developers(t, cut.truth)]
        if labels:
            texts = [template_text(t) for t in templates]
            yield {**common, "type": "assertion", "candidates": texts,
                   "candidate_sources": ["template"] * len(texts), "labels": labels,
                   "developer": cut.truth.text}  # fmt: skip


def chosen_cuts(task: RealisticTask, counts: Counter[str]) -> tuple[OracleEngine, dict[Path, list[DevTest]]]:
    """The package's engine and up to ``max_tests`` of its cut tests (seeded), by file.

    Shared with ``scripts/template_coverage.py``, which must measure exactly these tests.
    """
    index = WorkspaceIndex([task.root])
    index.refresh()
    engine = OracleEngine(index, BaselineRanker(), project_root=task.root)
    cuts: list[tuple[Path, DevTest]] = []
    for path in iter_java_files([task.root]):
        if not index.is_test_file(path):
            continue
        try:
            found = cut_file(engine, engine.analyse(load_source(path, lenient=True)), append_call=False)
        except (SourceError, RecursionError, ValueError):
            counts["files_unreadable"] += 1
            continue
        cuts += [(path, cut) for cut in found]
    counts["tests_cut"] = len(cuts)
    if len(cuts) > task.max_tests:
        cuts = random.Random(f"{task.seed}:{task.package}").sample(cuts, task.max_tests)
    counts["assertion_tests"] = sum(1 for _, c in cuts if c.kind == "assertion")
    by_file: dict[Path, list[DevTest]] = {}
    for path, cut in cuts:
        by_file.setdefault(path, []).append(cut)
    return engine, dict(sorted(by_file.items()))


def mine_realistic_package(task: RealisticTask) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Cut up to ``max_tests`` (seeded) of one package's tests into samples (in a worker process)."""
    counts: Counter[str] = Counter()
    engine, by_file = chosen_cuts(task, counts)
    samples = []
    for path, file_cuts in by_file.items():
        try:
            for sample in _samples(engine, task.root, path, file_cuts, task.one_cut):
                samples.append({"package": task.package, "split": task.split, **sample})
                counts[f"{sample['type']}_samples"] += 1
        except (SourceError, RecursionError, ValueError):
            counts["files_unreadable"] += 1
    return samples, counts


def _prefix_key(sample: dict[str, Any]) -> bytes:
    body = sample["prefix"].split("{", 1)[-1]
    return hashlib.sha1((body + json.dumps(sample["focal"], sort_keys=True)).encode()).digest()


def mine_realistic(
    tasks: list[RealisticTask], out: Path, jobs: int, progress: bool = True
) -> dict[str, Counter[str]]:
    """Mine ``tasks`` into ``out/<split>/{exception,assertion}.jsonl`` (train first: a dev sample
    whose prefix and focal method also occur in train is dropped)."""
    results: dict[str, list[dict[str, Any]]] = {}
    totals: dict[str, Counter[str]] = {}
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=context) as pool,
        tqdm(total=len(tasks), desc="cut tests", unit="pkg", disable=not progress) as bar,
    ):
        futures = {pool.submit(mine_realistic_package, task): task for task in tasks}
        for future in as_completed(futures):
            task = futures[future]
            try:
                samples, counts = future.result()
            except Exception as exc:  # one package must never stop the corpus
                logger.warning("%s: failed: %s: %s", task.package, type(exc).__name__, exc)
                samples, counts = [], Counter({"packages_failed": 1})
            results[task.package] = samples
            totals.setdefault(task.split, Counter()).update(counts)
            bar.set_postfix_str(task.package, refresh=False)
            bar.update()
    seen = {_prefix_key(s) for task in tasks if task.split == "train" for s in results[task.package]}
    for split in ("train", "dev"):
        folder = out / split
        folder.mkdir(parents=True, exist_ok=True)
        kinds = ("exception", "assertion")
        files = {kind: (folder / f"{kind}.jsonl").open("w", encoding="utf-8") for kind in kinds}
        try:
            for task in sorted((t for t in tasks if t.split == split), key=lambda t: t.package):
                for sample in results[task.package]:
                    if split == "dev" and _prefix_key(sample) in seen:
                        totals[split]["dropped_seen_in_train"] += 1
                        continue
                    files[sample["type"]].write(json.dumps(sample, separators=(",", ":")) + "\n")
        finally:
            for handle in files.values():
                handle.close()
    (out / "summary.json").write_text(json.dumps({k: dict(v) for k, v in totals.items()}, indent=1) + "\n")
    return totals
