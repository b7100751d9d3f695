"""What to assert, apart from the value: a candidate's *template* (assertion + target, value slot).

Why the split (models v2): once the code under test runs, the value of every target is known
and only the choice of *what* to assert is left (``assertEquals(?, s.size())`` or
``assertFalse(s.isEmpty())``). Training on templates needs no execution, and a value's source
cannot leak the label: at training time the only value known for the right target is the
developer's own, so a model shown values learns "a specific literal is the answer", which is
always true of observed values and tells nothing. Exception candidates and value-free
assertions (``assertTrue``, ``assertNull``...) are their own templates.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from oracular.candidates.grammar import Candidate, assertion_candidates
from oracular.candidates.text import candidate_text
from oracular.candidates.values import Value
from oracular.java.targets import Target

VALUE_SLOT = "?"
"""Stands for the expected value in a template's text."""


def template_text(candidate: Candidate) -> str:
    """``assertEquals(3, s.size())`` -> ``assertEquals(?, s.size())``; others unchanged."""
    if candidate.expected is None:
        return candidate_text(candidate)
    slot = dataclasses.replace(candidate.expected, text=VALUE_SLOT)
    return candidate_text(dataclasses.replace(candidate, expected=slot))


def target_templates(targets: Iterable[Target]) -> list[Candidate]:
    """Every template the grammar allows on ``targets``: the value-free assertions, and one
    equality template per target whose type an equality can compare (whatever values exist)."""
    found: list[Candidate] = []
    for target in targets:
        slot = Value(VALUE_SLOT, target.type or "", "slot")
        found += assertion_candidates(target, [slot] if target.type else [])
    return found


def group_by_template(candidates: Sequence[Candidate]) -> tuple[list[str], list[int]]:
    """The distinct template texts (first-seen order) and each candidate's template index."""
    texts: list[str] = []
    where: dict[str, int] = {}
    index = []
    for candidate in candidates:
        text = template_text(candidate)
        if text not in where:
            where[text] = len(texts)
            texts.append(text)
        index.append(where[text])
    return texts, index


def spread(template_scores: Sequence[float], group: Sequence[int], weights: Sequence[float]) -> list[float]:
    """Each candidate's score: its template's, shared among the template's candidates in
    proportion to ``weights`` (so scores still sum as the templates' did)."""
    totals = [0.0] * len(template_scores)
    for g, w in zip(group, weights, strict=True):
        totals[g] += w
    return [template_scores[g] * w / totals[g] for g, w in zip(group, weights, strict=True)]
