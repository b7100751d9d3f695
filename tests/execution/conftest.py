"""Shared set-up for the execution tests: the JDK + Debian JUnit toolchain, and scratch projects.

Tests that compile and run Java follow ``tests/candidates/test_compile.py``: without a JDK or Debian's
JUnit jars they are skipped on a developer machine, but fail in CI (``$CI`` set), where a skip
would hide a broken set-up. The helper JVM is shared by the whole session (one warm JVM), and
every project the tests touch is a copy under ``tmp_path``: the repository's example is never
modified (one test checks exactly that).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from oracular.cli.common import engine_for
from oracular.engine import EngineSettings, FileReport
from oracular.execution.classpath import ClasspathSettings
from oracular.execution.oracle_checks import CheckSettings, OracleChecker
from oracular.execution.toolchain import DEBIAN_JAVA, ToolchainMissing, find_toolchain
from oracular.java.source import load_source

from ..conftest import skip_or_fail

NEEDED_JARS = ("junit4.jar", "junit-jupiter-api.jar", "opentest4j.jar")


def require_toolchain() -> None:
    """Skip (developer machine) or fail (CI) when javac or Debian's JUnit jars are missing."""
    missing = [name for name in NEEDED_JARS if not (DEBIAN_JAVA / name).exists()]
    if shutil.which("javac") is None:
        missing.append("javac")
    message = ""
    if missing:
        message = f"Java toolchain missing: {', '.join(missing)} (apt-get install junit4 junit5 default-jdk)"
    else:
        try:
            find_toolchain()
        except ToolchainMissing as exc:
            message = str(exc)
    if message:
        skip_or_fail(message)


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Results, classpath answers and builds go to a per-session cache, never the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ORACULAR_CACHE", str(tmp_path_factory.mktemp("oracular-cache")))
        yield


@pytest.fixture(scope="session")
def checker(_private_cache: None) -> Iterator[OracleChecker]:
    """One warm checker (helper JVM) for the session; Maven is not asked (it would be slow)."""
    settings = CheckSettings(
        timeout_s=5.0, classpath=ClasspathSettings(use_build_tools=False), use_cache=False
    )
    checker = OracleChecker(settings)
    yield checker
    checker.close()


def report_for(path: Path, top_k: int = 32) -> FileReport:
    engine = engine_for([path], EngineSettings(top_k=top_k))
    return engine.suggest(load_source(path))


TEST_PACKAGE = Path("src/test/java/org/example/stack")
