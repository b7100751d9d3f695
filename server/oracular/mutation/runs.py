"""A test class compiled once and run against the original code and against class overlays.

Why overlays: a mutant (or the probed original) changes one source file of the code under test;
compiled alone, its classes go in a folder placed before the project's on the run's classpath
(:attr:`~oracular.execution.runner.CompileContext.overlay`), and the test class, compiled once,
runs against it in the warm helper JVM, which loads classes afresh for every run. No project
rebuild, no process start per mutant: one javac of one file and one run of the tests that call
the mutated method.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from oracular.engine.analysis import TestStatus
from oracular.execution.jvm import Observation
from oracular.execution.oracle_checks import Bench
from oracular.execution.runner import ScratchOutcome, ScratchRunner, javac_options
from oracular.execution.scratch import ScratchBuilder, ScratchClass, Variant
from oracular.java.declarations import package_of
from oracular.java.junit import TestMethod
from oracular.java.source import SourceText, load_source
from oracular.mutation.operators import Mutant

KILLING = frozenset({"failed", "timeout", "crashed", "notrun"})
"""A test that does not pass on a mutant kills it (a hang or a crash too)."""
Build = Callable[[frozenset[str]], ScratchClass]


def test_key(name: str) -> str:
    return f"t:{name}"


class ClassBench:
    """One test class's scratch copy (its tests as written), compiled once, run many times."""

    def __init__(
        self, bench: Bench, work: Path, timeout_s: float, cancelled: Callable[[], bool] | None
    ) -> None:
        self.bench = bench
        self.work = work
        self.timeout_s = timeout_s
        self.cancelled = cancelled
        self.runner = ScratchRunner(bench.worker, work, use_cache=False)
        self._compiled: dict[str, tuple[ScratchClass, ScratchOutcome, Path]] = {}
        self._overlays: dict[str, Path | None] = {}
        self._sources: dict[Path, SourceText] = {}

    @staticmethod
    def tests_as_written(
        source: SourceText, tests: Sequence[TestStatus], others: Iterable[TestMethod]
    ) -> Build:
        """A scratch build with each of ``tests`` as it is, the ``others`` emptied."""
        builder = ScratchBuilder(source)
        for status in tests:
            builder.replace(status.test, [Variant(test_key(status.test.name))])
        builder.drop_other_tests(others)
        return builder.build

    def compile(self, name: str, build: Build, locate=None) -> ScratchOutcome:
        """Compile ``build`` as scratch ``name`` (variants that do not compile are left out)."""
        out = self.work / name / "classes"
        scratch, outcome = self.runner.compile(build, self.bench.context, out, self.cancelled, locate)
        self._compiled[name] = (scratch, outcome, out)
        return outcome

    def run(self, name: str, keys: Iterable[str], overlay: Path | None = None) -> ScratchOutcome:
        """Run scratch ``name``'s methods for ``keys`` (against ``overlay``'s classes if given)."""
        scratch, compiled, out = self._compiled[name]
        wanted = [k for k in keys if k in scratch.methods]
        outcome = ScratchOutcome(
            compile_errors=dict(compiled.compile_errors), class_error=compiled.class_error
        )
        if not wanted or compiled.class_error is not None:
            return outcome
        context = (
            replace(self.bench.context, overlay=(overlay,)) if overlay is not None else self.bench.context
        )
        self.runner.run_compiled(scratch, outcome, out, context, self.timeout_s, None, self.cancelled, wanted)
        return outcome

    def observations_alone(self, name: str, key: str, overlay: Path) -> dict[str, Observation]:
        """What one method recorded, run by itself against ``overlay`` (the probe's records carry no
        test name, so each test runs alone)."""
        return self.run(name, [key], overlay).observations

    def keys(self, name: str) -> list[str]:
        """The generated methods of scratch ``name`` that compiled."""
        return list(self._compiled[name][0].methods)

    def focal(self, path: Path) -> SourceText:
        """A source file of the code under test, read and parsed once per run (raises
        :class:`~oracular.java.source.SourceError`)."""
        if path not in self._sources:
            self._sources[path] = load_source(path, lenient=True)
        return self._sources[path]

    def mutant_overlay(self, mutant: Mutant) -> Path | None:
        """``mutant``'s file compiled alone (once per run); ``None`` if it does not compile."""
        focal = self.focal(mutant.path)
        return self.overlay(mutant.id, focal, mutant.apply(focal.data))

    def overlay(self, slot: str, source: SourceText, data: bytes) -> Path | None:
        """``data`` (a changed ``source``) compiled alone into a class folder, once per ``slot``;
        ``None`` if it does not compile."""
        if slot not in self._overlays:
            self._overlays[slot] = self._compile_overlay(slot, source, data)
        return self._overlays[slot]

    def _compile_overlay(self, slot: str, source: SourceText, data: bytes) -> Path | None:
        assert source.path is not None
        folder = self.work / "overlays" / slot
        shutil.rmtree(folder, ignore_errors=True)
        package = package_of(source.root)
        src = (
            folder / "src" / Path(*package.split(".")) / source.path.name
            if package
            else folder / "src" / source.path.name
        )
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_bytes(data)
        context = self.bench.context
        deps = [context.deps_dir] if context.deps_dir is not None and context.deps_dir.is_dir() else []
        helper = self.bench.worker.toolchain.helper
        result = self.bench.worker.compile(
            [src], folder / "classes", [helper, *deps, *context.classpath], context.sourcepath,
            javac_options("UTF-8"), cancelled=self.cancelled,
        )  # fmt: skip
        return folder / "classes" if result.ok else None


__all__ = ["KILLING", "ClassBench", "test_key"]
