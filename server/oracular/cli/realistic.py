"""``oracular eval --realistic``: command-line glue for :mod:`oracular.evaluation.realistic`."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from oracular.cache import default_cache_dir
from oracular.cli.common import emit, error
from oracular.corpus.lists import CorpusLists
from oracular.engine import EngineSettings, FileReport, OracleEngine
from oracular.execution.checks import CheckSettings, OracleChecker
from oracular.execution.observe import ValueObserver
from oracular.java.source import SourceText
from oracular.java.workspace import WorkspaceIndex


def _roots(args: argparse.Namespace) -> list[Path] | None:
    sources = (args.cache or default_cache_dir()).expanduser() / "src"
    names = args.realistic or [n for n in CorpusLists.load().dev if (sources / n).is_dir()]
    if not names:
        error(f"no dev package in {sources}: run 'oracular corpus fetch' first")
        return None
    roots = []
    for name in names:
        path = Path(name)
        root = path if path.is_dir() else sources / name
        if not root.is_dir():
            error(f"{name}: neither a folder nor a package in {sources} (run 'oracular corpus fetch')")
            return None
        roots.append(root)
    return roots


def run_realistic(args: argparse.Namespace) -> int:
    from oracular.evaluation.realistic import TOP_K, evaluate_project, markdown
    from oracular.models.ranker import default_ranker

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    roots = _roots(args)
    if roots is None:
        return 2
    model_dirs = args.model or [None]
    if len(model_dirs) > 1:
        error("--realistic evaluates one model at a time")
        return 2
    ranker = default_ranker(args.device, model_dirs[0])
    settings = EngineSettings(top_k=TOP_K)

    def engine_for(index: WorkspaceIndex, root: Path) -> OracleEngine:
        return OracleEngine(index, ranker, settings, root)

    checker = None if args.no_observe else OracleChecker(CheckSettings(timeout_s=args.check_timeout))
    observer = ValueObserver(checker) if checker is not None else None

    def suggest(engine: OracleEngine, source: SourceText) -> FileReport:
        return engine.suggest(source, observer=observer)

    def check_top(report: FileReport) -> dict[tuple[int, int], str]:
        assert checker is not None
        check = checker.check(report)
        return {key: str(result.status) for key, result in check.results.items()}

    checking = check_top if checker is not None else None
    try:
        runs = [
            evaluate_project(root, engine_for, suggest, args.max_tests, args.seed, checking, not args.quiet)
            for root in roots
        ]
    finally:
        if checker is not None:
            checker.close()
    header = {
        "ranker": getattr(ranker, "name", type(ranker).__name__),
        "mode": "static (no values observed)" if args.no_observe else "observed values where the code runs",
        "tests per project": f"at most {args.max_tests} (seed {args.seed})",
    }
    emit(markdown(runs, header), args.output, "evaluation")
    if args.json is not None:
        args.json.write_text(json.dumps([r.to_json() for r in runs], indent=1) + "\n", encoding="utf-8")
    return 0
