"""Settings: parsing and validation, ``initializationOptions``, ``workspace/configuration``
(pulled, and pushed by clients that cannot be asked), changes at run time, bad values, the
``device`` setting, abstaining and on-save-only ranking.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings
from oracular.java.source import load_source
from oracular.lsp.convert import one_line
from oracular.lsp.execution_policy import trusted_option
from oracular.lsp.server import CHANGE_DELAY_S
from oracular.lsp.settings import ServerSettings, parse_settings, pushed_section, section_of

from .conftest import STACK_TEST, RecordingClient, at, code_actions, full_range, initialize, opened, until


# -- parsing (no server) ---------------------------------------------------------------------
def test_defaults() -> None:
    assert parse_settings(None) == (ServerSettings(), [])
    assert parse_settings({}) == (ServerSettings(), [])


def test_every_setting_parses() -> None:
    settings, problems = parse_settings(
        {
            "topK": 3,
            "device": "CUDA",
            "abstainBelow": 0,
            "inlayHints": False,
            "diagnosticSeverity": "Warning",
            "assertionStyle": "junit4",
            "extraAssertionMethods": ["checkInvariants", "$verify"],
            "onSave": True,
            "checkOracles": True,
            "classpath": ["lib/a.jar", " /opt/b.jar "],
            "outputFolders": ["target/classes", "target/test-classes"],
        }
    )
    assert problems == []
    assert settings == ServerSettings(
        engine=EngineSettings(
            top_k=3,
            abstain_below=0.0,
            assertion_style="junit4",
            extra_assertion_methods=frozenset({"checkInvariants", "$verify"}),
        ),
        device="cuda",
        inlay_hints=False,
        diagnostic_severity=types.DiagnosticSeverity.Warning,
        on_save=True,
        check_oracles=True,
        classpath=("lib/a.jar", "/opt/b.jar"),
        output_folders=("target/classes", "target/test-classes"),
    )


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("topK", 0, "expected an integer from 1 to 50, got 0"),
        ("topK", True, "expected an integer from 1 to 50, got true"),
        ("topK", "5", 'expected an integer from 1 to 50, got "5"'),
        ("abstainBelow", 1.5, "expected a number from 0 to 1, got 1.5"),
        ("device", "tpu", "expected one of 'auto', 'cpu', 'cuda', got \"tpu\""),
        ("inlayHints", "yes", 'expected true or false, got "yes"'),
        ("diagnosticSeverity", 2, "expected one of 'error', 'warning', 'information', 'hint', got 2"),
        ("assertionStyle", "testng", "expected one of 'auto', 'junit4', 'junit5'"),
        ("extraAssertionMethods", ["ok", "not a name"], "expected a list of Java method names"),
        ("extraAssertionMethods", "check", "expected a list of Java method names"),
        ("onSave", None, None),
        ("checkOracles", "on", 'expected "auto", true or false, got "on"'),
        ("classpath", [1], "expected a list of paths (or one string of them separated by ':')"),
        ("outputFolders", {"dir": "out"}, "expected a list of paths"),
    ],
)
def test_invalid_values_fall_back_to_the_default(key: str, value: object, expected: str | None) -> None:
    settings, problems = parse_settings({key: value})
    assert settings == ServerSettings()
    if expected is None:
        assert problems == []  # null means "not set"
    else:
        (problem,) = problems
        assert problem.startswith(f"oracular.{key}: {expected}") and problem.endswith("; using the default")


def test_classpath_may_be_one_string_as_build_tools_print_it() -> None:
    settings, problems = parse_settings({"classpath": "/a.jar::lib/b.jar:"})
    assert (settings.classpath, problems) == (("/a.jar", "lib/b.jar"), [])


def test_unknown_keys_and_non_objects_are_reported() -> None:
    settings, problems = parse_settings({"topk": 3}, ["not", "an", "object"], {"topK": 2})
    assert settings.engine.top_k == 2
    assert problems[0].startswith('oracular settings must be an object, got ["not", "an", "object"]')
    assert problems[1].startswith("unknown setting oracular.topk (known: topK, abstainBelow,")


def test_later_layers_override_earlier_ones() -> None:
    settings, _ = parse_settings({"topK": 2, "onSave": True}, {"topK": 4})
    assert (settings.engine.top_k, settings.on_save) == (4, True)


def test_initialization_options_may_be_the_section_or_contain_it() -> None:
    assert section_of({"oracular": {"topK": 2}}) == {"topK": 2}
    assert section_of({"topK": 2}) == {"topK": 2}
    assert section_of(None) is None


def test_workspace_trust_travels_beside_the_settings_never_in_them() -> None:
    """``workspaceTrusted`` is read from initializationOptions only: a checkout's own settings
    file can set ``oracular.*``, and must not be able to claim trust."""
    assert section_of({"workspaceTrusted": True, "topK": 2}) == {"topK": 2}
    assert trusted_option({"workspaceTrusted": True, "oracular": {}}) == (True, None)
    assert trusted_option({"oracular": {}}) == (False, None)
    trusted, problem = trusted_option({"workspaceTrusted": "yes"})
    assert trusted is False and problem is not None and "must be true or false" in problem
    settings, problems = parse_settings({"workspaceTrusted": True})
    assert (
        settings == ServerSettings()
        and problems
        and "unknown setting oracular.workspaceTrusted" in problems[0]
    )


def test_pushed_settings_are_keyed_by_section() -> None:
    assert pushed_section({"oracular": {"topK": 2}, "java": {}}) == {"topK": 2}
    assert pushed_section({"java": {}}) is None
    assert pushed_section(None) is None


# -- end to end ------------------------------------------------------------------------------
pytestmark_e2e = pytest.mark.asyncio


def engine_titles(doc, needle: str, top_k: int) -> list[str]:
    """The quick-fix titles the engine's own top ``top_k`` imply for the test around ``needle``."""
    engine = engine_for([doc.path], EngineSettings(top_k=top_k))
    report = engine.suggest(load_source(doc.path), line=doc.position_of(needle).line + 1)
    (test,) = report.tests
    assert top_k == 1 or len(test.suggestions) > 1, "pick a test with several candidates"
    return [f"Add oracle: {one_line(s.oracle)}" for s in test.suggestions]


async def quickfix_titles(client: RecordingClient, doc, needle: str) -> list[str]:
    actions = await code_actions(
        client, doc, at(doc.position_of(needle)), only=[types.CodeActionKind.QuickFix]
    )
    return [a.title for a in actions]


@pytestmark_e2e
async def test_initialization_options_apply_and_bad_values_fall_back(
    fresh_client: RecordingClient, project: Path
) -> None:
    options = {
        "diagnosticSeverity": "warning",
        "inlayHints": False,
        "topK": "many",
        "colour": "red",
        "abstainBelow": "high",
    }
    await initialize(fresh_client, fresh_client.profile, project, options)
    async with opened(fresh_client, project / STACK_TEST) as doc:
        found = await doc.diagnostics()
        assert len(found) == 6 and {d.severity for d in found} == {types.DiagnosticSeverity.Warning}
        assert not await fresh_client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc.identifier, range=full_range(doc.text))
        )
        # The bad values fell back to their defaults: five suggestions, none abstained.
        assert await quickfix_titles(fresh_client, doc, "s.push(2);") == engine_titles(doc, "s.push(2);", 5)
    (message,) = fresh_client.messages
    assert message.type == types.MessageType.Warning
    for fragment in (
        'oracular.topK: expected an integer from 1 to 50, got "many"',
        "unknown setting oracular.colour",
        "oracular.abstainBelow: expected a number from 0 to 1",
    ):
        assert fragment in message.message
    warnings = [m.message for m in fresh_client.log_messages if m.type == types.MessageType.Warning]
    assert len(warnings) == 3


@pytestmark_e2e
async def test_configuration_changes_apply_without_restart(
    fresh_client: RecordingClient, project: Path
) -> None:
    client = fresh_client
    await initialize(client, client.profile, project)
    # VS Code wants the server to register for configuration changes; Neovim sends them anyway.
    registered = [r.method for r in client.registrations]
    expected = ["workspace/didChangeConfiguration"] if client.profile == "visual-studio-code" else []
    assert registered == expected
    async with opened(client, project / STACK_TEST) as doc:
        await doc.diagnostics()
        assert await quickfix_titles(client, doc, "s.push(2);") == engine_titles(doc, "s.push(2);", 5)
        published = len(client.published)
        client.set_configuration({"topK": 1, "diagnosticSeverity": "hint"}, section="oracular")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        found = await doc.diagnostics(since=published)
        assert {d.severity for d in found} == {types.DiagnosticSeverity.Hint}
        assert await quickfix_titles(client, doc, "s.push(a);") == ["Add oracle: assertTrue(empty);"]
        # Only the severity changes: diagnostics are re-published from the cache, hints refreshed.
        published, refreshes = len(client.published), client.inlay_hint_refreshes
        client.set_configuration({"topK": 1, "diagnosticSeverity": "error"}, section="oracular")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        found = await doc.diagnostics(since=published)
        assert {d.severity for d in found} == {types.DiagnosticSeverity.Error}
        if client.profile == "neovim":
            await until(lambda: client.inlay_hint_refreshes > refreshes, what="an inlay hint refresh")


@pytestmark_e2e
async def test_pushed_settings_for_clients_that_cannot_be_asked(
    vscode_client: RecordingClient, project: Path
) -> None:
    capabilities = client_capabilities("visual-studio-code")
    assert capabilities.workspace is not None
    capabilities.workspace.configuration = False
    capabilities.workspace.did_change_configuration = None
    await initialize(vscode_client, "visual-studio-code", project, {"topK": 3}, capabilities)
    async with opened(vscode_client, project / STACK_TEST) as doc:
        await doc.diagnostics()
        assert await quickfix_titles(vscode_client, doc, "s.push(2);") == engine_titles(doc, "s.push(2);", 3)
        published = len(vscode_client.published)
        vscode_client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"oracular": {"topK": 1}})
        )
        await doc.diagnostics(since=published)
        assert await quickfix_titles(vscode_client, doc, "s.push(2);") == engine_titles(doc, "s.push(2);", 1)


@pytestmark_e2e
async def test_abstaining_says_why(fresh_client: RecordingClient, project: Path) -> None:
    client = fresh_client
    await initialize(client, client.profile, project, {"abstainBelow": 0.99})
    async with opened(client, project / STACK_TEST) as doc:
        found = await doc.diagnostics()
        assert found[0].message.startswith("testPushPopIsEmpty has no oracle (focal method Stack.isEmpty); ")
        assert found[0].message.endswith("no confident oracle (confidence 0.78 < 0.99)")
        actions = await code_actions(client, doc, at(doc.position_of("s.push(a);")))
        hints = await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc.identifier, range=full_range(doc.text))
        )
    assert not hints
    # VS Code shows the disabled action with its reason; Neovim cannot, so it gets none.
    if client.profile == "visual-studio-code":
        (action,) = actions
        assert action.title == "Add oracle to testPushPopIsEmpty"
        assert action.disabled is not None
        assert action.disabled.reason == "no confident oracle (confidence 0.78 < 0.99)"
    else:
        assert not actions


@pytestmark_e2e
async def test_on_save_ranks_only_when_saved(vscode_client: RecordingClient, project: Path) -> None:
    client = vscode_client  # nothing here depends on the client's capabilities
    await initialize(client, client.profile, project, {"onSave": True})
    async with opened(client, project / STACK_TEST) as doc:
        await doc.diagnostics()
        doc.change(doc.text.replace("boolean empty = s.isEmpty();", "assertTrue(s.isEmpty());"))
        await asyncio.sleep(2 * CHANGE_DELAY_S)  # well past the typing debounce
        assert client.latest(doc.uri).version == 1
        doc.save()
        found = await doc.diagnostics()
    assert "testPushPopIsEmpty" not in [d.message.split(" ")[0] for d in found]


@pytestmark_e2e
async def test_device_setting_resolves_and_falls_back(vscode_client: RecordingClient, project: Path) -> None:
    client = vscode_client
    await initialize(client, client.profile, project, {"device": "auto"})
    (loaded,) = [m.message for m in client.log_messages if "ranker on" in m.message]
    assert loaded.endswith("(device setting 'auto')")
    has_gpu = "baseline ranker on cuda" in loaded
    assert has_gpu or "baseline ranker on cpu" in loaded
    client.set_configuration({"device": "cuda"}, section="oracular")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await until(lambda: any("(device setting 'cuda')" in m.message for m in client.log_messages))
    notes = [m.message for m in client.messages]
    assert notes == ([] if has_gpu else ["oracular.device is 'cuda' but torch sees no CUDA GPU; using cpu"])
