"""Weights that travel back from a lent GPU: only the tensors a run changed.

Why: a lent machine returns at most 64 MiB per call, and one model is 46 MB (fp16), so two runs
side by side could not both come back. A run fine-tuned from a shipped model leaves its word
embeddings (half the bytes) as they were unless asked to train them, so the tensors that differ
from the model it started from are about half the size; merged with that model here they give
the run's model bit for bit.

    python3 -m oracular.training.transfer diff INIT/model.safetensors RUN/model.safetensors DELTA
    python3 -m oracular.training.transfer merge INIT/model.safetensors DELTA OUT/model.safetensors
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

from oracular.models.store import FORMAT


def changed_tensors(init: dict[str, torch.Tensor], run: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The run's tensors that are new or differ from the starting model's, in any element."""
    return {
        name: tensor
        for name, tensor in run.items()
        if name not in init or init[name].shape != tensor.shape or not torch.equal(init[name], tensor)
    }


def merged(
    init: dict[str, torch.Tensor], delta: dict[str, torch.Tensor], names: list[str]
) -> dict[str, torch.Tensor]:
    """The run's model: ``names`` (the run's tensor names, kept in the delta's metadata), each from
    the delta where it changed and from the starting model otherwise."""
    missing = [name for name in names if name not in delta and name not in init]
    if missing:
        raise ValueError(f"tensors in neither the delta nor the starting model: {', '.join(missing[:5])}")
    return {name: delta[name] if name in delta else init[name] for name in names}


def diff(init_path: Path, run_path: Path, out: Path) -> int:
    run = load_file(str(run_path))
    delta = changed_tensors(load_file(str(init_path)), run)
    save_file(delta, str(out), metadata={"names": ",".join(run)})
    return len(delta)


def merge(init_path: Path, delta_path: Path, out: Path) -> None:
    init = load_file(str(init_path))
    save_file(
        merged(init, load_file(str(delta_path)), _names(delta_path)),
        str(out),
        metadata={"format": str(FORMAT)},
    )


def _names(delta_path: Path) -> list[str]:
    with safe_open(str(delta_path), framework="pt") as handle:
        metadata = handle.metadata() or {}
    if "names" not in metadata:
        raise ValueError(f"{delta_path} is not a delta written by 'diff' (no tensor names in its metadata)")
    return metadata["names"].split(",")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("diff", help="write the tensors RUN changed from INIT")
    d.add_argument("init", type=Path)
    d.add_argument("run", type=Path)
    d.add_argument("out", type=Path)
    m = sub.add_parser("merge", help="rebuild the run's weights from INIT and a delta")
    m.add_argument("init", type=Path)
    m.add_argument("delta", type=Path)
    m.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "diff":
        count = diff(args.init, args.run, args.out)
        print(f"{count} changed tensors, {args.out.stat().st_size / 1e6:.1f} MB: {args.out}")
    else:
        merge(args.init, args.delta, args.out)
        print(f"merged: {args.out}")


if __name__ == "__main__":
    main()
