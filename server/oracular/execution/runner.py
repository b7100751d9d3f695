"""Compile a scratch class once and run its generated methods once: results by variant key.

Why this shape: each check is one ``javac`` and one JVM run however many candidates it has.
A variant that does not compile would fail the whole compilation, so the errors are mapped back
to the generated methods by line and those variants are left out of the next attempt (javac
reports all attribution errors of a file at once, so this converges in two or three rounds).
Errors outside any generated method mean the scratch copy itself cannot compile (a missing
jar, a broken helper class): every variant gets that reason, never a silent "fails".

Results are cached on disk by a content hash of everything that can change the answer: the
scratch text, the classpath entries and the project's sources (names, sizes, modification
times), the per-test time limit and the helper's version.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from oracular.cache import write_atomically
from oracular.execution.jvm import (
    Cancelled,
    CheckCancelled,
    CompileResult,
    Diagnostic,
    JvmWorker,
    Observation,
    TestOutcome,
    TestRef,
)
from oracular.execution.loaded_by_name import compile_loaded
from oracular.execution.pruning import Pruner
from oracular.execution.scratch import ScratchClass
from oracular.execution.source_mirrors import class_path_roots
from oracular.execution.stubs import signatures
from oracular.execution.toolchain import file_lock

MAX_COMPILE_ROUNDS = 4
MAX_PRUNE_ROUNDS = 10
"""Rounds that leave out members that do not compile here (:mod:`oracular.execution.pruning`):
an import first, then what used it, then what used that; or stub, one a round per class, the
methods its interface gained since (commons-dbcp's ``TesterConnection`` lacks five of JDBC 4.1's)."""
Locate = Callable[[ScratchClass, int], str | None]
"""Which key a compile error on a 1-based line of the scratch class belongs to."""
CACHE_VERSION = "6"
"""Part of every cached outcome's key: raised when what compiles changes with the same inputs
(the compile loop, :mod:`oracular.execution.pruning`'s rules and stubs, the source roots javac
reads: :mod:`oracular.execution.source_mirrors`)."""
MAX_CACHED_RESULTS = 4000
"""Past this many cached outcomes, the oldest half is deleted (an editor checks on every pause)."""
LINKAGE_ERRORS = frozenset(
    {
        "java.lang.NoSuchMethodError",
        "java.lang.NoSuchFieldError",
        "java.lang.NoClassDefFoundError",
        "java.lang.IncompatibleClassChangeError",
        "java.lang.AbstractMethodError",
        "java.lang.LinkageError",
    }
)
"""Errors that mean stale compiled classes, not the code under test: such outcomes are not cached."""


JAVAC_OPTIONS = ("-proc:none", "-nowarn", "-g", "-implicit:class")
FALLBACK_ENCODING = "ISO-8859-1"
"""Where a project declares no encoding and its sources are not UTF-8: every byte maps."""


def javac_options(encoding: str) -> tuple[str, ...]:
    return (*JAVAC_OPTIONS, "-encoding", encoding)


def java_ascii(text: str) -> str:
    """``text`` with every character beyond ASCII written as Java's ``\\uXXXX`` escape (UTF-16
    units), which javac reads in any source encoding: a scratch copy compiles beside project
    sources in theirs. Never a line break or a control character: only characters above 0x7F."""
    if text.isascii():
        return text
    return "".join(c if ord(c) < 0x80 else "".join(f"\\u{u:04x}" for u in _utf16_units(ord(c))) for c in text)


def _utf16_units(code: int) -> tuple[int, ...]:
    if code < 0x10000:
        return (code,)
    code -= 0x10000
    return (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))


@dataclass(frozen=True)
class CompileContext:
    """How scratch classes of one project compile and run."""

    classpath: tuple[Path, ...]
    """Dependency jars and class folders, in order, for javac and the test class loader."""
    sourcepath: tuple[Path, ...] = ()
    """Project source roots javac may compile on demand (when no fresh build output exists)."""
    deps_dir: Path | None = None
    """Where on-demand compiled project classes go; shared by all checks of a workspace."""
    runtime_extra: tuple[Path, ...] = ()
    """Run-time only entries: resource folders."""
    fingerprint: str = ""
    """Content fingerprint of the project (see :func:`tree_fingerprint`)."""
    encoding: str | None = None
    """The sources' encoding where the build declares it; ``None``: UTF-8, else ISO-8859-1."""
    overlay: tuple[Path, ...] = ()
    """Class folders that shadow the project's classes at run time (a mutant of a class, compiled
    alone: :mod:`oracular.mutation`); their content is in :attr:`fingerprint`."""
    packaged: tuple[Path, ...] = ()
    """The project's packaged build of its version (:attr:`Classpath.packaged`), after the
    classpath once its sources alone did not compile."""
    loaded_by_name: tuple[Path, ...] = ()
    """Main sources of the classes the code loads by name, compiled with those javac compiles on
    demand (:mod:`oracular.execution.loaded_by_name`)."""


def tree_fingerprint(paths: Iterable[Path], suffixes: tuple[str, ...] = (".java", ".class", ".jar")) -> str:
    """Names, sizes and modification times of every matching file under ``paths`` (every file,
    when ``suffixes`` is empty: a resource folder's data files matter too)."""
    digest = hashlib.sha256()
    for base in paths:
        if base.is_file():
            stat = base.stat()
            digest.update(f"{base}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                if not suffixes or name.endswith(suffixes):
                    path = os.path.join(dirpath, name)
                    try:
                        stat = os.stat(path)
                    except OSError:
                        continue
                    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


@dataclass
class ScratchOutcome:
    """What happened to each variant of a scratch class."""

    compile_errors: dict[str, str] = field(default_factory=dict)
    """Variant key -> the first javac error inside its method."""
    class_error: str | None = None
    """Why the scratch copy as a whole did not compile (every remaining variant is unchecked)."""
    results: dict[str, TestOutcome] = field(default_factory=dict)
    observations: dict[str, Observation] = field(default_factory=dict)
    ancestors: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Each thrown class's superclasses, nearest first (:attr:`RunResult.ancestors`)."""
    crashed: str | None = None
    compile_s: float = 0.0
    run_s: float = 0.0
    compile_rounds: int = 0
    left_out: list[str] = field(default_factory=list)
    """What of the test sources was left out for not compiling here (:mod:`oracular.execution.pruning`)."""
    cached: bool = False

    @property
    def stale(self) -> bool:
        return any(r.exception in LINKAGE_ERRORS for r in self.results.values())

    def to_json(self) -> dict:
        return {
            "compile_errors": self.compile_errors,
            "class_error": self.class_error,
            "results": {k: v.to_json() for k, v in self.results.items()},
            "observations": {k: v.to_json() for k, v in self.observations.items()},
            "ancestors": {k: list(v) for k, v in self.ancestors.items()},
            "crashed": self.crashed,
            "compile_s": self.compile_s,
            "run_s": self.run_s,
            "compile_rounds": self.compile_rounds,
            "left_out": self.left_out,
        }

    @classmethod
    def from_json(cls, data: dict) -> ScratchOutcome:
        return cls(
            compile_errors=dict(data["compile_errors"]),
            class_error=data["class_error"],
            results={k: TestOutcome.from_json(v) for k, v in data["results"].items()},
            observations={k: Observation(**v) for k, v in data["observations"].items()},
            ancestors={k: tuple(v) for k, v in data.get("ancestors", {}).items()},
            crashed=data["crashed"],
            compile_s=data["compile_s"],
            run_s=data["run_s"],
            compile_rounds=data["compile_rounds"],
            left_out=list(data.get("left_out", [])),
            cached=True,
        )


def _sorted_errors(
    result: CompileResult, scratch: ScratchClass, path: Path, locate: Locate
) -> tuple[dict[str, str], list[str]]:
    """javac's errors: the first of each generated method's (by variant key), and the others'."""
    newly: dict[str, str] = {}
    outside: list[str] = []
    for d in result.diagnostics:
        mine = d.file and Path(d.file).resolve() == path.resolve()
        variant = locate(scratch, d.line) if mine else None
        if variant is not None:
            newly.setdefault(variant, d.short())
        else:
            outside.append(_located(d, path))
    return newly, outside


def _located(diagnostic: Diagnostic, scratch_path: Path) -> str:
    """A javac error as a note names it: ``line 12: ...`` in the scratch copy, else its file's name."""
    if not diagnostic.file:
        return diagnostic.short()
    if Path(diagnostic.file).resolve() == scratch_path.resolve():
        return f"line {diagnostic.line}: {diagnostic.short()}"
    return f"{Path(diagnostic.file).name}:{diagnostic.line}: {diagnostic.short()}"


_dir_locks: dict[Path, threading.Lock] = {}
_dir_locks_guard = threading.Lock()


def _dir_lock(path: Path) -> threading.Lock:
    with _dir_locks_guard:
        return _dir_locks.setdefault(path, threading.Lock())


_not_utf8: set[Path | None] = set()
"""The on-demand class folders (so, projects) whose undeclared encoding turned out not to be UTF-8."""
_needs_packaged: set[Path | None] = set()
"""The on-demand class folders (so, projects) whose sources did not compile without their packaged build."""


def _classpath(context: CompileContext) -> tuple[Path, ...]:
    """The dependencies, and the packaged build where the project needed it."""
    packaged = context.packaged if context.deps_dir in _needs_packaged else ()
    return (*context.classpath, *packaged)


def _digest(parts: list[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


class ScratchRunner:
    """Compiles and runs scratch classes in one helper JVM, caching outcomes by content hash."""

    def __init__(self, worker: JvmWorker, work_dir: Path, use_cache: bool = True) -> None:
        self.worker = worker
        self.work_dir = work_dir
        self.use_cache = use_cache

    def context_key(self, context: CompileContext, timeout_s: float, timeouts: dict[str, float]) -> str:
        """What a run's outcome depends on besides its scratch class: the helper, where and how it
        runs, the project's code and classpath, the time limits."""
        # The helper's folder is named by a hash of its sources, the JDK and the JUnit jars.
        # The run's working directory and JVM options (basedir) too: a test may read them.
        parts = [CACHE_VERSION, str(self.worker.toolchain.helper), self.worker.environment,
                 context.fingerprint, str(context.encoding), str(timeout_s), repr(sorted(timeouts.items())),
                 *map(str, context.classpath), *map(str, context.sourcepath),
                 *map(str, context.runtime_extra), *map(str, context.packaged),
                 *map(str, context.loaded_by_name)]  # fmt: skip
        return _digest(parts)

    def cache_key(
        self, scratch: ScratchClass, context: CompileContext, timeout_s: float, timeouts: dict[str, float]
    ) -> str:
        # A companion subclass's source is in the project's fingerprint: its path says which.
        return _digest([self.context_key(context, timeout_s, timeouts), str(scratch.relative_path),
                        scratch.text, *(str(c.path) for c in scratch.companions)])  # fmt: skip

    def run(
        self,
        build: Callable[[frozenset[str]], ScratchClass],
        context: CompileContext,
        timeout_s: float = 5.0,
        timeouts: dict[str, float] | None = None,
        cancelled: Cancelled | None = None,
        locate: Locate | None = None,
    ) -> ScratchOutcome:
        """Build (leaving out what does not compile), compile, run; ``timeouts`` per variant key.

        ``locate`` maps a javac error's line to the key ``build`` should leave out next time
        (default: the generated method's variant key); observing harnesses name single statements.
        """
        scratch = build(frozenset())
        timeouts = timeouts or {}
        key = self.cache_key(scratch, context, timeout_s, timeouts)
        cache_file = self.work_dir / "results" / f"{key}.json"
        if self.use_cache:
            try:
                return ScratchOutcome.from_json(json.loads(cache_file.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError):
                pass
        outcome = self._compile_and_run(build, scratch, context, key, timeout_s, timeouts, cancelled, locate)
        if self.use_cache and not outcome.crashed and not outcome.stale:
            write_atomically(cache_file, json.dumps(outcome.to_json()))
            prune(cache_file.parent, MAX_CACHED_RESULTS)
        return outcome

    def compile(
        self,
        build: Callable[[frozenset[str]], ScratchClass],
        context: CompileContext,
        out_dir: Path,
        cancelled: Cancelled | None = None,
        locate: Locate | None = None,
    ) -> tuple[ScratchClass, ScratchOutcome]:
        """Compile into ``out_dir``, dropping variants that do not compile; the final scratch class."""
        locate = locate or ScratchClass.method_at
        outcome = ScratchOutcome()
        excluded: set[str] = set()
        scratch = build(frozenset())
        javap = Path(self.worker.toolchain.javac).resolve().with_name("javap")
        classpath = [*([context.deps_dir] if context.deps_dir is not None else []), *_classpath(context)]
        lookup = signatures(context.sourcepath, classpath, javap if javap.is_file() else None)
        pruner = Pruner.for_scratch(scratch, context.sourcepath, lookup)
        src_dir = out_dir.parent / "src"
        variant_rounds = 0
        first: str | None = None  # the first error outside the generated methods
        for _ in range(MAX_COMPILE_ROUNDS + MAX_PRUNE_ROUNDS):
            if cancelled is not None and cancelled():
                raise CheckCancelled
            if not scratch.methods:
                break
            outcome.compile_rounds += 1
            shutil.rmtree(src_dir, ignore_errors=True)
            shutil.rmtree(out_dir, ignore_errors=True)
            path = src_dir / scratch.relative_path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(java_ascii(scratch.text), encoding="ascii")
            result = self._javac(path, pruner.copies(scratch, src_dir), context, out_dir, cancelled)
            outcome.compile_s += result.elapsed_s
            if result.ok:
                outcome.class_error = None
                outcome.left_out = [left.describe() for left in pruner.left_out]
                return scratch, outcome
            newly, outside = _sorted_errors(result, scratch, path, locate)
            first = first or next(iter(outside), None)
            if newly and variant_rounds < MAX_COMPILE_ROUNDS:
                variant_rounds += 1
                outcome.compile_errors.update(newly)
                excluded |= newly.keys()
            elif newly:
                outcome.class_error = "still not compiling after leaving out the failing candidates"
                break
            elif not outside:
                outcome.class_error = "javac failed without a message"
                break
            elif (blocker := pruner.leave_out(scratch, path, result.diagnostics)) is not None:
                # the first error names what is missing; the blocker, what could not do without it
                still = _located(blocker, path)
                outcome.class_error = still if first in (None, still) else f"{first}; without it, {still}"
                break
            scratch = pruner.apply(build(frozenset(excluded)))
        else:
            outcome.class_error = "still not compiling after leaving out what does not compile here"
        return scratch, outcome

    def _javac(
        self,
        path: Path,
        scratch: ScratchClass,
        context: CompileContext,
        out_dir: Path,
        cancelled: Cancelled | None,
    ) -> CompileResult:
        """javac over the scratch copy, in the project's encoding; where the build declares none
        and UTF-8 meets a byte it cannot map, once more in ISO-8859-1 (the scratch copy itself is
        ASCII: :func:`java_ascii`)."""
        known = context.encoding or (FALLBACK_ENCODING if context.deps_dir in _not_utf8 else None)
        encoding = known or "UTF-8"
        result = self._javac_in(encoding, path, scratch, context, out_dir, cancelled)
        unmappable = any("unmappable character" in d.message for d in result.diagnostics)
        if known is None and unmappable:  # javac's API may still call that a success
            _not_utf8.add(context.deps_dir)
            self.reset_deps(context)  # classes it compiled on demand read the bytes as UTF-8
            encoding = FALLBACK_ENCODING
            result = self._javac_in(encoding, path, scratch, context, out_dir, cancelled)
        if not result.ok and context.packaged and context.deps_dir not in _needs_packaged:
            own = {path.resolve(), *(c.path.resolve() for c in scratch.companions)}
            if any(d.file and Path(d.file).resolve() not in own for d in result.diagnostics):
                _needs_packaged.add(context.deps_dir)  # the project's sources failed, not the test
                return self._javac_in(encoding, path, scratch, context, out_dir, cancelled)
        return result

    def _javac_in(
        self,
        encoding: str,
        path: Path,
        scratch: ScratchClass,
        context: CompileContext,
        out_dir: Path,
        cancelled: Cancelled | None,
    ) -> CompileResult:
        helper = self.worker.toolchain.helper
        options = javac_options(encoding)
        # A concrete subclass runs an abstract class's tests: compiled here, against the copy.
        sources = [path, *(c.path for c in scratch.companions)]
        if not context.sourcepath or context.deps_dir is None:
            return self.worker.compile(
                sources, out_dir, [helper, *_classpath(context)], (), options, cancelled=cancelled
            )
        # Project classes compiled on demand go to the shared deps folder (reused by later
        # checks while their sources are older); the scratch's own classes move out of it.
        deps = context.deps_dir
        classpath = [helper, deps, *_classpath(context)]
        roots = class_path_roots(context.sourcepath)

        def into_deps(files: Sequence[Path]) -> CompileResult:
            return self.worker.compile(files, deps, classpath, roots, options, cancelled=cancelled)

        with _dir_lock(deps), file_lock(deps.with_name(deps.name + ".lock")):
            result = into_deps(sources)
            if result.ok and deps not in _needs_packaged:  # a packaged build holds them all
                compile_loaded(context.loaded_by_name, deps, lambda files: into_deps(files).ok)
            for binary in (*scratch.top_level, *(c.binary_name for c in scratch.companions)):
                package, _, simple = binary.rpartition(".")
                folder = deps.joinpath(*package.split(".")) if package else deps
                target = out_dir.joinpath(*package.split(".")) if package else out_dir
                for produced in folder.glob(f"{simple}*.class") if folder.is_dir() else []:
                    if produced.stem == simple or produced.stem.startswith(f"{simple}$"):
                        target.mkdir(parents=True, exist_ok=True)
                        os.replace(produced, target / produced.name)
        return result

    @staticmethod
    def reset_deps(context: CompileContext) -> None:
        """Forget the classes compiled on demand (under the same locks as the compilations)."""
        deps = context.deps_dir
        if deps is None:
            return
        with _dir_lock(deps), file_lock(deps.with_name(deps.name + ".lock")):
            shutil.rmtree(deps, ignore_errors=True)

    def runtime_classpath(self, out_dir: Path, context: CompileContext) -> list[Path]:
        deps = [context.deps_dir] if context.deps_dir is not None and context.sourcepath else []
        return [out_dir, *context.overlay, *deps, *_classpath(context), *context.runtime_extra]

    def _compile_and_run(
        self,
        build: Callable[[frozenset[str]], ScratchClass],
        first: ScratchClass,
        context: CompileContext,
        key: str,
        timeout_s: float,
        timeouts: dict[str, float],
        cancelled: Cancelled | None,
        locate: Locate | None,
    ) -> ScratchOutcome:
        # a folder of this call's own: another process (the editor beside a batch run) or thread
        # compiling the same content at once would otherwise delete the sources its javac reads
        (self.work_dir / "scratch").mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f"{key[:20]}-", dir=self.work_dir / "scratch"))
        out_dir = work / "classes"
        scratch, outcome = self.compile(
            lambda ex: first if not ex else build(ex), context, out_dir, cancelled, locate
        )
        if outcome.class_error is not None or not scratch.methods:
            shutil.rmtree(work, ignore_errors=True)
            return outcome
        self.run_compiled(scratch, outcome, out_dir, context, timeout_s, timeouts, cancelled)
        shutil.rmtree(work, ignore_errors=True)
        return outcome

    def run_compiled(
        self,
        scratch: ScratchClass,
        outcome: ScratchOutcome,
        out_dir: Path,
        context: CompileContext,
        timeout_s: float,
        timeouts: dict[str, float] | None = None,
        cancelled: Cancelled | None = None,
        keys: Iterable[str] | None = None,
    ) -> None:
        """Run the methods of ``scratch`` (compiled into ``out_dir``; only those of ``keys`` when
        given) and record them in ``outcome``."""
        timeouts = timeouts or {}
        methods = (
            {k: scratch.methods[k] for k in keys if k in scratch.methods}
            if keys is not None
            else scratch.methods
        )
        tests = [TestRef(m.class_name, m.name, timeouts.get(k), m.run_on) for k, m in methods.items()]
        run = self.worker.run(self.runtime_classpath(out_dir, context), tests, timeout_s, cancelled)
        outcome.run_s = run.elapsed_s
        outcome.crashed = run.crashed
        outcome.observations = run.observations
        outcome.ancestors = run.ancestors
        for k, m in methods.items():
            outcome.results[k] = run.outcomes.get((m.class_name, m.name), TestOutcome("notrun"))


def prune(folder: Path, limit: int) -> int:
    """Keep the ``limit // 2`` newest files of ``folder`` once it holds more than ``limit``."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    if len(entries) <= limit:
        return 0
    entries.sort(key=lambda e: e.stat().st_mtime_ns if e.is_file() else 0)
    removed = 0
    for entry in entries[: len(entries) - limit // 2]:
        try:
            os.unlink(entry.path)
            removed += 1
        except OSError:
            pass
    return removed
