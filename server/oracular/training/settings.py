"""How a training run is set: :class:`TrainSettings`, which ``oracular train`` reads its options
from (:mod:`oracular.options`: each option is said once, on its field).

Why a module of its own: the command line registers these options at every start, and must not
import torch or the trainer for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.models.inputs import InputSettings
from oracular.models.layout import ARCHITECTURES, DEFAULT_ARCHITECTURE
from oracular.options import option

if TYPE_CHECKING:
    from transformers import BertConfig

STAGES = {
    "exception": ("exception",),
    "ranker": ("ranker",),
    "all": ("exception", "ranker"),
    "calibrate": (),
}
"""What each ``oracular train`` stage trains; ``calibrate`` trains nothing and only re-fits the
calibration of a trained model on dev (another ``--target-precision``, another dev sample)."""
TARGET_PRECISION = 0.25
"""The default top-1 precision the abstention threshold is chosen for. It counts every dev
assertion sample, two thirds of which the grammar cannot express, so the first models' top-1 is
about 18% when always answering and about 26% on their most confident 40%: 0.8 was never
reached, and a model that always abstains helps no one."""


@dataclass
class TrainSettings:
    stage: str
    """``exception``, ``ranker``, ``all`` or ``calibrate`` (see :data:`STAGES`)."""
    data: Path
    out: Path
    device: str = "auto"
    """One of :data:`~oracular.models.devices.DEVICES` (an option shared with ``oracular eval``)."""
    limit: int | None = field(default=None, metadata=option("train samples per dataset", metavar="N"))
    """Training samples per dataset (a seeded random subset); ``None``: all."""
    dev_limit: int | None = field(default=1000, metadata=option("dev samples per dataset", metavar="N"))
    """Dev samples per dataset used for calibration and the dev figures."""
    epochs: int = field(default=1, metadata=option("passes over the training data", metavar="N"))
    max_steps: int | None = field(default=None, metadata=option("stop after this many steps", metavar="N"))
    batch_size: int = field(default=16, metadata=option("samples per step", metavar="N"))
    lr: float = field(default=5e-5, metadata=option("encoder learning rate (heads: --head-lr)", metavar="LR"))
    head_lr: float = field(default=1e-3, metadata=option("the heads' learning rate", metavar="LR"))
    warmup: float = field(default=0.06, metadata=option("share of the steps the rate warms up", metavar="F"))
    train_candidates: int = field(
        default=16,
        metadata=option(
            "candidates per assertion sample in training: the correct ones plus sampled wrong ones",
            metavar="N",
        ),
    )
    rehearse: float = field(
        default=0.3, metadata=option("fraction of an earlier-trained stage's data replayed", metavar="F")
    )
    target_precision: float = field(
        default=TARGET_PRECISION,
        metadata=option(
            "top-1 precision the abstention threshold is chosen for: over all dev assertion samples "
            "(default 0.25), or, for the confidence stage, over realistic answers (default 0.6)",
            metavar="P",
        ),
    )
    hold_out: str | None = field(
        default=None,
        metadata=option(
            "leave the train projects of fold K of N out (K/N, K from 0): a network cross-fitted by "
            "project, whose scores on that fold are out of sample (start it from MiniLM, not --init)",
            metavar="K/N",
        ),
    )
    """Train without the projects of this fold (:mod:`oracular.corpus.folds`)."""
    inputs: InputSettings = field(default_factory=InputSettings)
    seed: int = field(default=13, metadata=option("seed of every random draw", metavar="N"))
    cross_layers: int | None = field(
        default=None,
        metadata=option(
            "top encoder layers in which candidates attend to the context (default: all; fewer: faster)",
            metavar="K",
        ),
    )
    """Top encoder layers in which candidates attend to the context (``None``: all); fresh models only."""
    architecture: str = field(
        default=DEFAULT_ARCHITECTURE,
        metadata=option(
            "cross-encoder: one full pass per candidate, as TOGA (slow; for comparison)",
            choices=ARCHITECTURES,
        ),
    )
    """``cross-encoder``: the plain cross-encoder the shipped design is compared with; fresh models only."""
    train_embeddings: bool = field(default=False, metadata=option("also fine-tune the word embeddings"))
    """Also fine-tune the word embeddings (slower on CPU; rarely worth it)."""
    precision: str = field(
        default="auto",
        metadata=option(
            "auto: bfloat16 autocast on a GPU that supports it, float32 on a CPU",
            choices=("auto", "bf16", "fp32"),
        ),
    )
    """``auto`` (bfloat16 autocast on a GPU that has it, float32 on a CPU, where autocast measured
    slower), ``bf16`` or ``fp32``."""
    encoder_config: BertConfig | None = None
    """A fresh, randomly initialised encoder of this shape instead of pretrained MiniLM (tests)."""
    progress: bool = True
    init: Path | None = field(
        default=None,
        metadata=option(
            "start from the model in DIR (fine-tune it) when --out holds none, instead of pretrained MiniLM",
            metavar="DIR",
        ),
    )
    """A trained model to start from when ``out`` holds none (fine-tuning), instead of MiniLM."""
    time_budget: float | None = field(
        default=None,
        metadata=option(
            "train for at most this long (the learning rate decays to zero by then); for a lent GPU",
            metavar="SECONDS",
        ),
    )
    """Seconds of training at most (resumed runs count their earlier seconds): the learning rate
    decays by steps or by time, whichever runs out first, so a run stopped by its budget ends
    decayed, as a full one does. For a lent GPU whose minutes are counted."""
    checkpoint: Path | None = field(
        default=None,
        metadata=option(
            "the run's checkpoint, resumed from when the same command runs again "
            "(default: under the cache, named for --out and the stage)",
            metavar="FILE",
        ),
    )
    """Where the run's checkpoint goes (default: under the cache, named for ``out`` and ``stage``)."""
    checkpoint_every: int = field(
        default=200, metadata=option("steps between checkpoints (0: none)", metavar="N")
    )
    workers: int | None = field(
        default=None,
        metadata=option(
            "processes encoding batches ahead of the step (default: none on a CPU, up to 8 beside a GPU)",
            metavar="N",
        ),
    )
    """Processes encoding batches ahead of the training step (``None``: none on a CPU, where they
    would compete with the step for cores, up to 8 beside a GPU)."""
