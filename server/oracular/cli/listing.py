"""The human listing of a file's ranked oracles, shared by ``oracular suggest`` and ``--check``.

Why a module of its own: ``--check`` (in :mod:`oracular.cli.running`) prints the same listing
with its verdicts added; here, neither command module has to import the other.
"""

from __future__ import annotations

from collections.abc import Callable

from oracular.engine import FileReport, Suggestion, TestReport


def print_human(report: FileReport, annotate: Callable[[TestReport, Suggestion], str] | None = None) -> None:
    """The listing; ``annotate`` adds text after each oracle (``--check``'s verdicts)."""
    print(format_human(report, annotate), end="")


def format_human(report: FileReport, annotate: Callable[[TestReport, Suggestion], str] | None = None) -> str:
    """:func:`print_human`'s text (a batch worker hands it to the process that prints)."""
    lines = []
    for status in report.analysis.skipped:
        lines.append(
            f"{report.path}:{status.test.line + 1} {status.test.name}: skipped (incomplete or broken code)"
        )
    if not report.tests:
        lines.append(f"{report.path}: no oracle-free tests")
    for test in report.tests:
        focal = f" (focal: {test.focal.cls.name}.{test.focal.name})" if test.focal else ""
        lines.append(f"{report.path}:{test.line} {test.test.name}{focal}")
        lines.append(
            f"  exception: p={test.exception_probability:.2f} {test.exception_type.rsplit('.', 1)[-1]}"
        )
        if test.reason:
            lines.append(f"  {test.reason}")
        for s in test.suggestions:
            oracle = s.oracle.replace("\n", "\n" + " " * 16)
            note = annotate(test, s) if annotate is not None else ""
            lines.append(f"  {s.rank}. [{s.score:.3f}] {oracle}" + (f"  · {note}" if note else ""))
    return "".join(line + "\n" for line in lines)
