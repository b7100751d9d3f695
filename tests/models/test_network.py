"""The network: pretrained weights load into it unchanged, and the cached-context pass is exact.

Why: the speed of the ranker rests on one claim, that encoding the context once and running
each candidate against its cached keys/values is the same computation as a cross-encoder whose
context cannot see the candidate. These tests check that claim against Hugging Face's own
``BertModel``, and that batching (many candidates, many contexts, padding) changes nothing.
"""

from __future__ import annotations

import pytest
import torch
from transformers import BertModel

from oracular.models import network as network_module
from oracular.models.calibration import Calibration, predict
from oracular.models.inference import CHUNK, LoadedModel, attention_kernels
from oracular.models.inputs import InputFormatter
from oracular.models.network import CrossEncoderNetwork, OracleNetwork, build_network, collate

from .conftest import STACK_CANDIDATES, STACK_FOCAL, STACK_STATEMENTS, tiny_config, tiny_network


def test_encoder_parameters_are_bert_models() -> None:
    network = tiny_network()
    reference = BertModel(tiny_config(), add_pooling_layer=False)
    assert set(network.bert.state_dict()) == set(reference.state_dict())


def test_cached_context_pass_equals_a_masked_cross_encoder(formatter: InputFormatter) -> None:
    network = tiny_network()
    reference = BertModel(tiny_config(), add_pooling_layer=False).eval()
    reference.load_state_dict(network.bert.state_dict())
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES[:1])], formatter.pad_id)
    with torch.no_grad():
        context = network.bert.encode_context(batch.context_ids, batch.context_mask)
        candidate = network.bert.encode_candidates(context, batch.candidate_ids, batch.candidate_mask)[0, 0]
        ids = torch.cat([batch.context_ids[0], batch.candidate_ids[0, 0]])[None]
        n, total = batch.context_ids.shape[1], ids.shape[1]
        token_types = torch.zeros_like(ids)
        token_types[0, n:] = 1
        mask = torch.ones(total, total, dtype=torch.bool)
        mask[:n, n:] = False  # the context does not see the candidate
        expected = reference(
            input_ids=ids, token_type_ids=token_types, attention_mask=mask[None, None]
        ).last_hidden_state
    assert torch.allclose(context.hidden[0], expected[0, :n], atol=1e-5)
    assert torch.allclose(candidate, expected[0, n:], atol=1e-5)


def test_without_crossing_layers_a_candidate_is_encoded_on_its_own(formatter: InputFormatter) -> None:
    torch.manual_seed(0)
    network = OracleNetwork(tiny_config(), cross_layers=0).eval()
    reference = BertModel(tiny_config(), add_pooling_layer=False).eval()
    reference.load_state_dict(network.bert.state_dict())
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES[:1])], formatter.pad_id)
    with torch.no_grad():
        context = network.bert.encode_context(batch.context_ids, batch.context_mask)
        candidate = network.bert.encode_candidates(context, batch.candidate_ids, batch.candidate_mask)[0, 0]
        ids = batch.candidate_ids[0]
        n = batch.context_ids.shape[1]
        positions = torch.arange(n, n + ids.shape[1])[None]
        expected = reference(input_ids=ids, token_type_ids=torch.ones_like(ids), position_ids=positions)
    assert torch.allclose(candidate, expected.last_hidden_state[0], atol=1e-5)


def test_crossing_layers_are_bounded() -> None:
    with pytest.raises(ValueError, match="cross_layers"):
        OracleNetwork(tiny_config(), cross_layers=3)


def test_the_cross_encoder_reads_context_and_candidate_in_one_full_pass(formatter: InputFormatter) -> None:
    """Its candidate score is the head over BertModel's unmasked pass over ``[context, candidate]``."""
    torch.manual_seed(0)
    network = CrossEncoderNetwork(tiny_config()).eval()
    reference = BertModel(tiny_config(), add_pooling_layer=False).eval()
    reference.load_state_dict(network.bert.state_dict())
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES[:1])], formatter.pad_id)
    with torch.no_grad():
        _, scores = network(batch)
        ids = torch.cat([batch.context_ids[0], batch.candidate_ids[0, 0]])[None]
        n = batch.context_ids.shape[1]
        token_types = torch.zeros_like(ids)
        token_types[0, n:] = 1
        hidden = reference(input_ids=ids, token_type_ids=token_types).last_hidden_state[0]
        candidate, context = hidden[n:].mean(0), hidden[:n].mean(0)
        expected = network.candidate_head(torch.cat([candidate, context, candidate * context]))
        masked = OracleNetwork(tiny_config())
        masked.load_state_dict(network.state_dict())
        _, cached = masked.eval()(batch)
    assert torch.allclose(scores[0, 0], expected[0], atol=1e-5)
    assert not torch.allclose(scores, cached, atol=1e-3)  # the context saw the candidate


def test_the_cross_encoder_batches_candidates_and_contexts_exactly(formatter: InputFormatter) -> None:
    torch.manual_seed(0)
    network = build_network(tiny_config(), architecture="cross-encoder").eval()
    short = formatter.encode(STACK_STATEMENTS[:1], None, STACK_CANDIDATES[:2])
    long = formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)
    with torch.no_grad():
        _, scores = network(collate([short, long], formatter.pad_id))
        for b, encoded in enumerate((short, long)):
            for i, candidate in enumerate(encoded.candidates):
                alone = collate([type(encoded)(encoded.context, [candidate])], formatter.pad_id)
                assert torch.allclose(network(alone)[1][0, 0], scores[b, i], atol=1e-5)


def test_unknown_architectures_and_crossing_cross_encoders_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown architecture"):
        build_network(tiny_config(), architecture="bi-encoder")
    with pytest.raises(ValueError, match="cross_layers"):
        build_network(tiny_config(), cross_layers=1, architecture="cross-encoder")


@pytest.mark.parametrize(
    ("cross_layers", "architecture"),
    [(None, "cached-context"), (1, "cached-context"), (None, "cross-encoder")],
)
def test_chunked_inference_scores_as_one_pass(
    formatter: InputFormatter, cross_layers: int | None, architecture: str
) -> None:
    torch.manual_seed(0)
    network = build_network(tiny_config(), cross_layers, architecture).eval()
    candidates = [f"assertEquals({'x' * (i % 7)}{i}, s.size())" for i in range(CHUNK * 2 + 3)]
    encoded = formatter.encode(STACK_STATEMENTS, STACK_FOCAL, candidates)
    model = LoadedModel(network, formatter, Calibration(), "cpu")
    prediction = model.predict(encoded, [False] * len(candidates))
    with torch.no_grad():
        exception, scores = network(collate([encoded], formatter.pad_id))
    expected = predict(
        float(exception[0]), scores[0], torch.zeros(len(candidates), dtype=torch.bool), Calibration()
    )
    assert prediction.scores == pytest.approx(expected.scores, abs=1e-6)


def test_the_attention_kernels_a_gpu_is_held_to_score_as_torch_s_own_choice(
    formatter: InputFormatter,
) -> None:
    network = tiny_network()
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)], formatter.pad_id)
    with torch.no_grad():
        exception, scores = network(batch)
        with attention_kernels("cuda"):  # here the plain kernel: the memory-efficient one is CUDA's
            held_exception, held_scores = network(batch)
    assert torch.allclose(held_scores, scores, atol=1e-5)
    assert torch.allclose(held_exception, exception, atol=1e-5)


def test_candidates_attending_in_groups_score_as_all_together(
    formatter: InputFormatter, monkeypatch: pytest.MonkeyPatch
) -> None:
    network = tiny_network()
    batch = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)], formatter.pad_id)
    assert len(STACK_CANDIDATES) > 2
    with torch.no_grad():
        monkeypatch.setattr(network_module, "JOINT_CANDIDATES", 1000)
        _, together = network(batch)
        monkeypatch.setattr(network_module, "JOINT_CANDIDATES", 2)
        _, grouped = network(batch)
    assert torch.allclose(grouped, together, atol=1e-5)


def test_all_candidates_in_one_pass_score_as_one_at_a_time(formatter: InputFormatter) -> None:
    network = tiny_network()
    together = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)], formatter.pad_id)
    with torch.no_grad():
        exception, scores = network(together)
        for i, candidate in enumerate(STACK_CANDIDATES):
            alone = collate([formatter.encode(STACK_STATEMENTS, STACK_FOCAL, [candidate])], formatter.pad_id)
            exception_alone, score = network(alone)
            assert torch.allclose(score[0, 0], scores[0, i], atol=1e-5)
            assert torch.allclose(exception_alone, exception, atol=1e-5)


def test_contexts_batched_with_padding_score_as_alone(formatter: InputFormatter) -> None:
    network = tiny_network()
    short = formatter.encode(STACK_STATEMENTS[:1], None, STACK_CANDIDATES[:2])
    long = formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)
    with torch.no_grad():
        exceptions, scores = network(collate([short, long], formatter.pad_id))
        for b, encoded in enumerate((short, long)):
            exception, alone = network(collate([encoded], formatter.pad_id))
            assert torch.allclose(exceptions[b], exception[0], atol=1e-5)
            assert torch.allclose(scores[b, : len(encoded.candidates)], alone[0], atol=1e-5)


def test_a_test_without_candidates_still_gets_an_exception_logit(formatter: InputFormatter) -> None:
    batch = collate([formatter.encode(STACK_STATEMENTS, None, [])], formatter.pad_id)
    with torch.no_grad():
        exception, scores = tiny_network()(batch)
    assert exception.shape == (1,) and torch.isfinite(exception).all()
    assert not batch.candidate_present.any() and torch.isfinite(scores).all()


@pytest.mark.parametrize(
    ("cross_layers", "architecture"),
    [(0, "cached-context"), (1, "cached-context"), (None, "cached-context"), (None, "cross-encoder")],
)
def test_padding_slots_keep_outputs_and_gradients_finite(
    formatter: InputFormatter, cross_layers: int | None, architecture: str
) -> None:
    torch.manual_seed(0)
    network = build_network(tiny_config(), cross_layers, architecture).train()
    few = formatter.encode(STACK_STATEMENTS[:1], None, STACK_CANDIDATES[:1])
    many = formatter.encode(STACK_STATEMENTS, STACK_FOCAL, STACK_CANDIDATES)
    exception, scores = network(collate([few, many], formatter.pad_id))
    (exception.sum() + scores[0, :1].sum() + scores[1].sum()).backward()
    assert torch.isfinite(scores).all()
    assert all(torch.isfinite(p.grad).all() for p in network.parameters() if p.grad is not None)
