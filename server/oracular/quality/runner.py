"""Run the enabled quality checks over one analysed document.

Each check is one module with a ``CODE`` and a ``check(FileContext)``; :data:`CHECKS` lists
them in the order the issue numbers them. Which run by default is decided by their measured
precision on the dev projects (``docs/quality.md``): a check below 80% there starts switched off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace

from oracular.engine import FileAnalysis, OracleEngine, RankingCancelled
from oracular.quality import (
    brittle,
    discarded_result,
    swallowed_exception,
    swapped_arguments,
    untested_precondition,
    unused_input,
)
from oracular.quality.context import FileContext
from oracular.quality.finding import Finding

CHECKS: dict[str, Callable[[FileContext], list[Finding]]] = {
    module.CODE: module.check
    for module in (
        discarded_result,
        unused_input,
        swallowed_exception,
        swapped_arguments,
        brittle,
        untested_precondition,
    )
}


def _field(code: str) -> str:
    return code.replace("-", "_")


@dataclass(frozen=True)
class QualitySettings:
    """One switch per check, named after its code (``unused-input`` -> ``unused_input``).

    The defaults follow the hand-checked precision on the dev projects (``docs/quality.md``):
    ``discarded-result`` (3 of 14) and ``unused-input`` (0 of 14) are below 80% and start off.
    """

    discarded_result: bool = False
    unused_input: bool = False
    swallowed_exception: bool = True
    swapped_arguments: bool = True
    brittle_assertion: bool = True
    untested_precondition: bool = True

    def enabled(self, code: str) -> bool:
        return bool(getattr(self, _field(code)))

    @property
    def codes(self) -> list[str]:
        """The enabled checks' codes, in :data:`CHECKS` order."""
        return [code for code in CHECKS if self.enabled(code)]

    def with_codes(self, switches: Mapping[str, bool]) -> QualitySettings:
        """These settings with some checks switched on or off by code (an editor's settings)."""
        unknown = sorted(set(switches) - set(CHECKS))
        if unknown:
            raise ValueError(f"unknown quality check(s): {', '.join(unknown)}; known: {', '.join(CHECKS)}")
        return replace(self, **{_field(code): bool(on) for code, on in switches.items()})

    @classmethod
    def only(cls, codes: Iterable[str]) -> QualitySettings:
        """Exactly these checks."""
        wanted = set(codes)
        return cls(**{f.name: False for f in fields(cls)}).with_codes({code: True for code in wanted})


def check_file(
    engine: OracleEngine,
    analysis: FileAnalysis,
    settings: QualitySettings | None = None,
    fixes: bool = True,
    cancelled: Callable[[], bool] | None = None,
) -> list[Finding]:
    """The enabled checks' findings for one document, in document order.

    ``fixes=False`` skips building quick fixes (ranking, rendering), for batch scans.
    ``cancelled`` is polled between checks, as :meth:`OracleEngine.suggest` polls it between
    tests, so an editor's superseded version stops costing time (:class:`RankingCancelled`).
    """
    codes = (settings or QualitySettings()).codes
    if not codes:
        return []
    context = FileContext(engine, analysis, fixes)
    findings: list[Finding] = []
    for code in codes:
        if cancelled is not None and cancelled():
            raise RankingCancelled
        findings += CHECKS[code](context)
    return sorted(findings, key=lambda f: (f.start, f.code))
