"""Training the two stages on the mined corpus, then calibrating them on dev.

Why the stages share one encoder, and what a stage run does: both stages read the same context,
and one encoder keeps the shipped weights under 60 MB and the editor's latency to one context
pass. ``oracular train exception`` trains the encoder with the exception head (throws or not,
weighted against the class imbalance, plus which documented type); ``oracular train ranker``
trains it with the candidate scorer (softmax cross-entropy over a test's assertion candidates,
several correct ones allowed); ``all`` does both at once. A run continues from the model already
in ``--out``; a stage trained earlier but not named now is *rehearsed* on a fraction of its data,
so moving the shared encoder for one stage does not silently break the other.

After training, everything that turns raw outputs into decisions is fitted on dev (Platt scaling,
the exception threshold, the assertion temperature, the abstention threshold for a stated
precision: :mod:`oracular.training.scoring`) and saved with the weights, with the dev figures
for the model card.

Reproducible: data subsets, shuffling, candidate sampling and initialisation all follow ``seed``;
each epoch's batch order and each batch's sampled candidates are seeded by (seed, epoch, batch),
so a run cut short resumes from its last checkpoint exactly where it stopped (:class:`Checkpoint`).
A GPU waits on the tokenizer unless batches are encoded ahead, in worker processes (``workers``;
the batches: :mod:`oracular.training.batches`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import os
import platform
import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor
from tqdm import tqdm

from oracular.cache import default_cache_dir
from oracular.corpus.folds import held_out, parse_fold
from oracular.models import store
from oracular.models.backbone import load_tokenizer, pretrained_config, pretrained_state
from oracular.models.calibration import Calibration
from oracular.models.devices import select_device
from oracular.models.inputs import InputFormatter
from oracular.models.layout import weights_present
from oracular.models.network import OracleNetwork, build_network, collate
from oracular.models.prior import TemplatePrior
from oracular.training.batches import (
    encoded,
    encoding_workers,
    epoch_batches,
    exception_flags,
    label_mask,
)
from oracular.training.calibration import listwise_nll
from oracular.training.data import (
    Example,
    assertion_example,
    dataset_path,
    exception_example,
    read_samples,
)
from oracular.training.scoring import calibrate, score, with_prior
from oracular.training.settings import STAGES, TrainSettings

logger = logging.getLogger("oracular.train")

MAX_POS_WEIGHT = 50.0


@dataclass
class TrainResult:
    directory: Path
    steps: int
    seconds: float
    calibration: Calibration
    dev: dict[str, Any]


def _autocast_dtype(precision: str, device: str) -> torch.dtype | None:
    """bfloat16 for autocast, or ``None`` for plain float32."""
    if precision not in ("auto", "bf16", "fp32"):
        raise ValueError(f"unknown precision {precision!r} (auto, bf16 or fp32)")
    if precision == "bf16" or (precision == "auto" and device == "cuda" and torch.cuda.is_bf16_supported()):
        return torch.bfloat16
    return None


def seed_everything(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)


@contextmanager
def _log_to(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    previous = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)
        handler.close()


ADOPTED_INPUTS = ("templates", "test_name")
"""Input settings a continued model takes from the run instead of keeping its own."""


def start_folder(settings: TrainSettings) -> Path | None:
    """The trained model a run starts from: ``--out``'s own, else ``--init``'s; ``None``: MiniLM.
    Its tokenizer files go with the new weights, so fine-tuning needs no backbone package."""
    return settings.out if weights_present(settings.out) else settings.init


def _check_hold_out(settings: TrainSettings) -> None:
    """A run holding a fold out (``hold_out``) starts from MiniLM or from a model every network
    training of which held the same fold out (a resumed fold); a ``ValueError`` otherwise, before
    anything is written: the shipped model saw every fold."""
    if settings.hold_out is None:
        return
    parse_fold(settings.hold_out)
    start = start_folder(settings)
    if start is None:
        return
    metadata = store.load_config(start).metadata
    runs = [
        metadata[key] for stage in ("all", "exception", "ranker") if (key := f"last_{stage}_run") in metadata
    ]
    if not runs or any(run.get("settings", {}).get("hold_out") != settings.hold_out for run in runs):
        raise ValueError(
            f"--hold-out trains from MiniLM: the model in {start} (--init, or --out's own) saw fold "
            f"{settings.hold_out}"
        )


def initial_network(settings: TrainSettings) -> tuple[OracleNetwork, store.ModelConfig, Any]:
    """Continue the model in ``--out`` (else ``--init``'s), else start from pretrained MiniLM (or a
    random test encoder). A continued model keeps its input settings, except whether candidates
    are templates, which follows the data it is now trained on, and whether it reads the test's
    name, which a continued model can learn to (it adds words, no weights); re-calibrating trains
    on nothing, so the model keeps those too."""
    start = start_folder(settings)
    if start is not None:
        # without the answer confidence: it was fitted on the ranking this run replaces
        network, config, tokenizer = store.load(start, answer=False)
        if STAGES.get(settings.stage):
            for name in ADOPTED_INPUTS:
                wanted = getattr(settings.inputs, name)
                if getattr(config.inputs, name) != wanted:
                    config.inputs = dataclasses.replace(config.inputs, **{name: wanted})
                    logger.info("%s: input setting %s is %s now", start, name, wanted)
        if STAGES.get(settings.stage) and config.inputs != settings.inputs:
            logger.warning("continuing %s: keeping its input settings %s", start, config.inputs)
        return network, config, tokenizer
    encoder = settings.encoder_config or pretrained_config()
    network = build_network(encoder, settings.cross_layers, settings.architecture)
    if settings.encoder_config is None:
        wanted = network.bert.state_dict()
        pretrained = {k: v for k, v in pretrained_state().items() if k in wanted}
        network.bert.load_state_dict(pretrained, strict=True)
    if settings.inputs.max_context + settings.inputs.max_candidate > network.config.max_position_embeddings:
        raise ValueError("max context + candidate tokens exceed the encoder's positions")
    config = store.ModelConfig.for_encoder(
        network.config,
        cross_layers=network.bert.cross_layers,
        architecture=settings.architecture,
        inputs=settings.inputs,
    )
    return network, config, load_tokenizer()


def _train_samples(settings: TrainSettings, kind: str) -> list[dict[str, Any]]:
    """Training samples of one kind, none of the held-out fold's projects (``hold_out``); for
    assertions only those with the answer among the candidates."""

    fold = parse_fold(settings.hold_out) if settings.hold_out is not None else None

    def keep(sample: dict[str, Any]) -> bool:
        if held_out(sample["package"], fold):
            return False
        return kind != "assertion" or bool(sample["labels"])

    return read_samples(dataset_path(settings.data, "train", kind), settings.limit, settings.seed, keep)


def _dev_examples(settings: TrainSettings, kind: str, formatter: InputFormatter) -> list[Example]:
    """Dev examples with every candidate (calibration and figures need the full sets)."""
    samples = read_samples(dataset_path(settings.data, "dev", kind), settings.dev_limit, settings.seed)
    make = exception_example if kind == "exception" else assertion_example
    return [make(s, formatter) for s in samples]


def batch_loss(
    network: OracleNetwork, examples: Sequence[Example], pad_id: int, pos_weight: float, device: str
) -> Tensor:
    """The loss of a homogeneous batch: exception samples, or assertion samples."""
    batch = collate([e.encoded for e in examples], pad_id).to(device)
    exception_logits, logits = network(batch)
    count = logits.shape[1]
    present = batch.candidate_present
    is_exception = exception_flags(examples, count).to(device)
    labels = label_mask(examples, count).to(device)
    logits = logits.float()
    if examples[0].throws is None:
        return listwise_nll(logits, present & ~is_exception, labels).mean()
    throws = torch.tensor([bool(e.throws) for e in examples], dtype=torch.float32, device=device)
    loss = F.binary_cross_entropy_with_logits(
        exception_logits.float(), throws, pos_weight=torch.tensor(pos_weight, device=device)
    )
    typed = throws.bool() & labels.any(-1)
    if typed.any():
        loss = loss + listwise_nll(logits, present & is_exception, labels)[typed].mean()
    return loss


@dataclass
class _Session:
    """One :func:`train` call's model on its device, and what its steps share."""

    settings: TrainSettings
    network: OracleNetwork
    config: store.ModelConfig
    formatter: InputFormatter
    device: str
    dtype: torch.dtype | None
    """bfloat16 autocast, or ``None`` for plain float32."""
    trained: set[str]
    """The stages named now (none for ``calibrate``)."""
    rehearsed: set[str]
    tokenizer_source: Path | None
    """Where the tokenizer files come from (:func:`start_folder`; ``None``: the backbone)."""


def _start(settings: TrainSettings) -> _Session:
    """Seeded before the network is built, so that a fresh model's initialisation follows ``seed``."""
    seed_everything(settings.seed)
    device = select_device(settings.device)
    dtype = _autocast_dtype(settings.precision, device)
    named = set(STAGES[settings.stage])
    if not named and not weights_present(settings.out):
        raise ValueError(f"no trained model in {settings.out} to calibrate")
    network, config, tokenizer = initial_network(settings)
    network.to(device)
    formatter = InputFormatter(tokenizer, config.inputs)
    if "ranker" in named and config.prior.active:
        logger.warning("the template prior was fitted on the old ranker: dropped (refit it: train prior)")
        config.prior = TemplatePrior()
    rehearsed = set(config.stages) - named if named else set()
    source = start_folder(settings)
    logger.info(
        "training %s on %s (device %s, %s, seed %d); rehearsing %s",
        sorted(named),
        settings.data,
        device,
        "bfloat16 autocast" if dtype else "float32",
        settings.seed,
        sorted(rehearsed) or "nothing",
    )
    return _Session(settings, network, config, formatter, device, dtype, named, rehearsed, source)


def _training_data(session: _Session, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """Per kind, the samples to train on: a named stage's all, a rehearsed stage's seeded share."""
    settings = session.settings
    data: dict[str, list[dict[str, Any]]] = {}
    for stage, kind in (("exception", "exception"), ("ranker", "assertion")):
        if stage not in session.trained | session.rehearsed:
            continue
        rehearsed = stage in session.rehearsed
        samples = _train_samples(settings, kind)
        if rehearsed:
            samples = rng.sample(samples, math.ceil(settings.rehearse * len(samples)))
        data[kind] = samples
        logger.info("train %s: %d samples%s", kind, len(samples), " (rehearsal)" if rehearsed else "")
    return data


def _optimiser(network: OracleNetwork, settings: TrainSettings) -> torch.optim.Optimizer:
    """AdamW; the heads learn faster than the pretrained encoder (their rates: :func:`_set_rates`)."""
    network.bert.embeddings.word_embeddings.weight.requires_grad_(settings.train_embeddings)
    encoder = [p for p in network.bert.parameters() if p.requires_grad]
    heads = [*network.exception_head.parameters(), *network.candidate_head.parameters()]
    return torch.optim.AdamW(
        [
            {"params": encoder, "lr": settings.lr, "base_lr": settings.lr},
            {"params": heads, "lr": settings.head_lr, "base_lr": settings.head_lr},
        ],
        weight_decay=0.01,
    )


def rate_factor(settings: TrainSettings, step: int, total: int, seconds: float) -> float:
    """Linear warm-up over the first ``warmup`` of the run, then linear decay to zero at its end.

    Without a time budget the run is its steps. With one, it is as far along as the further of
    its steps and its seconds, so warm-up and decay fit the budget when the steps would not.
    """
    warmup = max(1, int(settings.warmup * total))
    if not settings.time_budget:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total - step) / max(1, total - warmup))
    progress = max(step / total, seconds / settings.time_budget)
    if progress < settings.warmup and step < warmup:
        return min(1.0, max((step + 1) / warmup, progress / settings.warmup))
    return max(0.0, min(1.0, (1.0 - progress) / (1.0 - settings.warmup)))


def _set_rates(optimiser: torch.optim.Optimizer, factor: float) -> None:
    for group in optimiser.param_groups:
        group["lr"] = group["base_lr"] * factor


@dataclass
class Position:
    """Where a run stands: the next batch to train on and the training seconds so far."""

    step: int = 0
    epoch: int = 1
    index: int = 0
    seconds: float = 0.0


class Checkpoint:
    """A run's weights, optimiser state and :class:`Position`, saved every ``checkpoint_every``
    steps, so a run cut short (a lent GPU's minutes end, a session stops) continues where it
    stopped when the same command runs again. Another run's checkpoint (other settings) is
    ignored and overwritten; a finished run removes its checkpoint once the model is saved."""

    def __init__(self, settings: TrainSettings) -> None:
        self.path = settings.checkpoint or self.default_path(settings)
        self.fingerprint = self._fingerprint(settings)

    @staticmethod
    def default_path(settings: TrainSettings) -> Path:
        name = hashlib.sha1(str(settings.out.resolve()).encode()).hexdigest()[:12]
        return default_cache_dir() / "checkpoints" / f"{settings.stage}-{name}.pt"

    @staticmethod
    def _fingerprint(settings: TrainSettings) -> str:
        """The settings that decide the run's batches and rates: a checkpoint of other ones is
        another run's. The progress bar, the worker count and the checkpoint cadence do not."""
        kept = {
            k: str(v)
            for k, v in asdict(settings).items()
            if k
            not in ("progress", "workers", "checkpoint", "checkpoint_every", "dev_limit", "target_precision")
        }
        return hashlib.sha1(json.dumps(kept, sort_keys=True).encode()).hexdigest()

    def restore(self, network: OracleNetwork, optimiser: torch.optim.Optimizer) -> Position:
        if not self.path.is_file():
            return Position()
        state = torch.load(self.path, map_location="cpu", weights_only=False)
        if state.get("fingerprint") != self.fingerprint:
            logger.warning("%s holds another run's checkpoint (other settings): starting afresh", self.path)
            return Position()
        network.load_state_dict(state["network"])
        optimiser.load_state_dict(state["optimiser"])
        torch.random.set_rng_state(state["rng"])
        if state.get("cuda_rng") is not None and torch.cuda.is_available():
            torch.cuda.set_rng_state_all(state["cuda_rng"])
        position = Position(**state["position"])
        logger.info(
            "resuming from %s: step %d, epoch %d, batch %d, %.0f s trained",
            self.path,
            position.step,
            position.epoch,
            position.index,
            position.seconds,
        )
        return position

    def save(self, network: OracleNetwork, optimiser: torch.optim.Optimizer, position: Position) -> None:
        """Written aside, then moved over the last one: a run killed while saving keeps the last."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".partial")
        state = {
            "fingerprint": self.fingerprint,
            "network": network.state_dict(),
            "optimiser": optimiser.state_dict(),
            "position": asdict(position),
            "rng": torch.random.get_rng_state(),  # dropout's, so a resumed run is the same run
            "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_initialized() else None,
        }
        torch.save(state, partial)
        os.replace(partial, self.path)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def _pos_weight(exceptions: Sequence[dict[str, Any]]) -> float:
    """The weight of a throwing sample in the exception loss, against the class imbalance: few
    samples throw, and unweighted the head would learn that nothing does (capped: a rare throwing
    sample must not outweigh everything else)."""
    positives = sum(bool(s["label"]) for s in exceptions)
    pos_weight = min(MAX_POS_WEIGHT, (len(exceptions) - positives) / positives) if positives else 1.0
    logger.info("exception pos_weight %.2f (%d of %d throwing)", pos_weight, positives, len(exceptions))
    return pos_weight


def _step(
    session: _Session, optimiser: torch.optim.Optimizer, examples: Sequence[Example], pos_weight: float
) -> Tensor:
    """One optimiser step on a homogeneous batch (under autocast, gradient norm clipped to 1);
    returns its loss, for the progress bar and the log."""
    network, device, dtype = session.network, session.device, session.dtype
    with torch.autocast(device, dtype=dtype or torch.bfloat16, enabled=dtype is not None):
        loss = batch_loss(network, examples, session.formatter.pad_id, pos_weight, device)
    optimiser.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(network.parameters(), 1.0)
    optimiser.step()
    return loss


def _fit(session: _Session, data: dict[str, list[dict[str, Any]]], checkpoint: Checkpoint) -> int:
    """The training loop; returns the steps. Ends at the last step, or when the time budget is
    spent; checkpoints on the way."""
    network, formatter, settings = session.network, session.formatter, session.settings
    pos_weight = _pos_weight(data.get("exception", []))
    per_epoch = sum(math.ceil(len(v) / settings.batch_size) for v in data.values())
    total = per_epoch * settings.epochs
    if settings.max_steps is not None:
        total = min(total, settings.max_steps)
    optimiser = _optimiser(network, settings)
    position = checkpoint.restore(network, optimiser)
    workers = encoding_workers(settings, session.device)
    network.train()
    started = time.monotonic() - position.seconds

    def out_of_time() -> bool:
        return settings.time_budget is not None and position.seconds >= settings.time_budget

    bar = tqdm(
        total=total,
        initial=position.step,
        desc=f"train {settings.stage}",
        unit="step",
        disable=not settings.progress,
    )
    with bar:
        for epoch in range(position.epoch, settings.epochs + 1):
            if position.step >= total or out_of_time():
                break
            batches = epoch_batches(data, settings, epoch)
            start = position.index if epoch == position.epoch else 0
            for index, _kind, examples in encoded(batches, start, epoch, formatter, settings, workers):
                _set_rates(optimiser, rate_factor(settings, position.step, total, position.seconds))
                loss = _step(session, optimiser, examples, pos_weight)
                position = Position(position.step + 1, epoch, index + 1, time.monotonic() - started)
                bar.update()
                bar.set_postfix(loss=f"{loss.item():.3f}", epoch=epoch)
                if position.step % 50 == 0:
                    logger.info(
                        "step %d/%d epoch %d loss %.4f (%.0f s)",
                        position.step,
                        total,
                        epoch,
                        loss.item(),
                        position.seconds,
                    )
                if settings.checkpoint_every and position.step % settings.checkpoint_every == 0:
                    checkpoint.save(network, optimiser, position)
                if position.step >= total or out_of_time():
                    break
            else:
                position = Position(position.step, epoch + 1, 0, position.seconds)
    if out_of_time():
        logger.info(
            "time budget of %.0f s spent after %d of %d steps", settings.time_budget, position.step, total
        )
    return position.step


def _calibrate_on_dev(session: _Session) -> tuple[Calibration, dict[str, Any]]:
    """Fitted on dev, never on train: the network has seen train and is overconfident there."""
    settings, formatter = session.settings, session.formatter
    exceptions, assertions = (
        score(
            session.network,
            _dev_examples(settings, kind, formatter),
            formatter.pad_id,
            session.device,
            settings.batch_size,
            session.dtype,
            settings.progress,
            f"dev {kind}",
        )
        for kind in ("exception", "assertion")
    )
    if session.config.prior.active:
        exceptions = [with_prior(s, session.config.prior) for s in exceptions]
        assertions = [with_prior(s, session.config.prior) for s in assertions]
    calibration, dev = calibrate(exceptions, assertions, settings.target_precision)
    logger.info("calibration: %s", calibration)
    logger.info("dev: %s", dev)
    if calibration.abstain_below >= 1.0:
        logger.warning(
            "dev top-1 precision never reaches %.2f: the model will abstain almost always",
            settings.target_precision,
        )
    return calibration, dev


def _save(session: _Session, result: TrainResult, train_samples: dict[str, int]) -> None:
    """The weights with their calibration, and this run's record next to the other stages' last
    runs (the model card reads them)."""
    settings, config = session.settings, session.config
    config.calibration = result.calibration
    config.stages = sorted(set(config.stages) | session.trained)
    run = {
        k: str(v) if isinstance(v, Path) else v
        for k, v in asdict(settings).items()
        if k not in ("encoder_config", "inputs")
    }
    config.metadata = {
        **config.metadata,
        f"last_{settings.stage}_run": {
            "settings": run,
            "train_samples": train_samples,
            "steps": result.steps,
            "seconds": round(result.seconds),
            "device": session.device,
            "torch": torch.__version__,
            "machine": platform.machine(),
        },
        "dev": result.dev,
    }
    session.network.cpu()
    store.save(settings.out, session.network, config, session.tokenizer_source)
    if set(config.stages) != {"exception", "ranker"}:
        logger.warning("%s holds a model with only %s trained", settings.out, config.stages)
    logger.info(
        "saved %s (%.1f MB) after %d steps in %.0f s",
        settings.out,
        store.size_bytes(settings.out) / 1e6,
        result.steps,
        result.seconds,
    )


def train(settings: TrainSettings) -> TrainResult:
    """Train ``settings.stage``, calibrate on dev, and save to ``settings.out``."""
    if settings.stage not in STAGES:
        raise ValueError(f"unknown stage {settings.stage!r} ({', '.join(STAGES)})")
    _check_hold_out(settings)
    start = time.monotonic()
    with _log_to(settings.out / "train.log"):
        session = _start(settings)
        data = _training_data(session, random.Random(settings.seed))
        checkpoint = Checkpoint(settings)
        steps = _fit(session, data, checkpoint) if data else 0
        calibration, dev = _calibrate_on_dev(session)
        result = TrainResult(settings.out, steps, time.monotonic() - start, calibration, dev)
        _save(session, result, {kind: len(samples) for kind, samples in data.items()})
        checkpoint.remove()
        return result
