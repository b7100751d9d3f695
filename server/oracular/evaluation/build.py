"""Compile a project's main and test sources with javac alone (no Maven, no network).

Why: the mutant evaluation needs the correct code compiled once (mutants then recompile only the
mutated file against it) and the developer's test classes compiled (scratch tests use their
helpers). Real projects rarely compile whole with just the Debian jars: a module needs a missing
library, a test uses JMH. So files that do not compile are left out, round after round, until
the rest does; what was left out is reported, never hidden. Builds are cached by a fingerprint
of the sources and the classpath.

Where the main sources leave files out and the project's packaged build of exactly its version
is installed (:attr:`~oracular.execution.classpath.Classpath.packaged`: a class the build
generates, jackson-core's ``PackageVersion``; code this JDK rejects, ini4j's), they are compiled
again with it last on the classpath, as the observation does (:mod:`oracular.execution.runner`),
and the build runs with it behind its own classes: what the sources compile to comes first, a
mutant's class before both.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from oracular.execution.classpath import Classpath
from oracular.execution.jvm import JvmWorker
from oracular.execution.runner import tree_fingerprint

MAX_ROUNDS = 8
BUILD_OPTIONS = ("-proc:none", "-nowarn", "-g")
BUILD_VERSION = "3"


@dataclass
class Build:
    classes: Path
    test_classes: Path
    main_files: list[Path] = field(default_factory=list)
    test_files: list[Path] = field(default_factory=list)
    main_dropped: dict[str, str] = field(default_factory=dict)
    """File -> the first error that left it out."""
    test_dropped: dict[str, str] = field(default_factory=dict)
    elapsed_s: float = 0.0
    packaged: list[Path] = field(default_factory=list)
    """The packaged build the sources needed (see the module docstring); empty when they did not."""

    def dependencies(self, classpath: Classpath) -> list[Path]:
        """What this build compiles and runs against, after its own classes."""
        return [*classpath.dependencies, *self.packaged]

    def to_json(self) -> dict:
        return {
            "classes": str(self.classes),
            "test_classes": str(self.test_classes),
            "main_files": [str(p) for p in self.main_files],
            "test_files": [str(p) for p in self.test_files],
            "main_dropped": self.main_dropped,
            "test_dropped": self.test_dropped,
            "elapsed_s": self.elapsed_s,
            "packaged": [str(p) for p in self.packaged],
        }

    @classmethod
    def from_json(cls, data: dict) -> Build:
        return cls(
            Path(data["classes"]),
            Path(data["test_classes"]),
            [Path(p) for p in data["main_files"]],
            [Path(p) for p in data["test_files"]],
            dict(data["main_dropped"]),
            dict(data["test_dropped"]),
            data["elapsed_s"],
            [Path(p) for p in data.get("packaged", [])],
        )


def _java_files(roots: tuple[Path, ...]) -> list[Path]:
    return sorted(
        p for r in roots for p in r.rglob("*.java") if p.name not in ("module-info.java", "package-info.java")
    )


def compile_dropping(
    worker: JvmWorker, files: list[Path], out: Path, classpath: list[Path], encoding: str | None = None
) -> tuple[list[Path], dict[str, str], float]:
    """Compile ``files`` (in ``encoding``, else UTF-8); leave out those with errors until the rest
    compiles."""
    remaining = list(files)
    dropped: dict[str, str] = {}
    elapsed = 0.0
    for _ in range(MAX_ROUNDS):
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        if not remaining:
            break
        result = worker.compile(
            remaining, out, classpath, options=(*BUILD_OPTIONS, "-encoding", encoding or "UTF-8")
        )
        elapsed += result.elapsed_s
        if result.ok:
            return remaining, dropped, elapsed
        bad: dict[Path, str] = {}
        for d in result.diagnostics:
            if d.file:
                bad.setdefault(Path(d.file).resolve(), d.short())
        if not bad:
            raise RuntimeError(
                f"javac failed without naming a file: {[d.message for d in result.diagnostics][:3]}"
            )
        for path in list(remaining):
            if path.resolve() in bad:
                dropped[str(path)] = bad[path.resolve()]
                remaining.remove(path)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    return [], {**dropped, **{str(p): "left out after too many rounds" for p in remaining}}, elapsed


def build_project(worker: JvmWorker, classpath: Classpath, work_dir: Path) -> Build:
    """Main sources into ``classes``, tests into ``test-classes`` (cached by content)."""
    lay = classpath.layout
    entries = list(classpath.dependencies)
    fingerprinted = [*entries, *classpath.packaged]
    key = hashlib.sha256(
        "\0".join([BUILD_VERSION, tree_fingerprint(lay.source_roots), *map(str, fingerprinted)]).encode()
    ).hexdigest()[:20]
    base = work_dir / "build" / key
    meta = base / "build.json"
    try:
        return Build.from_json(json.loads(meta.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError):
        pass
    classes, test_classes = base / "classes", base / "test-classes"
    sources = _java_files(lay.main_roots)
    main_files, main_dropped, main_s = compile_dropping(worker, sources, classes, entries, lay.encoding)
    packaged: list[Path] = []
    if main_dropped and classpath.packaged:  # into a folder of its own: the first build stays if no better
        beside = base / "classes-packaged"
        again = compile_dropping(worker, sources, beside, [*entries, *classpath.packaged], lay.encoding)
        main_s += again[2]
        if len(again[1]) < len(main_dropped):
            classes, packaged = beside, list(classpath.packaged)
            main_files, main_dropped = again[0], again[1]
    test_files, test_dropped, test_s = compile_dropping(
        worker, _java_files(lay.test_roots), test_classes, [classes, *entries, *packaged], lay.encoding
    )
    build = Build(
        classes, test_classes, main_files, test_files, main_dropped, test_dropped, main_s + test_s, packaged
    )
    meta.write_text(json.dumps(build.to_json(), indent=1), encoding="utf-8")
    return build
