"""Diagnostics: one ``missing-oracle`` per oracle-free test, on the test's name, and one per
oracle-quality finding (``swallowed-exception``, ``swapped-arguments``...) with its own code and
severity, so each can be filtered or switched off (setting ``checks``).

They are published whenever an analysis of the current version finishes (on open, after edits
settle, on save), tagged with that version so a client can drop them if it has moved on, and
again for that version when the ranking with observed values suggests something else. A newly
opened file's oracle-free tests come first, unranked and marked pending in their ``data``, then
the complete set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from oracular.engine import TestReport
from oracular.lsp.code_runs import RunState, shown
from oracular.lsp.convert import lsp_range, one_line
from oracular.lsp.documents import Analysis
from oracular.lsp.ranker import PENDING
from oracular.quality.finding import Finding

if TYPE_CHECKING:
    from oracular.lsp.server import OracularServer

SOURCE = "oracular"
CODE = "missing-oracle"


PENDING_DATA = {"pending": True}
"""The ``data`` of a diagnostic whose test is not ranked yet: a complete set for the same version
follows (a first look, or the model still loading; :mod:`oracular.lsp.ranker`)."""


def message(report: TestReport) -> str:
    if report.reason == PENDING:
        return f"{report.test.name} has no oracle; {PENDING}"
    focal = f"focal method {report.focal.cls.name}.{report.focal.name}" if report.focal else "no focal method"
    if not report.confident:
        advice = report.reason or "no oracle to suggest"
    else:
        advice = f"suggested: {one_line(report.suggestions[0].oracle)}"
    return f"{report.test.name} has no oracle ({focal}); {advice}"


def diagnostic(
    analysis: Analysis,
    report: TestReport,
    severity: types.DiagnosticSeverity,
    state: RunState | None = None,
) -> types.Diagnostic:
    """The test's diagnostic; its message follows the ranking the editor shows (``state``'s
    observed one once there), its range the analysed test."""
    return types.Diagnostic(
        range=analysis.name_range(report),
        message=message(shown(state, report)),
        severity=severity,
        source=SOURCE,
        code=CODE,
        data=PENDING_DATA if analysis.provisional else None,
    )


def finding_diagnostic(finding: Finding) -> types.Diagnostic:
    return types.Diagnostic(
        range=lsp_range(finding.start, finding.end),
        message=finding.message,
        severity=types.DiagnosticSeverity(finding.severity),
        source=SOURCE,
        code=finding.code,
    )


class Publisher:
    """Publishes the analysis of every test file, even when it is clean (that clears old ones).

    Files that are not tests get nothing, unless they had diagnostics while they looked like
    tests (someone removed the JUnit import): those are cleared once.
    """

    def __init__(self, server: OracularServer) -> None:
        self._server = server
        self._published: dict[str, tuple[int, list[types.Diagnostic]]] = {}

    def publish(self, analysis: Analysis, state: RunState | None = None) -> None:
        """Publish ``analysis``'s diagnostics; with ``state``, again for the same version when the
        ranking with observed values changed what they suggest (nothing is sent otherwise)."""
        if analysis.report is None:
            self.clear(analysis.uri)
            return
        severity = self._server.settings.diagnostic_severity
        diagnostics = [diagnostic(analysis, report, severity, state) for report in analysis.tests]
        diagnostics += [finding_diagnostic(finding) for finding in analysis.findings]
        if state is not None and self._published.get(analysis.uri) == (analysis.version, diagnostics):
            return
        self._published[analysis.uri] = (analysis.version, diagnostics)
        self._server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=analysis.uri, version=analysis.version, diagnostics=diagnostics
            )
        )

    def clear(self, uri: str) -> None:
        if uri in self._published:
            del self._published[uri]
            self._server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )
