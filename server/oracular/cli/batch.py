"""``oracular suggest PATH...`` over many files: one worker per process, results file by file.

A user with 500 generated test files used to run ``suggest`` 500 times, paying the start-up and
the model's loading every time (about 5.6 s a file). Here each process (``--jobs N``, or a Ray
actor, see :mod:`oracular.parallel`) builds one :class:`SuggestWorker`: it loads the model once,
indexes each project once, keeping the trees of the batch's files so that each file is parsed
once, and answers file after file with plain data (a :class:`FileResult`). This process prints,
and with ``--write`` writes each file atomically and only if it is unchanged since it was read:
the edits were computed against exactly those bytes.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from oracular.candidates.render import apply_edits
from oracular.cli.common import engine_for, error
from oracular.cli.listing import format_human
from oracular.engine import EngineSettings, FileReport, OracleEngine
from oracular.java.source import SourceError, SourceText, load_source, write_if_unchanged
from oracular.java.workspace import project_root
from oracular.parallel import RayUnavailable, ray_address, run_all

if TYPE_CHECKING:
    from oracular.candidates.observed import Observer
    from oracular.execution.oracle_checks import OracleChecker
    from oracular.execution.sandbox import SandboxMode
    from oracular.ranking.problem import Ranker

OUTPUTS = ("listing", "json", "diff", "write")


@dataclass(frozen=True)
class Options:
    """What every worker needs to know (picklable: it travels to pool processes and Ray actors)."""

    output: str
    """One of :data:`OUTPUTS`."""
    top: int = 5
    line: int | None = None
    observe: bool = True
    check_timeout: float = 5.0
    classpath: str | None = None
    output_dir: tuple[str, ...] = ()
    sandbox: SandboxMode = "prefer"
    files: tuple[Path, ...] = ()
    """Every file of the batch: the indexes keep their trees (:meth:`WorkspaceIndex.take`)."""


@dataclass
class Counts:
    """Tests and top oracles, of one file or summed over a batch."""

    tests: int = 0
    """Tests without an oracle."""
    oracles: int = 0
    """Top oracles offered with confidence: the ones ``--write`` inserts."""
    abstained: int = 0
    observed: int = 0
    """Tests whose prefix ran, so their values were observed."""
    holds: int = 0
    """Top oracles that hold on the code as it is (observed)."""
    fails: int = 0

    def __iadd__(self, other: Counts) -> Counts:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self


@dataclass
class FileResult:
    """One file's answer, as plain data."""

    path: Path
    error: str | None = None
    text: str = ""
    """The listing or the diff."""
    document: dict | None = None
    """The ``--json`` document."""
    original: bytes = b""
    new_text: str | None = None
    """With ``--write``: the file with the top oracles inserted (``None``: nothing to insert)."""
    mode: str = ""
    counts: Counts = field(default_factory=Counts)


class SuggestWorker:
    """Ranks the oracle-free tests of one file after another, with one model and one index per project."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._ranker: Ranker | None = None
        self._engines: dict[Path, OracleEngine] = {}
        self._roots: dict[Path, Path] = {}
        """Build roots by folder: finding one takes a walk up the tree."""
        self._checker: OracleChecker | None = None

    def _engine(self, path: Path) -> OracleEngine:
        if path.parent not in self._roots:
            self._roots[path.parent] = project_root(path)
        root = self._roots[path.parent]
        if root not in self._engines:
            if self._ranker is None:
                from oracular.models.ranker import default_ranker

                self._ranker = default_ranker()  # one thread per worker (see ``engine_for``)
                self._ranker.preload()  # the model loads in the background while the project is indexed
            settings = EngineSettings(top_k=self.options.top)
            self._engines[root] = engine_for([path], settings, self._ranker, self.options.files)
        return self._engines[root]

    def _observer(self) -> Observer | None:
        if not self.options.observe:
            return None
        from oracular.cli.running import checker_for
        from oracular.execution.observe import ValueObserver

        if self._checker is None:
            self._checker = checker_for(
                argparse.Namespace(
                    check_timeout=self.options.check_timeout,
                    classpath=self.options.classpath,
                    output_dir=list(self.options.output_dir),
                    sandbox=self.options.sandbox,
                )
            )
        return ValueObserver(self._checker)

    def __call__(self, path: Path) -> FileResult:
        engine = self._engine(path)
        try:
            source = load_source(path, parsed=engine.index.take(path))
        except SourceError as exc:
            return FileResult(path, error=str(exc))
        observer = self._observer()
        report = engine.suggest(source, line=self.options.line, observer=observer)
        return self._result(path, source, report, observer is not None)

    def _result(self, path: Path, source: SourceText, report: FileReport, observing: bool) -> FileResult:
        from oracular.cli.running import mode_line

        tops = [t.suggestions[0] for t in report.tests if t.confident]
        counts = Counts(
            tests=len(report.tests),
            oracles=len(tops),
            abstained=sum(t.abstained for t in report.tests),
            observed=sum(t.observed for t in report.tests),
            holds=sum(s.verdict is not None and s.verdict.status == "holds" for s in tops),
            fails=sum(s.verdict is not None and s.verdict.status == "fails" for s in tops),
        )
        result = FileResult(path, mode=mode_line(report, observing, self.options.sandbox), counts=counts)
        output = self.options.output
        if output == "json":
            result.document = {**report.to_json(), "mode": result.mode}
        elif output == "listing":
            result.text = format_human(report, lambda _test, suggestion: suggestion.observed_summary() or "")
        else:
            new_text = apply_edits(source, report.top_edits())
            if output == "diff":
                result.text = "".join(
                    difflib.unified_diff(
                        source.text.splitlines(keepends=True),
                        new_text.splitlines(keepends=True),
                        fromfile=f"a/{path}",
                        tofile=f"b/{path}",
                    )
                )
            elif new_text != source.text:
                result.original, result.new_text = source.data, new_text
        return result

    def close(self) -> None:
        if self._checker is not None:
            self._checker.close()


@dataclass
class Summary:
    """What a batch did, for its last lines."""

    files: int = 0
    failed: int = 0
    changed: int = 0
    """Files left alone because they changed while their oracles were computed."""
    counts: Counts = field(default_factory=Counts)
    """With ``--write``, the oracles (and their verdicts) of the files written only."""
    modes: set[str] = field(default_factory=set)

    def add(self, result: FileResult, kept: bool) -> None:
        """``kept``: its oracles count (``False`` when ``--write`` did not write them)."""
        self.files += 1
        self.counts += result.counts if kept else replace(result.counts, oracles=0, holds=0, fails=0)
        if result.mode:
            self.modes.add(result.mode)

    def lines(self, writing: bool) -> list[str]:
        counts = self.counts
        offered = "oracle(s) written" if writing else "confident oracle(s)"
        lines = [
            f"{self.files} file(s): {counts.tests} test(s) without an oracle, {counts.oracles} {offered}, "
            f"{counts.abstained} abstained (no confident oracle)"
        ]
        if counts.observed:
            lines.append(
                f"observed values for {counts.observed} test(s); of those oracles: "
                f"{counts.holds} hold now, {counts.fails} fail now"
            )
        if self.changed:
            lines.append(
                f"{self.changed} file(s) changed while oracles were computed: nothing written to them"
            )
        if self.failed:
            lines.append(f"{self.failed} file(s) skipped (see the errors above)")
        return lines + sorted(self.modes)


def run_batch(args: argparse.Namespace, files: list[Path], single: bool) -> int:
    """Suggest for every file; print, diff or write file by file, then a summary (unless ``single``).

    ``single``: one file was named, so the output is what ``suggest FILE`` always printed (a
    pretty JSON document, no summary) and a bad file is an error (exit code 2) rather than a
    skipped one.
    """
    output = "json" if args.json else "diff" if args.diff else "write" if args.write else "listing"
    jobs = max(1, args.jobs)
    options = Options(
        output=output,
        top=args.top,
        line=args.line,
        observe=not args.no_check,
        check_timeout=args.check_timeout,
        classpath=args.classpath,
        output_dir=tuple(args.output_dir),
        sandbox=args.sandbox,
        files=tuple(files),
    )
    summary = Summary()
    try:
        outcomes = run_all(partial(SuggestWorker, options), files, jobs, ray_address(args.ray))
        bar = tqdm(total=len(files), unit="file", desc="suggest", disable=True if single else None)
        with bar:
            for path, result in outcomes:
                bar.update()
                if isinstance(result, BaseException):
                    from oracular.lsp.documents import internal_error

                    result = FileResult(path, error=f"{path}: {internal_error(result)}")
                if result.error is not None:
                    bar.clear()
                    error(result.error)
                    summary.failed += 1
                    continue
                wrote = _emit(result, output, single, summary)
                summary.add(result, wrote or output != "write")
    except RayUnavailable as exc:
        error(str(exc))
        return 2
    if single:
        return 2 if summary.failed else 1 if summary.changed else 0
    for line in summary.lines(output == "write"):
        print(line, file=sys.stderr if output == "json" else sys.stdout)
    return 1 if summary.failed or summary.changed else 0


def _emit(result: FileResult, output: str, single: bool, summary: Summary) -> bool:
    """Print (or write) one file's result; whether its oracles were written."""
    if output == "json":
        if single:
            json.dump(result.document, sys.stdout, indent=2)
            print()
        else:  # JSON Lines: one document per file
            print(json.dumps(result.document, separators=(",", ":")), flush=True)
        return False
    if output in ("listing", "diff"):
        sys.stdout.write(result.text)
        if output == "listing" and single and result.mode:
            print(result.mode)
        return False
    if result.new_text is None:
        if single:
            print(f"{result.path}: nothing to write")
        return False
    if not write_if_unchanged(result.path, result.original, result.new_text):
        error(f"{result.path} changed while oracles were computed; nothing written")
        summary.changed += 1
        return False
    if single:
        print(f"{result.path}: wrote {result.counts.oracles} oracle(s)")
        if result.mode:
            print(result.mode)
    return True
