"""The CPU model's int8 weights kept as they are used, so that a fresh process does not quantise.

Why: every fresh ``oracular suggest`` and every new language server read the fp16 weights, widened
them (0.4 s) and quantised every ``nn.Linear`` (0.5 s) before ranking its first test:
a third of a fresh static ``suggest`` once torch is imported (``docs/benchmarks.md``). The int8
state is written once, in Oracular's cache, and read back into a network built without its
random initialisation (about 0.25 s in all).

The file holds tensors only and is read with ``torch.load(weights_only=True)``: nothing in the
cache can run code. Its name digests what the int8 weights depend on: the weights file (path,
size, modification time), torch's version and the quantisation. Anything unreadable or stale
(a network whose modules changed since) is quantised again and rewritten; a cache that cannot be
written costs the quantisation each time, nothing else.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import torch
from torch import nn
from torch.ao.nn.quantized.dynamic import Linear as DynamicLinear

from oracular.cache import default_cache_dir, write_atomically
from oracular.models.layout import WEIGHTS_FILE
from oracular.models.network import OracleNetwork, build_network
from oracular.models.store import ModelConfig

logger = logging.getLogger("oracular.models")

# torch's own (de)serialisation of quantised tensors goes through TypedStorage and warns about it;
# one targeted filter, installed once (see the filters in ``inference``).
warnings.filterwarnings("ignore", "TypedStorage is deprecated", UserWarning)

CACHE_DIR = "int8"
"""The int8 weights' folder in Oracular's cache."""
_INIT_FUNCTIONS = ("normal_", "uniform_", "kaiming_uniform_", "zeros_", "ones_")
"""What ``nn.Embedding``, ``nn.Linear`` and ``nn.LayerNorm`` initialise with (overwritten here)."""
KEPT = 4
"""int8 files kept in the folder (the newest): a few models (versions, a trained one beside the
shipped one), not every model ever loaded."""
_building = threading.Lock()


def cache_path(directory: Path, scheme: str, root: Path | None = None) -> Path:
    """Where the int8 weights of the model in ``directory`` quantised by ``scheme`` are kept."""
    weights = (directory / WEIGHTS_FILE).resolve()
    stat = weights.stat()
    key = f"{weights}\0{stat.st_size}\0{stat.st_mtime_ns}\0{torch.__version__}\0{scheme}"
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    return (root if root is not None else default_cache_dir() / CACHE_DIR) / f"{digest}.pt"


def quantised_network(
    directory: Path,
    config: ModelConfig,
    load: Callable[[], OracleNetwork],
    quantise: Callable[[nn.Module], nn.Module],
    scheme: str,
    root: Path | None = None,
) -> nn.Module:
    """The int8 network of the model in ``directory``: read from the cache, else ``load()``-ed,
    ``quantise``-d (by ``scheme``, which names what ``quantise`` does) and kept."""
    path = cache_path(directory, scheme, root)
    try:
        return _read(path, config)
    except FileNotFoundError:
        pass
    except Exception as exc:  # a stale or damaged file: quantise again and replace it
        logger.info("int8 weights in %s not used (%s): quantising again", path, type(exc).__name__)
    network = quantise(load())
    buffer = io.BytesIO()
    torch.save(network.state_dict(), buffer)
    try:
        write_atomically(path, buffer.getvalue())
        _prune(path.parent)
    except OSError as exc:
        logger.info("int8 weights not kept in %s: %s", path.parent, exc)
    return network


def _prune(folder: Path) -> None:
    """Only the :data:`KEPT` newest files stay (another process may be pruning too)."""
    kept = sorted(folder.glob("*.pt"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for stale in kept[KEPT:]:
        stale.unlink(missing_ok=True)


def _read(path: Path, config: ModelConfig) -> nn.Module:
    """The kept int8 state in a network of the config's shape, its ``nn.Linear`` layers dynamic
    int8 ones (each weight, with its scales, comes from the state: strict, so nothing is left out)."""
    state = torch.load(path, map_location="cpu", weights_only=True)
    with _uninitialised():
        network = build_network(config.encoder_config(), config.cross_layers, config.architecture)
    _swap_linears(network)
    network.load_state_dict(state)
    return network.eval()


def _swap_linears(module: nn.Module) -> None:
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            bias = child.bias is not None
            setattr(module, name, DynamicLinear(child.in_features, child.out_features, bias_=bias))
        else:
            _swap_linears(child)


@contextlib.contextmanager
def _uninitialised() -> Iterator[None]:
    """Modules built inside skip their random initialisation: every value is loaded next.

    ``torch.nn.init``'s functions are swapped for the duration, under a lock; nothing else in
    Oracular builds modules while a model loads (the server loads one model, in one thread).
    """
    with _building:
        saved = {name: getattr(nn.init, name) for name in _INIT_FUNCTIONS}
        for name in _INIT_FUNCTIONS:
            setattr(nn.init, name, _unchanged)
        try:
            yield
        finally:
            for name, function in saved.items():
                setattr(nn.init, name, function)


def _unchanged(tensor: torch.Tensor, *_args: object, **_kwargs: object) -> torch.Tensor:
    return tensor
