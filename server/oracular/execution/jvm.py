"""The warm helper JVMs that compile and run scratch tests, and the line protocol they speak.

Why a helper JVM instead of ``javac`` + ``java`` per check: a cold ``javac`` alone takes longer
than the whole check budget of an editor, while javac's API in a JVM that already compiled
something is several times faster. So a :class:`JvmWorker` owns one long-lived helper
(``java/oracular/exec/Runner.java``, compiled once into the cache by
:mod:`oracular.execution.toolchain`) and sends it COMPILE and RUN requests over a line protocol.
Tests run through the JUnit Platform launcher (Jupiter and Vintage engines), so JUnit 5, 4 and 3
classes all run in the same helper.

Every request is bounded: a deadline, a ``cancelled`` callable polled while waiting, and a
per-test time limit the helper enforces itself. A request that overruns, is cancelled or finds
the helper dead kills it; the next request starts a fresh one.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from oracular.execution.sandbox import Confinement, SandboxSettings, confine, will_sandbox
from oracular.execution.toolchain import Toolchain
from oracular.execution.workdir import plan

Cancelled = Callable[[], bool]


class CheckCancelled(Exception):
    """The caller no longer wants the answer; the helper JVM was stopped."""


class HelperFailed(RuntimeError):
    """The helper JVM died or broke the protocol outside any test."""


# -- protocol values --------------------------------------------------------------------------
def unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append({"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    column: int
    message: str

    def short(self) -> str:
        """The first line, plus the symbol javac could not find (``cannot find symbol: method f()``)."""
        lines = [line.strip() for line in self.message.strip().splitlines()]
        if not lines:
            return "error"
        symbol = next(
            (line.split(":", 1)[1].strip() for line in lines[1:] if line.startswith("symbol:")), None
        )
        return f"{lines[0]}: {' '.join(symbol.split())}" if symbol else lines[0]


@dataclass(frozen=True)
class CompileResult:
    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    elapsed_s: float


NOT_RUN = "not run"
"""The message of a test the helper never answered for, where nothing says why."""
STATUS_ORDER = ("passed", "skipped", "notfound", "aborted", "failed", "timeout", "crashed", "notrun")
"""Worst last: a parameterized test's invocations are merged into their worst outcome."""


@dataclass(frozen=True)
class TestOutcome:
    __test__ = False  # not a pytest test class

    status: str
    """passed, failed, aborted, skipped, timeout, notfound, crashed or notrun."""
    elapsed_ms: float = 0.0
    exception: str = ""
    message: str = ""
    actual: str | None = None
    """The observed value the assertion error recorded (opentest4j/ComparisonFailure), if any."""
    trace: str = ""

    def to_json(self) -> dict:
        return {
            k: getattr(self, k) for k in ("status", "elapsed_ms", "exception", "message", "actual", "trace")
        }

    @classmethod
    def from_json(cls, data: dict) -> TestOutcome:
        return cls(**data)


@dataclass(frozen=True)
class Observation:
    kind: str
    """``boolean``, ``literal``, ``string``, ``array``, ``null``, ``object`` or ``thrown``."""
    type: str
    payload: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "type": self.type, "payload": self.payload}


@dataclass
class RunResult:
    outcomes: dict[tuple[str, str], TestOutcome] = field(default_factory=dict)
    observations: dict[str, Observation] = field(default_factory=dict)
    ancestors: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A thrown class (binary name) -> its superclasses, nearest first, ``java.lang.Object`` left out."""
    errors: list[str] = field(default_factory=list)
    class_failures: dict[str, str] = field(default_factory=dict)
    """A test class (binary name) that failed around its tests -> what it threw (``Type: message``):
    why the tests JUnit never ran did not run."""
    crashed: str | None = None
    elapsed_s: float = 0.0


@dataclass(frozen=True)
class TestRef:
    __test__ = False

    class_name: str
    """Binary name: ``pkg.Outer$Inner``."""
    method: str
    timeout_s: float | None = None
    run_on: str | None = None
    """The concrete subclass to run an abstract class's test on (binary name); results still
    come back under :attr:`class_name`."""


def _worse(a: TestOutcome | None, b: TestOutcome) -> TestOutcome:
    if a is None:
        return b
    return b if STATUS_ORDER.index(b.status) > STATUS_ORDER.index(a.status) else a


# -- the worker -------------------------------------------------------------------------------
def _bounded_lines(stream: IO[str], limit: int) -> Iterator[str]:
    """``stream``'s lines without their ends, each read at most ``limit`` characters at a time:
    an endless line from a test costs no memory, it is skipped."""
    while line := stream.readline(limit):
        if line.endswith("\n"):
            yield line.rstrip("\n")
            continue
        if len(line) < limit:  # the last line, without an end
            yield line
            return
        while (rest := stream.readline(limit)) and not rest.endswith("\n"):
            pass


def _run_request(classpath: Sequence[Path], tests: Sequence[TestRef], default_timeout_s: float) -> list[str]:
    """A RUN request's lines: each test with its own limit (ms) and the subclass to run it on."""
    request = ["RUN", f"TIMEOUT {int(default_timeout_s * 1000)}"]
    request += [f"CP {p}" for p in classpath]
    for t in tests:
        limit = f"\t{int((t.timeout_s or default_timeout_s) * 1000)}"
        on = f"\t{t.run_on}" if t.run_on else ""
        request.append(f"TEST {t.class_name}\t{t.method}{limit}{on}")
    return [*request, "END"]


PROTOCOL_TAGS = frozenset({"READY", "PONG", "DIAG", "COMPILED", "RESULT", "OBS", "ANC", "CLASS", "ERROR",
                           "CRASH", "DIRTY", "CPU", "DONE"})  # fmt: skip
JVM_RESERVATIONS = ("-XX:ReservedCodeCacheSize=128m", "-XX:CompressedClassSpaceSize=256m",
                    "-XX:MaxDirectMemorySize=256m")  # fmt: skip
"""Virtual memory the JVM reserves beyond its heap, kept small so that an address-space cap (the
sandbox's fallback where no memory cgroup can be made) leaves the heap its room."""


OPENS = ("--add-opens=java.base/java.lang=ALL-UNNAMED",)
"""Packages the user's code may reach into by reflection, as JDK 17 builds open them to their tests
(a surefire ``argLine``): older bytecode libraries define classes through ``ClassLoader``'s
protected ``defineClass``, which JDK 17 refuses otherwise. cglib's ``Enhancer`` failed to
initialise, and its prefixes ran for 6 of 19 train tests; 18 with ``java.lang`` open."""
FIXED_OPTIONS = (*JVM_RESERVATIONS, *OPENS)


CANCEL_GRACE_S = 1.0
"""How long a cancelled request may still finish before the helper is killed. Most do (a javac of
the scratch class, a run of short prefixes), and a kept helper is worth the wait: a new one costs a
JVM start and a cold javac, 2 to 3 s. Killing at once made the first edit after opening the
example wait 2.8 s for its observed values (its predecessor's check was cancelled mid-javac)."""


class JvmWorker:
    """One helper JVM, started on first use, restarted after a crash, a kill or ``max_runs`` runs.

    ``cwd`` is the tests' working directory (the module root, where tests expect relative
    paths such as ``src/test/resources`` to resolve), and the ``basedir`` system property, as
    Maven's surefire and Ant's junit task set it: xmlunit's tests find their files under
    ``System.getProperty("basedir")``. ``resources`` go on the helper's own
    classpath too, for tests that read them through ``ClassLoader.getSystemClassLoader()``
    (never class folders: a mutant's classes must not be shadowed by the system loader).
    One request at a time per worker.

    The helper runs the user's code, so it starts confined (:mod:`oracular.execution.sandbox`):
    ``writable`` are the only folders it may write, with a private temporary folder; it speaks
    the protocol on a pipe of its own, so what a test prints (even to the process's stdout)
    cannot pass for an answer, and it is restarted when a run leaves threads behind or its CPU
    time nears the cap.
    """

    def __init__(
        self,
        toolchain: Toolchain,
        cwd: Path | None = None,
        heap: str = "1g",
        max_runs: int = 400,
        jvm_options: Sequence[str] = (),
        resources: Sequence[Path] = (),
        writable: Sequence[Path] = (),
        sandbox: SandboxSettings | None = None,
    ) -> None:
        self.toolchain = toolchain
        self.cwd = cwd
        self.resources = tuple(resources)
        self.heap = heap
        self.max_runs = max_runs
        self.jvm_options = tuple(jvm_options)
        self.writable = tuple(writable)
        self.sandbox = sandbox or SandboxSettings()
        self.sandboxed = will_sandbox(self.sandbox)
        self._proc: subprocess.Popen[str] | None = None
        self._confinement: Confinement | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=40)
        self._lock = threading.RLock()
        self._runs = 0
        self._recycle = False
        self.starts = 0

    @property
    def environment(self) -> str:
        """What a run depends on besides the classes it runs: the working directory (so the
        ``basedir`` property), the JVM's options (:data:`OPENS` too), and the sandbox (a test may
        write files), with what the working directory's mirror shows (a ``target/test-classes``
        standing in for a build's). A remembered result is valid only for the same: xmlunit's
        ``test_Constants`` falls back to another ``basedir`` when none is set, and its schema
        tests then see no ``tests/etc/Book.xsd``."""
        mirror = plan(self.cwd) if self.sandboxed and self.cwd is not None else None
        return repr((str(self.cwd or ""), self.heap, (*OPENS, *self.jvm_options), self.sandboxed, mirror))

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def describe(self) -> str:
        """How the helper is contained (for notes and logs)."""
        if self._confinement is not None:
            return self._confinement.describe()
        return "bubblewrap sandbox" if self.sandboxed else "no sandbox"

    def start(self, timeout_s: float = 60.0) -> None:
        with self._lock:
            if self.alive:
                return
            self.kill()
            tmpdir = Path(tempfile.mkdtemp(prefix="oracular-jvm-"))
            confinement = confine(self.sandbox, self.writable, tmpdir, self.cwd)
            read_end, write_end = os.pipe()
            command = [
                str(self.toolchain.java),
                f"-Xmx{self.heap}",
                "-Xss4m",
                "-XX:+UseSerialGC",
                "-XX:-UsePerfData",
                *FIXED_OPTIONS,
                "-Djava.awt.headless=true",
                "-Duser.language=en",
                f"-Djava.io.tmpdir={tmpdir}",
                f"-Doracular.protocol=/dev/fd/{write_end}",
                *self.toolchain.security_manager_options,
                *([f"-Dbasedir={self.cwd}"] if self.cwd else []),
                *self.jvm_options,
                "-cp",
                os.pathsep.join([self.toolchain.launcher_classpath, *map(str, self.resources)]),
                "oracular.exec.Runner",
            ]
            try:
                self._proc = confinement.spawn(
                    command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    pass_fds=(write_end,),
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                    bufsize=1,
                    cwd=str(self.cwd) if self.cwd else None,
                    start_new_session=True,
                )
            except OSError as exc:
                os.close(read_end)
                confinement.release()
                raise HelperFailed(f"the helper JVM could not start: {exc}") from exc
            finally:
                os.close(write_end)
            self._confinement = confinement
            self._lines = queue.Queue()
            self._runs = 0
            self._recycle = False
            self.starts += 1
            proc, limit = self._proc, confinement.settings.limits.output_kb * 1024
            protocol = open(read_end, encoding="utf-8", errors="replace")  # noqa: SIM115 (the pump closes it)
            threading.Thread(target=self._pump, args=(protocol, self._lines, limit), daemon=True).start()
            threading.Thread(target=self._drain_stderr, args=(proc, limit), daemon=True).start()
            for line in self._read(time.monotonic() + timeout_s, None):
                if line.startswith("READY"):
                    return
            raise HelperFailed(f"the helper JVM did not start: {self.stderr_tail()}")

    @staticmethod
    def _pump(stream: IO[str], lines: queue.Queue[str | None], limit: int) -> None:
        """Protocol lines into ``lines``; a line longer than ``limit`` is dropped unread."""
        with stream:
            for line in _bounded_lines(stream, limit):
                if line.split("\t", 1)[0] in PROTOCOL_TAGS:
                    lines.put(line)
        lines.put(None)

    def _drain_stderr(self, proc: subprocess.Popen[str], limit: int) -> None:
        assert proc.stderr is not None
        for line in _bounded_lines(proc.stderr, limit):
            if not line.startswith("WARNING:"):
                self._stderr.append(line[:500])

    def stderr_tail(self) -> str:
        return " | ".join(list(self._stderr)[-5:]) or "no output"

    def kill(self) -> None:
        proc, self._proc = self._proc, None
        confinement, self._confinement = self._confinement, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            for stream in (proc.stdin, proc.stderr):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
        if confinement is not None:
            confinement.release()

    def close(self) -> None:
        with self._lock:
            if self.alive and self._proc is not None and self._proc.stdin is not None:
                try:
                    self._proc.stdin.write("QUIT\n")
                    self._proc.stdin.flush()
                    self._proc.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            self.kill()

    def __enter__(self) -> JvmWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- protocol ----------------------------------------------------------------------------
    def _send(self, lines: Iterable[str]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        payload = "".join(f"{line}\n" for line in lines)
        try:
            self._proc.stdin.write(payload)
            self._proc.stdin.flush()
        except OSError as exc:
            self.kill()
            raise HelperFailed(f"the helper JVM is gone: {self.stderr_tail()}") from exc

    def _read(self, deadline: float, cancelled: Cancelled | None) -> Iterator[str]:
        """Lines until EOF, or until the deadline (the helper is killed: :class:`TimeoutError`).

        Once ``cancelled``, the request may still finish within :data:`CANCEL_GRACE_S` (see
        :meth:`_until`); past that the helper is killed and :class:`CheckCancelled` raised.
        """
        cancelled_at: float | None = None
        while True:
            if cancelled_at is None and cancelled is not None and cancelled():
                cancelled_at = time.monotonic()
                deadline = min(deadline, cancelled_at + CANCEL_GRACE_S)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                if cancelled_at is not None:
                    raise CheckCancelled
                raise TimeoutError("the helper JVM did not answer in time")
            try:
                line = self._lines.get(timeout=min(0.05, remaining))
            except queue.Empty:
                continue
            if line is None:
                return
            yield line

    def ping(self, timeout_s: float = 30.0) -> bool:
        """Start the helper if needed and wait until it answers (warms it for the first check)."""
        with self._lock:
            self.start()
            self._send(["PING"])
            return any(line == "PONG" for line in self._until("PONG", time.monotonic() + timeout_s, None))

    def _start_clean(self) -> None:
        """Start the helper, or restart it when it is due: after ``max_runs`` runs (class loaders
        leak through static JDK state), threads a test left running, CPU time near its cap, or a
        working directory changed under its mirror (a build made ``target/classes``).
        Before a compile as before a run: javac then never runs beside what a test left behind."""
        stale = self._confinement is not None and self._confinement.stale()
        if self._runs >= self.max_runs or self._recycle or stale:
            self.close()
        self.start()

    def _until(self, terminal: str, deadline: float, cancelled: Cancelled | None) -> Iterator[str]:
        """The answer's lines up to ``terminal``; :class:`CheckCancelled` instead of the terminal
        line when ``cancelled`` (the helper finished within the grace: it is idle and kept)."""
        for line in self._read(deadline, cancelled):
            if line.split("\t", 1)[0] == terminal:
                if cancelled is not None and cancelled():
                    raise CheckCancelled
                yield line
                return
            yield line

    def compile(
        self,
        sources: Sequence[Path],
        out_dir: Path,
        classpath: Sequence[Path],
        sourcepath: Sequence[Path] = (),
        options: Sequence[str] = ("-proc:none", "-nowarn", "-g", "-encoding", "UTF-8", "-implicit:class"),
        timeout_s: float = 300.0,
        cancelled: Cancelled | None = None,
    ) -> CompileResult:
        """Compile ``sources`` into ``out_dir`` with javac's API inside the helper."""
        start = time.monotonic()
        with self._lock:
            self._start_clean()
            request = ["COMPILE", f"OUT {out_dir}"]
            request += [f"CP {p}" for p in classpath]
            request += [f"SP {p}" for p in sourcepath]
            request += [f"OPT {o}" for o in options]
            request += [f"SRC {s}" for s in sources]
            self._send([*request, "END"])
            diagnostics: list[Diagnostic] = []
            ok = None
            for line in self._until("COMPILED", start + timeout_s, cancelled):
                parts = line.split("\t")
                if parts[0] == "DIAG" and len(parts) >= 6:
                    diagnostics.append(
                        Diagnostic(unescape(parts[4]), int(parts[2]), int(parts[3]), unescape(parts[5]))
                    )
                elif parts[0] == "COMPILED":
                    ok = parts[1] == "1"
            if ok is None:
                self.kill()
                raise HelperFailed(f"the helper JVM died while compiling: {self.stderr_tail()}")
            return CompileResult(ok, tuple(diagnostics), time.monotonic() - start)

    def run(
        self,
        classpath: Sequence[Path],
        tests: Sequence[TestRef],
        default_timeout_s: float = 10.0,
        cancelled: Cancelled | None = None,
    ) -> RunResult:
        """Run ``tests`` in a fresh class loader over ``classpath``; never raises for a test's sake.

        A test that overruns its limit is reported as ``timeout``; if it kills or wedges the
        helper, the tests after it are ``crashed`` (the caller may re-run them), and the helper
        is restarted by the next request. ``notrun`` is for tests the helper never answered for.
        """
        start = time.monotonic()
        result = RunResult()
        if not tests:
            return result
        budget = sum((t.timeout_s or default_timeout_s) for t in tests) + 30.0
        with self._lock:
            self._start_clean()
            self._runs += 1
            self._send(_run_request(classpath, tests, default_timeout_s))
            done = False
            try:
                for line in self._until("DONE", start + budget, cancelled):
                    done = self._take(line.split("\t"), result) or done
            except TimeoutError:
                result.crashed = "the run overran its time budget"
            if not done:
                result.crashed = result.crashed or f"the helper JVM died: {self.stderr_tail()}"
                self.kill()
            for t in tests:
                key = (t.class_name, t.method)
                if key not in result.outcomes:
                    status = "crashed" if not done else "notrun"
                    failure = result.class_failures.get(t.class_name)
                    why = f"its class failed before it ran: {failure}" if failure else NOT_RUN
                    result.outcomes[key] = TestOutcome(status, message=result.crashed or why)
            result.elapsed_s = time.monotonic() - start
            return result

    def _take(self, parts: list[str], result: RunResult) -> bool:
        """One line of a run's answer into ``result``; true for DONE. A DIRTY line (threads a test
        left running) or CPU time past the sandbox's budget marks the helper for a restart."""
        tag = parts[0]
        if tag == "RESULT" and len(parts) >= 9:
            key = (parts[1], parts[2])
            outcome = TestOutcome(
                status=parts[3].lower(),
                elapsed_ms=float(parts[4]),
                exception=unescape(parts[5]),
                message=unescape(parts[6]),
                actual=unescape(parts[7])[1:] if parts[7].startswith("=") else None,
                trace=unescape(parts[8]),
            )
            result.outcomes[key] = _worse(result.outcomes.get(key), outcome)
        elif tag == "OBS" and len(parts) >= 5:
            result.observations[unescape(parts[1])] = Observation(
                parts[2], unescape(parts[3]), unescape(parts[4])
            )
        elif tag == "ANC" and len(parts) >= 3:
            names = unescape(parts[2])
            result.ancestors[unescape(parts[1])] = tuple(names.split(",")) if names else ()
        elif tag == "CLASS" and len(parts) >= 4:
            result.class_failures[parts[1]] = f"{unescape(parts[2]).rsplit('.', 1)[-1]}: {unescape(parts[3])}"
        elif tag == "ERROR":
            result.errors.append(unescape("\t".join(parts[1:])))
        elif tag == "CRASH":
            result.crashed = unescape("\t".join(parts[1:]))
        elif tag == "DIRTY":
            self._recycle = True
            result.errors.append(unescape("\t".join(parts[1:])))
        elif tag == "CPU" and len(parts) >= 2:
            limits = self.sandbox.limits
            self._recycle = self._recycle or float(parts[1]) / 1000 > limits.cpu_budget_s
        elif tag == "DONE":
            return True
        return False
