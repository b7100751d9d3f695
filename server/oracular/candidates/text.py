"""Oracles as comparable text: one canonical spelling shared by candidates, developers' oracles and the model.

Why one module: the model reads candidates as text, the corpus labels a candidate correct when its
text equals the developer's oracle read the same way (:class:`oracular.corpus.normalise.GroundTruth`),
and the quality checks compare literals. All of them must agree on the spelling, and the editor
must get it without importing the offline corpus pipeline.
"""

from __future__ import annotations

import re

from oracular.candidates.grammar import Candidate

_LITERAL_OR_SPACE = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|\s+")
_NUMBER_SUFFIX = re.compile(
    r"\b((?:0[xX][0-9a-fA-F_]+)|(?:\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?)|(?:\.\d+))[lLfFdD]\b"
)


def canonical_expression(text: str) -> str:
    """Whitespace outside literals removed and numeric suffixes dropped: a comparison key."""
    parts: list[str] = []
    last = 0
    for match in _LITERAL_OR_SPACE.finditer(text):
        parts.append(_NUMBER_SUFFIX.sub(r"\1", text[last : match.start()]))
        token = match.group()
        if not token.isspace():
            parts.append(token)
        last = match.end()
    parts.append(_NUMBER_SUFFIX.sub(r"\1", text[last:]))
    return "".join(parts)


def candidate_text(candidate: Candidate) -> str:
    """A candidate as JUnit 5 would read it with no message: ``assertEquals(expected, target)``."""
    if candidate.kind == "exception":
        return f"assertThrows({candidate.exception}.class)"
    target = candidate.target.expression if candidate.target else ""
    if candidate.expected is None:
        return f"{candidate.assertion}({target})"
    return f"{candidate.assertion}({candidate.expected.text}, {target})"
