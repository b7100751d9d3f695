"""Step ``mutant-kills``: of two oracles that hold, the one a pseudo-testing run found to kill
surviving mutants comes first; failing or unobserved candidates are left alone."""

from __future__ import annotations

from oracular.candidates.grammar import Candidate
from oracular.candidates.observed import TestObservation, Verdict
from oracular.candidates.values import Value
from oracular.ranking.scored import Ranked, RankingContext, Scored
from oracular.ranking.steps.mutant_kills import MutantKills

from ..conftest import target


def _assertion(expression: str, value: str) -> Candidate:
    return Candidate(
        "assertion", "assertEquals", target(expression, "int", "observer"), Value(value, "int", "observed")
    )


def _ranked(*items: tuple[Candidate, float, str | None]) -> Ranked:
    scored = [Scored(c, s, s, Verdict(status, "2") if status else None) for c, s, status in items]
    return Ranked(tuple(scored), 0.1)


def _context(kills: dict[tuple[str, str], int] | None) -> RankingContext:
    observation = TestObservation(kills=kills or {}) if kills is not None else None
    return RankingContext(prefix=None, observation=observation)  # type: ignore[arg-type]


def test_a_holding_oracle_that_kills_comes_first() -> None:
    size, empty, wrong = (
        _assertion("s.size()", "2"),
        _assertion("s.isEmpty()", "0"),
        _assertion("s.size()", "3"),
    )
    ranked = _ranked((empty, 0.8, "holds"), (size, 0.3, "holds"), (wrong, 0.5, "fails"))
    kills = {("s.size()", "2"): 1, ("s.size()", "3"): 4}
    after = MutantKills()(ranked, _context(kills))
    assert after.scores == [0.8, 1.3, 0.5]  # the failing one gains nothing, whatever it would kill
    assert MutantKills()(ranked, _context({})).scores == ranked.scores
    assert MutantKills()(ranked, _context(None)).scores == ranked.scores  # static mode
