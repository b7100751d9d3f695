"""The ranker the CLI and the server give the engine: the neural model when its weights are
shipped, else the baseline, said once.

Why the loading is lazy and in the background: importing torch and loading the weights takes
seconds, and most engine users never rank (``oracular scan``, corpus mining, an editor that only
shows diagnostics at first). Nothing is loaded until :meth:`NeuralRanker.preload` (which the
engine calls when a suggestion is asked for, before it parses, so loading overlaps the analysis)
or the first :meth:`NeuralRanker.rank`, which waits for the load to finish so that answers never
switch rankers half-way through a file.

This module imports neither torch nor the model code at import time (the server imports it at
start-up; ``tests/test_architecture.py`` pins that).
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.models.layout import default_model_dir, weights_present
from oracular.ranking.baseline import BaselineRanker
from oracular.ranking.confidence import AnswerView
from oracular.ranking.learned import LearnedRanker
from oracular.ranking.problem import OracleProblem, Ranker, Ranking
from oracular.ranking.weights import RankingWeights

if TYPE_CHECKING:
    from oracular.models.inference import LoadedModel

logger = logging.getLogger("oracular.models")

_warned: set[str] = set()
_warned_lock = threading.Lock()


def _warn_once(reason: str) -> None:
    with _warned_lock:
        if reason in _warned:
            return
        _warned.add(reason)
    logger.warning("%s", reason)


class NeuralRanker(Ranker):
    """Ranks with the two-stage neural model in ``directory``; falls back to the baseline."""

    def __init__(self, directory: Path, device: str = "auto", cpu_threads: int | None = None) -> None:
        self.directory = directory
        self.requested_device = device
        self.cpu_threads = cpu_threads
        """torch threads on a CPU; ``None``: the editor's default (one, see ``inference.CPU_THREADS``)."""
        self._baseline = BaselineRanker()
        self._lock = threading.Lock()
        self._future: Future[LoadedModel | None] | None = None
        self._reason: str | None = None
        if not weights_present(directory):
            self._reason = (
                f"no neural model in {directory} (train one with 'oracular train'); "
                "ranking with the baseline heuristic"
            )

    @property
    def name(self) -> str:
        return "baseline" if self._reason else "neural"

    @property
    def fallback_reason(self) -> str | None:
        """Why the baseline ranks instead of the model (``None``: the model, or not known yet)."""
        return self._reason

    @property
    def device(self) -> str | None:
        """The device the loaded model runs on; ``None`` before loading or when falling back."""
        model = self._loaded_now()
        return model.device if model is not None else None

    @property
    def abstain_below(self) -> float:
        """The model's abstention threshold, chosen on dev for a stated precision, once loaded;
        the baseline's before that and when falling back (the baseline is what ranks then)."""
        model = self._loaded_now()
        return model.abstain_below if model is not None else self._baseline.abstain_below

    def abstain_below_for(self, view: AnswerView) -> float:
        """The model's threshold for the view's mode (values observed or not), once loaded."""
        model = self._loaded_now()
        return model.abstain_below_for(view) if model is not None else self._baseline.abstain_below_for(view)

    def answer_confidence(self, view: AnswerView) -> float:
        """The model's, once loaded (it has ranked the view: :meth:`rank` waits for it)."""
        model = self._loaded_now()
        return model.answer_confidence(view) if model is not None else self._baseline.answer_confidence(view)

    @property
    def ranking_weights(self) -> RankingWeights | None:
        """The model's, once loaded (the engine reads them after :meth:`rank` waited for it)."""
        model = self._loaded_now()
        return model.ranking_weights if model is not None else None

    @property
    def learned_ranker(self) -> LearnedRanker | None:
        """The model's, once loaded."""
        model = self._loaded_now()
        return model.learned_ranker if model is not None else None

    def preload(self) -> None:
        """Start loading in a background thread (once); returns at once."""
        with self._lock:
            if self._future is not None or self._reason is not None:
                return
            future: Future[LoadedModel | None] = Future()
            self._future = future
        threading.Thread(target=self._load, args=(future,), name="oracular-model-load", daemon=True).start()

    def _load(self, future: Future[LoadedModel | None]) -> None:
        try:
            from oracular.models.inference import load_model

            if self.cpu_threads is None:
                model = load_model(self.directory, self.requested_device)
            else:
                model = load_model(self.directory, self.requested_device, self.cpu_threads)
        except Exception as exc:  # a broken model must degrade to the baseline, never stop the engine
            self._reason = f"cannot load the neural model from {self.directory} ({type(exc).__name__}: {exc}); ranking with the baseline heuristic"  # noqa: E501
            future.set_result(None)
            return
        logger.info("neural oracle model loaded from %s on %s", self.directory, model.device)
        future.set_result(model)

    def _loaded_now(self) -> LoadedModel | None:
        future = self._future
        return future.result() if future is not None and future.done() else None

    @property
    def loading(self) -> bool:
        return self._reason is None and self._loaded_now() is None

    def wait(self) -> None:
        self._model()

    def _model(self) -> LoadedModel | None:
        """The loaded model (loading it if needed), or ``None`` when falling back."""
        self.preload()
        future = self._future
        model = future.result() if future is not None else None
        if model is None and self._reason:
            _warn_once(self._reason)
        return model

    def rank(self, problem: OracleProblem) -> Ranking:
        model = self._model()
        return model.rank(problem) if model is not None else self._baseline.rank(problem)


RANKER_ENV = "ORACULAR_RANKER"
"""Set to ``baseline`` to rank with the baseline heuristic even when a model is shipped."""


def default_ranker(
    device: str = "auto", directory: Path | None = None, cpu_threads: int | None = None
) -> Ranker:
    """What users rank with: the shipped model (lazily), else the baseline. The engine never builds
    one itself: its callers (the CLI, the server) pass this.

    ``cpu_threads``: for batch work the user waits on (the command line), all cores; the editor
    keeps the default, one.

    ``$ORACULAR_RANKER=baseline`` chooses the baseline outright (a choice, so no fallback
    warning): for comparisons, and for tests whose expected output is the baseline's.
    """
    if os.environ.get(RANKER_ENV, "").strip().lower() == "baseline":
        return BaselineRanker()
    return NeuralRanker(directory or default_model_dir(), device, cpu_threads)
