"""The network: one BERT encoder shared by the exception head and the candidate scorer.

Why this shape. TOGA's cross-encoder runs the whole (focal, prefix, candidate) text through
RoBERTa once per candidate: ~64 passes over ~200 tokens for one test. Here the context
(prefix + focal) is encoded ONCE and each layer's keys and values are kept; each candidate's
few tokens then go through the same layers, attending to their own tokens and, in the top
``cross_layers`` layers, to the cached context keys/values (the context never attends to
candidates). With every layer crossing, this is exactly a cross-encoder whose attention mask
hides the candidate from the context; the cost per candidate is that of its ~16 tokens, not of
the ~250 shared ones. Fewer crossing layers make candidates cheaper still (about a fifth less
time for 64 candidates on a CPU with two instead of six; ``bench/model_bench.py``). The
exception head reads the pooled context alone.

For comparison, :class:`CrossEncoderNetwork` is TOGA's shape on the same encoder, heads and
inputs: each candidate is read together with its context in one full-attention pass, so the
context also sees the candidate. It is as exact as a cross-encoder gets and costs a whole
context pass per candidate (``--architecture cross-encoder``; ``docs/ablation.md`` compares them).

The encoder is written out here (rather than wrapping ``transformers.BertModel``) because the
cached-context pass needs a custom attention; parameter names mirror ``BertModel`` so the
pretrained MiniLM weights load unchanged, and a unit test checks the outputs agree. It has no
dropout on attention weights: on a CPU that dropout alone took a fifth of a training step, and
fine-tuning keeps BERT's dropout on hidden states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from oracular.models.inputs import Encoded
from oracular.models.layout import ARCHITECTURES, DEFAULT_ARCHITECTURE


@dataclass(frozen=True)
class EncoderConfig:
    """The BERT architecture numbers the encoder is built from, as stored with the weights.

    A plain dataclass rather than ``transformers.BertConfig``: importing transformers cost the
    editor's cold start 1.7 s for nothing else. :meth:`of` takes a ``BertConfig`` (the pretrained
    backbone's, at training time) or anything else with these attributes.
    """

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float
    hidden_dropout_prob: float
    attention_probs_dropout_prob: float
    pad_token_id: int

    @classmethod
    def of(cls, config: Any) -> EncoderConfig:
        if isinstance(config, EncoderConfig):
            return config
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})


@dataclass
class Batch:
    """Padded token ids: ``B`` contexts and, per context, ``C`` candidates of ``m`` tokens."""

    context_ids: Tensor
    """(B, n) long."""
    context_mask: Tensor
    """(B, n) bool, True for real tokens."""
    candidate_ids: Tensor
    """(B, C, m) long."""
    candidate_mask: Tensor
    """(B, C, m) bool; a padding candidate (a context with fewer than C) is all False."""

    def to(self, device: torch.device | str) -> Batch:
        return Batch(
            *(
                t.to(device)
                for t in (self.context_ids, self.context_mask, self.candidate_ids, self.candidate_mask)
            )
        )

    @property
    def candidate_present(self) -> Tensor:
        """(B, C) bool: which candidate slots hold a real candidate."""
        return self.candidate_mask.any(-1)


def collate(encoded: Sequence[Encoded], pad_id: int) -> Batch:
    n = max(len(e.context) for e in encoded)
    context_ids = torch.full((len(encoded), n), pad_id, dtype=torch.long)
    context_mask = torch.zeros((len(encoded), n), dtype=torch.bool)
    for b, e in enumerate(encoded):
        context_ids[b, : len(e.context)] = torch.tensor(e.context)
        context_mask[b, : len(e.context)] = True
    return Batch(context_ids, context_mask, *pad_candidates([e.candidates for e in encoded], pad_id))


def pad_candidates(groups: Sequence[Sequence[list[int]]], pad_id: int) -> tuple[Tensor, Tensor]:
    """Ids and mask (B, C, m) for B groups of candidates, padded to the largest group and candidate."""
    c = max(1, max(len(g) for g in groups))
    m = max(1, max((len(ids) for g in groups for ids in g), default=1))
    ids_out = torch.full((len(groups), c, m), pad_id, dtype=torch.long)
    mask = torch.zeros((len(groups), c, m), dtype=torch.bool)
    for b, group in enumerate(groups):
        for j, ids in enumerate(group):
            ids_out[b, j, : len(ids)] = torch.tensor(ids)
            mask[b, j, : len(ids)] = True
    return ids_out, mask


def masked_mean(hidden: Tensor, mask: Tensor) -> Tensor:
    """Mean over the token axis (-2) of the real tokens; zeros for an empty slot."""
    weights = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * weights).sum(-2) / weights.sum(-2).clamp(min=1.0)


# -- the encoder, with BertModel's parameter names ----------------------------------------
class _Embeddings(nn.Module):
    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size, config.pad_token_id)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, ids: Tensor, positions: Tensor, token_type: int) -> Tensor:
        types = self.token_type_embeddings.weight[token_type]
        x = self.word_embeddings(ids) + self.position_embeddings(positions) + types
        return self.dropout(self.LayerNorm(x))


class _Projections(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)


class _Residual(nn.Module):
    """``LayerNorm(x + dropout(dense(h)))``, BERT's sub-layer output."""

    def __init__(self, inner: int, hidden: int, config: EncoderConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(inner, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=config.layer_norm_eps)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, h: Tensor, x: Tensor) -> Tensor:
        return self.LayerNorm(x + self.dropout(self.dense(h)))


class _Attention(nn.Module):
    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.self = _Projections(config.hidden_size)
        self.output = _Residual(config.hidden_size, config.hidden_size, config)


class _Intermediate(nn.Module):
    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.intermediate_size)


class _Layer(nn.Module):
    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.heads = config.num_attention_heads
        self.attention = _Attention(config)
        self.intermediate = _Intermediate(config)
        self.output = _Residual(config.intermediate_size, config.hidden_size, config)

    def _split(self, x: Tensor) -> Tensor:
        """(..., L, d) -> (..., heads, L, d / heads)."""
        return x.unflatten(-1, (self.heads, -1)).transpose(-3, -2)

    def _finish(self, attended: Tensor, x: Tensor) -> Tensor:
        """(..., heads, L, dh) attention output -> the layer's output (..., L, d)."""
        x = self.attention.output(attended.transpose(-3, -2).flatten(-2), x)
        return self.output(F.gelu(self.intermediate.dense(x)), x)

    def forward(self, x: Tensor, mask: Tensor) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """Context layer: x (B, n, d), mask (B, n). Returns the output and its keys/values."""
        p = self.attention.self
        q, k, v = self._split(p.query(x)), self._split(p.key(x)), self._split(p.value(x))
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])
        return self._finish(attended, x), (k, v)

    def forward_candidates(
        self, x: Tensor, mask: Tensor, memory: tuple[Tensor, Tensor] | None, joint_mask: Tensor | None
    ) -> Tensor:
        """Candidate layer: x (B, C, m, d) attends to its own tokens, and to the cached context
        when ``memory`` (the context's keys/values, (B, heads, n, dh)) is given, through
        ``joint_mask`` (:func:`joint_attention_mask`).
        """
        p = self.attention.self
        q, k, v = self._split(p.query(x)), self._split(p.key(x)), self._split(p.value(x))  # (B, C, h, m, dh)
        if memory is None or joint_mask is None:
            own = own_keys(mask)[:, :, None, None, :]  # (B, C, 1, 1, m)
            return self._finish(F.scaled_dot_product_attention(q, k, v, attn_mask=own), x)
        return self._finish(self._attend_with_context(q, k, v, memory, joint_mask), x)

    def _attend_with_context(
        self, q: Tensor, k: Tensor, v: Tensor, memory: tuple[Tensor, Tensor], joint_mask: Tensor
    ) -> Tensor:
        """One fused attention of every candidate token over [context keys, all candidates' keys],
        the mask keeping the context and the token's own candidate.

        Every candidate's queries are folded into one axis against the context's keys, so the
        context is never copied per candidate. The other candidates' keys are computed and
        masked away, yet on a CPU the fused kernel (``scaled_dot_product_attention``) ranks 64
        candidates in a fifth to a third less time than the softmax written out in two parts it
        replaced, which read the (candidate tokens x context) scores four times
        (``docs/benchmarks.md``).
        """
        count, length = q.shape[1], q.shape[3]
        memory_k, memory_v = memory

        def fold(t: Tensor) -> Tensor:  # (B, C, h, m, X) -> (B, h, C * m, X)
            return t.transpose(1, 2).flatten(2, 3)

        keys = torch.cat([memory_k, fold(k)], 2)
        values = torch.cat([memory_v, fold(v)], 2)
        attended = F.scaled_dot_product_attention(fold(q), keys, values, attn_mask=joint_mask)
        return attended.unflatten(2, (count, length)).transpose(1, 2)


JOINT_CANDIDATES = 16
"""Candidates whose tokens attend in one call (:meth:`Encoder.encode_candidates`)."""


def own_keys(mask: Tensor) -> Tensor:
    """(B, C, m): the keys each candidate's tokens attend to among its own. A padding slot (a
    test with fewer candidates than the batch's widest) has no key of its own; where it cannot
    see the context its softmax would be NaN, and NaN poisons the gradients. It attends to its
    padding instead: finite, and never read."""
    return mask | ~mask.any(-1, keepdim=True)


def joint_attention_mask(mask: Tensor, memory_mask: Tensor) -> Tensor:
    """(B, 1, C * m, n + C * m): candidate token i of candidate c sees the context's real tokens
    and its own candidate's keys (:func:`own_keys`), never another candidate's. Built once per
    candidate pass: every crossing layer shares it."""
    b, count, length = mask.shape
    own = own_keys(mask).flatten(1, 2)  # (B, C * m)
    same = torch.arange(count, device=mask.device).repeat_interleave(length)
    block = same[:, None] == same[None, :]  # (C * m, C * m)
    candidates = block[None] & own[:, None, :]
    context = memory_mask[:, None, :].expand(b, count * length, -1)
    return torch.cat([context, candidates], -1)[:, None]


class _Layers(nn.Module):
    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(_Layer(config) for _ in range(config.num_hidden_layers))


@dataclass
class EncodedContext:
    embedded: Tensor
    """(B, n, d) the embeddings the first layer read (a cross-encoder reads them again)."""
    hidden: Tensor
    """(B, n, d) last-layer states."""
    mask: Tensor
    memory: list[tuple[Tensor, Tensor]]
    """Per layer, the context's keys and values."""
    pooled: Tensor
    """(B, d) mean of the real tokens' last-layer states."""

    @property
    def lengths(self) -> Tensor:
        return self.mask.sum(-1)


class Encoder(nn.Module):
    """BERT (post-LayerNorm, GELU) with a cached-context pass for candidates.

    ``cross_layers``: in how many of the top layers candidates attend to the context (all of
    them by default: the exact masked cross-encoder); below those, candidates are encoded on
    their own, which is cheaper on a CPU when a test has many candidates.
    """

    def __init__(self, config: EncoderConfig, cross_layers: int | None = None) -> None:
        super().__init__()
        layers = config.num_hidden_layers
        self.cross_layers = layers if cross_layers is None else cross_layers
        if not 0 <= self.cross_layers <= layers:
            raise ValueError(f"cross_layers must be between 0 and {layers}")
        self.embeddings = _Embeddings(config)
        self.encoder = _Layers(config)

    def encode_context(self, ids: Tensor, mask: Tensor) -> EncodedContext:
        positions = torch.arange(ids.shape[1], device=ids.device).expand_as(ids)
        embedded = x = self.embeddings(ids, positions, token_type=0)
        memory = []
        for layer in self.encoder.layer:
            x, kv = layer(x, mask)
            memory.append(kv)
        return EncodedContext(embedded, x, mask, memory, masked_mean(x, mask))

    def embed_candidates(self, context: EncodedContext, ids: Tensor) -> Tensor:
        """(B, C, m, d): candidates placed right after their context, as in a cross-encoder."""
        offsets = torch.arange(ids.shape[-1], device=ids.device)
        positions = (context.lengths[:, None, None] + offsets).expand_as(ids)
        return self.embeddings(ids, positions, token_type=1)

    def encode_candidates(self, context: EncodedContext, ids: Tensor, mask: Tensor) -> Tensor:
        """(B, C, m, d) candidate states, the context's cached keys/values attended to.

        At most :data:`JOINT_CANDIDATES` candidates attend in one kernel call: the joint mask's
        keys grow with them (n + C * m), so the call's cost grows with the square of C: scoring the
        20 train samples with the most candidates (92 to 94) took 487 ms each in one call, 320 ms
        in groups of 16 (fp32, one CPU thread; samples of 20 candidates: the same 61 ms). Each
        candidate sees only the context and itself, so the groups change no score.
        """
        if ids.shape[1] > JOINT_CANDIDATES:
            groups = zip(ids.split(JOINT_CANDIDATES, 1), mask.split(JOINT_CANDIDATES, 1), strict=True)
            return torch.cat([self.encode_candidates(context, i, m) for i, m in groups], 1)
        x = self.embed_candidates(context, ids)
        first_cross = len(self.encoder.layer) - self.cross_layers
        joint = joint_attention_mask(mask, context.mask) if self.cross_layers else None
        for i, (layer, kv) in enumerate(zip(self.encoder.layer, context.memory, strict=True)):
            x = layer.forward_candidates(x, mask, kv if i >= first_cross else None, joint)
        return x


def _head(inputs: int, hidden: int, dropout: float) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, hidden), nn.GELU(), nn.Dropout(dropout), nn.Linear(hidden, 1))


class OracleNetwork(nn.Module):
    """Shared encoder + exception head (pooled context) + candidate scorer (pooled candidate)."""

    def __init__(self, config: EncoderConfig, cross_layers: int | None = None) -> None:
        super().__init__()
        config = EncoderConfig.of(config)
        d = config.hidden_size
        self.config = config
        self.bert = Encoder(config, cross_layers)
        self.exception_head = _head(d, d, config.hidden_dropout_prob)
        self.candidate_head = _head(3 * d, d, config.hidden_dropout_prob)

    def encode(self, ids: Tensor, mask: Tensor) -> tuple[EncodedContext, Tensor]:
        """The contexts, encoded once, and their exception logits (B,)."""
        context = self.bert.encode_context(ids, mask)
        return context, self.exception_head(context.pooled).squeeze(-1)

    def score(self, context: EncodedContext, ids: Tensor, mask: Tensor) -> Tensor:
        """(B, C) logits of candidates (B, C, m) against their encoded contexts."""
        candidates = masked_mean(self.bert.encode_candidates(context, ids, mask), mask)
        return self._candidate_logits(candidates, context.pooled[:, None, :].expand_as(candidates))

    def _candidate_logits(self, candidates: Tensor, contexts: Tensor) -> Tensor:
        """(B, C) logits from pooled candidates and the pooled contexts they are scored against."""
        features = torch.cat([candidates, contexts, candidates * contexts], -1)
        return self.candidate_head(features).squeeze(-1)

    def forward(self, batch: Batch) -> tuple[Tensor, Tensor]:
        """Raw logits: whether each context throws (B,), and a score per candidate (B, C).

        A candidate's score is comparable only within its group (the assertions of a test, or
        its exception types): :mod:`oracular.models.calibration` turns them into probabilities.
        """
        context, exception = self.encode(batch.context_ids, batch.context_mask)
        return exception, self.score(context, batch.candidate_ids, batch.candidate_mask)


class CrossEncoderNetwork(OracleNetwork):
    """The plain cross-encoder: ``[context, candidate]`` in one full-attention pass per candidate.

    Same parameters as :class:`OracleNetwork` (weights load into either), same exception head
    on the context alone; only the candidate scoring differs: both pooled inputs of the
    candidate head come from the joint pass, so the context is read in the light of each
    candidate, as TOGA's CodeBERT read it.
    """

    def score(self, context: EncodedContext, ids: Tensor, mask: Tensor) -> Tensor:
        b, c, n = ids.shape[0], ids.shape[1], context.mask.shape[1]
        context_mask = context.mask[:, None, :].expand(b, c, n)
        x = torch.cat(
            [context.embedded[:, None].expand(b, c, n, -1), self.bert.embed_candidates(context, ids)], 2
        ).flatten(0, 1)
        joint_mask = torch.cat([context_mask, mask], 2).flatten(0, 1)
        for layer in self.bert.encoder.layer:
            x, _ = layer(x, joint_mask)
        x = x.unflatten(0, (b, c))
        return self._candidate_logits(masked_mean(x[:, :, n:], mask), masked_mean(x[:, :, :n], context_mask))


_NETWORKS: dict[str, type[OracleNetwork]] = dict(
    zip(ARCHITECTURES, (OracleNetwork, CrossEncoderNetwork), strict=True)
)


def build_network(
    config: EncoderConfig, cross_layers: int | None = None, architecture: str = DEFAULT_ARCHITECTURE
) -> OracleNetwork:
    if architecture not in _NETWORKS:
        raise ValueError(f"unknown architecture {architecture!r} ({', '.join(ARCHITECTURES)})")
    network = _NETWORKS[architecture]
    if network is CrossEncoderNetwork and cross_layers not in (None, config.num_hidden_layers):
        raise ValueError("a cross-encoder crosses in every layer: cross_layers does not apply")
    return network(config, cross_layers)
