"""Where a model runs: the device names users choose from, and resolving ``auto``.

Apart from the model code so that the editor's settings and the CLI's options read the names
without importing torch (seconds); torch is imported only when ``auto`` or ``cuda`` must be resolved.
"""

from __future__ import annotations

DEVICES = ("auto", "cpu", "cuda")
"""The ``device`` setting's and ``--device``'s values: ``auto`` picks ``cuda`` when torch sees a GPU."""


class DeviceUnavailable(RuntimeError):
    """``cuda`` was asked for explicitly and torch sees no CUDA device."""


def select_device(requested: str = "auto") -> str:
    """``auto`` -> ``cuda`` when torch sees a GPU, else ``cpu``; ``cuda`` without one is an error."""
    if requested not in DEVICES:
        raise ValueError(f"unknown device {requested!r} ({', '.join(DEVICES)})")
    if requested == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if requested == "cuda":
        raise DeviceUnavailable("cuda was requested but torch sees no CUDA device")
    return "cpu"
