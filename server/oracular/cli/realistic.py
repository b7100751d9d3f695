"""``oracular eval --realistic``: command-line glue for :mod:`oracular.evaluation.realistic`."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.cache import default_cache_dir
from oracular.cli.common import emit, error, package_roots
from oracular.engine import EngineSettings, FileReport, OracleEngine
from oracular.execution.observe import ValueObserver
from oracular.execution.oracle_checks import CheckSettings, OracleChecker
from oracular.java.source import SourceText
from oracular.java.workspace import WorkspaceIndex

if TYPE_CHECKING:
    from oracular.candidates.observed import Observer
    from oracular.evaluation.realistic import FeatureSink, ProjectRun


def _roots(args: argparse.Namespace) -> list[Path] | None:
    from oracular.corpus.lists import CorpusLists

    sources = (args.cache or default_cache_dir()).expanduser() / "src"
    names = args.realistic or [n for n in CorpusLists.load().dev if (sources / n).is_dir()]
    if not names:
        error(f"no dev package in {sources}: run 'oracular corpus fetch' first")
        return None
    return package_roots(names, sources)


def run_realistic(args: argparse.Namespace) -> int:
    from oracular.evaluation.realistic import TOP_K, markdown
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
    features: Path | None = args.features
    settings = EngineSettings(
        top_k=TOP_K, ablate=frozenset(args.ablate), record_features=features is not None
    )

    def engine_for(index: WorkspaceIndex, root: Path) -> OracleEngine:
        return OracleEngine(index, ranker, settings, root)

    with contextlib.ExitStack() as stack:
        out = stack.enter_context(features.open("w", encoding="utf-8")) if features is not None else None

        def sink(row: dict) -> None:
            assert out is not None
            out.write(json.dumps(row) + "\n")

        runs = [_evaluate(root, args, engine_for, sink if out is not None else None) for root in roots]
    header: dict[str, object] = {
        "ranker": ranker.name,
        "mode": "static (no values observed)" if args.no_observe else "observed values where the code runs",
        "tests per project": f"at most {args.max_tests} (seed {args.seed})"
        + (f", {args.kind} tests only" if args.kind else ""),
        "cut": "each test in a copy of its own file, the others as written"
        if args.one_cut
        else "a file's chosen tests together",
        **({"ranking steps left out": ", ".join(args.ablate)} if args.ablate else {}),
    }
    emit(markdown(runs, header), args.output, "evaluation")
    if args.json is not None:
        args.json.write_text(json.dumps([r.to_json() for r in runs], indent=1) + "\n", encoding="utf-8")
    return 0


def _evaluate(
    root: Path,
    args: argparse.Namespace,
    engine_for: Callable[[WorkspaceIndex, Path], OracleEngine],
    features: FeatureSink | None = None,
) -> ProjectRun:
    """One project, with a checker (helper JVMs) of its own, closed after it."""
    from oracular.evaluation.realistic import evaluate_project
    from oracular.evaluation.run_cache import CachedObserver, cached_checks

    checker = None if args.no_observe else OracleChecker(CheckSettings(timeout_s=args.check_timeout))
    observer: Observer | None = ValueObserver(checker) if checker is not None else None
    runs = (args.cache or default_cache_dir()).expanduser() / "eval-runs"
    environment = checker.runs_key if checker is not None else None
    if observer is not None and not args.fresh_runs:
        observer = CachedObserver(observer, runs, environment)

    def suggest(engine: OracleEngine, source: SourceText) -> FileReport:
        return engine.suggest(source, observer=observer)

    def check_top(report: FileReport) -> dict[tuple[int, int], str]:
        assert checker is not None
        check = checker.check(report)
        return {key: str(result.status) for key, result in check.results.items()}

    checking = check_top if checker is not None else None
    if checking is not None and not args.fresh_runs:
        checking = cached_checks(checking, runs, environment)
    progress = not args.quiet
    try:
        return evaluate_project(
            root, engine_for, suggest, args.max_tests, args.seed, checking, progress, args.one_cut, args.kind,
            features,
        )  # fmt: skip
    finally:
        if checker is not None:
            checker.close()
