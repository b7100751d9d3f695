"""The candidates of a test whose prefix ran: the observed ones first, then the static ones.

Why not all of them: a target whose value was observed keeps the static values the test or the
unit suggest (its literals, variables, constants) and the global dictionary's most common values,
any of which the ranker may expect confidently against the observation (a possible bug); its
rarer global values are guesses the observation has made moot, and ranking them costs time
(every candidate is a pass of the model).
"""

from __future__ import annotations

from oracular.candidates.grammar import MAX_CANDIDATES, Candidate
from oracular.candidates.observed import TestObservation
from oracular.java.types import simple_exception

GLOBAL_KEPT = 4
"""Global dictionary values kept for a target whose value was observed."""


def merge_observed(
    first: list[Candidate], then: list[Candidate], observation: TestObservation
) -> list[Candidate]:
    """``first`` (observed, all kept) then ``then`` without duplicates, capped as the grammar caps.

    A target whose value was observed keeps the static values the test or the unit suggest (its
    literals, variables, constants) and the global dictionary's :data:`GLOBAL_KEPT` most common
    values, any of which the ranker may expect confidently against the observation (a possible
    bug); its rarer global values are guesses the observation has made moot, and ranking them
    costs time (every candidate is a pass of the model).
    """
    seen = {c.key for c in first}
    merged = list(first)
    thrown = {simple_exception(c.exception) for c in first if c.kind == "exception"}
    exceptions = [c for c in then if c.kind == "exception" and simple_exception(c.exception) not in thrown]
    room = MAX_CANDIDATES - len(merged) - len(exceptions)
    for candidate in then:
        moot = (
            candidate.expected is not None
            and candidate.expected.source == "global"
            and candidate.expected.rank >= GLOBAL_KEPT
            and candidate.target is not None
            and candidate.target.expression in observation.values
        )
        if candidate.kind == "assertion" and candidate.key not in seen and room > 0 and not moot:
            seen.add(candidate.key)
            merged.append(candidate)
            room -= 1
    return merged + exceptions
