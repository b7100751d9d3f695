"""Code actions: insert a ranked oracle, or the top oracle of every test in the file.

Inside an oracle-free test (or on its diagnostic) there is one ``quickfix`` per ranked
suggestion, best first and preferred. When the engine abstains, a disabled action says why, for
clients that can show one. Where the client supports ``codeAction/resolve``, actions carry only
a reference and their edit is built when one is chosen; the reference names the document
version, and resolving against any other version fails with ``ContentModified``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams

from oracular.candidates.render import TextEdit
from oracular.lsp.convert import one_line, workspace_edit
from oracular.lsp.diagnostics import diagnostic
from oracular.lsp.documents import Analysis

if TYPE_CHECKING:
    from oracular.lsp.server import OracularServer

ADD_ALL_KIND = "source.oracular.addTopOracles"
ADD_ALL_TITLE = "Oracular: add top oracles to all tests in file"
TITLE_PREFIX = "Add oracle: "


@dataclass(frozen=True)
class ActionRef:
    """What an unresolved action carries in ``data``: enough to rebuild its edit, and the version."""

    uri: str
    version: int
    method: str | None = None
    line: int | None = None
    oracle: str | None = None
    """``None`` (with no method) for the add-all source action."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"uri": self.uri, "version": self.version}
        if self.method is not None:
            data |= {"method": self.method, "line": self.line, "oracle": self.oracle}
        return data

    @classmethod
    def from_data(cls, data: Any) -> ActionRef:
        if not (
            isinstance(data, dict)
            and isinstance(data.get("uri"), str)
            and isinstance(data.get("version"), int)
        ):
            raise JsonRpcInvalidParams("not an Oracular code action (data needs uri and version)")
        if "method" not in data:
            return cls(data["uri"], data["version"])
        method, line, oracle = data.get("method"), data.get("line"), data.get("oracle")
        if not (isinstance(method, str) and isinstance(line, int) and isinstance(oracle, str)):
            raise JsonRpcInvalidParams("Oracular code action data needs method, line and oracle")
        return cls(data["uri"], data["version"], method, line, oracle)

    def edits(self, analysis: Analysis) -> list[TextEdit] | None:
        """The edits this action stands for in ``analysis``, if it still offers them."""
        if analysis.report is None:
            return None
        if self.method is None:
            return analysis.report.top_edits() or None
        assert self.line is not None
        test = analysis.find(self.method, self.line)
        suggestion = next((s for s in test.suggestions if s.oracle == self.oracle), None) if test else None
        return suggestion.edits if suggestion is not None else None


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether ``kind`` passes the client's ``only`` filter (kinds are dot-separated hierarchies)."""
    return only is None or any(kind == o or kind.startswith(f"{o}.") for o in only)


def actions(
    server: OracularServer, analysis: Analysis, selection: types.Range, only: Sequence[str] | None
) -> list[types.CodeAction]:
    client = server.client
    result: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, only):
        for report in analysis.tests_in(selection):
            diagnostics = [diagnostic(analysis, report, server.settings.diagnostic_severity)]
            if report.abstained or not report.suggestions:
                if client.disabled_actions:
                    result.append(
                        types.CodeAction(
                            title=f"Add oracle to {report.test.name}",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=diagnostics,
                            disabled=types.CodeActionDisabled(reason=report.reason or "no oracle to suggest"),
                        )
                    )
                continue
            for suggestion in report.suggestions:
                ref = ActionRef(
                    analysis.uri, analysis.version, report.test.name, report.line, suggestion.oracle
                )
                action = types.CodeAction(
                    title=TITLE_PREFIX + one_line(suggestion.oracle),
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=diagnostics,
                    is_preferred=suggestion.rank == 1,
                )
                result.append(_with_edit_or_ref(server, action, ref, suggestion.edits))
    if wanted(ADD_ALL_KIND, only) and analysis.report is not None:
        edits = analysis.report.top_edits()
        if edits:
            action = types.CodeAction(title=ADD_ALL_TITLE, kind=ADD_ALL_KIND)
            result.append(_with_edit_or_ref(server, action, ActionRef(analysis.uri, analysis.version), edits))
    return result


def _with_edit_or_ref(
    server: OracularServer, action: types.CodeAction, ref: ActionRef, edits: list[TextEdit]
) -> types.CodeAction:
    if server.client.resolve_edits:
        action.data = ref.to_data()
    else:
        action.edit = workspace_edit(ref.uri, ref.version, edits, server.client.document_changes)
    return action


async def resolve(server: OracularServer, action: types.CodeAction) -> types.CodeAction:
    ref = ActionRef.from_data(action.data)
    stale = JsonRpcContentModified(
        f"{ref.uri} changed since this action was offered (version {ref.version}); ask for actions again"
    )
    document = server.open_document(ref.uri)
    if document is None or document.version != ref.version:
        raise stale
    analysis = await server.documents.current(ref.uri)
    if analysis is None or analysis.version != ref.version:
        raise stale
    edits = ref.edits(analysis)
    if edits is None:
        raise JsonRpcContentModified("this oracle is no longer suggested; ask for actions again")
    action.edit = workspace_edit(ref.uri, ref.version, edits, server.client.document_changes)
    return action


def register(server: OracularServer) -> None:
    options = types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, ADD_ALL_KIND], resolve_provider=True
    )

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        analysis = await server.documents.current(params.text_document.uri)
        if analysis is None or analysis.report is None:
            return None
        return actions(server, analysis, params.range, params.context.only)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(params: types.CodeAction) -> types.CodeAction:
        return await resolve(server, params)
