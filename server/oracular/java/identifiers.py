"""Identifiers as words: ``getEscapeCharacter`` is ``escape``, ``character``; a test's name
``testPushPopIsEmpty`` is ``push``, ``pop``, ``empty``. What a target's name shares with the test's
name is how likely a developer asserted on it (targets, template features, the template prior)."""

from __future__ import annotations

import re

_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


_VERBS = frozenset({"get", "is", "has", "with", "set", "to", "can", "should", "add", "new", "put", "create",
                    "build", "builder", "of", "value", "for", "from", "and"})  # fmt: skip


def identifier_words(name: str) -> set[str]:
    """``getEscapeCharacter`` -> ``{"escape", "character"}`` (verbs and glue words left out)."""
    return {w.lower() for w in _CAMEL_WORD.findall(name)} - _VERBS


def test_name_words(test_name: str) -> set[str]:
    """What a test's name (``testSkipLinesZero``, or ``CSVFormatTest.testSkipLinesZero``) says it checks."""
    return identifier_words(test_name.rsplit(".", 1)[-1]) - {"test", "should"}
