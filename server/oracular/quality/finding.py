"""A quality finding: one weakness of a test's oracle, where it is, and how to fix it.

Findings are plain data over one document version (LSP positions: 0-based lines, UTF-16
columns), so the CLI can print them and the language server can turn them into diagnostics
and code actions without knowing which check produced them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from oracular.candidates.render import Position, TextEdit


class Severity(IntEnum):
    """LSP's ``DiagnosticSeverity`` values, so the server can pass them through unchanged."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4


@dataclass(frozen=True)
class Fix:
    """One quick fix: a title for the code action menu and the edits that apply it."""

    title: str
    edits: tuple[TextEdit, ...]

    def to_json(self) -> dict:
        return {"title": self.title, "edits": [e.to_lsp() for e in self.edits]}


@dataclass(frozen=True)
class Finding:
    code: str
    """The check: ``discarded-result``, ``unused-input``... (see :data:`oracular.quality.runner.CHECKS`)."""
    severity: Severity
    message: str
    start: Position
    end: Position
    test: str | None
    """The test method the finding is about; ``None`` for findings on a test class."""
    fixes: tuple[Fix, ...] = ()
    """Best first."""

    @property
    def line(self) -> int:
        """1-based line, for people."""
        return self.start[0] + 1

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity.name.lower(),
            "message": self.message,
            "line": self.line,
            "test": self.test,
            "range": {
                "start": {"line": self.start[0], "character": self.start[1]},
                "end": {"line": self.end[0], "character": self.end[1]},
            },
            "fixes": [f.to_json() for f in self.fixes],
        }
