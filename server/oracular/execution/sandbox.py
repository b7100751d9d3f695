"""Containing the user's code: the helper JVM that runs it starts inside a sandbox.

Why: observation runs a half-typed test's prefix on every debounced edit, and ``--check`` and
``eval --mutants`` run whole test classes. A scratch copy protects the user's sources, not their
disk, network or machine: a prefix can delete a folder, send mail or fork without end. So on Linux
each helper JVM (:class:`~oracular.execution.jvm.JvmWorker`, the one code path of every run of
user code) starts under Bubblewrap (``bwrap``):

- the whole file system read-only, but the folders the helper writes (scratch classes, project
  classes compiled on demand), a private temporary folder (``java.io.tmpdir``, ``TMPDIR``) and
  a writable mirror of the working directory (:mod:`oracular.execution.workdir`);
- no network (a new, empty network namespace), its own PID namespace (whatever it forks dies with
  it), its own IPC and host name, a new session (no terminal to type into); it dies with Oracular
  (:func:`spawn`);
- caps on the whole process tree: memory and processes in a cgroup where one can be made (root,
  or a delegated cgroup), else by rlimit (address space; processes for a user other than root);
  CPU time, file size and core dumps by rlimit, whatever else is there.

Where bwrap is missing or cannot make namespaces (macOS, Windows, a container without user
namespaces), :class:`SandboxSettings` decides: ``prefer`` (the default) runs without it and says so,
``require`` refuses to run code, ``off`` never tries. ``docs/execution.md`` says what is and is
not contained.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import resource
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal

from oracular.execution.workdir import MirroredRoot, mirror_root

SandboxMode = Literal["require", "prefer", "off"]
SANDBOX_MODES: tuple[SandboxMode, ...] = ("require", "prefer", "off")
INSTALL_HINT = "apt-get install bubblewrap"
NAMESPACES = ("--unshare-all", "--die-with-parent", "--new-session")
"""User, PID, network, IPC, UTS and cgroup namespaces (no ``--share-net``: no network at all)."""


class SandboxRefused(RuntimeError):
    """``sandbox: require`` and no sandbox here: no code is run."""


@dataclass(frozen=True)
class Limits:
    """Caps on one helper JVM and everything it starts."""

    memory_mb: int = 4096
    """The process tree's memory (cgroup), else each process's address space (rlimit); the heap
    itself is the helper's ``-Xmx``."""
    processes: int = 512
    """Tasks, threads included (a JVM running javac has about 40)."""
    cpu_s: int = 3600
    """CPU seconds over the helper's life; the worker restarts it well before (``cpu_budget_s``)."""
    file_mb: int = 512
    """The largest file the tests may write (scratch, temporary files)."""
    output_kb: int = 1024
    """The longest line read back from the helper; longer ones (a test writing to the process's
    own stdout) are dropped unread."""

    @property
    def cpu_budget_s(self) -> float:
        """CPU time after which the worker recycles the helper between runs, before the rlimit."""
        return self.cpu_s / 2


@dataclass(frozen=True)
class SandboxSettings:
    """The ``sandbox`` setting (editor and CLI) and the caps."""

    mode: SandboxMode = "prefer"
    limits: Limits = field(default_factory=Limits)


@cache
def bwrap_problem() -> str | None:
    """Why Bubblewrap cannot contain a process here, or ``None`` when it can (probed once)."""
    if not sys.platform.startswith("linux"):
        return f"no sandbox on {sys.platform}: Bubblewrap runs on Linux only"
    exe = shutil.which("bwrap")
    if exe is None:
        return f"bwrap not found ({INSTALL_HINT})"
    try:
        probe = subprocess.run(
            [exe, *NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"],
            capture_output=True, text=True, timeout=20,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap does not run here: {exc}"
    if probe.returncode != 0:
        first = next(iter(probe.stderr.strip().splitlines()), f"exit status {probe.returncode}")
        return f"bwrap cannot make namespaces here ({first}): user namespaces may be disabled"
    return None


def availability(mode: SandboxMode) -> str:
    """One line for the user: how code is run under ``mode`` on this machine."""
    if mode == "off":
        return "user code runs without a sandbox (sandbox: off)"
    problem = bwrap_problem()
    if problem is None:
        return "user code runs in a sandbox (bubblewrap: read-only file system, no network)"
    if mode == "require":
        return f"user code is not run: sandbox: require, and {problem}"
    return f"user code runs without a sandbox: {problem}"


# -- cgroups ----------------------------------------------------------------------------------
_names = itertools.count()


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, super options) of each cgroup mount."""
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) > 4 and len(tail) > 2 and tail[0] in ("cgroup", "cgroup2"):
                found.append((fields[4], tail[0], set(tail[2].split(","))))
    return found


def _own_paths() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and under ``""`` its cgroup v2 path."""
    paths: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                paths[name] = path
    return paths


def _cap_files(limits: Limits) -> list[tuple[str, dict[str, str]]]:
    """Per controller, the files that cap it (v1 and v2 names) and their values."""
    memory = str(limits.memory_mb * 1024 * 1024)
    pids = str(limits.processes)
    return [
        ("pids", {"pids.max": pids}),
        ("memory", {"memory.limit_in_bytes": memory, "memory.max": memory, "memory.swap.max": "0"}),
    ]


@dataclass
class Cgroup:
    """Folders of a fresh cgroup per capped controller, made for one helper, removed after it."""

    folders: list[Path] = field(default_factory=list)
    controllers: list[str] = field(default_factory=list)

    @classmethod
    def make(cls, limits: Limits) -> Cgroup:
        """What this process may make: v1 ``pids``/``memory`` hierarchies, or a v2 child whose
        controllers are on; nothing (an empty cgroup) where neither is writable."""
        group = cls()
        own, mounts = _own_paths(), _mounts()
        name = f"oracular-{os.getpid()}-{next(_names)}"
        for controller, files in _cap_files(limits):
            for point, kind, options in mounts:
                if kind == "cgroup" and controller in options and controller in own:
                    base = Path(point) / own[controller].lstrip("/")
                elif kind == "cgroup2" and "" in own:
                    base = Path(point) / own[""].lstrip("/")
                else:
                    continue
                folder = base / name
                if group._cap(folder, files):
                    group.controllers.append(controller)
                    break
        return group

    def _cap(self, folder: Path, files: dict[str, str]) -> bool:
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            return False
        wrote = False
        for name, value in files.items():
            with contextlib.suppress(OSError), open(folder / name, "w", encoding="ascii") as handle:
                handle.write(value)
                wrote = wrote or name != "memory.swap.max"
        if wrote:
            self.folders.append(folder)
        else:  # a hierarchy without this controller (a v2 child whose parent has it off)
            with contextlib.suppress(OSError):
                folder.rmdir()
        return wrote

    def remove(self) -> None:
        for folder in self.folders:
            with contextlib.suppress(OSError):
                folder.rmdir()
        self.folders = []


# -- the confinement of one helper -------------------------------------------------------------
@dataclass
class Confinement:
    """How one helper process is started: the command around it, and what its child sets up."""

    settings: SandboxSettings
    writable: tuple[Path, ...]
    tmpdir: Path
    cwd: Path | None
    sandboxed: bool
    cgroup: Cgroup = field(default_factory=Cgroup)
    workdir: MirroredRoot | None = None
    """The working directory's writable mirror (:mod:`oracular.execution.workdir`), where it is
    not writable already."""

    def command(self, argv: Sequence[str]) -> list[str]:
        if not self.sandboxed:
            return list(argv)
        binds: list[str] = list(self.workdir.arguments) if self.workdir is not None else []
        for folder in (*self.writable, self.tmpdir):
            binds += ["--bind", str(folder), str(folder)]
        chdir = ["--chdir", str(self.cwd)] if self.cwd is not None else []
        return [
            "bwrap", *NAMESPACES,
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            *binds, *chdir,
            "--setenv", "TMPDIR", str(self.tmpdir), "--setenv", "MALLOC_ARENA_MAX", "2",
            "--", *argv,
        ]  # fmt: skip

    def spawn(self, argv: Sequence[str], **popen: object) -> subprocess.Popen[str]:
        """Start ``argv`` confined (:func:`spawn`); ``popen`` are :class:`subprocess.Popen`'s
        other arguments."""
        return spawn(self.command(argv), preexec_fn=self.preexec(), **popen)

    def describe(self) -> str:
        """What contains this helper, for logs and notes."""
        caps = ", ".join(f"{c} by cgroup" for c in self.cgroup.controllers) or "caps by rlimit"
        where = "bubblewrap sandbox" if self.sandboxed else "no sandbox"
        return f"{where} ({caps})"

    def preexec(self) -> Callable[[], None]:
        """Rlimits and the cgroup, set in the child between ``fork`` and ``exec`` (inherited by
        bwrap, the JVM and whatever the tests start). Everything is computed here, in the parent:
        the child only makes system calls."""
        limits, by_cgroup = self.settings.limits, set(self.cgroup.controllers)
        caps = [
            (resource.RLIMIT_CORE, 0),
            (resource.RLIMIT_CPU, limits.cpu_s),
            (resource.RLIMIT_FSIZE, limits.file_mb * 1024 * 1024),
        ]
        if "memory" not in by_cgroup:
            caps.append((resource.RLIMIT_AS, limits.memory_mb * 1024 * 1024))
        if "pids" not in by_cgroup and os.geteuid() != 0:  # the kernel does not count root's
            caps.append((resource.RLIMIT_NPROC, limits.processes + _user_tasks()))
        capped = []
        for which, value in caps:
            _, hard = resource.getrlimit(which)
            cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
            capped.append((which, (cap, cap)))
        folders = [(folder / "cgroup.procs").as_posix() for folder in self.cgroup.folders]

        def setup() -> None:
            pid = str(os.getpid()).encode()
            for procs in folders:
                with contextlib.suppress(OSError):
                    fd = os.open(procs, os.O_WRONLY)
                    os.write(fd, pid)
                    os.close(fd)
            for which, cap in capped:
                with contextlib.suppress(ValueError, OSError):
                    resource.setrlimit(which, cap)

        return setup

    def release(self) -> None:
        """After the helper is gone: its cgroup and temporary folder."""
        self.cgroup.remove()
        shutil.rmtree(self.tmpdir, ignore_errors=True)
        if self.workdir is not None:
            shutil.rmtree(self.workdir.scratch, ignore_errors=True)

    def stale(self) -> bool:
        """Whether the helper must restart to see its working directory as it is now."""
        return self.workdir is not None and self.workdir.stale()


class _Launcher:
    """One thread per process that lives as long as the process, and forks every helper.

    Why: bwrap's ``--die-with-parent`` is ``PR_SET_PDEATHSIG``, which fires when the *thread* that
    forked it ends, not the process. A helper started from a pool's thread (``eval --mutants``
    runs each phase on a fresh ``ThreadPoolExecutor``) was killed with SIGKILL when that thread
    finished, mid-compile or mid-run of the next phase's request ("the helper JVM died while
    compiling: no output"); so would any helper started from a thread that ends. Forking from a
    thread that never ends keeps the helper for as long as Oracular runs, and still kills it
    when Oracular dies. A forked child (``--jobs`` processes) gets a launcher of its own.
    """

    def __init__(self) -> None:
        self._pid = -1
        self._requests: queue.Queue[tuple[Callable[[], subprocess.Popen[str]], Future]] = queue.Queue()
        self._lock = threading.Lock()
        os.register_at_fork(after_in_child=self._forked)

    def _forked(self) -> None:
        """In a forked child the lock may have been held by a thread that is not there."""
        self._lock = threading.Lock()

    def run(self, start: Callable[[], subprocess.Popen[str]]) -> subprocess.Popen[str]:
        with self._lock:
            if self._pid != os.getpid():
                self._pid, self._requests = os.getpid(), queue.Queue()
                thread = threading.Thread(
                    target=self._serve, args=(self._requests,), name="oracular-helper-launcher", daemon=True
                )
                thread.start()
            done: Future[subprocess.Popen[str]] = Future()
            self._requests.put((start, done))
        return done.result()

    @staticmethod
    def _serve(requests: queue.Queue[tuple[Callable[[], subprocess.Popen[str]], Future]]) -> None:
        while True:
            start, done = requests.get()
            try:
                done.set_result(start())
            except BaseException as exc:  # handed to the caller, which raises it in its thread
                done.set_exception(exc)


_launcher = _Launcher()


def spawn(argv: Sequence[str], **popen: object) -> subprocess.Popen[str]:
    """``subprocess.Popen(argv, **popen)``, forked by the launcher thread (:class:`_Launcher`)."""
    return _launcher.run(lambda: subprocess.Popen(argv, **popen))  # type: ignore[call-overload]


def _user_tasks() -> int:
    """The tasks this user runs now: RLIMIT_NPROC counts them all, not only the helper's."""
    uid, count = os.getuid(), 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"{entry.path}/task"))
    return count


def sandboxed(mode: SandboxMode) -> bool:
    """Whether code runs in a sandbox under ``mode`` here."""
    return mode != "off" and bwrap_problem() is None


def will_sandbox(settings: SandboxSettings) -> bool:
    """:func:`sandboxed`, raising :class:`SandboxRefused` under ``require`` where none can run."""
    if settings.mode == "require" and not sandboxed("require"):
        raise SandboxRefused(availability("require"))
    return sandboxed(settings.mode)


def confine(
    settings: SandboxSettings, writable: Sequence[Path], tmpdir: Path, cwd: Path | None
) -> Confinement:
    """The confinement of a new helper (see :func:`will_sandbox` for ``require``). ``writable``
    folders are made if missing: bwrap binds folders that exist. In the sandbox the working
    directory ``cwd`` is a writable mirror of itself (:mod:`oracular.execution.workdir`)."""
    sandboxed = will_sandbox(settings)
    for folder in (*writable, tmpdir):
        folder.mkdir(parents=True, exist_ok=True)
    workdir = None
    if sandboxed and cwd is not None and not any(cwd.is_relative_to(f) for f in (*writable, tmpdir)):
        workdir = mirror_root(cwd)
    return Confinement(
        settings, tuple(writable), tmpdir, cwd, sandboxed, Cgroup.make(settings.limits), workdir
    )
