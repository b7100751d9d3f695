"""Hover on an oracle-free test's name: why it was flagged and what Oracular would write.

Shows the top-K oracles with their scores, the predicted probability that the prefix throws,
and the focal method's signature and Javadoc summary: what a developer needs to judge the
suggestions without opening the class under test. With ``checkOracles`` on, each oracle also
says what running it on the current code showed, and one line says which classpath was used
(or why nothing was checked).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from oracular.engine import TestReport
from oracular.lsp.code_runs import RunState, note, ordered, shown
from oracular.lsp.convert import one_line

if TYPE_CHECKING:
    from oracular.lsp.server import OracularServer


def code(text: str) -> str:
    """Inline Markdown code that survives backticks in the text."""
    text = one_line(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def markdown(report: TestReport, state: RunState | None = None) -> str:
    report = shown(state, report)
    lines = [f"**{code(report.test.name)} has no oracle** (Oracular)", ""]
    if report.focal is not None:
        focal = report.focal
        lines += [
            f"Focal method {code(f'{focal.cls.name}.{focal.name}')}:",
            "",
            "```java",
            focal.signature,
            "```",
        ]
        javadoc = focal.method.javadoc
        if javadoc is not None and javadoc.summary:
            lines += ["", f"> {javadoc.summary}"]
    else:
        lines.append("No focal method found in the workspace.")
    lines += ["", f"Exception: p = {report.exception_probability:.2f} ({code(report.exception_type)})", ""]
    if report.confidence is not None:
        lines += [f"Confidence in the top oracle: {report.confidence:.2f}", ""]
    if not report.confident:
        lines.append(f"*{report.reason or 'No oracle to suggest.'}*")
    if report.suggestions:
        lines += [f"Top {len(report.suggestions)} oracles:", ""]
        for checked in ordered(state, report):
            s = checked.suggestion
            status = f" · {checked.summary}" if checked.summary else ""
            lines.append(f"{s.rank}. `{s.score:.3f}` {code(s.oracle)}{status}")
        if (line := note(state)) is not None:
            lines += ["", f"*{line}*"]
    return "\n".join(lines)


def register(server: OracularServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        analysis = await server.documents.shown(params.text_document.uri)
        report = analysis.test_named_at(params.position) if analysis is not None else None
        if analysis is None or report is None:
            return None
        kind = types.MarkupKind.Markdown if server.client.markdown_hover else types.MarkupKind.PlainText
        return types.Hover(
            contents=types.MarkupContent(kind=kind, value=markdown(report, server.code_runs.state(analysis))),
            range=analysis.name_range(report),
        )
