"""Shared CLI plumbing: building an engine for the project around a path."""

from __future__ import annotations

import os
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

    The ranker may use every core: on the command line the user waits for the answer, unlike the
    editor, whose server shares the machine with everything else the user runs. A batch run
    passes its one ``ranker`` to the engine of every project, and the files to ``keep`` parsed
    (:meth:`WorkspaceIndex.take`).
    """
    roots = sorted({project_root(p) for p in paths})
    index = WorkspaceIndex(roots, keep=keep)
    index.refresh()
    ranker = ranker or default_ranker(cpu_threads=os.cpu_count() or 1)
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
