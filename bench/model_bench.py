"""Benchmark the neural ranker: one test, all its candidates, warm, against a TOGA-style cross-encoder.

Why: the editor ranks a test's oracles while the developer types, so ranking must be fast on a
laptop CPU. The target (2-core CPU, warm): p50 <= 100 ms and p95 <= 250 ms per test (up to 64
candidates, exception stage included), and 10x faster than TOGA's design, which runs a
RoBERTa-base cross-encoder over (focal, prefix, candidate) once per candidate.

Scenarios, each timed per test (tokenising, the context pass, all candidates, calibration):

1. **dev**: ``--repeat`` tests drawn (seeded) from the mined dev split, with their real
   prefixes, focal methods and candidate sets: the distribution an editor meets.
2. **worst case**: synthetic tests with 64 candidates and a context filled to its 256 tokens.
3. **example**: every oracle-free test of the bundled Stack example through the engine's real
   problems (``LoadedModel.rank``: reading the tree-sitter nodes included).

The cross-encoder is ``RobertaForSequenceClassification(RobertaConfig())`` (125M parameters,
random weights: speed does not depend on them), one forward pass per candidate over
``min(200, context + candidate)`` tokens as TOGA, timed on the first ``--cross-tests`` tests of
the dev and worst-case scenarios (it is slow); tokenising is not timed for it.

Memory: resident set size after imports, after loading the model, and the peak after all neural
runs (``getrusage``), taken before the cross-encoder is built.

The model is the shipped one (``models/oracles``) if present, else the same architecture with
random weights (``--cross-layers`` picks its shape). On CPU it is int8-quantised as the engine
loads it; ``--device cuda`` runs both models on the GPU (fp16 for ours).

    .venv/bin/python bench/model_bench.py                        # 200 dev tests, 5 cross-encoder tests
    .venv/bin/python bench/model_bench.py --repeat 500 --json /tmp/model.json
    .venv/bin/python bench/model_bench.py --cross-layers 6       # random weights, every layer crossing
    .venv/bin/python bench/model_bench.py --no-quantise          # the fp32 model, for comparison
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch

from oracular.cache import DATASETS_DIR, default_cache_dir
from oracular.engine import OracleEngine
from oracular.java.source import load_source
from oracular.java.workspace import WorkspaceIndex
from oracular.models import store
from oracular.models.backbone import load_tokenizer, pretrained_config
from oracular.models.calibration import Calibration
from oracular.models.devices import select_device
from oracular.models.inference import CPU_THREADS, LoadedModel
from oracular.models.inputs import Encoded, InputFormatter, InputSettings
from oracular.models.layout import default_model_dir, weights_present
from oracular.models.network import OracleNetwork
from oracular.models.prior import TemplatePrior
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.problem import OracleProblem
from oracular.training.data import dataset_path, read_samples, sample_statements

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "stack"
CANDIDATES = 64
CROSS_LENGTH = 200

Test = tuple[list[str], dict | None, list[str], list[bool], str]
"""Statements, focal context, candidate texts, which candidates are exceptions, the test's name."""


def encode(model: LoadedModel, test: Test) -> Encoded:
    statements, focal, candidates, _, name = test
    return model.formatter.encode(statements, focal, candidates, name)


def rss_mb() -> float:
    """Current resident set size (Linux ``/proc``)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentiles(samples_ms: list[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 1),
        "max_ms": round(ordered[-1], 1),
        "runs": len(ordered),
    }


def synthetic_test(rng: random.Random) -> Test:
    """A long prefix, a documented focal method and 64 candidates (2 of them exceptions)."""
    names = ["account", "ledger", "balance", "entry", "amount", "history", "limit", "owner"]
    statements = ["Ledger ledger = new Ledger(Currency.EURO, MAX_ENTRIES);"]
    for i in range(40):
        a, b = rng.sample(names, 2)
        call = f'{a}{i}.record{b.title()}({rng.randint(0, 999)}, "{b}-{i}", ledger.current{a.title()}());'
        statements.append(call)
    focal = {
        "class": "Ledger",
        "method": "record",
        "signature": "public Entry record(long amount, String label, Account account) throws ClosedException",
        "javadoc": "Records an entry against an account and returns it.\n@param amount the amount in cents\n"
        "@throws IllegalArgumentException if the amount is negative\n@throws ClosedException if closed",
        "throws": ["ClosedException"],
        "exception_types": ["IllegalArgumentException", "ClosedException"],
    }
    candidates = ["assertNotNull(ledger.lastEntry())", "assertNull(ledger.lastEntry())"]
    while len(candidates) < CANDIDATES - 2:
        value = rng.choice(
            [str(rng.randint(-5, 500)), f'"{rng.choice(names)}-{rng.randint(0, 40)}"', "MAX_ENTRIES"]
        )
        candidates.append(f"assertEquals({value}, ledger.{rng.choice(['size', 'total', 'count'])}())")
    candidates += ["assertThrows(IllegalArgumentException.class)", "assertThrows(ClosedException.class)"]
    flags = [False] * (CANDIDATES - 2) + [True, True]
    return statements, focal, candidates, flags, "recordingPastTheLimitRejectsTheEntryAndKeepsTheBalance"


def dev_tests(data: Path, count: int) -> list[Test]:
    path = dataset_path(data, "dev", "assertion")
    if not path.is_file():
        return []
    return [
        (
            sample_statements(s),
            s["focal"],
            s["candidates"],
            [src == "exception" for src in s["candidate_sources"]],
            s["test"],
        )
        for s in read_samples(path, count, seed=0)
    ]


def bench_model(
    model_dir: Path, device: str, quantise: bool, cross_layers: int | None
) -> tuple[LoadedModel, str]:
    """The shipped model if present, else the same architecture with random weights."""
    if weights_present(model_dir):
        network, config, tokenizer = store.load(model_dir)
        formatter, calibration, prior, source = (
            InputFormatter(tokenizer, config.inputs),
            config.calibration,
            config.prior,
            str(model_dir),
        )
    else:
        torch.manual_seed(0)
        network = OracleNetwork(pretrained_config(), cross_layers)
        formatter = InputFormatter(load_tokenizer(), InputSettings())
        calibration, source = Calibration(), f"random (cross_layers={network.bert.cross_layers})"
        prior = TemplatePrior()
    if device == "cpu" and not quantise:
        return LoadedModel(network.eval(), formatter, calibration, device, prior), source
    return LoadedModel.from_network(network, formatter, calibration, device, prior), source


def example_problems() -> list[OracleProblem]:
    index = WorkspaceIndex([EXAMPLE])
    index.refresh()
    engine = OracleEngine(index, ranker=BaselineRanker(), project_root=EXAMPLE)
    problems = []
    for path in sorted((EXAMPLE / "src" / "test").rglob("*.java")):
        analysis = engine.analyse(load_source(path))
        for status in analysis.oracle_free:
            prefix = engine.prefix_for(analysis, status)
            if prefix is not None:
                candidates = engine.candidates_for(prefix, status)
                problems.append(OracleProblem(status.test.name, prefix, candidates))
    return problems


def time_calls(call: Callable[[Any], object], inputs: Sequence[Any], warmup: int, device: str) -> list[float]:
    for item in inputs[:warmup]:
        call(item)
    timings = []
    for item in inputs:
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        call(item)
        if device == "cuda":
            torch.cuda.synchronize()
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def input_sizes(model: LoadedModel, tests: Sequence[Test]) -> dict[str, float]:
    encoded = [encode(model, t) for t in tests]
    return {
        "candidates_p50": statistics.median(len(e.candidates) for e in encoded),
        "candidates_max": max(len(e.candidates) for e in encoded),
        "context_tokens_p50": statistics.median(len(e.context) for e in encoded),
        "candidate_tokens_p50": statistics.median(sum(len(c) for c in e.candidates) for e in encoded),
    }


def cross_encoder(device: str, lengths: list[list[int]]) -> dict[str, float]:
    """TOGA's cost: per test, one RoBERTa-base pass per candidate over its (capped) length."""
    from transformers import RobertaConfig, RobertaForSequenceClassification

    torch.manual_seed(0)
    model = RobertaForSequenceClassification(RobertaConfig(num_labels=1)).eval().to(device)

    def one_test(candidate_lengths: list[int]) -> None:
        for length in candidate_lengths:
            model(input_ids=torch.randint(5, 50000, (1, length), device=device))

    with torch.inference_mode():
        return percentiles(time_calls(one_test, lengths, 1, device))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="cpu")
    parser.add_argument(
        "--data", type=Path, default=None, help="datasets folder (default: the corpus cache's)"
    )
    parser.add_argument(
        "--repeat", type=int, default=200, help="dev and worst-case tests timed (default 200)"
    )
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument(
        "--cross-tests", type=int, default=5, help="tests timed for the cross-encoder (default 5)"
    )
    parser.add_argument("--no-quantise", action="store_true", help="CPU: time the fp32 model instead")
    parser.add_argument("--cross-layers", type=int, default=None, help="random model only (default: all)")
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: the shipped one)")
    parser.add_argument(
        "--threads",
        type=int,
        default=CPU_THREADS,
        help=f"CPU torch threads (default {CPU_THREADS}, as the engine)",
    )
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    device = select_device(args.device)
    report: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {torch.get_num_threads()} torch threads",
        "torch": torch.__version__,
        "device": device,
        "quantised": device == "cpu" and not args.no_quantise,
        "rss_after_imports_mb": round(rss_mb(), 1),
    }
    model_dir = args.model or default_model_dir()
    model, report["weights"] = bench_model(model_dir, device, not args.no_quantise, args.cross_layers)
    report["rss_after_load_mb"] = round(rss_mb(), 1)

    def run(test: Test) -> None:
        model.predict(encode(model, test), test[3])

    scenarios = {
        "dev": dev_tests(args.data or default_cache_dir() / DATASETS_DIR, args.repeat),
        "worst_case": [synthetic_test(random.Random(i)) for i in range(args.repeat)],
    }
    for name, tests in scenarios.items():
        if tests:
            report[name] = {
                **percentiles(time_calls(run, tests, args.warmup, device)),
                **input_sizes(model, tests),
            }
    problems = example_problems()
    repeated = [problems[i % len(problems)] for i in range(args.repeat)]
    report["example"] = percentiles(time_calls(model.rank, repeated, args.warmup, device))
    report["peak_rss_after_neural_mb"] = round(peak_rss_mb(), 1)

    for name, tests in scenarios.items():
        if not tests or args.cross_tests < 1:
            continue
        lengths = []
        for test in tests[: args.cross_tests]:
            encoded = encode(model, test)
            lengths.append([min(CROSS_LENGTH, len(encoded.context) + len(c)) for c in encoded.candidates])
        cross = cross_encoder(device, lengths)
        ours = percentiles(time_calls(run, tests[: args.cross_tests], 0, device))
        report[f"cross_encoder_{name}"] = {**cross, "ours_same_tests_p50_ms": ours["p50_ms"]}
        report[f"speedup_{name}_p50"] = round(cross["p50_ms"] / max(ours["p50_ms"], 1e-3), 1)
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
