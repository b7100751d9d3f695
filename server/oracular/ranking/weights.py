"""Every weight of the ranking pipeline, in one place: what each step multiplies, raises or keeps.

Why one frozen dataclass: the steps (:mod:`oracular.ranking.steps`) were tuned one by one, each
with a constant of its own module; here they can be read together, set together (the engine's
settings carry one), fitted together and saved with a model (the ``ranking_weights`` section of
its ``config.json``, read by :meth:`RankingWeights.from_config`). The values below are the
hand-set ones; each field says what it does and, where it was measured, what chose it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class RankingWeights:
    asserted_alike: float = 10.0
    """How much more an assertion weighs against the others when its target reads a member path
    the file's other tests assert on (step ``asserted-alike``)."""
    first_check: float = 30.0
    """The same for the assertions of the file's first-check habit (step ``first-check``): at 10,
    opencsv's ``NumberTest`` (its tests open with ``assertNotNull(beans)``) still ranked
    ``assertEquals(2, beans.size())`` first in five tests; at 30 the 8 dev projects' observed
    top-1 gained 6 tests and lost none."""
    surely_throws: float = 0.95
    """The probability that the prefix throws which a certain guard verdict stands for (step
    ``guard-verdict``: the walk reads guards, not everything)."""
    settled: float = 0.3
    """What an assertion on a target the action left as it was keeps of its score (step
    ``settled-targets``): on the realistic dev evaluation, observed top-1 32.9% -> 34.6%."""
    thrown: float = 0.87
    """The score, at least, of an exception oracle that holds on what the running prefix threw
    (step ``witnessed-exception``): of the realistic dev tests whose top-1 was that oracle, 27 of
    31 (87%) were the developer's, against a median score of about 0.2."""
    habit_margin: float = 1e-3
    """How far the file's habitual exception type is put above the other holding types."""
    call_decay: float = 0.9
    """Each further argument choice of a helper keeps this share of the one before's score, so that
    the first choice (the prefix's own values, in the order it made them) leads when nothing ran."""
    named_helper_share: float = 0.5
    """The share a helper the test's name names counts as having, at least: xmlunit's
    ``testCompareComment`` checks with ``assertDifferentComments``, called by one test of forty."""
    shown_calls: int = 2
    """A helper's calls that keep their score (step ``fewer-helper-calls``)..."""
    later_calls: float = 0.1
    """... and what its later ones keep of theirs."""
    possible_bug: float = 0.5
    """A failing first choice scored at least this is shown as a possible bug (``docs/execution.md``)."""
    mutant_kill: float = 1.0
    """Added to a holding assertion's score per surviving mutant it kills (step ``mutant-kills``):
    at 1, a verified kill puts it above every holding oracle that kills none, as the issue asks;
    not fitted (runs of mutants exist only where a user asked for them)."""

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> RankingWeights:
        """Weights saved with a model; a name this version does not know is an error, not a silent
        default (a model fitted for other steps must not rank with half its weights)."""
        known = {f.name: f.type for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"unknown ranking weights: {', '.join(unknown)}")
        return cls(**{name: int(v) if known[name] == "int" else float(v) for name, v in data.items()})

    def to_config(self) -> dict[str, float | int]:
        return asdict(self)
