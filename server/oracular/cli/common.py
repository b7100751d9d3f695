"""Shared CLI plumbing: building an engine for the project around a path."""

from __future__ import annotations

import sys
from collections.abc import Collection
from pathlib import Path

from oracular.engine import EngineSettings, OracleEngine
from oracular.java.workspace import WorkspaceIndex, project_root
from oracular.models.ranker import default_ranker
from oracular.ranking.problem import Ranker


def engine_for(
    paths: list[Path],
    settings: EngineSettings | None = None,
    ranker: Ranker | None = None,
    keep: Collection[Path] = (),
) -> OracleEngine:
    """An engine whose index covers the build root(s) around ``paths``.

    The model ranks on one CPU thread, as in the editor: on a machine whose cores are busy with
    other work, two threads ranked the example's six tests in 14.8 s against 1.5 s for one
    (``docs/benchmarks.md``, issue 16); ``suggest --jobs N`` is how a batch uses more cores. A
    batch run passes its one ``ranker`` to the engine of every project, and the files to ``keep``
    parsed (:meth:`WorkspaceIndex.take`). The index is kept on disk between runs
    (:mod:`oracular.java.index_store`): a batch's second worker, the next run, read it.
    """
    roots = sorted({project_root(p) for p in paths})
    index = WorkspaceIndex(roots, keep=keep, stored=True)
    index.refresh()
    ranker = ranker or default_ranker()
    return OracleEngine(index, ranker, settings, project_root=roots[0] if roots else None)


def emit(text: str, output: Path | None, what: str) -> None:
    """A Markdown document to stdout, or to ``output`` with a line saying where ``what`` went."""
    if output is None:
        print(text, end="")
    else:
        output.write_text(text, encoding="utf-8")
        print(f"{what} written to {output}")


def error(message: str) -> None:
    print(f"oracular: {message}", file=sys.stderr)


def package_roots(names: list[str], sources: Path) -> list[Path] | None:
    """Each name as a folder, or as a fetched corpus package in ``sources``; ``None`` once the
    first that is neither has been reported."""
    roots = []
    for name in names:
        path = Path(name)
        root = path if path.is_dir() else sources / name
        if not root.is_dir():
            error(f"{name}: neither a folder nor a package in {sources} (run 'oracular corpus fetch')")
            return None
        roots.append(root)
    return roots
