"""Compare realistic evaluations side by side: ``oracular eval --realistic --json`` outputs.

Why: each evaluation writes its own report; a model is chosen by comparing several on the same
dev tests (same seed and ``--max-tests``), group by group.

    .venv/bin/python scripts/realistic_table.py v2=v2.json v1=v1.json baseline=baseline.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from oracular.evaluation.realistic import COLUMNS, GROUPS, ProjectRun, _cells, _row, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="NAME=FILE")
    args = parser.parse_args()
    loaded = []
    for item in args.runs:
        name, _, path = item.partition("=")
        runs = [ProjectRun.from_json(r) for r in json.loads(Path(path).read_text(encoding="utf-8"))]
        loaded.append((name, [j for run in runs for j in run.judged]))
    keys = [{(j.project, j.file, j.test) for j in judged} for _, judged in loaded]
    if any(k != keys[0] for k in keys):
        print("warning: the runs did not judge the same tests\n")
    for group, keep in GROUPS.items():
        print(f"### {group}\n")
        print(_row("ranker", *COLUMNS))
        print(_row(*["---"] * (len(COLUMNS) + 1)))
        for name, judged in loaded:
            chosen = [j for j in judged if keep(j)]
            if chosen:
                print(_row(name, *_cells(figures(chosen))))
        print()


if __name__ == "__main__":
    main()
