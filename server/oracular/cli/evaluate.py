"""``oracular eval``: the neural oracles and the baseline on dev, side by side, as Markdown.

Both rankers answer the same problems, rebuilt by the engine from the corpus sources (see
:mod:`oracular.evaluation.ranking`); the output is what ``docs/eval.md`` holds.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.cli.common import emit, error
from oracular.cli.mutants import add_mutant_arguments, run_mutants
from oracular.cli.train import add_data_arguments, data_dir
from oracular.models.layout import default_model_dir, weights_present


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("eval", help="evaluate the neural oracles against the baseline (Markdown)")
    parser.add_argument("--split", choices=("dev", "train"), default="dev")
    add_data_arguments(parser)
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        metavar="DIR",
        help="corpus cache holding the mined packages in src/ (default: $ORACULAR_CACHE, ~/.cache/oracular)",
    )
    parser.add_argument(
        "--dictionary",
        type=Path,
        default=None,
        metavar="FILE",
        help="the global dictionary the datasets were mined with (default: the models folder's)",
    )
    parser.add_argument(
        "--model",
        type=Path,
        action="append",
        default=None,
        metavar="DIR",
        help="default: the shipped model; repeat to compare models (each named by its folder)",
    )
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="samples per dataset (seeded)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("-o", "--output", type=Path, default=None, metavar="FILE", help="instead of stdout")
    add_mutant_arguments(parser)
    add_realistic_arguments(parser)
    parser.set_defaults(run=run)


def add_realistic_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("realistic evaluation (--realistic)")
    group.add_argument(
        "--realistic",
        nargs="*",
        default=None,
        metavar="PROJECT",
        help="dev tests cut right before their oracle, nothing appended, answered as in the editor "
        "(corpus package names or folders; default: every dev package in the corpus cache)",
    )
    group.add_argument(
        "--no-observe",
        action="store_true",
        help="static ranking only: do not run the prefixes to observe values (nor the top-1 oracles)",
    )
    group.add_argument(
        "--check-timeout", type=float, default=5.0, metavar="S", help="time limit per run test (default 5)"
    )
    group.add_argument(
        "--fresh-runs",
        action="store_true",
        help="run every prefix and top-1 again instead of reusing the runs an earlier evaluation of the "
        "same tests made (kept in CACHE/eval-runs, keyed by the code and the harness)",
    )


def _positive_rate(data: Path) -> float | None:
    """The train split's share of throwing exception samples, from the mining run's ``stats.json``
    (counted there already: no need to read the train split's hundred megabytes again)."""
    try:
        train = json.loads((data / "stats.json").read_text(encoding="utf-8"))["splits"]["train"]
        return train["exception_positive"] / train["exception_samples"]
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        return None


def run(args: argparse.Namespace) -> int:
    if args.mutants is not None and args.realistic is not None:
        error("--mutants and --realistic are two evaluations: run them one at a time")
        return 2
    if args.mutants is not None:
        return run_mutants(args)
    if args.realistic is not None:
        from oracular.cli.realistic import run_realistic

        return run_realistic(args)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    from oracular.candidates.values import GLOBAL_DICTIONARY, load_global_dictionary, models_dir
    from oracular.evaluation.ranking import (
        coin_metrics,
        evaluate_ranker,
        exception_outcome,
        markdown,
        never_throws_metrics,
        replay,
    )
    from oracular.ranking.baseline import BaselineRanker
    from oracular.training.data import dataset_path, read_samples

    data, progress = data_dir(args), not args.quiet
    paths = {kind: dataset_path(data, args.split, kind) for kind in ("exception", "assertion")}
    if missing := [str(p) for p in paths.values() if not p.is_file()]:
        error(f"missing {', '.join(missing)}: run 'oracular corpus mine' first")
        return 2
    samples = {kind: read_samples(path, args.limit, args.seed) for kind, path in paths.items()}
    sources = (args.cache or default_cache_dir()).expanduser() / "src"
    dictionary = load_global_dictionary(args.dictionary or models_dir() / GLOBAL_DICTIONARY)
    # Both kinds in one replay, so that each package is indexed and each file analysed once.
    both = replay([*samples["exception"], *samples["assertion"]], sources, dictionary, progress)
    cut = len(samples["exception"])
    replayed = {"exception": both.part(slice(cut)), "assertion": both.part(slice(cut, None))}
    pairs = {
        kind: [(s, p) for s, p in zip(samples[kind], replayed[kind].problems, strict=True) if p is not None]
        for kind in samples
    }
    throwing = sum(bool(s["label"]) for s, _ in pairs["exception"])
    header: dict[str, object] = {
        "split": args.split,
        "exception samples": f"{len(pairs['exception'])} ({throwing} throwing)",
        "assertion samples": len(pairs["assertion"]),
    }
    for kind, result in replayed.items():
        for reason, count in sorted(result.failures.items()):
            header[f"{kind} samples not replayed ({reason})"] = count

    results = []
    device = None  # every model is loaded for the same --device
    model_dirs = args.model or [default_model_dir()]
    for model_dir in model_dirs:
        name, key = (
            ("neural", "model") if len(model_dirs) == 1 else (model_dir.name, f"model {model_dir.name}")
        )
        if not weights_present(model_dir):
            header[key] = f"none in {model_dir}" + (": baseline only" if len(model_dirs) == 1 else "")
            continue
        from oracular.models.devices import DeviceUnavailable
        from oracular.models.inference import load_model  # torch: only with a model
        from oracular.models.store import load_config, size_bytes

        try:
            model = load_model(model_dir, args.device)
        except DeviceUnavailable as exc:
            error(str(exc))
            return 2
        config = load_config(model_dir)
        header[key] = (
            f"{model_dir} ({size_bytes(model_dir) / 1e6:.1f} MB, {config.architecture}, "
            f"stages {', '.join(config.stages)})"
        )
        device = model.device
        results.append(
            evaluate_ranker(
                name,
                model,
                pairs["exception"],
                pairs["assertion"],
                model.calibration.exception_threshold,
                model.calibration.abstain_below,
                progress,
            )
        )
    if device is not None:
        header["device"] = device
    results.append(
        evaluate_ranker(
            "baseline",
            BaselineRanker(),
            pairs["exception"],
            pairs["assertion"],
            0.5,
            BaselineRanker.abstain_below,
            progress,
        )
    )

    outcomes = [exception_outcome(s, 0.0, "") for s, _ in pairs["exception"]]
    rate = _positive_rate(data)
    if rate is None:
        rate = sum(o.throws for o in outcomes) / max(1, len(outcomes))
    reference = {
        f"weighted coin (p={rate:.3f})": coin_metrics(rate, outcomes),
        "never throws": never_throws_metrics(outcomes),
    }
    text = markdown(results, reference, header)
    emit(text, args.output, "evaluation")
    return 0
