"""``oracular eval --headline``: the eight realistic evaluations of the headline table, and the table.

Each cell is an ordinary ``eval --realistic`` run (its ``--json`` and Markdown kept in ``--runs``,
named for the cell), so that one can be read or re-run alone; ``--from DIR`` only tabulates runs
already made, and ``--against DIR`` adds how many tests each cell turned against another
table's runs (:func:`~oracular.evaluation.headline.against`). Runs of the code are remembered
between cells (``CACHE/eval-runs``): the observed cells of a view share them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.cli.common import emit, error
from oracular.corpus.lists import CorpusLists
from oracular.evaluation.headline import CELLS, MAX_TESTS, Cell, against, headline
from oracular.evaluation.realistic import Judged, ProjectRun


def run_headline(args: argparse.Namespace) -> int:
    from oracular.cli.realistic import run_realistic

    folder: Path = (args.source or args.runs or default_cache_dir() / "eval-headline").expanduser()
    if args.source is None:
        folder.mkdir(parents=True, exist_ok=True)
        lists = CorpusLists.load()
        sources = (args.cache or default_cache_dir()).expanduser() / "src"
        splits = {"tune": lists.tune, "report": lists.report}
        for cell in CELLS:
            projects = [p for p in splits[cell.split] if (sources / p).is_dir()]
            if not projects:
                error(f"no {cell.split} project in {sources}: run 'oracular corpus fetch --list ...' first")
                return 2
            print(f"{cell.name}: {len(projects)} projects", flush=True)
            cell_args = argparse.Namespace(**{
                **vars(args), "realistic": projects, "max_tests": MAX_TESTS[cell.split],
                "one_cut": cell.view == "one-cut", "no_observe": cell.mode == "static",
                "json": folder / f"{cell.name}.json", "output": folder / f"{cell.name}.md", "kind": None,
            })  # fmt: skip
            if run_realistic(cell_args) != 0:
                return 2
    cells = saved_cells(folder)
    before = saved_cells(args.against.expanduser()) if args.against is not None else None
    for found, where in ((cells, folder), (before, args.against)):
        if found is not None and not found:
            error(f"no evaluation in {where} (expected {CELLS[0].name}.json ...)")
            return 2
    table = headline(cells)
    if before is not None:
        table += f"\nAgainst {args.against} (the tests judged in both runs):\n\n" + against(before, cells)
    emit(table, args.output, "headline table")
    return 0


def saved_cells(folder: Path) -> dict[Cell, list[Judged]]:
    """The cells whose evaluation ``folder`` holds (``report-one-cut-observed.json``...)."""
    cells: dict[Cell, list[Judged]] = {}
    for cell in CELLS:
        path = folder / f"{cell.name}.json"
        if path.is_file():
            runs = [ProjectRun.from_json(r) for r in json.loads(path.read_text(encoding="utf-8"))]
            cells[cell] = [j for run in runs for j in run.judged]
    return cells
