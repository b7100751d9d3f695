"""The headline table: the realistic evaluation per split, view and mode, as ``DEVELOPERS.md`` asks.

Why one table: a figure counts only on code nobody tuned on, and only beside the same figure on
the code the rules were built on (the gap says how much was tuned). The *tune* split is the dev
projects whose failures may be read (:data:`~oracular.corpus.lists.TUNE`), the *report* split the
others. Each is measured in two views: **one-cut** (one test cut, the file's other tests as
written: the editor) and **all-cut** (every test of a file cut: a generated suite, the batch
user), and in two modes: **static** (nothing runs) and **observed** (the prefixes run). The eight
evaluations are ordinary ``oracular eval --realistic --json`` outputs; this module only reads
them (:func:`headline`), so any one can be re-run alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from oracular.evaluation.realistic import Judged, percent
from oracular.java.assertions import ASSERT_THROWS

SplitName = Literal["tune", "report"]
View = Literal["one-cut", "all-cut"]
Mode = Literal["static", "observed"]
SPLITS: tuple[SplitName, ...] = ("tune", "report")
VIEWS: tuple[View, ...] = ("one-cut", "all-cut")
MODES: tuple[Mode, ...] = ("static", "observed")
MAX_TESTS: dict[SplitName, int] = {"tune": 100, "report": 50}
"""Tests drawn per project (seeded): about 650 tune and 550 report tests."""


@dataclass(frozen=True)
class Cell:
    split: SplitName
    view: View
    mode: Mode

    @property
    def name(self) -> str:
        """The cell's evaluation file stem: ``report-one-cut-observed``."""
        return f"{self.split}-{self.view}-{self.mode}"


CELLS = tuple(Cell(s, v, m) for s in SPLITS for v in VIEWS for m in MODES)


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def exception_f1(judged: Sequence[Judged]) -> float | None:
    """F1 of "the prefix throws", read off the top-1: an exception oracle offered first is the
    engine saying it throws, whether it is written ``assertThrows(...)`` or, for JUnit 3 and 4,
    try/``fail``/catch (its method is ``assertThrows`` either way); the developer's oracle says
    whether it does."""
    said = [j.top1_method == ASSERT_THROWS for j in judged]
    does = [j.kind == "exception" for j in judged]
    hits = sum(s and d for s, d in zip(said, does, strict=True))
    precision, recall = _ratio(hits, sum(said)), _ratio(hits, sum(does))
    if not precision or not recall:
        return None if precision is None or recall is None else 0.0
    return 2 * precision * recall / (precision + recall)


def figures(judged: Sequence[Judged]) -> dict[str, Any]:
    """What a row of the headline table says of ``judged``."""
    n = len(judged)
    observed = [j for j in judged if j.observed]
    answered = [j for j in judged if j.offered]
    typed = [j for j in judged if j.type_right is not None]
    return {
        "tests": n,
        "observed": _ratio(len(observed), n),
        "top1": _ratio(sum(j.rank == 1 for j in judged), n),
        "top5": _ratio(sum(j.rank is not None for j in judged), n),
        "observed_top1": _ratio(sum(j.rank == 1 for j in observed), len(observed)),
        "observed_top5": _ratio(sum(j.rank is not None for j in observed), len(observed)),
        "answered": _ratio(len(answered), n),
        "observed_answered": _ratio(sum(j.offered for j in observed), len(observed)),
        "right_when_answered": _ratio(sum(j.rank == 1 for j in answered), len(answered)),
        "exception_f1": exception_f1(judged),
        "type_accuracy": _ratio(sum(j.type_right is True for j in typed), len(typed)),
        "not_null": _ratio(sum(j.top1_method == "assertNotNull" for j in answered), len(answered)),
        "false_alarms": _ratio(sum(j.alarm for j in observed), len(observed)),
    }


COLUMNS = (
    ("tests", "tests"), ("observed", "observed"), ("top1", "top-1"), ("top5", "top-5"),
    ("observed_top1", "top-1 observed"), ("observed_top5", "top-5 observed"), ("answered", "answered"),
    ("observed_answered", "answered observed"), ("right_when_answered", "right when answered"),
    ("exception_f1", "exception F1"),
    ("type_accuracy", "type accuracy"), ("not_null", "assertNotNull top-1"), ("false_alarms", "false alarms"),
)  # fmt: skip


def _cell(key: str, value: Any) -> str:
    if value is None:
        return "—"
    if key == "tests":
        return str(value)
    if key == "exception_f1":
        return f"{value:.2f}"
    return percent(value)


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


GROUPS = (
    ("its class failed", "its test class failed before it (a class set-up that threw)"),
    ("unmappable character", "the sources' encoding is not UTF-8"),
    ("does not exist", "a package is missing (a dependency or generated sources)"),
    ("cannot find symbol", "a class or member is missing (a dependency or generated sources)"),
    ("no jdk", "no JDK"),
    ("sandbox", "no sandbox (sandbox: require)"),
    ("time", "a time limit"),
    ("does not compile", "the test class does not compile here (another error)"),
    ("did not run", "JUnit did not run it"),
    ("not run", "not run (nothing to read)"),
    ("the prefix threw", "the prefix does not run the same way twice"),
)
"""Why a prefix was not observed, by what the reason says, first match wins: the general causes.
A class's failure comes first: what it threw may say anything ("time", "does not exist")."""


def reason_group(why: str) -> str:
    text = why.lower()
    return next((group for needle, group in GROUPS if needle in text), why.split(":", 1)[0])


def unobserved_reasons(judged: Sequence[Judged]) -> Counter[str]:
    """Why the tests not observed were not, grouped (observed runs only)."""
    return Counter(reason_group(j.unobserved) for j in judged if not j.observed and j.unobserved)


def headline(cells: Mapping[Cell, Sequence[Judged]]) -> str:
    """The table (one row per cell present), the per-project observed share, and why not."""
    lines = [_row("split", "view", "mode", *(title for _, title in COLUMNS))]
    lines.append(_row(*["---"] * (len(COLUMNS) + 3)))
    for cell in CELLS:
        if cell in cells:
            found = figures(cells[cell])
            lines.append(_row(cell.split, cell.view, cell.mode, *(_cell(k, found[k]) for k, _ in COLUMNS)))
    for split in SPLITS:
        observed = cells.get(Cell(split, "one-cut", "observed"))
        if not observed:
            continue
        lines += ["", f"Observed, {split} split, one-cut, per project:", ""]
        lines += [
            _row("project", "tests", "observed", "top-1", "top-5"),
            _row("---", "---:", "---:", "---:", "---:"),
        ]
        for project in sorted({j.project for j in observed}):
            f = figures([j for j in observed if j.project == project])
            lines.append(_row(project, f["tests"], *(percent(f[k]) for k in ("observed", "top1", "top5"))))
        reasons = unobserved_reasons(observed)
        if reasons:
            lines += ["", f"Why not observed ({split}, one-cut): "
                      + "; ".join(f"{group}: {n}" for group, n in reasons.most_common()) + "."]  # fmt: skip
        early = sum(j.observed and j.ended_early is not None for j in observed)
        lines += ["", f"Observed, but the prefix threw before its end, so nothing at the cut was read "
                  f"({split}, one-cut): {early}."]  # fmt: skip
    return "\n".join(lines) + "\n"


def turnover(before: Sequence[bool], after: Sequence[bool]) -> tuple[int, int, float]:
    """Of paired verdicts, how many turned right, how many wrong, and the standard deviation of
    the net change at that turnover: the square root of the turned, were each a coin toss. A net
    difference within one or two of it is what chance gives a change of that size."""
    gained = sum(b and not a for a, b in zip(before, after, strict=True))
    lost = sum(a and not b for a, b in zip(before, after, strict=True))
    return gained, lost, math.sqrt(gained + lost)


TURNED: tuple[tuple[str, Callable[[Judged], bool]], ...] = (
    ("top-1", lambda j: j.rank == 1),
    ("top-5", lambda j: j.rank is not None),
)
"""The measures :func:`against` counts the turned tests of."""


def against(before: Mapping[Cell, Sequence[Judged]], after: Mapping[Cell, Sequence[Judged]]) -> str:
    """Per cell run both times, how many tests (those judged both times) each measure turned
    right and wrong, and the standard deviation of the net change (:func:`turnover`).

    Why: a change is kept only where report does not get worse, and on some 550 report tests a
    change that turns dozens of them moves a cell by a few tests either way by chance alone. The
    counts say how large a difference chance gives, without reading which tests turned.
    """
    lines = [
        _row(
            "split",
            "view",
            "mode",
            "tests in both",
            *(f"{m}: before -> after, gained / lost, sd" for m, _ in TURNED),
        )
    ]
    lines.append(_row(*["---"] * (4 + len(TURNED))))
    for cell in CELLS:
        if cell not in before or cell not in after:
            continue
        old = {(j.project, j.file, j.test): j for j in before[cell]}
        pairs = [(old[key], j) for j in after[cell] if (key := (j.project, j.file, j.test)) in old]
        counts = []
        for _, right in TURNED:
            was, now = [right(a) for a, _ in pairs], [right(b) for _, b in pairs]
            gained, lost, sd = turnover(was, now)
            counts.append(f"{sum(was)} -> {sum(now)}, {gained} / {lost}, {sd:.1f}")
        lines.append(_row(cell.split, cell.view, cell.mode, len(pairs), *counts))
    return "\n".join(lines) + "\n"
