"""Code actions: insert a ranked oracle, the top oracle of every test in the file, or fix a
weak oracle.

Inside an oracle-free test (or on its diagnostic) there is one ``quickfix`` per ranked
suggestion, best first and preferred. Inside a test whose pseudo-testing run found an oracle that
kills surviving mutants, one more per such oracle (:mod:`oracular.lsp.pseudo_tested`). On a
quality finding (``swallowed-exception``...) there is one ``quickfix`` per fix the check offers,
its first preferred. When the engine abstains, a disabled action says why, for clients that can
show one. With ``checkOracles`` on, each title
ends with what running the oracle on the current code showed (`` · holds now``, `` · fails now:
was 1 — possible bug``, `` · checking…`` until the check arrives), and candidates that do not
compile come last (:mod:`oracular.lsp.code_runs`). Where the client supports
``codeAction/resolve``, actions carry only a reference and their edit is built when one is
chosen; the reference names the document version, and resolving against any other version
fails with ``ContentModified``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams

from oracular.candidates.render import TextEdit
from oracular.lsp.code_runs import RunState, ordered, shown, top_edits
from oracular.lsp.convert import one_line, workspace_edit
from oracular.lsp.diagnostics import diagnostic, finding_diagnostic
from oracular.lsp.documents import Analysis
from oracular.quality.finding import Finding

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
    def from_data(cls, data: dict[str, Any]) -> ActionRef:
        if "method" not in data:
            return cls(data["uri"], data["version"])
        method, line, oracle = data.get("method"), data.get("line"), data.get("oracle")
        if not (isinstance(method, str) and isinstance(line, int) and isinstance(oracle, str)):
            raise JsonRpcInvalidParams("Oracular code action data needs method, line and oracle")
        return cls(data["uri"], data["version"], method, line, oracle)

    def edits(self, analysis: Analysis, state: RunState | None = None) -> list[TextEdit] | None:
        """The edits this action stands for in ``analysis`` (checked as ``state`` says), if it still
        offers them."""
        if analysis.report is None:
            return None
        if self.method is None:
            return top_edits(analysis.report, state) or None
        assert self.line is not None
        test = analysis.find(self.method, self.line)
        if test is not None and state is not None:
            test = state.test(test)  # as ranked with the observed values, when they arrived
        suggestion = next((s for s in test.suggestions if s.oracle == self.oracle), None) if test else None
        return suggestion.edits if suggestion is not None else None


@dataclass(frozen=True)
class FixRef:
    """What an unresolved quality fix carries: its finding (code and start) and the fix's title."""

    uri: str
    version: int
    code: str
    start: tuple[int, int]
    title: str

    def to_data(self) -> dict[str, Any]:
        line, character = self.start
        fix = {"code": self.code, "line": line, "character": character, "title": self.title}
        return {"uri": self.uri, "version": self.version, "fix": fix}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> FixRef:
        fix = data["fix"]
        expected = {"code": str, "line": int, "character": int, "title": str}
        if not (isinstance(fix, dict) and all(isinstance(fix.get(f), t) for f, t in expected.items())):
            raise JsonRpcInvalidParams("Oracular fix data needs code, line, character and title")
        return cls(data["uri"], data["version"], fix["code"], (fix["line"], fix["character"]), fix["title"])

    def edits(self, analysis: Analysis, state: RunState | None = None) -> list[TextEdit] | None:
        """The fix's edits in ``analysis``, if it still offers them (execution checks do not matter)."""
        finding = next((f for f in analysis.findings if (f.code, f.start) == (self.code, self.start)), None)
        fix = next((x for x in finding.fixes if x.title == self.title), None) if finding else None
        return list(fix.edits) if fix is not None else None


def reference(data: Any) -> ActionRef | FixRef:
    """The reference an unresolved action carries, checked: it comes back from the client."""
    if not (
        isinstance(data, dict) and isinstance(data.get("uri"), str) and isinstance(data.get("version"), int)
    ):
        raise JsonRpcInvalidParams("not an Oracular code action (data needs uri and version)")
    return FixRef.from_data(data) if "fix" in data else ActionRef.from_data(data)


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether ``kind`` passes the client's ``only`` filter (kinds are dot-separated hierarchies)."""
    return only is None or any(kind == o or kind.startswith(f"{o}.") for o in only)


def actions(
    server: OracularServer, analysis: Analysis, selection: types.Range, only: Sequence[str] | None
) -> list[types.CodeAction]:
    client = server.client
    state = server.code_runs.state(analysis)
    result: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, only):
        for report in analysis.tests_in(selection):
            diagnostics = [diagnostic(analysis, report, server.settings.diagnostic_severity)]
            if not shown(state, report).confident:
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
            for checked in ordered(state, report):
                suggestion = checked.suggestion
                ref = ActionRef(
                    analysis.uri, analysis.version, report.test.name, report.line, suggestion.oracle
                )
                action = types.CodeAction(
                    title=title(suggestion.oracle, checked.summary),
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=diagnostics,
                    is_preferred=suggestion.rank == 1,
                )
                result.append(_with_edit_or_ref(server, action, ref, suggestion.edits))
        result += [
            action
            for finding in analysis.findings_in(selection)
            for action in fix_actions(server, analysis, finding)
        ]
        result += server.pseudo_tested.actions(analysis, selection)
    if wanted(ADD_ALL_KIND, only) and analysis.report is not None:
        edits = top_edits(analysis.report, state)
        if edits:
            action = types.CodeAction(title=ADD_ALL_TITLE, kind=ADD_ALL_KIND)
            result.append(_with_edit_or_ref(server, action, ActionRef(analysis.uri, analysis.version), edits))
    return result


def title(oracle: str, check_summary: str | None = None) -> str:
    """``Add oracle: assertEquals(1, v); · holds now``."""
    suffix = f" · {check_summary}" if check_summary else ""
    return TITLE_PREFIX + one_line(oracle) + suffix


def fix_actions(server: OracularServer, analysis: Analysis, finding: Finding) -> list[types.CodeAction]:
    diagnostics = [finding_diagnostic(finding)]
    result = []
    for i, fix in enumerate(finding.fixes):
        action = types.CodeAction(
            title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=diagnostics, is_preferred=i == 0
        )
        ref = FixRef(analysis.uri, analysis.version, finding.code, finding.start, fix.title)
        result.append(_with_edit_or_ref(server, action, ref, list(fix.edits)))
    return result


def _with_edit_or_ref(
    server: OracularServer, action: types.CodeAction, ref: ActionRef | FixRef, edits: list[TextEdit]
) -> types.CodeAction:
    if server.client.resolve_edits:
        action.data = ref.to_data()
    else:
        action.edit = workspace_edit(ref.uri, ref.version, edits, server.client.document_changes)
    return action


async def resolve(server: OracularServer, action: types.CodeAction) -> types.CodeAction:
    ref = reference(action.data)
    stale = JsonRpcContentModified(
        f"{ref.uri} changed since this action was offered (version {ref.version}); ask for actions again"
    )
    document = server.open_document(ref.uri)
    if document is None or document.version != ref.version:
        raise stale
    analysis = await server.documents.current(ref.uri)
    if analysis is None or analysis.version != ref.version:
        raise stale
    edits = ref.edits(analysis, server.code_runs.state(analysis))
    if edits is None:
        raise JsonRpcContentModified("this fix is no longer offered; ask for actions again")
    action.edit = workspace_edit(ref.uri, ref.version, edits, server.client.document_changes)
    return action


def register(server: OracularServer) -> None:
    options = types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, ADD_ALL_KIND], resolve_provider=True
    )

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, options)
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction] | None:
        analysis = await server.documents.current(params.text_document.uri)
        if analysis is not None:
            analysis = await server.documents.ranked(analysis)
        if analysis is None or analysis.report is None:
            return None
        return actions(server, analysis, params.range, params.context.only)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(params: types.CodeAction) -> types.CodeAction:
        return await resolve(server, params)
