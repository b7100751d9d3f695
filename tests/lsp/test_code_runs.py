"""Execution checks in the editor (``checkOracles``): what the features show of a check, and the
checks end to end on a copy of the bundled example, with a real JVM.

The end-to-end tests need a JDK and Debian's JUnit jars: without them they are skipped on a
developer machine but fail in CI (``tests/execution/conftest.py``). Each server checks into a
private cache, and the classpath comes from the ``classpath`` setting, so no test waits for Maven.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types

from oracular.candidates.observed import HOLDS as HOLDS_NOW
from oracular.candidates.observed import Verdict as Observed
from oracular.engine import FileReport
from oracular.engine import TestReport as Report
from oracular.execution.oracle_checks import (
    CheckResult,
    CheckSettings,
    CheckStatus,
    FileCheck,
    OracleChecker,
    Verdict,
)
from oracular.execution.toolchain import DEBIAN_JAVA
from oracular.lsp.code_runs import PENDING, RunState, check_settings, note, ordered, top_edits
from oracular.lsp.execution_policy import (
    ALLOW_FLAG,
    TRUST_NOTIFICATION,
    CheckOracles,
    Launch,
    may_run_user_code,
)
from oracular.lsp.hover import markdown
from oracular.lsp.settings import ServerSettings

from ..conftest import EXAMPLE
from ..execution.conftest import report_for, require_toolchain
from .conftest import (
    STACK,
    STACK_TEST,
    RecordingClient,
    apply_workspace_edit,
    at,
    code_actions,
    full_range,
    initialize,
    opened,
    resolved_edit,
    tcp_server,
    until,
)

JUNIT_JARS = [
    str(DEBIAN_JAVA / n) for n in ("junit-jupiter-api.jar", "opentest4j.jar", "apiguardian-api.jar")
]
CHECKING = {"checkOracles": True, "classpath": JUNIT_JARS}
CHECK_TIMEOUT_S = 90.0
"""A cold helper JVM (built into a fresh cache) and cold javac, on a slow shared CI machine."""
COUNTER_TEST = Path("src/test/java/org/example/stack/BoundedCounterTest.java")


# -- what the features show (no JVM) -----------------------------------------------------------
@pytest.fixture(scope="module")
def counter_report() -> FileReport:
    return report_for(EXAMPLE / COUNTER_TEST)


def value_test(report: FileReport) -> Report:
    return next(t for t in report.tests if t.test.name == "testValueAfterIncrement")


def check_of(test: Report, statuses: list[CheckResult]) -> FileCheck:
    return FileCheck(
        results={(test.line, s.rank): r for s, r in zip(test.suggestions, statuses, strict=True)}
    )


def test_ordered_shows_nothing_pending_or_each_result(counter_report: FileReport) -> None:
    test = value_test(counter_report)
    oracles = [s.oracle for s in test.suggestions]
    assert [(c.suggestion.oracle, c.summary) for c in ordered(None, test)] == [(o, None) for o in oracles]
    assert [c.summary for c in ordered(RunState(), test)] == [PENDING] * len(oracles)
    failed = RunState(FileCheck(error="no JDK"))
    assert [c.summary for c in ordered(failed, test)] == [None] * len(oracles)

    fails = CheckResult(CheckStatus.FAILS, observed="was 1", verdict=Verdict.POSSIBLE_BUG)
    results = [fails] + [CheckResult(CheckStatus.HOLDS)] * (len(oracles) - 1)
    shown = ordered(RunState(check_of(test, results)), test)
    assert [c.suggestion.oracle for c in shown] == oracles  # failing candidates are never moved
    assert shown[0].summary == "fails now: was 1 — possible bug"
    assert {c.summary for c in shown[1:]} == {"holds now"}


def test_uncompilable_candidates_come_last_and_stay_listed(counter_report: FileReport) -> None:
    test = value_test(counter_report)
    first, *rest = test.suggestions
    broken = CheckResult(CheckStatus.NO_COMPILE, detail="cannot find symbol: method itemCount()")
    state = RunState(check_of(test, [broken] + [CheckResult(CheckStatus.HOLDS)] * len(rest)))
    shown = ordered(state, test)
    assert [c.suggestion.oracle for c in shown] == [s.oracle for s in rest] + [first.oracle]
    assert [c.suggestion.rank for c in shown] == list(range(1, len(shown) + 1))
    assert shown[-1].summary == "does not compile: cannot find symbol: method itemCount()"
    # "Add top oracles" and the inlay hint take the first candidate that compiles.
    edits = top_edits(counter_report, state)
    assert rest[0].rendered.statement_edit in edits and first.rendered.statement_edit not in edits
    assert top_edits(counter_report, RunState()) == counter_report.top_edits()
    # The hover lists all of them, with their status.
    text = markdown(test, state)
    assert f"{len(shown)}. `{first.score:.3f}` `{first.oracle}` · does not compile: cannot find" in text
    assert "*Checked on the current code.*" in text


def test_the_observed_ranking_shows_before_its_check(counter_report: FileReport) -> None:
    test = value_test(counter_report)
    first, *rest = test.suggestions
    seen = dataclasses.replace(first, verdict=Observed(HOLDS_NOW, "1"))
    observed = dataclasses.replace(
        counter_report,
        tests=[
            dataclasses.replace(t, suggestions=[seen, *rest]) if t is test else t
            for t in counter_report.tests
        ],
    )
    state = RunState(None, observed)  # observed and ranked again; the check as inserted still runs
    shown = ordered(state, test)
    assert shown[0].suggestion is seen and shown[0].summary == "holds now (observed)"
    assert {c.summary for c in shown[1:]} == {PENDING}
    assert note(state) == "Values observed on the current code; checking these oracles as inserted…"
    assert top_edits(counter_report, state)  # the observed ranking's top oracles


def test_note_says_once_what_was_used_or_why_nothing_was_checked() -> None:
    assert note(None) is None
    assert note(RunState()) == "Checking these oracles on the current code…"
    assert note(RunState(FileCheck(error="no JDK found"))) == "Not checked: no JDK found"
    missing = [f"org.lib{i}.*" for i in range(7)]
    assert note(RunState(FileCheck(missing_imports=missing))) == (
        "Checked on the current code; imports nothing on it provides: "
        "org.lib0.*, org.lib1.*, org.lib2.*, org.lib3.*, org.lib4.* and 2 more."
    )


def test_check_settings_resolve_relative_paths_against_the_workspace(tmp_path: Path) -> None:
    settings = ServerSettings(classpath=("lib/a.jar", "/opt/b.jar"), output_folders=("out",))
    checking = check_settings(settings, tmp_path)
    assert checking.classpath.classpath == (str(tmp_path / "lib/a.jar"), "/opt/b.jar")
    assert checking.classpath.output_dirs == (str(tmp_path / "out"),)


def test_the_editors_helper_compiles_with_the_client_jit_and_batch_helpers_with_the_full_one(
    tmp_path: Path,
) -> None:
    editor = OracleChecker(check_settings(ServerSettings(), tmp_path), cache_dir=tmp_path)
    batch = OracleChecker(CheckSettings(), cache_dir=tmp_path)
    try:
        assert "-XX:TieredStopAtLevel=1" in editor.worker_for(tmp_path).jvm_options
        assert "-XX:TieredStopAtLevel=1" not in batch.worker_for(tmp_path).jvm_options
    finally:
        editor.close()
        batch.close()


# -- end to end ---------------------------------------------------------------------------------
pytestmark_e2e = pytest.mark.asyncio


@pytest.fixture(scope="module", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Servers started by this module check into a cache of their own (they inherit the variable)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORACULAR_CACHE", str(tmp_path_factory.mktemp("oracular-cache")))
        yield


async def checked_titles(client: RecordingClient, doc, needle: str) -> list[str]:
    """The quick-fix titles of the test around ``needle``, once the check of the document's current
    version has arrived (the observed ranking shows before it: titles alone cannot tell)."""
    cursor = doc.position_of(needle)
    deadline = time.monotonic() + CHECK_TIMEOUT_S
    checked = f"Oracular: checked {doc.uri.rsplit('/', 1)[-1]} (version {doc.version}):"
    while True:
        done = any(m.message.startswith(checked) for m in client.log_messages)
        actions = await code_actions(client, doc, at(cursor), only=[types.CodeActionKind.QuickFix])
        titles = [a.title for a in actions]
        if done and titles and all(" · " in t and not t.endswith(PENDING) for t in titles):
            return titles
        if time.monotonic() > deadline:
            raise AssertionError(f"no check arrived in {CHECK_TIMEOUT_S:.0f} s: {titles}")
        await asyncio.sleep(0.1)


async def hover_text(client: RecordingClient, doc, name: str) -> str:
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc.identifier, position=doc.position_of(name))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    return hover.contents.value


@pytestmark_e2e
async def test_titles_hover_and_hints_say_what_each_oracle_does_now(
    fresh_client: RecordingClient, project: Path
) -> None:
    require_toolchain()
    client = fresh_client
    stack = project / STACK
    buggy = stack.read_text(encoding="utf-8").replace(
        "return elements.size();", "return elements.size() / 2;"
    )
    stack.write_text(buggy, encoding="utf-8")  # a bug the top oracle of testPushSize finds
    await initialize(client, client.profile, project, CHECKING)
    async with opened(client, project / STACK_TEST) as doc:
        await doc.diagnostics()
        titles = await checked_titles(client, doc, 's.push("x");')
        # What the code does now first (observed), then what the ranker expected and the code fails.
        assert titles[0] == "Add oracle: assertFalse(s.isEmpty()); · holds now (observed)"
        assert titles[1] == "Add oracle: assertEquals(1, s.size()); · fails now: was 0 — possible bug"
        assert "Add oracle: assertEquals(0, s.size()); · holds now (observed)" in titles  # the bug's value
        # The diagnostic of the same version follows the observed ranking.
        latest = client.latest(doc.uri)
        assert latest is not None and latest.version == doc.version
        push_size = next(d for d in latest.diagnostics if d.message.startswith("testPushSize"))
        assert push_size.message.endswith("suggested: assertFalse(s.isEmpty());"), push_size.message
        titles = await checked_titles(client, doc, "int top = s.peek();")
        assert "Add oracle: assertEquals(2, top); · holds now (observed)" in titles

        text = await hover_text(client, doc, "testPushSize")
        assert "2. `0.784` `assertEquals(1, s.size());` · fails now: was 0 — possible bug" in text
        assert text.endswith(
            "*Checked on the current code, classpath from setting: 3 jars, 0 class folders.*"
        )
        classpath_lines = [m.message for m in client.log_messages if "checking oracles in" in m.message]
        used = "the classpath from setting: 3 jars, 0 class folders"
        assert classpath_lines == [f"Oracular: checking oracles in {project.resolve()} with {used}"]

        hints = await client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc.identifier, range=full_range(doc.text))
        )
        labels = [str(h.label) for h in hints or []]
        assert "assertFalse(s.isEmpty());  // observed" in labels, labels  # testPushSize's top oracle
        tooltips = [str(h.tooltip) for h in hints or []]
        assert any("(score 0.78, holds now (observed))" in t for t in tooltips), tooltips
        if client.profile == "neovim":  # one refresh for the ranking, one for the check
            await until(lambda: client.inlay_hint_refreshes >= 2, what="an inlay hint refresh")

        # The action still resolves to its edit, for the version it was offered for.
        cursor = doc.position_of("s.push(2);")
        actions = await code_actions(client, doc, at(cursor))
        holds = next(
            a for a in actions if a.title == "Add oracle: assertEquals(2, top); · holds now (observed)"
        )
        assert "assertEquals(2, top);" in apply_workspace_edit(doc, await resolved_edit(client, holds))


@pytestmark_e2e
async def test_check_oracles_setting_switches_checks_without_restart(
    vscode_client: RecordingClient, project: Path
) -> None:
    require_toolchain()
    client = vscode_client
    await initialize(client, client.profile, project, {"classpath": JUNIT_JARS})
    async with opened(client, project / COUNTER_TEST) as doc:
        await doc.diagnostics()
        where = at(doc.position_of("int v = c.value();"))
        plain = [a.title for a in await code_actions(client, doc, where)]
        assert "Add oracle: assertEquals(5, v);" in plain  # auto, untrusted: no check, no suffix
        assert not [t for t in plain if " · " in t]
        assert "Checked" not in await hover_text(client, doc, "testValueAfterIncrement")

        client.set_configuration({**CHECKING}, section="oracular")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        titles = await checked_titles(client, doc, "int v = c.value();")
        assert "Add oracle: assertEquals(1, v); · holds now (observed)" in titles
        assert "Add oracle: assertEquals(5, v); · fails now: was 1 — likely wrong guess" in titles

        client.set_configuration({**CHECKING, "checkOracles": False}, section="oracular")
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

        async def unchecked() -> bool:
            return [a.title for a in await code_actions(client, doc, where)] == plain

        deadline = time.monotonic() + 15
        while not await unchecked():
            assert time.monotonic() < deadline, "checks still shown after checkOracles was turned off"
            await asyncio.sleep(0.05)
        assert "Checked" not in await hover_text(client, doc, "testValueAfterIncrement")


SLOW_TEST = Path("src/test/java/org/example/stack/SlowCounterTest.java")
SLOW_TEXT = """package org.example.stack;

import org.junit.jupiter.api.Test;

class SlowCounterTest {

    @Test
    void testValueAfterIncrement() throws InterruptedException {
        BoundedCounter c = new BoundedCounter(5);
        Thread.sleep(3000);
        c.increment();
        int v = c.value();
    }
}
"""
"""Every generated method sleeps 3 s: its check (five of them) is certainly running at the edit."""


@pytestmark_e2e
async def test_an_edit_while_a_check_runs_cancels_it_and_drops_its_result(
    vscode_client: RecordingClient, project: Path
) -> None:
    require_toolchain()
    client = vscode_client
    (project / SLOW_TEST).write_text(SLOW_TEXT, encoding="utf-8")
    await initialize(client, client.profile, project, CHECKING)
    async with opened(client, project / SLOW_TEST) as doc:
        await doc.diagnostics()  # version 1 is published: its check starts
        edited = time.monotonic()
        doc.change(doc.text.replace("        Thread.sleep(3000);\n", "        c.increment();\n"))
        await doc.diagnostics()
        # In version 2 the value is 2: version 1's "assertEquals(1, v) holds" must never show.
        titles = await checked_titles(client, doc, "int v = c.value();")
        assert titles[0] == "Add oracle: assertEquals(2, v); · holds now (observed)"
        assert not [t for t in titles if "assertEquals(1, v); · holds" in t]
        assert time.monotonic() - edited < 15.0, "version 1's check ran to the end (5 x 3 s)"
        cancelled = "Oracular: the check of SlowCounterTest.java (version 1) was cancelled"
        assert cancelled in [m.message for m in client.log_messages]


# -- who may run the project's code: checkOracles, workspace trust and the transport ----------------
VALUE_LINE = "int v = c.value();"
HOLDS = "Add oracle: assertEquals(1, v); · holds now (observed)"


async def unchecked_titles(client: RecordingClient, doc) -> list[str]:
    """The quick-fix titles once the analysis is in, asserting that no check is shown or ran."""
    await doc.diagnostics()
    titles = [a.title for a in await code_actions(client, doc, at(doc.position_of(VALUE_LINE)))]
    assert "Add oracle: assertEquals(5, v);" in titles and not [t for t in titles if " · " in t]
    assert not [m for m in client.log_messages if m.message.startswith("Oracular: checked ")]
    return titles


def said(client: RecordingClient, text: str) -> list[str]:
    return [m.message for m in client.log_messages if text in m.message]


@pytestmark_e2e
async def test_auto_checks_a_trusted_workspace(vscode_client: RecordingClient, project: Path) -> None:
    require_toolchain()
    await initialize(vscode_client, vscode_client.profile, project, {"classpath": JUNIT_JARS}, trusted=True)
    async with opened(vscode_client, project / COUNTER_TEST) as doc:
        await doc.diagnostics()
        assert HOLDS in await checked_titles(vscode_client, doc, VALUE_LINE)
    assert said(vscode_client, "oracle checks are on: the workspace is trusted (checkOracles: auto)")


@pytestmark_e2e
async def test_auto_waits_for_trust_and_says_why(vscode_client: RecordingClient, project: Path) -> None:
    """Untrusted: no check runs, and the log says why, once; trust granted later starts them."""
    require_toolchain()
    client = vscode_client
    await initialize(client, client.profile, project, {"classpath": JUNIT_JARS}, trusted=False)
    async with opened(client, project / COUNTER_TEST) as doc:
        await unchecked_titles(client, doc)
        assert len(said(client, "the client has not said that the workspace is trusted")) == 1
        assert not client.messages  # the default: a log line, no pop-up
        client.protocol.notify(TRUST_NOTIFICATION, {"trusted": True})
        assert HOLDS in await checked_titles(client, doc, VALUE_LINE)


@pytestmark_e2e
async def test_tcp_runs_no_code_without_the_servers_own_opt_in(project: Path) -> None:
    """Whoever connects to a TCP port is refused, whatever its settings and trust claims."""
    async with tcp_server() as (client, _):
        await initialize(client, "visual-studio-code", project, CHECKING, trusted=True)
        async with opened(client, project / COUNTER_TEST) as doc:
            await unchecked_titles(client, doc)
            client.protocol.notify(TRUST_NOTIFICATION, {"trusted": True})
            await unchecked_titles(client, doc)
        (refusal,) = said(client, f"was not started with {ALLOW_FLAG}")
        assert [m.message for m in client.messages] == [refusal]
        await client.shutdown_async(None)


@pytestmark_e2e
async def test_tcp_with_the_opt_in_runs_what_the_settings_ask(project: Path) -> None:
    require_toolchain()
    async with tcp_server(ALLOW_FLAG) as (client, _):
        await initialize(client, "visual-studio-code", project, CHECKING)
        async with opened(client, project / COUNTER_TEST) as doc:
            await doc.diagnostics()
            assert HOLDS in await checked_titles(client, doc, VALUE_LINE)
        await client.shutdown_async(None)


@pytest.mark.parametrize(
    ("launch", "setting", "trusted", "allowed", "pop_up"),
    [
        (Launch("stdio"), "auto", False, False, False),
        (Launch("stdio"), "auto", True, True, False),
        (Launch("stdio"), True, False, True, False),
        (Launch("stdio"), False, True, False, False),
        (Launch("tcp"), True, False, False, True),
        (Launch("tcp"), "auto", True, False, True),
        (Launch("tcp"), "auto", False, False, False),
        (Launch("tcp"), False, True, False, False),
        (Launch("tcp", allow_code_execution=True), "auto", False, False, False),
        (Launch("tcp", allow_code_execution=True), "auto", True, True, False),
        (Launch("tcp", allow_code_execution=True), True, False, True, False),
        (Launch("tcp", allow_code_execution=True), False, True, False, False),
    ],
)
def test_the_one_rule_for_running_user_code(
    launch: Launch, setting: CheckOracles, trusted: bool, allowed: bool, pop_up: bool
) -> None:
    """``pop_up``: the user asked for checks (or the client claims trust) and TCP refuses them."""
    verdict = may_run_user_code(launch, setting, trusted)
    assert (verdict.allowed, verdict.asked) == (allowed, pop_up) and verdict.reason


@pytest.mark.asyncio
async def test_a_provisional_analysis_starts_no_run() -> None:
    """A first look (or a version analysed while the model loads) ranks nothing: its complete
    analysis follows and is the one observed, whatever asks (a publish, a settings change)."""
    from oracular.engine import OracleEngine
    from oracular.lsp.code_runs import CodeRuns
    from oracular.lsp.documents import History, OpenDocument, analyse
    from oracular.quality import QualitySettings

    path = EXAMPLE / "src/test/java/org/example/stack/StackTest.java"
    document = OpenDocument(path.as_uri(), 1, path.read_text(encoding="utf-8"), path)
    looks = []
    engine = OracleEngine()
    complete = analyse(engine, document, QualitySettings(), lambda: False, History(), looks.append)
    (first,) = looks
    assert first.provisional and first.tests and complete is not None and not complete.provisional

    async def on_thread(fn):
        return fn()

    runs = CodeRuns(lambda uri: None, lambda a: None, lambda *args: None, lambda a: engine, on_thread)
    assert runs.configure(ServerSettings(), EXAMPLE, allowed=True)
    try:
        runs.analysed(first)
        assert runs.state(first) is None
    finally:
        await runs.close()
