"""Every feature end to end, as VS Code and as Neovim: diagnostics, code actions (and resolve),
the add-all source action, inlay hints (and refresh), hover, the ``oracular.suggest`` command,
progress, and silence on files that are not tests.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from oracular.cli.main import main
from oracular.lsp.code_actions import ADD_ALL_KIND, ADD_ALL_TITLE

from ..conftest import copy_example
from .conftest import (
    STACK,
    STACK_TEST,
    RecordingClient,
    apply_workspace_edit,
    at,
    code_actions,
    full_range,
    opened,
    resolved_edit,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

STACK_TEST_ORACLE_FREE = [
    "testPushPopIsEmpty",
    "testPopOnEmptyStack",
    "testPushTwoPeek",
    "testPushSize",
    "testPushThreePopOnce",
    "testPushOntoNewStack",
]


def cli_suggest_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    """``suggest --json`` as the server answers it when it may not run code (this server may not):
    statically, without the CLI's ``mode`` line."""
    assert main(["suggest", *args, "--json", "--no-check"]) == 0
    document = json.loads(capsys.readouterr().out)
    document.pop("mode")
    return document


async def test_diagnostics_on_open(shared_client: RecordingClient, module_project: Path) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        found = await doc.diagnostics()
    names = [
        doc.text.splitlines()[d.range.start.line][d.range.start.character : d.range.end.character]
        for d in found
    ]
    assert names == STACK_TEST_ORACLE_FREE
    for d in found:
        assert d.source == "oracular" and d.code == "missing-oracle"
        assert d.severity == types.DiagnosticSeverity.Information
    assert found[0].message == (
        "testPushPopIsEmpty has no oracle (focal method Stack.isEmpty); suggested: assertTrue(empty);"
    )
    assert found[1].message == (
        "testPopOnEmptyStack has no oracle (focal method Stack.pop); "
        "suggested: assertThrows(EmptyStackException.class, () -> s.pop());"
    )


async def test_diagnostics_in_a_file_with_bare_cr_line_ends(
    shared_client: RecordingClient, module_project: Path
) -> None:
    """Java ends a line at a lone CR too; tree-sitter's ``//`` comment runs to the next LF, so the
    first line comment would swallow the whole file (the file is parsed CR-normalised instead)."""
    text = "// classic Mac line ends\n" + (module_project / STACK_TEST).read_text(encoding="utf-8")
    text = text.replace("\r\n", "\n").replace("\n", "\r")
    async with opened(shared_client, module_project / STACK_TEST, text) as doc:
        found = await doc.diagnostics()
    lines = doc.text.splitlines()
    names = [lines[d.range.start.line][d.range.start.character : d.range.end.character] for d in found]
    assert names == STACK_TEST_ORACLE_FREE


def push_pop_position(doc) -> types.Position:
    """A cursor inside ``testPushPopIsEmpty``'s body."""
    return doc.position_of("s.push(a);")


async def test_quickfixes_inside_a_test_best_first(
    shared_client: RecordingClient, module_project: Path
) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        await doc.diagnostics()
        actions = await code_actions(shared_client, doc, at(push_pop_position(doc)))
    quickfixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert quickfixes[0].title == "Add oracle: assertTrue(empty);"
    assert 1 < len(quickfixes) <= 5
    assert [a.is_preferred for a in quickfixes] == [True] + [False] * (len(quickfixes) - 1)
    assert all(a.diagnostics and a.diagnostics[0].code == "missing-oracle" for a in quickfixes)
    # The file-wide source action is offered too when the client does not filter kinds.
    assert [a.title for a in actions if a.kind == ADD_ALL_KIND] == [ADD_ALL_TITLE]


async def test_resolve_inserts_the_oracle_and_its_imports(
    shared_client: RecordingClient, module_project: Path
) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        found = await doc.diagnostics()
        pop = next(d for d in found if "testPopOnEmptyStack" in d.message)
        actions = await code_actions(shared_client, doc, pop.range, diags=[pop])
        assert actions[0].title == "Add oracle: assertThrows(EmptyStackException.class, () -> s.pop());"
        assert list(actions[0].diagnostics or []) == [pop]
        edit = await resolved_edit(shared_client, actions[0])
        # VS Code gets a versioned documentChanges edit, Neovim (no documentChanges) plain changes.
        assert (edit.document_changes is not None) == (shared_client.profile == "visual-studio-code")
        text = apply_workspace_edit(doc, edit)
    assert "import static org.junit.jupiter.api.Assertions.assertThrows;" in text
    assert "import java.util.EmptyStackException;" in text
    assert "        assertThrows(EmptyStackException.class, () -> s.pop());\n" in text


async def test_source_action_adds_every_top_oracle_like_the_cli(
    shared_client: RecordingClient, module_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        await doc.diagnostics()
        actions = await code_actions(
            shared_client, doc, full_range(doc.text), only=[types.CodeActionKind.Source]
        )
        assert [(a.title, a.kind) for a in actions] == [(ADD_ALL_TITLE, ADD_ALL_KIND)]
        text = apply_workspace_edit(doc, await resolved_edit(shared_client, actions[0]))
    cli_copy = copy_example(tmp_path) / STACK_TEST
    # the workspace is not trusted: the server runs nothing, as the CLI with --no-check
    assert main(["suggest", str(cli_copy), "--write", "--no-check"]) == 0
    capsys.readouterr()
    assert text == cli_copy.read_text()


async def test_only_filter_excludes_other_kinds(shared_client: RecordingClient, module_project: Path) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        where = at(push_pop_position(doc))
        quickfixes = await code_actions(shared_client, doc, where, only=[types.CodeActionKind.QuickFix])
        refactors = await code_actions(shared_client, doc, where, only=[types.CodeActionKind.Refactor])
    assert quickfixes and all(a.kind == types.CodeActionKind.QuickFix for a in quickfixes)
    assert refactors == []


async def test_no_actions_outside_oracle_free_tests(
    shared_client: RecordingClient, module_project: Path
) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        cursor = doc.position_of("assertEquals(8, s.peek());")
        actions = await code_actions(shared_client, doc, at(cursor), only=[types.CodeActionKind.QuickFix])
    assert actions == []


async def test_inlay_hints_after_last_statement_and_refresh(
    shared_client: RecordingClient, module_project: Path
) -> None:
    refreshes = shared_client.inlay_hint_refreshes
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        await doc.diagnostics()
        hints = await shared_client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc.identifier, range=full_range(doc.text))
        )
        assert hints is not None
        first = hints[0]
        end_of_statement = doc.position_of(
            "boolean empty = s.isEmpty();", len("boolean empty = s.isEmpty();")
        )
        assert (first.position, first.label, first.padding_left) == (
            end_of_statement,
            "assertTrue(empty);",
            True,
        )
        assert [h.label for h in hints][1] == "assertThrows(EmptyStackException.class, () -> s.pop());"
        assert len(hints) == len(STACK_TEST_ORACLE_FREE)
        # Only the lines asked for.
        only_first = await shared_client.text_document_inlay_hint_async(
            types.InlayHintParams(
                text_document=doc.identifier,
                range=types.Range(start=types.Position(line=0, character=0), end=end_of_statement),
            )
        )
        assert list(only_first or []) == [first]
    # Neovim can be told to refresh once ranking is done; the VS Code profile cannot.
    if shared_client.profile == "neovim":
        assert shared_client.inlay_hint_refreshes > refreshes
    else:
        assert shared_client.inlay_hint_refreshes == refreshes


async def test_inlay_hints_come_from_the_cache_only(
    shared_client: RecordingClient, module_project: Path
) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        await doc.diagnostics()
        doc.change("// a new first line\n" + doc.text)
        params = types.InlayHintParams(text_document=doc.identifier, range=full_range(doc.text))
        assert not await shared_client.text_document_inlay_hint_async(params)  # version 2 not ranked yet
        await doc.diagnostics()
        hints = await shared_client.text_document_inlay_hint_async(params)
        assert hints and hints[0].position.line == doc.position_of("boolean empty").line


async def test_hover_on_an_oracle_free_test_name(
    shared_client: RecordingClient, module_project: Path
) -> None:
    async with opened(shared_client, module_project / STACK_TEST) as doc:
        name = doc.position_of("testPopOnEmptyStack", 3)
        hover = await shared_client.text_document_hover_async(
            types.HoverParams(text_document=doc.identifier, position=name)
        )
        body = await shared_client.text_document_hover_async(
            types.HoverParams(text_document=doc.identifier, position=doc.position_of("s.push(a);"))
        )
    assert hover is not None and body is None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    text = hover.contents.value
    assert "**`testPopOnEmptyStack` has no oracle**" in text
    assert "```java\npublic T pop()\n```" in text
    assert "> Removes the item at the top of this stack and returns it." in text
    assert "Exception: p = 0.85 (`EmptyStackException`)" in text
    assert re.search(r"Confidence in the top oracle: (0\.85|1\.00)\n", text)  # its score, or it holds now
    assert "1. `0.850` `assertThrows(EmptyStackException.class, () -> s.pop());`" in text
    assert hover.range is not None and hover.range.start == doc.position_of("testPopOnEmptyStack")


async def test_suggest_command_matches_the_cli(
    shared_client: RecordingClient, module_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = module_project / STACK_TEST
    command = "oracular.suggest"
    whole = await shared_client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[path.as_uri()])
    )
    assert whole == cli_suggest_json(capsys, str(path))
    one = await shared_client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[path.as_uri(), 26])
    )
    assert one == cli_suggest_json(capsys, str(path), "--line", "26")
    assert [t["method"] for t in one["tests"]] == ["testPopOnEmptyStack"]
    # An open document is read from the editor's buffer (its cached analysis), not from disk.
    async with opened(shared_client, path) as doc:
        for arguments, expected in (([path.as_uri()], whole), ([path.as_uri(), 26], one)):
            opened_answer = await shared_client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=command, arguments=arguments)
            )
            assert opened_answer == expected
        doc.change(doc.text.replace("boolean empty = s.isEmpty();", "assertTrue(s.isEmpty());"))
        buffered = await shared_client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=command, arguments=[path.as_uri()])
        )
    assert "testPushPopIsEmpty" not in [t["method"] for t in buffered["tests"]]
    for bad in ([], [42], [path.as_uri(), "26"], [path.as_uri(), 0], ["untitled:Foo.java"]):
        with pytest.raises(JsonRpcInvalidParams):
            await shared_client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=command, arguments=bad)
            )


async def test_progress_for_indexing_and_ranker(shared_client: RecordingClient) -> None:
    titles = {}
    for reports in shared_client.progress_reports.values():
        assert isinstance(reports[0], types.WorkDoneProgressBegin)
        assert isinstance(reports[-1], types.WorkDoneProgressEnd)
        titles[reports[0].title] = [r.message for r in reports if isinstance(r, types.WorkDoneProgressReport)]
    assert titles["Oracular: loading the ranker"] == ["baseline ranker on cpu"]
    assert titles["Oracular: indexing stack"] == ["6 Java files"]


async def test_silent_on_files_that_are_not_tests(
    shared_client: RecordingClient, module_project: Path
) -> None:
    main_class = module_project / STACK
    notes = module_project / "NOTES.txt"
    notes.write_text("class NotJava {}\n")
    for path in (main_class, notes):
        async with opened(shared_client, path) as doc:
            cursor = doc.position_of("class")
            assert await code_actions(shared_client, doc, at(cursor)) == []
            assert not await shared_client.text_document_hover_async(
                types.HoverParams(text_document=doc.identifier, position=cursor)
            )
            assert not await shared_client.text_document_inlay_hint_async(
                types.InlayHintParams(text_document=doc.identifier, range=full_range(doc.text))
            )
        assert shared_client.latest(doc.uri) is None


async def test_activates_on_files_importing_a_test_framework(
    shared_client: RecordingClient, module_project: Path
) -> None:
    checks = module_project / "src" / "main" / "java" / "org" / "example" / "stack" / "Checks.java"
    checks.write_text(
        "package org.example.stack;\n\nimport org.junit.Test;\n\n"
        "public class Checks {\n    @Test\n    public void sizeAfterPush() {\n"
        '        Stack<String> s = new Stack<>();\n        s.push("x");\n    }\n}\n'
    )
    try:
        async with opened(shared_client, checks) as doc:
            found = await doc.diagnostics()
    finally:
        checks.unlink()
    assert [d.message.split(" ")[0] for d in found] == ["sizeAfterPush"]
