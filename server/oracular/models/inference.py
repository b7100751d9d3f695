"""A loaded model answering the engine: one test, all its candidates, the context encoded once.

Why the device rules: on a GPU the weights run in half precision; on a CPU the Linear layers
(most of the compute) are dynamically quantised to int8, which made ranking a test about 1.6x
faster end to end on a VNNI-capable Xeon (``bench/model_bench.py --no-quantise``) and keeps the
ranking (the unit tests check that the order survives it).
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import torch
from torch import nn
from torch.nn.attention import SDPBackend, sdpa_kernel

from oracular.candidates.template_features import TemplateContext
from oracular.candidates.templates import group_by_template, spread, target_templates
from oracular.candidates.text import candidate_text
from oracular.java import syntax
from oracular.models.backbone import load_tokenizer
from oracular.models.calibration import Calibration, Prediction, predict
from oracular.models.devices import select_device
from oracular.models.inputs import Encoded, InputFormatter, focal_context
from oracular.models.int8_store import quantised_network
from oracular.models.network import OracleNetwork, pad_candidates
from oracular.models.prior import TemplatePrior
from oracular.models.store import DEFAULT_INT8, load_config, load_network
from oracular.ranking.baseline import value_weights
from oracular.ranking.confidence import AnswerConfidence, AnswerView, plain_confidence
from oracular.ranking.learned import LearnedRanker
from oracular.ranking.problem import OracleProblem, Ranker, Ranking
from oracular.ranking.weights import RankingWeights

CHUNK = 16
"""Candidates scored per forward pass on a CPU (see :meth:`LoadedModel.logits`); a GPU scores
all of a test's candidates in one pass."""
CPU_THREADS = 1
"""torch threads for CPU inference. An editor's machine is busy (the editor, builds, the server):
on a shared 2-core CPU, two threads made the dev p95 15x worse than one (each step waits for
the slower thread), while one thread kept it under 130 ms (``bench/model_bench.py --threads``)."""


# torch.ao's dynamic quantisation is deprecated in favour of torchao, which is not a dependency;
# it still works. Filters for exactly its two warnings, installed once: a catch_warnings() around
# the call would swap the process's filters while other threads (the language server's) run.
warnings.filterwarnings("ignore", "torch.ao.quantization is deprecated", DeprecationWarning)
warnings.filterwarnings("ignore", "torch.quantize_per_tensor, torch.quantize_per_channel", UserWarning)


def quantise(network: nn.Module, scheme: str = DEFAULT_INT8) -> nn.Module:
    """int8 dynamic quantisation of every ``nn.Linear`` (weights int8, activations quantised per
    call), with one weight scale per matrix (``per-tensor``) or per output channel.

    Why the model chooses: per channel the network is closer to fp32 (on 600 one-cut tune dev
    tests exception F1 0.874 against 0.824, fp32 0.886; template top-1 50.0 against 49.8%, same
    speed), but the engine did not gain from it: with the learned ranker fitted per matrix on tune
    (static top-1 29.6 -> 28.2% one-cut), and with the static one refitted per channel on report
    (18.3 -> 17.9%, exception F1 0.79 -> 0.77; ``docs/training.md``). The scheme goes with the
    learned parts fitted on its scores (:attr:`~oracular.models.store.ModelConfig.int8`).
    """
    from torch.ao.quantization import default_dynamic_qconfig, per_channel_dynamic_qconfig, quantize_dynamic

    qconfig = per_channel_dynamic_qconfig if scheme == "per-channel" else default_dynamic_qconfig
    return quantize_dynamic(network, {nn.Linear: qconfig}, dtype=torch.qint8)


QUANTISATIONS = {"per-tensor": "dynamic qint8, per tensor", "per-channel": "dynamic qint8, per channel"}
"""What :func:`quantise` does per scheme, in the name of the int8 weights it keeps (``int8_store``)."""


def prepared(network: nn.Module, device: str, scheme: str = DEFAULT_INT8) -> nn.Module:
    """``network`` (float32, on the CPU) as it runs on ``device``: half precision on CUDA, else
    int8 by ``scheme``."""
    network.eval()
    return network.to("cuda").half() if device == "cuda" else quantise(network, scheme)


def problem_context(problem: OracleProblem) -> tuple[list[str], dict | None]:
    """The prefix statements' texts and the focal context of a live engine problem."""
    return [syntax.text(s) for s in problem.prefix.statements], focal_context(
        problem.focal, problem.prefix.guard_verdict
    )


def problem_inputs(problem: OracleProblem) -> tuple[list[str], dict | None, list[str]]:
    """The three texts :meth:`InputFormatter.encode` takes, read from a live engine problem."""
    return *problem_context(problem), [candidate_text(c) for c in problem.candidates]


def _rank_templates(model: LoadedModel, problem: OracleProblem) -> Ranking:
    """Version 2: score each distinct template once, then share its score among its values."""
    statements, focal = problem_context(problem)
    texts, group = group_by_template(problem.candidates)
    first = {g: i for i, g in reversed(list(enumerate(group)))}
    flags = [problem.candidates[first[g]].kind == "exception" for g in range(len(texts))]
    encoded = model.formatter.encode(statements, focal, texts, problem.test_name)
    exception_logit, logits = model.logits(encoded)
    if model.prior.active:
        order, _ = group_by_template(target_templates(problem.prefix.targets))
        context = TemplateContext(
            statements, problem.test_name, problem.asserted, problem.prefix.computes_value, focal
        )
        logits = model.prior.adjust(logits, texts, flags, context, order)
    prediction = predict(exception_logit, logits, torch.tensor(flags, dtype=torch.bool), model.calibration)
    scores = spread(prediction.scores, group, value_weights(problem))
    index = prediction.exception_index
    exception_type = problem.candidates[first[index]].exception if index is not None else None
    return Ranking(
        prediction.exception_probability, exception_type or "Exception", scores, model.prior.habits
    )


@dataclass
class LoadedModel(Ranker):
    """The model, ready to rank (a :class:`~oracular.ranking.problem.Ranker` in its own right)."""

    name: ClassVar[str] = "neural"
    network: nn.Module
    formatter: InputFormatter
    calibration: Calibration
    device: str
    prior: TemplatePrior = field(default_factory=TemplatePrior)
    answer: AnswerConfidence | None = None
    """The fitted answer confidence (:mod:`oracular.ranking.confidence`), if the config has one."""
    weights: RankingWeights | None = None
    """The ranking pipeline's weights, if the config has them."""
    learned: LearnedRanker | None = None
    """The learned ranker, if the config has one."""

    @property
    def ranking_weights(self) -> RankingWeights | None:
        return self.weights

    @property
    def learned_ranker(self) -> LearnedRanker | None:
        return self.learned

    @classmethod
    def from_network(
        cls,
        network: OracleNetwork,
        formatter: InputFormatter,
        calibration: Calibration,
        device: str,
        prior: TemplatePrior | None = None,
        answer: AnswerConfidence | None = None,
        weights: RankingWeights | None = None,
        learned: LearnedRanker | None = None,
        int8: str = DEFAULT_INT8,
    ) -> LoadedModel:
        return cls(
            prepared(network, device, int8), formatter, calibration, device, prior or TemplatePrior(), answer,
            weights, learned,
        )  # fmt: skip

    def predict(self, encoded: Encoded, is_exception: list[bool]) -> Prediction:
        """Calibrated scores for every candidate of one test (no template prior: value-full
        candidates, version 1)."""
        exception_logit, logits = self.logits(encoded)
        return predict(
            exception_logit, logits, torch.tensor(is_exception, dtype=torch.bool), self.calibration
        )

    def logits(self, encoded: Encoded) -> tuple[float, torch.Tensor]:
        """Raw outputs: the exception logit and one logit per candidate.

        The context once, then the candidates shortest first, in chunks padded on their own.

        Chunking by length matters on a CPU: padding 64 candidates to the longest one (often a
        long string literal) would do up to twice the work for nothing. Scores do not depend on
        how candidates are batched. On a GPU padding is cheap next to a call's fixed cost and
        every new shape costs, so one call takes them all (the network still attends in groups).
        """
        ids = torch.tensor([encoded.context], device=self.device)
        lengths = [len(c) for c in encoded.candidates]
        order = sorted(range(len(lengths)), key=lengths.__getitem__)
        logits = torch.zeros(len(order))
        step = CHUNK if self.device == "cpu" else max(1, len(order))
        with torch.inference_mode(), attention_kernels(self.device):
            context, exception = self.network.encode(ids, torch.ones_like(ids, dtype=torch.bool))
            for start in range(0, len(order), step):
                chunk = order[start : start + step]
                group = [[encoded.candidates[i] for i in chunk]]
                candidate_ids, mask = pad_candidates(group, self.formatter.pad_id)
                scores = self.network.score(context, candidate_ids.to(self.device), mask.to(self.device))
                logits[chunk] = scores[0].float().cpu()
        return float(exception[0]), logits

    @property
    def abstain_below(self) -> float:
        return self.answer.threshold if self.answer is not None else self.calibration.abstain_below

    def abstain_below_for(self, view: AnswerView) -> float:
        return self.answer.threshold_for(view) if self.answer is not None else self.calibration.abstain_below

    def answer_confidence(self, view: AnswerView) -> float:
        return self.answer.probability(view) if self.answer is not None else plain_confidence(view)

    def rank(self, problem: OracleProblem) -> Ranking:
        if self.formatter.settings.templates:
            return _rank_templates(self, problem)
        statements, focal, texts = problem_inputs(problem)
        prediction = self.predict(
            self.formatter.encode(statements, focal, texts, problem.test_name),
            [c.kind == "exception" for c in problem.candidates],
        )
        index = prediction.exception_index
        exception_type = problem.candidates[index].exception if index is not None else None
        return Ranking(prediction.exception_probability, exception_type or "Exception", prediction.scores)


def attention_kernels(device: str) -> contextlib.AbstractContextManager[object]:
    """On CUDA, the attention kernels that take any mask without a per-shape set-up: the
    memory-efficient one, else the plain one; never cuDNN's.

    Why: every test has its own shape (context, candidate count and length). On the H100 a
    realistic dev test took 196 ms p50 against 29.6 ms for the fixed-shape worst case with more
    tokens (``docs/benchmarks.md``): the cost follows new shapes, as cuDNN's attention does, which
    builds an execution graph for each new shape (pytorch#191576 measured 42 ms per uncached
    build). Chosen on that evidence, not yet timed on a GPU: the next lent GPU's benchmark says.
    A CPU keeps torch's choice, its own flash kernel included.
    """
    if device != "cuda":
        return contextlib.nullcontext()
    return sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH])


def load_model(
    directory: Path, device: str = "auto", cpu_threads: int | None = CPU_THREADS, answer: bool = True
) -> LoadedModel:
    """Load shipped weights for inference on ``device`` (``auto``, ``cpu`` or ``cuda``).

    On a CPU this sets torch's (process-wide) thread count to ``cpu_threads`` unless ``None``.
    ``answer=False``: without the answer confidence (training ranks without it).
    """
    config = load_config(directory, answer)
    formatter = InputFormatter(load_tokenizer(directory), config.inputs)
    device = select_device(device)
    if device == "cpu" and cpu_threads is not None:
        torch.set_num_threads(cpu_threads)
    if device == "cuda":
        network = prepared(load_network(directory, config), device)
    else:  # the int8 weights as a previous load left them (int8_store)
        network = quantised_network(
            directory, config, lambda: load_network(directory, config),
            lambda loaded: quantise(loaded, config.int8), QUANTISATIONS[config.int8],
        )  # fmt: skip
    return LoadedModel(
        network, formatter, config.calibration, device, config.prior, config.answer, config.ranking_weights,
        config.learned_ranker,
    )  # fmt: skip
