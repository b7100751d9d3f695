"""Oracles as comparable text: one canonical spelling shared by candidates, developers' oracles and the model.

Why one module: the model reads candidates as text, the corpus labels a candidate correct when its
text equals the developer's oracle read the same way (:class:`oracular.corpus.normalise.GroundTruth`),
and the quality checks compare literals. All of them must agree on the spelling, and the editor
must get it without importing the offline corpus pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from oracular.candidates.grammar import Candidate

_QUOTED = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'")
_LITERAL_OR_SPACE = re.compile(_QUOTED.pattern + r"|\s+")
_NUMBER_SUFFIX = re.compile(
    r"\b((?:0[xX][0-9a-fA-F_]+)|(?:\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?)|(?:\.\d+))[lLfFdD]\b"
)
_TRAILING_ZEROS = re.compile(r"(?<![\w.])(\d+)\.(\d*?)0+(?![\w.])")
_BOXED = r"(?:java\.lang\.)?(?:Boolean|Byte|Character|Short|Integer|Long|Float|Double)\.valueOf\("
_BOXED_OPEN = re.compile(_BOXED + "$")
_BOXED_VALUE = re.compile(r"(?<![\w.])" + _BOXED + r"(-?(?:\d[\w.]*|\.\d\w*)|true|false)\)")


def _code(text: str) -> str:
    """Code between literals: numeric suffixes and a decimal's trailing zeros dropped, a boxed
    literal unboxed. ``42``, ``42.0f`` and ``Integer.valueOf(42)`` are one expected value."""
    text = _TRAILING_ZEROS.sub(lambda m: f"{m[1]}.{m[2]}" if m[2] else m[1], _NUMBER_SUFFIX.sub(r"\1", text))
    return _BOXED_VALUE.sub(r"\1", text)


def canonical_expression(text: str) -> str:
    """A comparison key: whitespace outside literals removed, numbers spelt one way, boxed
    literals unboxed (``Character.valueOf('&')`` is ``'&'``), string literals untouched."""
    parts: list[str] = []
    last = 0
    for match in _LITERAL_OR_SPACE.finditer(text):
        parts.append(_code(text[last : match.start()]))
        token = match.group()
        if not token.isspace():
            parts.append(token)
        last = match.end()
    parts.append(_code(text[last:]))
    for i in range(1, len(parts) - 1):
        boxed = _BOXED_OPEN.search(parts[i - 1])
        if parts[i].startswith("'") and boxed and parts[i + 1].startswith(")"):
            parts[i - 1], parts[i + 1] = parts[i - 1][: boxed.start()], parts[i + 1][1:]
    return _folded("".join(parts))


def _folded(text: str) -> str:
    """String literals joined by ``+`` as the one literal the compiler makes of them (JLS 15.29):
    ``"---\\n" + "key: x"`` is ``"---\\nkey: x"``, the spelling an observed value gets. Not where
    the last literal is a receiver (``"a" + "b".length()``) or in a text block."""
    if '"+"' not in text or '"""' in text:  # nothing to join (the common case), or a text block
        return text
    out: list[str] = []
    last = 0
    for match in _QUOTED.finditer(text):
        between, token = text[last : match.start()], match.group()
        after = text[match.end() : match.end() + 1]
        joins = between == "+" and out and out[-1].startswith('"') and token.startswith('"')
        if joins and after != ".":
            out[-1] = out[-1][:-1] + token[1:]
        else:
            out += [between, token]
        last = match.end()
    return "".join([*out, text[last:]])


def candidate_text(candidate: Candidate) -> str:
    """A candidate as JUnit 5 would read it with no message: ``assertEquals(expected, target)``."""
    if candidate.kind == "exception":
        return f"assertThrows({candidate.exception}.class)"
    if candidate.kind == "helper":
        return candidate.call
    target = candidate.target.expression if candidate.target else ""
    if candidate.expected is None:
        return f"{candidate.assertion}({target})"
    return f"{candidate.assertion}({candidate.expected.text}, {target})"


def unquoted(text: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """``(index, character, depth)`` for the characters of ``text`` from ``start`` that are outside
    string and character literals; ``depth`` counts the brackets open before the character."""
    depth, quote, i = 0, "", start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        else:
            yield i, ch, depth
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
        i += 1


def split_arguments(text: str) -> list[str]:
    """Top-level arguments of a call's argument text (parentheses, brackets and quotes respected)."""
    cuts = [i for i, ch, depth in unquoted(text) if ch == "," and depth == 0]
    bounds = zip([-1, *cuts], [*cuts, len(text)], strict=True)
    return [part for a, b in bounds if (part := text[a + 1 : b].strip())]
