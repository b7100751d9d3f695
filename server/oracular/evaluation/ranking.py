"""Dev metrics for any ranker, next to the baselines, as a Markdown table.

How the rankers are measured: every dev sample is *replayed* through the engine. Its package is
indexed from the corpus cache, its file analysed, its cut prefix analysed exactly as the miner did
(:meth:`OracleEngine.prefix_for`), and its candidates built as the editor builds them. Each ranker
then answers the real :class:`OracleProblem` through :meth:`Ranker.rank`, so the figures measure
what a user gets (input formatting from live tree-sitter nodes included), and the neural model
and the baseline heuristic are compared on exactly the same problems. A sample whose replayed
candidates differ from the mined ones (stale cache or changed analysis code) is counted and
skipped for every ranker alike.

Assertion figures use ALL assertion samples as the denominator, including those whose ground
truth is not among the candidates (a ranker cannot get those right), plus top-1 on the covered
ones. Abstention is reported as precision when answering only the most confident fraction of
tests, which compares rankers whose scores live on different scales.

:func:`dev_report` is ``oracular eval``'s whole run on samples already read: replay, every model
and the baseline, the reference figures, and the Markdown.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from oracular.candidates.text import candidate_text
from oracular.engine import FileAnalysis, OracleEngine
from oracular.java.method_text import parse_method
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.models.layout import weights_present
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import OracleProblem, Ranker

logger = logging.getLogger("oracular.eval")

COVERAGES = (1.0, 0.8, 0.6, 0.4, 0.2)


@dataclass(frozen=True)
class AssertionOutcome:
    rank: int | None
    """1-based rank of the best-ranked correct candidate; ``None`` when none is a candidate."""
    top_score: float


@dataclass(frozen=True)
class ExceptionOutcome:
    throws: bool
    probability: float
    type_correct: bool | None
    """For a throwing sample: whether the predicted type is the thrown one."""


def assertion_outcome(scores: Sequence[float], labels: Iterable[int]) -> AssertionOutcome:
    """Ranked as the engine ranks: by descending score, ties in candidate order."""
    correct = set(labels)
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    rank = next((r for r, i in enumerate(order, start=1) if i in correct), None)
    return AssertionOutcome(rank, scores[order[0]] if order else 0.0)


def exception_outcome(sample: dict[str, Any], probability: float, predicted_type: str) -> ExceptionOutcome:
    thrown = sample.get("exception")
    type_correct = None
    if sample["label"] and thrown:
        type_correct = predicted_type.rsplit(".", 1)[-1] == thrown.rsplit(".", 1)[-1]
    return ExceptionOutcome(bool(sample["label"]), probability, type_correct)


# -- metrics -------------------------------------------------------------------------------
def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def classification(tp: float, fp: float, fn: float, tn: float) -> dict[str, float]:
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {
        "accuracy": _ratio(tp + tn, tp + fp + fn + tn),
        "precision": precision,
        "recall": recall,
        "f1": _ratio(2 * precision * recall, precision + recall),
    }


def exception_metrics(outcomes: Sequence[ExceptionOutcome], threshold: float) -> dict[str, float | None]:
    predicted = [o.probability >= threshold for o in outcomes]
    tp = sum(p and o.throws for p, o in zip(predicted, outcomes, strict=True))
    fp = sum(p and not o.throws for p, o in zip(predicted, outcomes, strict=True))
    fn = sum(not p and o.throws for p, o in zip(predicted, outcomes, strict=True))
    metrics = classification(tp, fp, fn, len(outcomes) - tp - fp - fn)
    typed = [
        o.type_correct for p, o in zip(predicted, outcomes, strict=True) if p and o.type_correct is not None
    ]
    metrics["type_accuracy"] = _ratio(sum(typed), len(typed)) if typed else None
    # Over every throwing sample whose type is known, predicted to throw or not: what the type
    # is worth once the observation (or the user) says the prefix throws.
    every = [o.type_correct for o in outcomes if o.type_correct is not None]
    metrics["type_accuracy_all"] = _ratio(sum(every), len(every)) if every else None
    metrics["threshold"] = threshold
    return metrics


def coin_metrics(rate: float, outcomes: Sequence[ExceptionOutcome]) -> dict[str, float]:
    """Expected figures of a coin that says "throws" with the train positive ``rate``."""
    n = len(outcomes)
    positives = sum(o.throws for o in outcomes)
    return classification(
        rate * positives, rate * (n - positives), (1 - rate) * positives, (1 - rate) * (n - positives)
    )


def never_throws_metrics(outcomes: Sequence[ExceptionOutcome]) -> dict[str, float]:
    positives = sum(o.throws for o in outcomes)
    return classification(0, 0, positives, len(outcomes) - positives)


def most_confident(outcomes: Sequence[AssertionOutcome], total: int) -> list[dict[str, float]]:
    """Top-1 precision when answering only the most confident of ``total`` tests, at each of
    :data:`COVERAGES`: the ``ceil(level * total)`` ``outcomes`` with the highest top score, or all
    of them where fewer can be answered (``answered``: how many were)."""
    ranked = sorted(outcomes, key=lambda o: -o.top_score)
    levels = []
    for coverage in COVERAGES:
        answered = ranked[: max(1, math.ceil(coverage * total))] if total else []
        levels.append(
            {
                "coverage": coverage,
                "answered": len(answered),
                "threshold": answered[-1].top_score if answered else 0.0,
                "precision": _ratio(sum(o.rank == 1 for o in answered), len(answered)),
            }
        )
    return levels


def assertion_metrics(outcomes: Sequence[AssertionOutcome], threshold: float | None = None) -> dict[str, Any]:
    n = len(outcomes)
    covered = [o for o in outcomes if o.rank is not None]
    at_coverage = most_confident(outcomes, n)
    metrics: dict[str, Any] = {
        "samples": n,
        "covered": len(covered),
        "top1": _ratio(sum(o.rank == 1 for o in outcomes), n),
        "top5": _ratio(sum(o.rank is not None and o.rank <= 5 for o in outcomes), n),
        "top1_covered": _ratio(sum(o.rank == 1 for o in covered), len(covered)),
        "at_coverage": at_coverage,
    }
    if threshold is not None:
        answered = [o for o in outcomes if o.top_score >= threshold]
        metrics["at_threshold"] = {
            "threshold": threshold,
            "coverage": _ratio(len(answered), n),
            "precision": _ratio(sum(o.rank == 1 for o in answered), len(answered)),
        }
    return metrics


# -- replaying dev samples through the engine ----------------------------------------------
@dataclass
class Replay:
    """Rebuilt problems, aligned with the samples; ``None`` where a sample could not be rebuilt."""

    problems: list[OracleProblem | None]
    reasons: list[str | None]
    """Why each sample could not be rebuilt (``None`` where it was)."""

    @property
    def failures(self) -> Counter[str]:
        """How many samples could not be rebuilt, by reason."""
        return Counter(reason for reason in self.reasons if reason is not None)

    def part(self, samples: slice) -> Replay:
        """The replay of a slice of the samples (one kind, when several were replayed at once)."""
        return Replay(self.problems[samples], self.reasons[samples])


def replay(
    samples: Sequence[dict[str, Any]],
    sources: Path,
    dictionary: dict[str, tuple[str, ...]],
    progress: bool = True,
) -> Replay:
    """The engine's :class:`OracleProblem` for each sample, from ``<sources>/<package>/<file>``.

    Each package is indexed, and each file analysed, once for all the samples that come from it
    (pass exception and assertion samples together to share that work).
    """
    result = Replay([None] * len(samples), [None] * len(samples))
    by_package: dict[str, list[int]] = defaultdict(list)
    for i, sample in enumerate(samples):
        by_package[sample["package"]].append(i)
    bar = tqdm(total=len(samples), desc="replay", unit="sample", disable=not progress)
    for package, indices in by_package.items():
        root = sources / package
        if not root.is_dir():
            for i in indices:
                result.reasons[i] = "package not in the corpus cache"
            bar.update(len(indices))
            continue
        index = WorkspaceIndex([root])
        index.refresh()
        engine = OracleEngine(index, ranker=BaselineRanker(), project_root=root)  # never asked to rank
        by_file: dict[str, list[int]] = defaultdict(list)
        for i in indices:
            by_file[samples[i]["file"]].append(i)
        for file, file_indices in by_file.items():
            outcomes = _replay_file(engine, root / file, [samples[i] for i in file_indices], dictionary)
            for i, outcome in zip(file_indices, outcomes, strict=True):
                if isinstance(outcome, str):
                    result.reasons[i] = outcome
                else:
                    result.problems[i] = outcome
            bar.update(len(file_indices))
    bar.close()
    return result


def _replay_file(
    engine: OracleEngine, path: Path, samples: list[dict[str, Any]], dictionary: dict
) -> list[OracleProblem | str]:
    """Per sample, its rebuilt problem or why it could not be rebuilt."""
    try:
        analysis = engine.analyse(load_source(path, lenient=True))
    except (OSError, SourceError, RecursionError, ValueError):
        return ["source file unreadable"] * len(samples)
    return [_replay_sample(engine, analysis, sample, dictionary) for sample in samples]


def _replay_sample(
    engine: OracleEngine, analysis: FileAnalysis, sample: dict[str, Any], dictionary: dict
) -> OracleProblem | str:
    number = int(sample["test"].removeprefix("test"))
    if (
        not 0 < number <= len(analysis.statuses)
        or analysis.statuses[number - 1].test.line + 1 != sample["line"]
    ):
        return "test not found at its line"
    status = analysis.statuses[number - 1]
    prefix = engine.prefix_for(analysis, status, parse_method(sample["prefix"]))
    if prefix is None:
        return "empty prefix"
    candidates = engine.candidates_for(prefix, status, dictionary)
    expected = sample.get("candidates")
    if (expected is not None and [candidate_text(c) for c in candidates] != expected) or (
        prefix.exception_types() != sample.get("exceptions", [])
    ):
        return "candidates differ from the mined ones"
    return OracleProblem(sample["test"], prefix, candidates)


# -- running rankers and reporting ----------------------------------------------------------
@dataclass
class RankerResult:
    name: str
    exception: dict[str, float | None]
    assertion: dict[str, Any]


def evaluate_ranker(
    name: str,
    ranker: Ranker,
    exception_samples: Sequence[tuple[dict[str, Any], OracleProblem]],
    assertion_samples: Sequence[tuple[dict[str, Any], OracleProblem]],
    exception_threshold: float,
    abstain_below: float | None,
    progress: bool = True,
) -> RankerResult:
    exceptions = []
    for sample, problem in tqdm(exception_samples, desc=f"{name}: exception", disable=not progress):
        ranking = ranker.rank(problem)
        exceptions.append(exception_outcome(sample, ranking.exception_probability, ranking.exception_type))
    assertions = []
    for sample, problem in tqdm(assertion_samples, desc=f"{name}: assertion", disable=not progress):
        assertions.append(assertion_outcome(ranker.rank(problem).scores, sample["labels"]))
    return RankerResult(
        name, exception_metrics(exceptions, exception_threshold), assertion_metrics(assertions, abstain_below)
    )


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _row(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def _at(cell: dict[str, float] | None) -> str:
    if cell is None:
        return "n/a"
    answered = f"{_pct(cell['coverage'])} answered, " if "coverage" in cell else ""
    return f"{_pct(cell['precision'])} ({answered}score >= {cell['threshold']:.3f})"


def markdown(
    results: Sequence[RankerResult],
    reference: dict[str, dict[str, float]],
    header: dict[str, Any],
) -> str:
    """The dev report: exception stage, assertion stage, precision per abstention level."""
    lines = [f"# Oracle evaluation ({header['split']} split)", ""]
    lines += [f"- {key}: {value}" for key, value in header.items() if key != "split"]
    columns = ("accuracy", "precision", "recall", "f1")
    lines += ["", "## Exception stage", ""]
    lines += [_row("ranker", "accuracy", "precision", "recall", "F1", "type accuracy"), _row(*["---"] * 6)]
    rows = [(f"{r.name} (threshold {r.exception['threshold']:.2f})", r.exception) for r in results]
    for name, m in [*rows, *reference.items()]:
        type_accuracy = _pct(m["type_accuracy"]) if m.get("type_accuracy") is not None else "n/a"
        lines.append(_row(name, *(_pct(m[c]) for c in columns), type_accuracy))
    lines += [
        "",
        "Type accuracy: the thrown type is predicted, among throwing samples predicted to throw.",
        "",
        "## Assertion stage",
        "",
        _row("ranker", "top-1 (all)", "top-5 (all)", "top-1 (covered)"),
        _row(*["---"] * 4),
    ]
    for r in results:
        m = r.assertion
        lines.append(_row(r.name, _pct(m["top1"]), _pct(m["top5"]), _pct(m["top1_covered"])))
    if results:
        m = results[0].assertion
        lines += [
            "",
            f"All: {m['samples']} assertion samples. Covered: the {m['covered']} whose developer oracle "
            "is among the candidates.",
        ]
    lines += ["", "### Top-1 precision when answering only the most confident tests", ""]
    lines += [_row("answered", *(r.name for r in results)), _row(*["---"] * (len(results) + 1))]
    for level, coverage in enumerate(COVERAGES):
        cells = [
            {k: v for k, v in r.assertion["at_coverage"][level].items() if k != "coverage"} for r in results
        ]
        lines.append(_row(_pct(coverage), *(_at(c) for c in cells)))
    lines.append(_row("own threshold", *(_at(r.assertion.get("at_threshold")) for r in results)))
    return "\n".join(lines) + "\n"


# -- the dev report (``oracular eval``) ---------------------------------------------------------
@dataclass
class DevProblems:
    """The dev samples the engine rebuilt, each with its problem, by kind."""

    exception: list[tuple[dict[str, Any], OracleProblem]]
    assertion: list[tuple[dict[str, Any], OracleProblem]]
    notes: dict[str, object]
    """The report's header lines on the samples: how many, and why some were not replayed."""

    @property
    def pairs(self) -> tuple[list[tuple[dict[str, Any], OracleProblem]], ...]:
        """The exception, then the assertion pairs: :func:`evaluate_ranker`'s order."""
        return self.exception, self.assertion


def replay_dev(
    samples: dict[str, list[dict[str, Any]]],
    sources: Path,
    dictionary: dict[str, tuple[str, ...]],
    progress: bool = True,
) -> DevProblems:
    """The ``exception`` and ``assertion`` samples' problems; those not rebuilt are left out for
    every ranker alike."""
    # Both kinds in one replay, so that each package is indexed and each file analysed once.
    both = replay([*samples["exception"], *samples["assertion"]], sources, dictionary, progress)
    cut = len(samples["exception"])
    replayed = {"exception": both.part(slice(cut)), "assertion": both.part(slice(cut, None))}
    pairs = {
        kind: [(s, p) for s, p in zip(samples[kind], replayed[kind].problems, strict=True) if p is not None]
        for kind in samples
    }
    throwing = sum(bool(s["label"]) for s, _ in pairs["exception"])
    notes: dict[str, object] = {
        "exception samples": f"{len(pairs['exception'])} ({throwing} throwing)",
        "assertion samples": len(pairs["assertion"]),
    }
    for kind, result in replayed.items():
        for reason, count in sorted(result.failures.items()):
            notes[f"{kind} samples not replayed ({reason})"] = count
    return DevProblems(pairs["exception"], pairs["assertion"], notes)


def evaluate_models(
    model_dirs: Sequence[Path], device: str, problems: DevProblems, progress: bool = True
) -> tuple[list[RankerResult], dict[str, object]]:
    """Each model's figures, and the report's header lines on the models and the device.

    A lone model is called ``neural``; several are named by their folders, so that models
    trained differently can be compared. A folder without weights is noted and skipped. Each
    model is loaded only when its turn comes, so that one at a time is held in memory.
    """
    results = []
    notes: dict[str, object] = {}
    alone = len(model_dirs) == 1
    loaded_on = None  # every model is loaded for the same device
    for model_dir in model_dirs:
        name, key = ("neural", "model") if alone else (model_dir.name, f"model {model_dir.name}")
        if not weights_present(model_dir):
            notes[key] = f"none in {model_dir}" + (": baseline only" if alone else "")
            continue
        from oracular.models.inference import load_model  # torch: only with a model
        from oracular.models.store import load_config, size_bytes

        model = load_model(model_dir, device)
        config = load_config(model_dir)
        notes[key] = (
            f"{model_dir} ({size_bytes(model_dir) / 1e6:.1f} MB, {config.architecture}, "
            f"stages {', '.join(config.stages)})"
        )
        loaded_on = model.device
        threshold, abstain_below = model.calibration.exception_threshold, model.calibration.abstain_below
        results.append(evaluate_ranker(name, model, *problems.pairs, threshold, abstain_below, progress))
    if loaded_on is not None:
        notes["device"] = loaded_on
    return results, notes


def train_positive_rate(data: Path) -> float | None:
    """The train split's share of throwing exception samples, from the mining run's ``stats.json``
    (counted there already: no need to read the train split's hundred megabytes again)."""
    try:
        train = json.loads((data / "stats.json").read_text(encoding="utf-8"))["splits"]["train"]
        return train["exception_positive"] / train["exception_samples"]
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        return None


def reference_metrics(problems: DevProblems, positive_rate: float | None) -> dict[str, dict[str, float]]:
    """What any exception stage must beat: a coin weighted with the train split's share of throwing
    samples (dev's own share when that is unknown), and always answering "never throws"."""
    outcomes = [exception_outcome(s, 0.0, "") for s, _ in problems.exception]
    rate = positive_rate
    if rate is None:
        rate = sum(o.throws for o in outcomes) / max(1, len(outcomes))
    return {
        f"weighted coin (p={rate:.3f})": coin_metrics(rate, outcomes),
        "never throws": never_throws_metrics(outcomes),
    }


def dev_report(
    split: str,
    samples: dict[str, list[dict[str, Any]]],
    *,
    sources: Path,
    dictionary: dict[str, tuple[str, ...]],
    model_dirs: Sequence[Path],
    device: str,
    positive_rate: float | None,
    progress: bool = True,
) -> str:
    """Every model and the baseline on the same replayed problems, next to the references.

    Raises :class:`~oracular.models.devices.DeviceUnavailable` when a model cannot run on ``device``.
    """
    problems = replay_dev(samples, sources, dictionary, progress)
    models, model_notes = evaluate_models(model_dirs, device, problems, progress)
    baseline = evaluate_ranker(
        "baseline", BaselineRanker(), *problems.pairs, 0.5, BaselineRanker.abstain_below, progress
    )
    header = {"split": split, **problems.notes, **model_notes}
    return markdown([*models, baseline], reference_metrics(problems, positive_rate), header)
