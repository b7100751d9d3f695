"""The ranker the server's engines share, and the device it runs on.

The shipped neural model when its weights are present (it loads lazily, in the background),
else the documented baseline. The ``device`` setting is resolved here so that a downgrade
(``cuda`` asked, no GPU) reaches the user as a message instead of an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from oracular.models.devices import DeviceUnavailable, select_device
from oracular.models.ranker import default_ranker
from oracular.ranking.problem import Ranker


@dataclass(frozen=True)
class LoadedRanker:
    ranker: Ranker
    device: str
    """The device actually used: ``cpu`` or ``cuda``."""
    note: str | None = None
    """Why the requested device could not be used, for the user."""

    def describe(self) -> str:
        return f"{self.ranker.name} ranker on {self.device}"


def resolve_device(requested: str) -> tuple[str, str | None]:
    """``cpu``/``cuda`` for a requested ``auto``/``cpu``/``cuda``, and a note when downgraded.

    The model code (and torch, whose import takes seconds) is imported only when the answer
    depends on it; the choice itself is the models' own :func:`select_device`.
    """
    if requested == "cpu":
        return "cpu", None
    try:
        return select_device(requested), None
    except ImportError as exc:  # a broken install must not stop the server
        return "cpu", f"oracular.device is {requested!r} but torch cannot be imported ({exc}); using cpu"
    except DeviceUnavailable:
        return "cpu", "oracular.device is 'cuda' but torch sees no CUDA GPU; using cpu"


def load_ranker(requested_device: str) -> LoadedRanker:
    """The ranker for ``requested_device`` (slow: call it off the event loop).

    The model starts loading in the background at once, while the client opens its first
    document and its project is indexed, so the first diagnostics wait for as little of the
    load as they can.
    """
    device, note = resolve_device(requested_device)
    ranker = default_ranker(device)
    ranker.preload()
    return LoadedRanker(ranker, device, note)
