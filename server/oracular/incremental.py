"""Per-method results reused from one version of a document to the next.

An edit in an editor touches one method, but every version used to be analysed whole: on a
2,000-line test file the quality checks and the ranking of every test cost about 100 ms after
each pause in typing. A test's results depend on its own text and on a few things around it, so
they are kept under a key made of exactly those:

- the method's text, from the start of its first line (its indentation shapes rendered oracles);
- the file's *facts*: all of its text outside test methods (package, imports, fields, helpers,
  set-up methods, the class declarations), so an edit anywhere but inside a test invalidates all;
- the text of any other test method of the file it calls by name (a test used as a helper);
- what the engine reads besides the file: its settings, its ranker and the workspace index's
  generation (bumped by every refresh that changes a declaration).

Positions are the one thing that moves when another method grows or shrinks. Results hold LSP
positions either inside the method (findings, the oracle's statement edit) or in the file header
(import edits), which is part of the facts; :meth:`Reuse.line` shifts the former by how far the
method moved. Everything holding tree nodes is rebuilt on the new tree by the caller.

Only the entries of the latest version are kept, so the memory is bounded by one file's results.

What a kind of result depends on besides the method and the file's facts is its key
(:class:`MemoKey`): a frozen dataclass whose class names the kind and whose fields are those
inputs. A key built by hand as a string let a field be left out of it, and the user then saw a
stale result, silently; a field of a dataclass is part of its equality.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from oracular.candidates.render import Position, TextEdit

if TYPE_CHECKING:
    from oracular.java.junit import TestMethod
    from oracular.java.source import SourceText

_CALLED = re.compile(rb"\b([A-Za-z_$][\w$]*)\s*\(")


@dataclass(frozen=True)
class Reuse:
    """A result kept for an unchanged method, and how far that method moved (in lines)."""

    value: Any
    delta: int
    since_line: int
    """The method's first line when the value was computed: positions before it did not move."""

    def line(self, position: Position) -> Position:
        line, character = position
        return (line + self.delta, character) if line >= self.since_line else position

    def edit(self, edit: TextEdit) -> TextEdit:
        return replace(edit, start=self.line(edit.start), end=self.line(edit.end))


@dataclass(frozen=True)
class MemoKey:
    """A kind of per-method result and what it depends on outside the method: subclass it as a
    frozen dataclass, one field per input (the class itself is part of the key)."""


MethodKey = tuple[str, int]
"""A test method's key in one version (its text, the file's facts, the engine's context: see
:meth:`MethodMemo.begin`) and the line it starts on there."""
MethodKeys = Mapping[int, MethodKey]
"""A version's method keys by the test's node id (:attr:`MethodMemo.keys`)."""


class MethodMemo:
    """Results per test method of one document, valid across its versions (see the module doc).

    Use: :meth:`begin` with each new version's tests, then :meth:`get` and :meth:`put` per
    test and kind of result (a :class:`MemoKey`), then :meth:`finish`. Not thread-safe: one
    document is analysed on one thread at a time.
    """

    def __init__(self) -> None:
        self._entries: dict[tuple[MemoKey, str], tuple[Any, int]] = {}
        self._kept: dict[tuple[MemoKey, str], tuple[Any, int]] = {}
        self._keys: dict[int, tuple[str, int]] = {}
        self._called: dict[bytes, frozenset[str]] = {}
        self._called_next: dict[bytes, frozenset[str]] = {}
        self._finished = True
        self.hits = 0
        self.misses = 0

    def begin(self, source: SourceText, tests: list[TestMethod], context: Hashable) -> None:
        """Key every test of a new version; ``context`` is what else their results depend on.

        Entries of the previous finished version that this one does not ask for are dropped by
        the next :meth:`begin`.
        """
        if self._finished:
            self._entries = self._kept
        else:  # the previous version was abandoned half-way (superseded): keep what both hold
            self._entries.update(self._kept)
        self._kept, self._finished = {}, False
        self._called, self._called_next = self._called_next, {}
        data = source.data
        spans = sorted((t.node.start_byte, t.node.end_byte, t) for t in tests)
        facts = hashlib.blake2b(repr(context).encode(), digest_size=16)
        texts: dict[str, list[bytes]] = {}
        cursor = 0
        for start, end, test in spans:
            facts.update(data[cursor:start])
            cursor = max(cursor, end)
            texts.setdefault(test.name, []).append(data[start:end])
        facts.update(data[cursor:])
        digest = facts.digest()
        self._keys = {}
        for start, end, test in spans:
            line = source.line_of(start)
            own = data[source.offset(line, 0) : end]
            key = hashlib.blake2b(digest + test.class_name.encode() + b"\0" + own, digest_size=16)
            for name in sorted(self._called_in(own) & texts.keys()):
                if name != test.name:
                    key.update(b"".join(texts[name]))
            self._keys[test.node.id] = (key.hexdigest(), line)

    @property
    def keys(self) -> MethodKeys:
        """The keys of the version last begun (never changed afterwards: the next :meth:`begin`
        makes new ones), for results kept outside this memo (:class:`KeptResults`)."""
        return self._keys

    def _called_in(self, method: bytes) -> frozenset[str]:
        """The names ``method`` calls, remembered by its text for the next version."""
        found = self._called.get(method)
        if found is None:
            found = frozenset(m.decode() for m in _CALLED.findall(method))
        self._called_next[method] = found
        return found

    def get(self, kind: MemoKey, test: TestMethod) -> Reuse | None:
        key, line = self._keys[test.node.id]
        found = self._entries.get((kind, key)) or self._kept.get((kind, key))
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self._kept[(kind, key)] = found
        value, since = found
        return Reuse(value, line - since, since)

    def put(self, kind: MemoKey, test: TestMethod, value: Any) -> None:
        key, line = self._keys[test.node.id]
        self._kept[(kind, key)] = (value, line)

    def finish(self) -> None:
        """This version's results are all kept: the next version needs nothing older."""
        self._finished = True


KEPT_RESULTS = 2048
"""Tests' results a :class:`KeptResults` holds: a few large files' worth (a 1,600-line file has
about 100 tests)."""


class KeptResults:
    """Results of methods computed off the analysis of one version, kept for the next versions.

    Why not a :class:`MethodMemo`: the editor runs a version's code (observes its prefixes, checks
    its oracles) and ranks it again with the values after that version's analysis, while newer
    versions may already be analysed, so what keys a result is the method key of the version it
    was computed for (:attr:`MethodMemo.keys`, kept with the analysis), not the memo's current
    one. Keys hold the method's whole text, so one store may serve every document (the
    observations and checks do); one whose results hold parse trees is one document's, trimmed to
    each version's methods (:meth:`retain`). The least recently used entries go past ``size``.
    Not thread-safe: one thread per store.
    """

    def __init__(self, size: int = KEPT_RESULTS) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[Hashable, str], tuple[Any, int]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, kind: Hashable, own: MethodKey | None) -> Reuse | None:
        """The result kept for the method keyed ``own`` (``None``: the version has no keys)."""
        if own is None or (found := self._entries.get((kind, own[0]))) is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end((kind, own[0]))
        value, since = found
        return Reuse(value, own[1] - since, since)

    def put(self, kind: Hashable, own: MethodKey | None, value: Any) -> None:
        if own is None:
            return
        self._entries[(kind, own[0])] = (value, own[1])
        self._entries.move_to_end((kind, own[0]))
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def retain(self, keys: Iterable[MethodKey]) -> None:
        """Only the results of these methods stay: a store of one document's results that hold
        its parse trees (a ranked report holds its test's nodes) keeps one version's trees, not
        one per edit."""
        wanted = {key for key, _line in keys}
        for entry in [e for e in self._entries if e[1] not in wanted]:
            del self._entries[entry]
