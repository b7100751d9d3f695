"""Fitting the template prior (:mod:`oracular.models.prior`) on train samples.

Why a separate, cheap stage: the network's fine-tuning on a CPU sees a few thousand samples,
while its template logits on every train sample take minutes to compute (int8, as the engine
runs it). The prior's ``1 + len(FEATURES)`` template numbers are fitted on those logits with the
same listwise loss the network was trained with, plus an L2 penalty; its one exception number
(the first type's bonus) on the type head's logits of throwing train samples, for accuracy. The
network is not touched.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

import torch
from tqdm import tqdm

from oracular.cache import default_cache_dir
from oracular.candidates.template_features import FEATURES, TemplateContext, named_failure
from oracular.evaluation.ranking import assertion_metrics, assertion_outcome
from oracular.java.identifiers import test_name_words
from oracular.models.inference import LoadedModel, load_model
from oracular.models.layout import WEIGHTS_FILE
from oracular.models.prior import TemplatePrior
from oracular.models.store import load_config, save_config
from oracular.training.calibration import listwise_nll
from oracular.training.data import (
    dataset_path,
    exception_labels,
    exception_texts,
    read_samples,
    sample_statements,
)

logger = logging.getLogger("oracular.train")


@dataclass
class TemplateSample:
    """One realistic sample's candidates as the prior sees them: an assertion sample's templates,
    or a throwing sample's exception types."""

    features: torch.Tensor
    """(C, F): :data:`FEATURES` per template (or, for exception types, whether it is the first)."""
    logits: torch.Tensor
    """(C,) the network's raw candidate logits."""
    labels: list[int]


class LogitCache:
    """The network's candidate logits per sample (templates or exception types), kept on disk.

    Why: scoring the train samples is nearly all of a prior's fitting time (4 minutes for 1,682
    on 2 cores, 2026-11-28) and depends only on the weights and the model's inputs, not on the
    features; a refit after a feature change, or a run cut short, starts from what was scored.
    """

    SAVE_EVERY = 250

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, torch.Tensor] = torch.load(path, weights_only=True) if path.exists() else {}
        self._unsaved = 0

    @classmethod
    def for_model(cls, directory: Path, root: Path | None = None) -> LogitCache:
        """The cache of the weights and inputs in ``directory`` (under ``root``, by default
        ``prior-logits`` in Oracular's cache)."""
        digest = hashlib.sha256((directory / WEIGHTS_FILE).read_bytes())
        digest.update(
            json.dumps(load_config(directory, answer=False).to_json()["inputs"], sort_keys=True).encode()
        )
        folder = root if root is not None else default_cache_dir() / "prior-logits"
        return cls(folder / f"{digest.hexdigest()[:20]}.pt")

    @staticmethod
    def key(statements: Sequence[str], focal: dict | None, templates: Sequence[str], test_name: str) -> str:
        text = json.dumps([list(statements), focal, list(templates), test_name], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def get(self, key: str) -> torch.Tensor | None:
        return self.entries.get(key)

    def put(self, key: str, logits: torch.Tensor) -> None:
        self.entries[key] = logits.detach().float().clone()
        self._unsaved += 1
        if self._unsaved >= self.SAVE_EVERY:
            self.save()

    def save(self) -> None:
        if not self._unsaved:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        torch.save(self.entries, partial)
        partial.replace(self.path)
        self._unsaved = 0


SampleView = Callable[[dict[str, Any], list[str]], tuple[list[str], torch.Tensor, list[int]]]
"""What the prior reads of one sample (and its prefix's statements): the candidate texts the
network scores, their features, the correct candidates' indices."""


def _scored(
    model: LoadedModel,
    samples: Sequence[dict[str, Any]],
    view: SampleView,
    progress: bool,
    desc: str,
    cache: LogitCache | None,
) -> list[TemplateSample]:
    """Each sample as ``view`` reads it, with the network's logits (as the engine computes them,
    or as ``cache`` kept them)."""
    found = []
    for sample in tqdm(samples, desc=desc, unit="test", disable=not progress):
        statements = sample_statements(sample)
        texts, features, labels = view(sample, statements)
        focal = sample.get("focal")
        key = LogitCache.key(statements, focal, texts, sample["test"])
        logits = cache.get(key) if cache is not None else None
        if logits is None:
            _, logits = model.logits(model.formatter.encode(statements, focal, texts, sample["test"]))
            if cache is not None:
                cache.put(key, logits)
        found.append(TemplateSample(features, logits, labels))
    if cache is not None:
        cache.save()
    return found


def _templates(sample: dict[str, Any], statements: list[str]) -> tuple[list[str], torch.Tensor, list[int]]:
    templates = sample["candidates"]
    features = TemplateContext.of_sample(sample, statements).features(templates)
    return templates, torch.tensor(features, dtype=torch.float32), sample["labels"]


def _types(sample: dict[str, Any], statements: list[str]) -> tuple[list[str], torch.Tensor, list[int]]:
    """Three features per exception candidate: the first, :func:`named_failure`, and whether
    the focal call meets its documented condition (:meth:`TemplateContext.exception_conditions`)."""
    texts = exception_texts(sample)
    tested = test_name_words(sample["test"])
    conditions = TemplateContext.of_sample(sample, statements).exception_conditions(texts)
    features = torch.tensor(
        [[0.0, named_failure(text, tested), met] for text, met in zip(texts, conditions, strict=True)]
    )
    features[0, 0] = 1.0
    return texts, features, exception_labels(sample)


def template_samples(
    model: LoadedModel,
    samples: Sequence[dict[str, Any]],
    progress: bool = True,
    desc: str = "score",
    cache: LogitCache | None = None,
) -> list[TemplateSample]:
    """The assertion samples' templates: the network's logits and the :data:`FEATURES`."""
    return _scored(model, samples, _templates, progress, desc, cache)


def exception_type_samples(
    model: LoadedModel,
    samples: Sequence[dict[str, Any]],
    progress: bool = True,
    desc: str = "score types",
    cache: LogitCache | None = None,
) -> list[TemplateSample]:
    """The throwing samples' exception candidates (where the thrown type is known) as
    :func:`fit_exception_first` sees them: the type head's logits, one feature (the first
    candidate), the thrown type's index (none when it is not offered: such a sample counts as
    wrong, whatever the prior)."""
    throwing = [s for s in samples if s["label"] and s.get("exception")]
    return _scored(model, throwing, _types, progress, desc, cache)


def _padded(
    samples: Sequence[TemplateSample],
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    width = max(len(s.logits) for s in samples)
    features = torch.zeros((len(samples), width, len(FEATURES)))
    logits = torch.zeros((len(samples), width))
    present = torch.zeros((len(samples), width), dtype=torch.bool)
    labels = torch.zeros((len(samples), width), dtype=torch.bool)
    for i, s in enumerate(samples):
        count = len(s.logits)
        features[i, :count] = s.features
        logits[i, :count] = s.logits
        present[i, :count] = True
        labels[i, s.labels] = True
    return features, logits, present, labels


def fit_prior(samples: Sequence[TemplateSample], l2: float = 1e-3, steps: int = 100) -> TemplatePrior:
    """The scale and weights minimising the mean listwise NLL (+ ``l2 * |w|^2``) over ``samples``."""
    features, logits, present, labels = _padded(samples)
    scale = torch.ones((), requires_grad=True)
    weights = torch.zeros(len(FEATURES), requires_grad=True)
    optimiser = torch.optim.LBFGS([scale, weights], lr=0.5, max_iter=steps, line_search_fn="strong_wolfe")

    def closure() -> torch.Tensor:
        optimiser.zero_grad()
        combined = scale * logits + features @ weights
        loss = listwise_nll(combined, present, labels).mean() + l2 * weights.square().sum()
        loss.backward()
        return loss

    optimiser.step(closure)
    return TemplatePrior(
        scale.item(), {name: round(w, 4) for name, w in zip(FEATURES, weights.tolist(), strict=True)}
    )


EXCEPTION_FIRST_GRID = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0)
"""Bonuses tried; past about 5 the first type wins unless the head is all but certain."""
EXCEPTION_NAMED_GRID = (0.0, 2.0, 5.0, 8.0, 13.0, 20.0)
"""Weights of :func:`named_failure` tried."""
EXCEPTION_CONDITION_GRID = (0.0, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0)
"""Weights of a documented condition the arguments meet (or do not) tried."""


@dataclass(frozen=True)
class ExceptionBonuses:
    """What the prior adds to exception candidates' logits (:class:`TemplatePrior`)."""

    first: float = 0.0
    named: float = 0.0
    condition: float = 0.0


def fit_exception_bonuses(samples: Sequence[TemplateSample]) -> ExceptionBonuses:
    """The smallest bonuses, of the first exception candidate, of a type the test's name says
    and of a type whose documented condition the arguments meet, that name the thrown type most
    often over ``samples`` (:func:`exception_type_samples`).

    Fitted for accuracy, not for the listwise NLL the template prior uses: on the realistic train
    split the NLL's optimum (+0.57) keeps the type head's choice (34.0% right over 608 throwing
    samples with several types), while the head overruled by the engine's order names the type
    38.2% of the time. A type is one choice a user sees; its probability split is secondary.
    """
    grid = [
        ExceptionBonuses(first, named, condition)
        for first in EXCEPTION_FIRST_GRID
        for named in EXCEPTION_NAMED_GRID
        for condition in EXCEPTION_CONDITION_GRID
    ]
    return min(
        grid,
        key=lambda b: (-exception_type_accuracy(samples, b)["type_accuracy_all"], astuple(b)),
    )


def exception_type_accuracy(
    samples: Sequence[TemplateSample], bonuses: ExceptionBonuses = ExceptionBonuses()
) -> dict[str, float]:
    """Over every throwing sample: the share whose first-ranked candidate is the thrown type."""
    weights = torch.tensor([bonuses.first, bonuses.named, bonuses.condition])
    right = 0
    for s in samples:
        width = s.features.shape[1]
        logits = s.logits.float() + s.features @ weights[:width]
        right += int(logits.argmax()) in s.labels
    return {"samples": len(samples), "type_accuracy_all": right / max(1, len(samples))}


def template_accuracy(
    samples: Sequence[TemplateSample], prior: TemplatePrior | None = None
) -> dict[str, float]:
    """Template top-1 / top-5 (the developer's template among the first 1 / 5, ranked as the
    engine ranks) and the mean listwise NLL."""
    features, logits, present, labels = _padded(samples)
    if prior is not None:
        logits = prior.scale * logits + features @ prior.vector()
    rows = zip(logits.tolist(), samples, strict=True)
    metrics = assertion_metrics([assertion_outcome(row[: len(s.logits)], s.labels) for row, s in rows])
    return {
        "samples": len(samples),
        "top1": metrics["top1"],
        "top5": metrics["top5"],
        "nll": float(listwise_nll(logits, present, labels).mean()),
    }


def describe(prior: TemplatePrior) -> str:
    weights = ", ".join(f"{name} {w:+.2f}" for name, w in prior.weights.items() if abs(w) >= 0.005)
    return (
        f"scale {prior.scale:.3f}; {weights}; first exception type {prior.exception_first:+.2f}, "
        f"named by the test {prior.exception_named:+.2f}, condition met {prior.exception_condition:+.2f}"
    )


def write_prior(directory: Path, prior: TemplatePrior, metadata: dict[str, Any]) -> None:
    """Store ``prior`` in the model's ``config.json`` (weights untouched), with how it was fitted.

    The answer confidence goes: it was fitted on the ranking this prior replaces
    (``oracular train confidence`` fits one again, on evaluations of the new ranking)."""
    config = load_config(directory, answer=False)
    config.prior = prior
    config.metadata = {**config.metadata, "prior": metadata}
    save_config(directory, config)


def _several_types(data: Path, limit: int | None, seed: int) -> list[dict[str, Any]]:
    """Train's throwing samples that document several types: there the bonuses have a choice to make."""
    return read_samples(
        dataset_path(data, "train", "exception"),
        limit,
        seed,
        keep=lambda s: bool(s["label"]) and len(s.get("exceptions") or []) > 1,
    )


def train_prior(
    directory: Path,
    data: Path,
    limit: int | None,
    dev_limit: int | None,
    seed: int = 13,
    l2: float = 1e-3,
    progress: bool = True,
    cache_root: Path | None = None,
) -> dict[str, Any]:
    """Fit the prior of the templates model in ``directory`` on train, measure it on dev, store it.

    Returns what was measured (dev template top-1/top-5, and exception type accuracy over the
    throwing samples, without and with the prior), which is
    also kept in the model's metadata for the model card. The calibration is not re-fitted here:
    ``oracular train prior`` runs ``calibrate`` next.
    """
    if not load_config(directory, answer=False).inputs.templates:
        raise ValueError(
            f"{directory} holds a version 1 model (value-full candidates): the prior needs version 2"
        )
    model = load_model(directory, "cpu", os.cpu_count() or 1, answer=False)  # batch work: every core
    cache = LogitCache.for_model(directory, cache_root)
    train_samples = read_samples(dataset_path(data, "train", "assertion"), limit, seed)
    several = _several_types(data, limit, seed)
    train = template_samples(model, train_samples, progress, "score train", cache)
    dev = template_samples(
        model,
        read_samples(dataset_path(data, "dev", "assertion"), dev_limit, seed),
        progress,
        "score dev",
        cache,
    )
    types_train = exception_type_samples(model, several, progress, "score train types", cache)
    dev_exceptions = read_samples(dataset_path(data, "dev", "exception"), dev_limit, seed)
    types_dev = exception_type_samples(model, dev_exceptions, progress, "score dev types", cache)
    prior = fit_prior(train, l2)
    bonuses = fit_exception_bonuses(types_train)
    prior.exception_first, prior.exception_named = bonuses.first, bonuses.named
    prior.exception_condition = bonuses.condition
    logger.info("prior: %s", describe(prior))
    report = {
        "train_samples": len(train),
        # what it was fitted on, by project: checked against the dev list (tests/models/test_shipped.py)
        "packages": sorted({s["package"] for s in [*train_samples, *several]}),
        "l2": l2,
        "dev_without": template_accuracy(dev),
        "dev_with": template_accuracy(dev, prior),
        "train_with": template_accuracy(train, prior),
        "type_train_samples": len(types_train),
        "types_dev_without": exception_type_accuracy(types_dev),
        "types_dev_with": exception_type_accuracy(types_dev, bonuses),
    }
    for name in ("dev_without", "dev_with", "types_dev_without", "types_dev_with"):
        logger.info("%s: %s", name, report[name])
    write_prior(directory, prior, report)
    return report
