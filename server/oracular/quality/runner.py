"""Run the enabled quality checks over one analysed document.

Each check is one module with a ``CODE``, an ``ON_BY_DEFAULT``, a ``SUMMARY`` and a ``check``; :data:`CHECKS`
lists them in the order the issue numbers them. Which run by default is decided by their measured
precision on the dev projects (``docs/quality.md``): a check below 80% there starts switched off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from oracular.engine import FileAnalysis, OracleEngine, RankingCancelled, TestStatus
from oracular.incremental import MemoKey
from oracular.quality import (
    brittle,
    discarded_result,
    swallowed_exception,
    swapped_arguments,
    untested_precondition,
    unused_input,
)
from oracular.quality.context import FileContext, TestContext
from oracular.quality.finding import Finding, Fix

if TYPE_CHECKING:
    from oracular.incremental import MethodMemo, Reuse

_MODULES = (
    discarded_result, unused_input, swallowed_exception, swapped_arguments, brittle, untested_precondition,
)  # fmt: skip
PER_FILE: dict[str, Callable[[FileContext], list[Finding]]] = {
    untested_precondition.CODE: untested_precondition.check,
}
"""Checks that judge the file's tests together (what no test of the file does)."""
PER_TEST: dict[str, Callable[[FileContext, TestContext], list[Finding]]] = {
    module.CODE: module.check for module in _MODULES if module.CODE not in PER_FILE
}
"""Checks that judge one test with an oracle at a time: their findings are kept per method."""
CHECKS: tuple[str, ...] = tuple(module.CODE for module in _MODULES)
"""Every check's code, in the order the issue numbers them."""
SUMMARIES = {module.CODE: module.SUMMARY for module in _MODULES}
"""What each check finds, by code, for the editors' settings."""
DEFAULT_CODES = frozenset(module.CODE for module in _MODULES if module.ON_BY_DEFAULT)
"""The checks that run unless switched off: each module's ``ON_BY_DEFAULT``."""


@dataclass(frozen=True)
class QualitySettings:
    """Which checks run, by code; each check's module says whether it starts on (its measured
    precision), so a new check needs no other edit here."""

    enabled_codes: frozenset[str] = DEFAULT_CODES

    def enabled(self, code: str) -> bool:
        return code in self.enabled_codes

    @property
    def codes(self) -> list[str]:
        """The enabled checks' codes, in :data:`CHECKS` order."""
        return [code for code in CHECKS if self.enabled(code)]

    def with_codes(self, switches: Mapping[str, bool]) -> QualitySettings:
        """These settings with some checks switched on or off by code (an editor's settings)."""
        unknown = sorted(set(switches) - set(CHECKS))
        if unknown:
            named = ", ".join(map(repr, unknown))
            raise ValueError(f"unknown quality check(s) {named} (known: {', '.join(CHECKS)})")
        on = {code for code, value in switches.items() if value}
        return QualitySettings((self.enabled_codes - set(switches)) | on)

    @classmethod
    def only(cls, codes: Iterable[str]) -> QualitySettings:
        """Exactly these checks."""
        return cls(frozenset()).with_codes(dict.fromkeys(codes, True))


def check_file(
    engine: OracleEngine,
    analysis: FileAnalysis,
    settings: QualitySettings | None = None,
    fixes: bool = True,
    cancelled: Callable[[], bool] | None = None,
    memo: MethodMemo | None = None,
) -> list[Finding]:
    """The enabled checks' findings for one document, in document order.

    ``fixes=False`` skips building quick fixes (ranking, rendering), for batch scans.
    ``cancelled`` is polled between tests, as :meth:`OracleEngine.suggest` polls it, so an
    editor's superseded version stops costing time (:class:`RankingCancelled`). ``memo``, begun on
    ``analysis`` (:meth:`OracleEngine.suggest` begins it), hands back the findings of tests that
    did not change since the previous version.
    """
    codes = (settings or QualitySettings()).codes
    if not codes:
        return []
    context = FileContext(engine, analysis, fixes, memo)
    per_test = [code for code in codes if code in PER_TEST]
    kind = FindingsKey(tuple(per_test), fixes)
    findings: list[Finding] = []
    for status in analysis.statuses:
        if cancelled is not None and cancelled():
            raise RankingCancelled
        if per_test and status.evidence is not None:
            findings += _test_findings(context, status, per_test, kind)
    for code in codes:
        if code in PER_FILE:
            if cancelled is not None and cancelled():
                raise RankingCancelled
            findings += PER_FILE[code](context)
    return sorted(findings, key=lambda f: (f.start, f.code))


def _test_findings(
    context: FileContext, status: TestStatus, codes: list[str], kind: FindingsKey
) -> list[Finding]:
    """One test's findings: kept ones moved with the method, or computed (and kept when they
    depend on nothing but the method and the file's facts)."""
    memo = context.memo
    reuse = memo.get(kind, status.test) if memo is not None else None
    if reuse is not None:
        return [_moved(finding, reuse) for finding in reuse.value]
    test = context.context_of(status)
    context.read_whole_file = False
    found = [f for code in codes for f in PER_TEST[code](context, test)] if test is not None else []
    if memo is not None and not context.read_whole_file:
        memo.put(kind, status.test, found)
    return found


@dataclass(frozen=True)
class FindingsKey(MemoKey):
    """A test's findings: which checks ran, and whether their fixes were built."""

    codes: tuple[str, ...]
    fixes: bool


def _moved(finding: Finding, reuse: Reuse) -> Finding:
    fixes = tuple(Fix(fix.title, tuple(reuse.edit(e) for e in fix.edits)) for fix in finding.fixes)
    return replace(finding, start=reuse.line(finding.start), end=reuse.line(finding.end), fixes=fixes)
