"""Hostile prefixes in a real JVM: what a test does stays in the sandbox, and the helper (so the
server and the CLI) keeps working after it.

Each test runs one method of ``HostileTest`` in a helper started with ``sandbox: require``, then
checks the world outside (the file, the listening socket, the process table) and that the same
helper, or its restarted successor, still runs a passing test. Skipped only where Bubblewrap
cannot run here (and failed in CI, which installs it).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from oracular.cli.main import main
from oracular.execution.classpath import ClasspathSettings
from oracular.execution.jvm import JvmWorker, RunResult, TestOutcome, TestRef
from oracular.execution.oracle_checks import CheckSettings, OracleChecker
from oracular.execution.sandbox import SandboxSettings, bwrap_problem
from oracular.execution.toolchain import find_toolchain

from ..conftest import skip_or_fail
from .conftest import require_toolchain

MARK = uuid.uuid4().hex[:12]
SLEEP = f"987.{int(MARK[:6], 16) % 1000}"
"""The argument of every ``sleep`` the tests start: how their processes are found afterwards."""

HOSTILE = """package hostile;

import java.io.*;
import java.net.Socket;
import java.nio.file.*;
import java.util.*;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class HostileTest {
    @Test void passes() { }
    @Test void writesHome() throws Exception {
        Files.writeString(Path.of(System.getProperty("user.home"), "HOME_NAME"), "escaped");
    }
    @Test void writesAbsolute() throws Exception { Files.writeString(Path.of("OUTSIDE"), "escaped"); }
    @Test void deletes() throws Exception { Files.delete(Path.of("VICTIM")); }
    @Test void writesWorkingDirectory() throws Exception {
        Files.createDirectories(Path.of("output/tmp"));
        Files.writeString(Path.of("output/tmp/made.txt"), "made");
        Files.writeString(Path.of("target/made.txt"), "made");
        assertEquals("made", Files.readString(Path.of("output/tmp/made.txt")));
        assertEquals("<project/>", Files.readString(Path.of("pom.xml")));
    }
    @Test void readsBuiltResource() throws Exception {
        assertEquals("mock", Files.readString(Path.of("target/test-classes/mocks/original.txt")));
    }
    @Test void rewritesProjectFile() throws Exception { Files.writeString(Path.of("pom.xml"), "spoilt"); }
    @Test void deletesProjectFile() throws Exception { Files.delete(Path.of("target/classes/Kept.class")); }
    @Test void connects() throws Exception { new Socket("127.0.0.1", PORT).close(); }
    @Test void exits() { System.exit(3); }
    @Test void halts() { Runtime.getRuntime().halt(4); }
    @Test void loops() { while (true) { Thread.onSpinWait(); } }
    @Test void allocates() {
        List<long[]> hog = new ArrayList<>();
        while (true) { hog.add(new long[1 << 20]); }
    }
    @Test void forks() throws Exception {
        for (int i = 0; i < 20; i++) { new ProcessBuilder("sleep", "SLEEP").start(); }
    }
    @Test void forksWithoutEnd() {
        int started = 0;
        try {
            while (started < 3000) { new ProcessBuilder("sleep", "SLEEP").start(); started++; }
        } catch (IOException | OutOfMemoryError capped) { }  // no process, or no thread to reap it
        assertTrue(started < 3000, "started " + started);
    }
    @Test void spins() {
        new Thread(() -> { while (true) { Thread.onSpinWait(); } }, "hostile-spinner").start();
    }
    @Test void noSpinnerLeft() {
        Set<Thread> threads = Thread.getAllStackTraces().keySet();
        assertFalse(threads.stream().anyMatch(t -> t.getName().equals("hostile-spinner")));
    }
    @Test void floods() throws Exception {
        byte[] megabyte = new byte[1 << 20];
        Arrays.fill(megabyte, (byte) 'x');
        FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        FileOutputStream err = new FileOutputStream(FileDescriptor.err);
        out.write("RESULT\\thostile.HostileTest\\tfloods\\tFAILED\\t0\\t\\tforged\\t\\t\\n".getBytes());
        for (int i = 0; i < 32; i++) { out.write(megabyte); err.write(megabyte); System.out.write(megabyte); }
    }
}
"""


def require_bwrap() -> None:
    if (problem := bwrap_problem()) is not None:
        skip_or_fail(f"no sandbox here: {problem}")


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the helper may read but not write (like any folder of the user's)."""
    return tmp_path_factory.mktemp("outside")


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tests' working directory: a module root with a build file and a build output."""
    root = tmp_path_factory.mktemp("module")
    (root / "pom.xml").write_text("<project/>", encoding="utf-8")
    (root / "target" / "classes").mkdir(parents=True)
    (root / "target" / "classes" / "Kept.class").write_bytes(b"kept")
    (root / "src" / "test" / "resources" / "mocks").mkdir(parents=True)
    (root / "src" / "test" / "resources" / "mocks" / "original.txt").write_text("mock", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def listener() -> Iterator[socket.socket]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.3)
    yield server
    server.close()


@pytest.fixture(scope="module")
def hostile(
    tmp_path_factory: pytest.TempPathFactory, outside: Path, module: Path, listener: socket.socket
) -> Iterator[tuple[JvmWorker, Path]]:
    require_toolchain()
    require_bwrap()
    work = tmp_path_factory.mktemp("scratch")
    text = (
        HOSTILE.replace("HOME_NAME", f"oracular-probe-{MARK}.txt")
        .replace("OUTSIDE", str(outside / "written.txt"))
        .replace("VICTIM", str(outside / "victim.txt"))
        .replace("PORT", str(listener.getsockname()[1]))
        .replace("SLEEP", SLEEP)
    )
    source = work / "src" / "hostile" / "HostileTest.java"
    source.parent.mkdir(parents=True)
    source.write_text(text, encoding="utf-8")
    worker = JvmWorker(
        find_toolchain(), cwd=module, heap="256m", writable=(work,), sandbox=SandboxSettings("require")
    )
    compiled = worker.compile([source], work / "classes", list(worker.toolchain.platform))
    assert compiled.ok, compiled.diagnostics
    yield worker, work / "classes"
    worker.close()


def run(hostile: tuple[JvmWorker, Path], method: str, timeout_s: float = 2.0) -> TestOutcome:
    """``method``'s outcome; then the helper (restarted if it had to be) still passes a test."""
    worker, classes = hostile
    result: RunResult = worker.run([classes], [TestRef("hostile.HostileTest", method, timeout_s)])
    outcome = result.outcomes[("hostile.HostileTest", method)]
    after = worker.run([classes], [TestRef("hostile.HostileTest", "passes")])
    assert after.outcomes[("hostile.HostileTest", "passes")].status == "passed", after
    return outcome


def sleepers() -> list[int]:
    """Processes running the tests' ``sleep``, anywhere on the machine."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                command = Path(entry.path, "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if command[:2] == [b"sleep", SLEEP.encode()]:
                found.append(int(entry.name))
    return found


def test_a_write_to_home_stays_in_the_sandbox(hostile) -> None:
    outcome = run(hostile, "writesHome")
    assert outcome.status == "failed" and "Read-only file system" in outcome.message
    assert not (Path.home() / f"oracular-probe-{MARK}.txt").exists()


def test_a_write_to_an_absolute_path_stays_in_the_sandbox(hostile, outside: Path) -> None:
    assert run(hostile, "writesAbsolute").status == "failed"
    assert not (outside / "written.txt").exists()


def test_a_file_outside_the_scratch_copy_cannot_be_deleted(hostile, outside: Path) -> None:
    (outside / "victim.txt").write_text("keep me", encoding="utf-8")
    assert run(hostile, "deletes").status == "failed"
    assert (outside / "victim.txt").read_text(encoding="utf-8") == "keep me"


def test_a_test_writes_into_its_working_directory_not_into_the_project(hostile, module: Path) -> None:
    """Tests that make folders in the module root (tomcat9's ``output/tmp``) run: the working
    directory is a writable mirror of it, and what they write stays there."""
    assert run(hostile, "writesWorkingDirectory").status == "passed"
    assert sorted(p.relative_to(module).as_posix() for p in module.rglob("*") if "src" not in p.parts) == [
        "pom.xml", "target", "target/classes", "target/classes/Kept.class",
    ]  # fmt: skip


def test_a_maven_module_not_built_has_its_test_resources_in_target(hostile, module: Path) -> None:
    """Read by relative path where ``process-test-resources`` copies them (java-diff-utils'
    ``target/test-classes/mocks/...``), without a build and without writing to the project."""
    assert run(hostile, "readsBuiltResource").status == "passed"
    assert not (module / "target" / "test-classes").exists()


def test_the_projects_own_files_stay_read_only(hostile, module: Path) -> None:
    rewrite, delete = run(hostile, "rewritesProjectFile"), run(hostile, "deletesProjectFile")
    assert rewrite.status == "failed" and "Read-only file system" in rewrite.message
    assert delete.status == "failed"
    assert (module / "pom.xml").read_text(encoding="utf-8") == "<project/>"
    assert (module / "target" / "classes" / "Kept.class").read_bytes() == b"kept"


def test_a_build_folder_made_after_the_helper_started_is_seen(tmp_path: Path) -> None:
    """The mirror shows the module root as it was at the helper's start; classes a build puts
    in a new ``target/classes`` since must still be found (the helper restarts for them)."""
    require_toolchain()
    require_bwrap()
    root, work = tmp_path / "module", tmp_path / "work"
    (root / "src").mkdir(parents=True)
    source = work / "src" / "demo" / "LaterTest.java"
    source.parent.mkdir(parents=True)
    source.write_text(
        "package demo;\nclass LaterTest {\n  @org.junit.jupiter.api.Test void runs() { }\n}\n",
        encoding="utf-8",
    )
    with JvmWorker(find_toolchain(), cwd=root, writable=(work,), sandbox=SandboxSettings("require")) as jvm:
        assert jvm.ping()
        classes = root / "target" / "classes"
        assert jvm.compile([source], work / "classes", list(jvm.toolchain.platform)).ok
        shutil.copytree(work / "classes", classes)  # as a build would, while the helper runs
        result = jvm.run([classes], [TestRef("demo.LaterTest", "runs")])
        assert result.outcomes[("demo.LaterTest", "runs")].status == "passed", result


def test_what_the_mirror_shows_keys_remembered_runs(tmp_path: Path) -> None:
    """A run remembered before a build made ``target/test-classes`` (or before its resources stood
    in there) read another working directory: it is not reused."""
    require_toolchain()
    require_bwrap()
    (tmp_path / "pom.xml").write_text("<project/>", encoding="utf-8")
    test = tmp_path / "src" / "test" / "java" / "T.java"
    test.parent.mkdir(parents=True)
    test.write_text("class T {}", encoding="utf-8")
    worker = JvmWorker(find_toolchain(), cwd=tmp_path, sandbox=SandboxSettings("require"))
    settings = CheckSettings(
        sandbox=SandboxSettings("require"),
        classpath=ClasspathSettings(use_build_tools=False),
        use_cache=False,
    )
    checker = OracleChecker(settings)  # the evaluation's remembered runs are keyed alike
    before, key = worker.environment, checker.runs_key(test)
    assert worker.environment == before and checker.runs_key(test) == key
    (tmp_path / "src" / "test" / "resources").mkdir(parents=True)
    assert worker.environment != before
    assert checker.runs_key(test) != key
    checker.close()


def test_no_connection_leaves_the_sandbox(hostile, listener: socket.socket) -> None:
    outcome = run(hostile, "connects")
    assert outcome.status == "failed" and outcome.exception.startswith("java.net.")
    with pytest.raises(TimeoutError):
        listener.accept()


@pytest.mark.parametrize("method", ["exits", "halts"])
def test_ending_the_jvm_is_refused_or_survived(hostile, method: str) -> None:
    # JDK 17 to 23 refuse it (SecurityException); newer ones end the helper, which restarts.
    assert run(hostile, method).status in ("failed", "crashed")


def test_an_endless_loop_is_stopped_at_its_time_limit(hostile) -> None:
    assert run(hostile, "loops", timeout_s=1.0).status in ("timeout", "crashed")


def test_unbounded_allocation_ends_in_the_test(hostile) -> None:
    outcome = run(hostile, "allocates", timeout_s=20.0)
    assert outcome.status in ("failed", "crashed"), outcome


def assert_no_sleepers_left() -> None:
    deadline = time.monotonic() + 5
    while sleepers() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sleepers() == []


def test_processes_a_test_starts_do_not_outlive_its_run(hostile) -> None:
    assert run(hostile, "forks").status == "passed"
    assert_no_sleepers_left()


def test_a_fork_without_end_meets_the_process_cap(hostile) -> None:
    worker, _ = hostile
    worker.ping()
    if "pids by cgroup" not in worker.describe() and os.geteuid() == 0:
        pytest.skip(f"no process cap for root without a cgroup here ({worker.describe()})")
    assert run(hostile, "forksWithoutEnd", timeout_s=60.0).status == "passed"  # it asserts the cap
    assert_no_sleepers_left()


def test_a_thread_that_never_ends_is_stopped_or_the_helper_restarts(hostile) -> None:
    worker, _ = hostile
    assert run(hostile, "spins").status == "passed"
    assert run(hostile, "noSpinnerLeft").status == "passed"
    assert worker.alive


def test_the_helper_outlives_the_thread_that_started_it(hostile) -> None:
    """bwrap dies with the *thread* that forked it (``PR_SET_PDEATHSIG``); ``eval --mutants``
    starts its helpers from pool threads that end with each phase."""
    worker, _ = hostile
    worker.close()
    starter = threading.Thread(target=worker.ping)
    starter.start()
    starter.join()
    starts = worker.starts
    time.sleep(0.5)
    assert worker.alive
    assert run(hostile, "passes").status == "passed"
    assert worker.starts == starts


def test_megabytes_on_stdout_neither_forge_nor_flood_the_answers(hostile) -> None:
    outcome = run(hostile, "floods", timeout_s=20.0)
    assert outcome.status == "passed"  # the forged RESULT line went to no one


PROBE = """package p;

import org.junit.Test;

public class BoxTest {
    @Test
    public void testHome() throws Exception {
        String home = System.getProperty("user.home");
        java.nio.file.Files.writeString(java.nio.file.Path.of(home, "HOME_NAME"), "x");
        Box b = new Box();
        b.put(3);
    }

    @Test
    public void testAbsolute() throws Exception {
        java.nio.file.Files.writeString(java.nio.file.Path.of("OUTSIDE"), "x");
        Box b = new Box();
        b.put(4);
    }

    @Test
    public void testSocket() throws Exception {
        new java.net.Socket("127.0.0.1", PORT).close();
        Box b = new Box();
        b.put(5);
    }

    @Test
    public void testPut() {
        Box b = new Box();
        b.put(6);
    }
}
"""
BOX = """package p;

public class Box {
    private int value;

    public void put(int value) {
        this.value = value;
    }

    public int get() {
        return value;
    }
}
"""


def test_the_cli_probe_leaves_nothing_outside(
    tmp_path: Path, outside: Path, listener: socket.socket, capsys
) -> None:
    """The issue's probe, through ``oracular suggest`` in its default (observing) mode, on a
    project with no build file: the three prefixes are contained, the fourth is observed."""
    require_toolchain()
    require_bwrap()
    (tmp_path / "src/main/java/p").mkdir(parents=True)
    (tmp_path / "src/main/java/p/Box.java").write_text(BOX, encoding="utf-8")
    test = tmp_path / "src/test/java/p/BoxTest.java"
    test.parent.mkdir(parents=True)
    test.write_text(
        PROBE.replace("HOME_NAME", f"oracular-probe-{MARK}-cli.txt")
        .replace("OUTSIDE", str(outside / "cli.txt"))
        .replace("PORT", str(listener.getsockname()[1])),
        encoding="utf-8",
    )
    assert main(["suggest", str(test), "--sandbox", "require"]) == 0
    out = capsys.readouterr().out
    assert "assertEquals(6, b.get());  · holds now (observed)" in out
    assert out.rstrip().endswith("in a sandbox")
    assert not (Path.home() / f"oracular-probe-{MARK}-cli.txt").exists()
    assert not (outside / "cli.txt").exists()
    with pytest.raises(TimeoutError):
        listener.accept()
