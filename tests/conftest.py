"""Shared fixtures: the bundled example, the Java fixtures, and an engine indexing both."""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from collections.abc import Iterable
from pathlib import Path

import pytest

from oracular.candidates.values import load_global_dictionary
from oracular.engine import EngineSettings, OracleEngine
from oracular.java.source import SourceText, load_source, parse_text
from oracular.java.targets import Target
from oracular.java.workspace import WorkspaceIndex

# Expected outputs (golden files, CLI and LSP tests) are the baseline ranker's; the shipped model
# is exercised by tests/models. Servers started by tests inherit this.
os.environ.setdefault("ORACULAR_RANKER", "baseline")

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "stack"
EXAMPLE_TESTS = EXAMPLE / "src" / "test" / "java" / "org" / "example" / "stack"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "java"
TEST_DICTIONARY = load_global_dictionary(
    Path(__file__).resolve().parent / "fixtures" / "global_dictionary.json"
)
"""Pinned, so golden candidate sets do not move when the shipped dictionary is re-mined."""


def indexed(*roots: Path) -> WorkspaceIndex:
    """A workspace index over ``roots``, already refreshed."""
    index = WorkspaceIndex(roots)
    index.refresh()
    return index


@pytest.fixture(scope="session")
def index() -> WorkspaceIndex:
    return indexed(FIXTURES, EXAMPLE)


@pytest.fixture
def engine(index: WorkspaceIndex) -> OracleEngine:
    return OracleEngine(
        index,
        settings=EngineSettings(top_k=64, abstain_below=0.0),
        project_root=EXAMPLE,
        global_dictionary=TEST_DICTIONARY,
    )


def fixture_source(name: str) -> SourceText:
    return load_source(FIXTURES / name)


def target(expression: str = "x", type_: str | None = "int", kind: str = "variable") -> Target:
    """A target as the enumerator would make it (a local, by default)."""
    return Target(expression, type_, kind)


def java(text: str) -> SourceText:
    """Parse an inline Java snippet (dedented) as a file named Snippet.java."""
    return parse_text(textwrap.dedent(text).strip() + "\n", Path("Snippet.java"))


def oracle_free_names(engine: OracleEngine, source: SourceText) -> list[str]:
    return [s.test.name for s in engine.analyse(source).oracle_free]


def copy_example(destination: Path) -> Path:
    """A private copy of the bundled example under ``destination``: tests edit it, never the original."""
    project = destination / "stack"
    shutil.copytree(EXAMPLE, project)
    return project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A private copy of the bundled example, safe to write to."""
    return copy_example(tmp_path)


JUNIT5_JARS = [
    Path("/usr/share/java") / n for n in ("junit-jupiter-api.jar", "apiguardian-api.jar", "opentest4j.jar")
]


def require_junit5_javac() -> None:
    """Skip (developer machine) or fail (CI) when javac or Debian's JUnit 5 jars are missing."""
    missing = [str(j) for j in JUNIT5_JARS if not j.exists()]
    if shutil.which("javac") is None:
        missing.append("javac")
    if missing:
        skip_or_fail(f"Java toolchain missing: {', '.join(missing)} (apt-get install junit5 default-jdk)")


def skip_or_fail(message: str) -> None:
    """Skip on a developer machine, fail in CI (``$CI`` set), where a skip would hide a broken set-up."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def javac(out: Path, sources: Iterable[Path | str]) -> subprocess.CompletedProcess[str]:
    """Compile ``sources`` into ``out`` against JUnit 5's API (see :func:`require_junit5_javac`)."""
    classpath = ":".join(map(str, JUNIT5_JARS))
    return subprocess.run(
        ["javac", "-d", str(out), "-cp", classpath, *map(str, sources)], capture_output=True, text=True
    )
