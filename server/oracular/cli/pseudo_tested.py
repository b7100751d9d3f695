"""``oracular pseudo-tested PATH...``: which methods the tests execute and check nothing of.

Per test file (folders are searched as ``suggest`` searches them), the extreme mutants of every
main-source method its tests call run against those tests (:mod:`oracular.mutation`): the method
is pseudo-tested, partially tested or tested; a surviving mutant's cause is told per test, and
where a test's oracle is weak, the oracle that kills the mutant (verified: it holds on the code
and fails on the mutant). Files run one per worker (``--jobs``, Ray), with a progress bar and a
summary; ``--json`` prints one JSON document per file (JSON Lines).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from oracular.cli.common import engine_for, error
from oracular.cli.running import add_run_arguments, checker_for
from oracular.java.source import SourceError, load_source
from oracular.java.workspace import project_root, test_sources

if TYPE_CHECKING:
    from oracular.engine import OracleEngine
    from oracular.execution.oracle_checks import OracleChecker
    from oracular.execution.sandbox import SandboxMode
    from oracular.mutation.records import ClassResult


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "pseudo-tested", help="methods the tests execute but do not check (extreme mutation, Reneri's causes)"
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="test files or folders")
    parser.add_argument("--json", action="store_true", help="one JSON document per file (JSON Lines)")
    parser.add_argument(
        "--no-causes",
        action="store_true",
        help="verdicts only: skip why mutants survive and the killing oracles",
    )
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument("--ray", metavar="ADDRESS", default=None, help="run on a Ray cluster (as suggest)")
    add_run_arguments(parser.add_argument_group("running the code (scratch copies only)"))
    parser.set_defaults(run=run)


@dataclass(frozen=True)
class Options:
    """What every worker needs (picklable); the attribute names are :func:`checker_for`'s."""

    check_timeout: float = 5.0
    classpath: str | None = None
    output_dir: tuple[str, ...] = ()
    sandbox: SandboxMode = "prefer"
    causes: bool = True


@dataclass
class FileResult:
    path: Path
    document: dict = field(default_factory=dict)
    text: str = ""
    error: str | None = None


class PseudoTestWorker:
    """One process's runs: an engine per project (no model: nothing is ranked), one checker."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._engines: dict[Path, OracleEngine] = {}
        self._checker: OracleChecker | None = None

    def __call__(self, path: Path) -> FileResult:
        from oracular.mutation.pseudo_tested import PseudoTester, PseudoTestSettings
        from oracular.ranking.baseline import BaselineRanker

        try:
            source = load_source(path)
        except SourceError as exc:
            return FileResult(path, error=str(exc))
        root = project_root(path)
        if root not in self._engines:
            self._engines[root] = engine_for([path], ranker=BaselineRanker())
        if self._checker is None:
            self._checker = checker_for(self.options)  # type: ignore[arg-type]
        settings = PseudoTestSettings(self.options.check_timeout, self.options.causes)
        result = PseudoTester(self._engines[root], self._checker, settings).run(source)
        return FileResult(path, result.to_json(), format_result(result))

    def close(self) -> None:
        if self._checker is not None:
            self._checker.close()


def format_result(result: ClassResult) -> str:
    """A file's verdicts for a reader: the methods that need attention first, with their mutants."""
    name = result.path.name
    if result.error is not None:
        return f"{name}: not run: {result.error}\n"
    counts = Counter(str(m.verdict) for m in result.methods)
    lines = [
        f"{name}: {len(result.methods)} method(s) called: {counts['pseudo-tested']} pseudo-tested, "
        f"{counts['partially tested']} partially tested, {counts['tested']} tested "
        f"({result.mutants_run} mutants run, {result.elapsed_s:.1f} s)"
    ]
    if result.failing_tests:
        lines.append(f"  left out, failing on the code as it is: {', '.join(result.failing_tests)}")
    order = {"pseudo-tested": 0, "partially tested": 1, "not run": 2, "tested": 3}
    for method in sorted(result.methods, key=lambda m: order[str(m.verdict)]):
        where = f"{method.method.path.name}:{method.method.line + 1}"
        lines.append(
            f"  {method.verdict}: {method.method.label} ({where}), {method.describe().split(': ', 1)[1]}"
        )
        for mutant in method.mutants:
            for test, cause in mutant.causes.items():
                lines.append(f"      {mutant.mutant.replacement} survives {test}: {cause}")
        for oracle in method.oracles:
            kills = f"kills {method.kills_of(oracle)}: in {oracle.test} (line {oracle.test_line})"
            lines.append(f"      {kills}: {oracle.statement}")
    return "\n".join(lines) + "\n"


@dataclass
class Summary:
    files: int = 0
    failed: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    mutants: int = 0
    weak: int = 0
    killed_by_oracle: int = 0
    seconds: float = 0.0

    def add(self, document: dict) -> None:
        self.files += 1
        self.mutants += document["mutantsRun"]
        self.seconds += document["elapsed_s"]
        for method in document["methods"]:
            self.verdicts[method["verdict"]] += 1
            killed = {k for o in method["oracles"] for k in o["kills"]}
            for mutant in method["mutants"]:
                if "weak oracle" in mutant["causes"].values():
                    self.weak += 1
                    self.killed_by_oracle += mutant["id"] in killed

    def line(self) -> str:
        v = self.verdicts
        return (
            f"{self.files} file(s), {sum(v.values())} method(s): {v['pseudo-tested']} pseudo-tested, "
            f"{v['partially tested']} partially tested, {v['tested']} tested, {v['not run']} not run; "
            f"{self.mutants} mutants run; weak-oracle mutants with a killing oracle: "
            f"{self.killed_by_oracle} of {self.weak}; {self.seconds:.1f} s of runs"
            + (f"; {self.failed} file(s) not run" if self.failed else "")
        )


def run(args: argparse.Namespace) -> int:
    """Run every file's mutants; print each file's verdicts (or JSON line), then the summary."""
    from tqdm import tqdm

    from oracular.parallel import RayUnavailable, ray_address, run_all

    if missing := [p for p in args.paths if not p.exists()]:
        error(f"no such file or directory: {', '.join(map(str, missing))}")
        return 2
    files = [p for p in args.paths if p.is_file()]
    files += [p for p in test_sources([p for p in args.paths if p.is_dir()]) if p not in files]
    if not files:
        error(f"no test sources under {', '.join(map(str, args.paths))}")
        return 2
    options = Options(
        args.check_timeout, args.classpath, tuple(args.output_dir), args.sandbox, not args.no_causes
    )
    summary = Summary()
    try:
        outcomes = run_all(
            partial(PseudoTestWorker, options), files, max(1, args.jobs), ray_address(args.ray)
        )
        with tqdm(total=len(files), unit="file", desc="pseudo-tested") as bar:
            for path, result in outcomes:
                bar.update()
                if isinstance(result, BaseException):
                    from oracular.lsp.documents import internal_error

                    result = FileResult(path, error=internal_error(result))
                if result.error is not None or result.document.get("error"):
                    summary.failed += 1
                if result.error is not None:
                    bar.clear()
                    error(f"{path}: {result.error}")
                    continue
                summary.add(result.document)
                bar.clear()
                if args.json:
                    print(json.dumps(result.document, separators=(",", ":")), flush=True)
                else:
                    sys.stdout.write(result.text)
    except RayUnavailable as exc:
        error(str(exc))
        return 2
    print(summary.line(), file=sys.stderr if args.json else sys.stdout)
    return 0
