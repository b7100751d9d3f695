"""Shipped weights: one folder with fp16 safetensors, a JSON config and the tokenizer files.

Why fp16 on disk: it halves the download (the shared MiniLM encoder is ~45 MB instead of ~90 MB)
at no measurable cost in ranking, and the weights are widened again when loaded (CPU) or kept in
half precision (CUDA). Everything that shapes the model's inputs or outputs (architecture, input
settings, calibration, thresholds) travels in ``config.json`` with the weights, so a model can
never be used with settings it was not trained or calibrated for.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from safetensors.torch import load_file, save_file
from tokenizers import Tokenizer

from oracular.models.backbone import copy_tokenizer, load_tokenizer
from oracular.models.calibration import Calibration
from oracular.models.inputs import InputSettings
from oracular.models.layout import CONFIG_FILE, DEFAULT_ARCHITECTURE, WEIGHTS_FILE
from oracular.models.network import EncoderConfig, OracleNetwork, build_network
from oracular.models.prior import TemplatePrior
from oracular.ranking.confidence import AnswerConfidence
from oracular.ranking.learned import LearnedRanker
from oracular.ranking.weights import RankingWeights

FORMAT = 1
INT8_SCHEMES = ("per-tensor", "per-channel")
"""int8 weight scales: one per matrix, or one per output channel (closer to fp32, as fast)."""
DEFAULT_INT8 = "per-tensor"
"""The scheme of a config that names none (models up to 4.6)."""


@dataclass
class ModelConfig:
    encoder: dict[str, Any]
    cross_layers: int | None = None
    """Top layers in which candidates attend to the context (``None``: all; see the network)."""
    architecture: str = DEFAULT_ARCHITECTURE
    """How candidates meet their context (:data:`oracular.models.layout.ARCHITECTURES`)."""
    inputs: InputSettings = field(default_factory=InputSettings)
    calibration: Calibration = field(default_factory=Calibration)
    prior: TemplatePrior = field(default_factory=TemplatePrior)
    """Added to the template logits (:mod:`oracular.models.prior`); none by default."""
    answer: AnswerConfidence | None = None
    """When to answer (:mod:`oracular.ranking.confidence`), fitted on realistic evaluations."""
    ranking_weights: RankingWeights | None = None
    """The ranking pipeline's weights fitted with this model (:mod:`oracular.ranking.weights`);
    ``None``: the hand-set defaults."""
    learned_ranker: LearnedRanker | None = None
    """A learned ranker over the candidates' features (:mod:`oracular.ranking.learned`), in place of
    the hand-set steps and the answer confidence; ``None``: those."""
    stages: list[str] = field(default_factory=list)
    """The stages trained so far (``exception``, ``ranker``); a later run keeps both trained."""
    metadata: dict[str, Any] = field(default_factory=dict)
    """Data, sizes, seeds, dev metrics: what the model card is written from."""
    int8: str = DEFAULT_INT8
    """How the CPU quantises the network's ``nn.Linear`` weights (:data:`INT8_SCHEMES`): the
    learned ranker's features and thresholds are fitted on scores of one scheme, so the model
    says which."""

    @classmethod
    def for_encoder(cls, config: Any, **kwargs: Any) -> ModelConfig:
        """``config``: an :class:`EncoderConfig` or the pretrained backbone's ``BertConfig``."""
        return cls(asdict(EncoderConfig.of(config)), **kwargs)

    def encoder_config(self) -> EncoderConfig:
        return EncoderConfig(**self.encoder)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "encoder": self.encoder,
            "cross_layers": self.cross_layers,
            "architecture": self.architecture,
            "inputs": self.inputs.to_json(),
            "calibration": self.calibration.to_json(),
            **({"prior": self.prior.to_json()} if self.prior.active else {}),
            **({"answer": self.answer.to_json()} if self.answer is not None else {}),
            **({"ranking_weights": self.ranking_weights.to_config()} if self.ranking_weights else {}),
            **({"learned_ranker": self.learned_ranker.to_config()} if self.learned_ranker else {}),
            "stages": self.stages,
            "metadata": self.metadata,
            **({"int8": self.int8} if self.int8 != DEFAULT_INT8 else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelConfig:
        if data.get("format") != FORMAT:
            raise ValueError(f"unsupported model format {data.get('format')!r} (expected {FORMAT})")
        return cls(
            data["encoder"],
            data.get("cross_layers"),
            data.get("architecture", DEFAULT_ARCHITECTURE),
            InputSettings(**data["inputs"]),
            Calibration.from_json(data["calibration"]),
            TemplatePrior.from_json(data.get("prior")),
            AnswerConfidence.from_json(data.get("answer")),
            RankingWeights.from_config(data["ranking_weights"]) if "ranking_weights" in data else None,
            LearnedRanker.from_config(data["learned_ranker"]) if "learned_ranker" in data else None,
            list(data.get("stages", [])),
            dict(data.get("metadata", {})),
            _int8_scheme(data.get("int8", DEFAULT_INT8)),
        )


def _int8_scheme(name: str) -> str:
    if name not in INT8_SCHEMES:
        raise ValueError(f"unknown int8 scheme {name!r} (expected one of {', '.join(INT8_SCHEMES)})")
    return name


def save(
    directory: Path, network: OracleNetwork, config: ModelConfig, tokenizer_source: Path | None = None
) -> None:
    """Write weights (fp16), config and tokenizer files; ``tokenizer_source`` defaults to the backbone's."""
    directory.mkdir(parents=True, exist_ok=True)
    state = {
        name: (tensor.half() if tensor.is_floating_point() else tensor).detach().cpu().contiguous()
        for name, tensor in network.state_dict().items()
    }
    save_file(state, str(directory / WEIGHTS_FILE), metadata={"format": str(FORMAT)})
    save_config(directory, config)
    if tokenizer_source != directory:
        copy_tokenizer(directory, tokenizer_source)


def save_config(directory: Path, config: ModelConfig) -> None:
    """The config alone: re-fitting the calibration or the prior leaves the weights as they are."""
    (directory / CONFIG_FILE).write_text(json.dumps(config.to_json(), indent=1) + "\n", encoding="utf-8")


def load_config(directory: Path, answer: bool = True) -> ModelConfig:
    """``answer=False``: without the answer confidence, which then need not match this version's
    features (``oracular train confidence`` replaces it)."""
    data = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
    if not answer:
        data.pop("answer", None)
    return ModelConfig.from_json(data)


def load(directory: Path, answer: bool = True) -> tuple[OracleNetwork, ModelConfig, Tokenizer]:
    """The network in float32 on the CPU (in eval mode), its config and its tokenizer
    (``answer``: as for :func:`load_config`)."""
    config = load_config(directory, answer)
    return load_network(directory, config), config, load_tokenizer(directory)


def load_network(directory: Path, config: ModelConfig) -> OracleNetwork:
    """The weights in ``directory`` in a float32 network of ``config``'s shape, in eval mode."""
    network = build_network(config.encoder_config(), config.cross_layers, config.architecture)
    state = {
        name: t.float() if t.is_floating_point() else t
        for name, t in load_file(str(directory / WEIGHTS_FILE)).items()
    }
    network.load_state_dict(state)
    return network.eval()


def size_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.iterdir() if p.is_file())
