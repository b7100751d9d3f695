"""The bug-finding report (``docs/execution.md``): a summary over projects, then one section each.

Why a module of its own: the report renders :class:`ProjectResult` alone, so ``--json`` output can
be rendered again without running anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oracular.evaluation.bug_finding.records import BARE, RANKED, ProjectResult
from oracular.execution.oracle_checks import BUG_SCORE
from oracular.mutation.operators import OPERATORS


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def summary(results: Sequence[ProjectResult]) -> list[str]:
    """One table over all projects: per oracle, compile rate / false positives / attributable kills."""
    kinds: list[str] = []
    for r in results:
        kinds += [k for k in r.rows if k not in kinds]
    header = "| oracle | " + " | ".join(f"{r.name}" for r in results) + " |"
    lines = [
        "Each cell: compile rate / false-positive rate on correct code / oracle-attributable kills "
        "(share of the mutants run). Tests with an oracle of that kind in brackets.",
        "",
        header,
        "| --- |" + " --- |" * len(results),
    ]
    for kind in kinds:
        label = next(r.rows[kind].label for r in results if kind in r.rows)
        cells = []
        for r in results:
            row = r.rows.get(kind)
            if row is None:
                cells.append("n/a")
                continue
            run = r.counts.get("mutants_run", 0)
            kills = "—" if kind == BARE else _pct(row.attributable, run)
            cells.append(
                f"{_pct(row.compiled, row.tests)} / {_pct(row.failing, row.compiled)} / {kills} ({row.tests})"
            )
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _as_strong(results: Sequence[ProjectResult]) -> list[str]:
    """Per ranker's top-1: how often it is not the developer's oracle yet catches what that catches."""
    lines = []
    kinds = [k for k in dict.fromkeys(k for r in results for k in r.rows) if k.startswith(RANKED)]
    for kind in kinds:
        tests, caught = (sum(n) for n in zip(*(r.as_strong(kind) for r in results), strict=True))
        if tests:
            label = next(r.rows[kind].label for r in results if kind in r.rows)
            lines += ["", f"{label}: not the developer's oracle but holding, where the developer's "
                      f"catches a mutant its prefix does not ({tests} tests), it catches every one of those "
                      f"in {caught} ({_pct(caught, tests)})."]  # fmt: skip
    return lines


def markdown(results: Sequence[ProjectResult]) -> str:
    """The evaluation report (``docs/execution.md``): a summary, then one section per project."""
    lines = ["# Bug-finding evaluation (`oracular eval --mutants`)", ""]
    if len(results) > 1:
        lines += ["## Summary", "", *summary(results), *_as_strong(results), ""]
    for r in results:
        lines += [*_overview(r), *_rows_table(r), *_notes(r), *_operator_table(r)]
    return "\n".join(lines)


def _overview(r: ProjectResult) -> list[str]:
    """What was evaluated, with what, and how long it took."""
    run = r.counts.get("mutants_run", 0)
    bare = r.rows.get(BARE)
    b, c, t = r.build, r.counts, r.timings
    return [
        f"## {r.name} {r.version}".rstrip(),
        "",
        f"- ranker(s): {', '.join(r.rankers)} ({r.ranker_note})",
        f"- {r.classpath}",
        f"- build: {b.get('main_files', 0)} main files compiled ({b.get('main_dropped', 0)} left out), "
        f"{b.get('test_files', 0)} test files ({b.get('test_dropped', 0)} left out)",
        f"- tests: {c.get('tests', 0)} in compiled test files, {c.get('tests_cut', 0)} cut before an "
        f"oracle, {c.get('tests_eligible', 0)} with a focal method in the main sources, "
        f"{c.get('tests_selected', 0)} evaluated (in {c.get('test_files_selected', 0)} files)",
        f"- mutants: {sum(r.mutants_by_operator.values())} generated in the focal classes, "
        f"{c.get('mutants_sampled', 0)} sampled, {c.get('mutants_stillborn', 0)} stillborn "
        f"(do not compile), {run} run; killed by the bare prefixes: {bare.killed_count if bare else 0}",
        f"- time: {t.get('total_s', 0):.0f} s on {r.jobs} helper JVM(s) "
        f"(build {t.get('build_s', 0):.0f} s, engine {t.get('engine_s', 0):.0f} s, "
        f"correct code {t.get('correct_code_s', 0):.0f} s, mutants {t.get('mutants_s', 0):.0f} s)",
        "",
    ]


def _rows_table(r: ProjectResult) -> list[str]:
    run = r.counts.get("mutants_run", 0)
    lines = [
        "| oracle | tests | compile rate | false positives (fail on correct code) | mutants killed "
        "| oracle-attributable kills |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for kind, row in r.rows.items():
        attributable = "—" if kind == BARE else f"{row.attributable} ({_pct(row.attributable, run)})"
        killed = f"{row.killed_count} ({_pct(row.killed_count, run)})"
        lines.append(
            f"| {row.label} | {row.tests} | {_pct(row.compiled, row.tests)} | "
            f"{_pct(row.failing, row.compiled)} ({row.failing}) | {killed} | {attributable} |"
        )
    return lines


def _notes(r: ProjectResult) -> list[str]:
    """How many of each ranker's false positives a check would have flagged, and a few examples."""
    lines = []
    for kind, row in r.rows.items():
        if kind.startswith(RANKED) and row.failing:
            lines += [
                "",
                f"{row.label}: {row.failing_confident} of its {row.failing} false positives scored at "
                f'least {BUG_SCORE} (a check would have called them "possible bug").',
            ]
    lines += _as_strong([r])
    if r.examples:
        lines += ["", "Mutants only an inserted oracle killed (first five):", ""]
        lines += [f"- `{e}`" for e in r.examples]
    return lines


def _operator_table(r: ProjectResult) -> list[str]:
    operators = [op for op in OPERATORS if r.sampled_by_operator.get(op)]
    if not operators:
        return [""]
    lines = ["", "Mutants killed per operator (sampled):", ""]
    lines.append("| oracle | " + " | ".join(operators) + " |")
    lines.append("| --- |" + " ---: |" * len(operators))
    lines.append("| sampled | " + " | ".join(str(r.sampled_by_operator[op]) for op in operators) + " |")
    for kind, row in r.rows.items():
        counter = r.killed_by_operator.get(kind, Counter())
        lines.append(f"| {row.label} | " + " | ".join(str(counter.get(op, 0)) for op in operators) + " |")
    lines.append("")
    return lines
