"""Inlay hints: the top oracle of each oracle-free test, shown after its last statement (marked
``// observed`` when its value is what running the test produced).

Editors ask for hints on every scroll and keystroke, so hints come from the cache only and never
wait for ranking. When a ranking finishes, the server asks the client to refresh them
(``workspace/inlayHint/refresh``) if it can, and again when an execution check arrives: the
hint's tooltip says whether the oracle holds now, and an oracle that does not compile gives way to
the next one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from oracular.lsp.code_runs import RunState, ordered, shown
from oracular.lsp.convert import contains, point, position, shorten
from oracular.lsp.documents import Analysis

if TYPE_CHECKING:
    from oracular.lsp.server import OracularServer

LABEL_WIDTH = 60


def hints(analysis: Analysis, visible: types.Range, state: RunState | None = None) -> list[types.InlayHint]:
    visible_span = (point(visible.start), point(visible.end))
    result = []
    for spans in analysis.spans:
        report, end = spans.report, spans.last_statement_end
        if not shown(state, report).confident:
            continue  # the observed ranking may answer a test the static one abstained on
        if end is None or not contains(visible_span, end):
            continue
        first = ordered(state, report)[0]
        top = first.suggestion
        score = f"score {top.score:.2f}" + (f", {first.summary}" if first.summary else "")
        observed = top.observed_holds
        result.append(
            types.InlayHint(
                position=position(end),
                label=shorten(top.oracle, LABEL_WIDTH) + ("  // observed" if observed else ""),
                padding_left=True,
                tooltip=f"Oracular: suggested oracle for {report.test.name} ({score}); "
                "insert it with the quick fix on the test's name",
            )
        )
    return result


def register(server: OracularServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    def inlay_hint(params: types.InlayHintParams) -> list[types.InlayHint] | None:
        if not server.settings.inlay_hints:
            return None
        analysis = server.documents.cached(params.text_document.uri)
        if analysis is None:
            return None
        return hints(analysis, params.range, server.code_runs.state(analysis))
