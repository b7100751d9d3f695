"""Incremental parsing of successive versions of one document.

An editor sends a new version after every pause in typing, and the versions differ in one place.
tree-sitter re-parses only around an edit when it is given the previous tree with that edit
applied (``Tree.edit``), which on a 2,000-line file is a fraction of a full parse. The edit is
found by comparing the two versions' bytes (their common prefix and suffix), so it does not matter
how the client split its ``didChange`` events: one contiguous range covers them all.

Error recovery is where an incremental parse may differ from a fresh one (a tree that went
through several broken versions can recover differently), so a version with a syntax error is
parsed afresh: every analysis then sees the tree a fresh parse gives.

The previous tree is copied before it is edited: the previous version's analysis may still be read
(a request answered for it), and its nodes must keep their positions.
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Parser, Point, Tree

from oracular.java.source import SourceText, new_parser, tree_input


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the longest common prefix, by halving (each comparison is one ``memcmp``)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the longest common suffix no longer than ``limit``."""
    low, high = 0, min(len(a), len(b), limit)
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def point_at(data: bytes, offset: int) -> Point:
    """tree-sitter's point of a byte offset: rows count ``\\n`` only, columns are bytes."""
    row = data.count(b"\n", 0, offset)
    return Point(row, offset - (data.rfind(b"\n", 0, offset) + 1))


class Reparser:
    """Parses each new version of one document against the tree of the version before it."""

    def __init__(self) -> None:
        self._parser: Parser = new_parser()
        self._data: bytes | None = None
        self._tree: Tree | None = None

    def parse(self, text: str, path: Path | None = None) -> SourceText:
        """``text`` parsed incrementally from the previous version's tree (as ``parse_text`` parses)."""
        original = text.encode("utf-8")
        data = tree_input(original)  # what the trees are of; the same offsets as ``original``
        old_data, old_tree = self._data, self._tree
        if old_tree is None or old_data is None:
            tree = self._parser.parse(data)
        elif old_data == data:
            tree = old_tree
        else:
            start = common_prefix(old_data, data)
            suffix = common_suffix(old_data, data, min(len(old_data), len(data)) - start)
            old_end, new_end = len(old_data) - suffix, len(data) - suffix
            edited = old_tree.copy()
            edited.edit(
                start_byte=start,
                old_end_byte=old_end,
                new_end_byte=new_end,
                start_point=point_at(old_data, start),
                old_end_point=point_at(old_data, old_end),
                new_end_point=point_at(data, new_end),
            )
            tree = self._parser.parse(data, edited)
            if tree.root_node.has_error:
                tree = self._parser.parse(data)
        self._data, self._tree = data, tree
        return SourceText(text, original, tree, path)
