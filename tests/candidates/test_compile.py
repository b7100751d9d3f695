"""The oracles Oracular writes compile, and the observed ones hold: ``--write`` on the bundled
example, then real ``javac``, then JUnit on the result.

Needs a JDK and Debian's JUnit 5 jars (``.ci/run`` installs them). Without them the test is
skipped on a developer machine, but fails in CI, where a skip would hide a broken set-up.
"""

import re
import subprocess
from pathlib import Path

import pytest

from oracular.cli.main import main

from ..conftest import javac, require_junit5_javac

CONSOLE = Path("/usr/share/java/junit-platform-console-standalone.jar")


@pytest.mark.parametrize("mode", ["observed", "static"])
def test_written_oracles_compile_and_observed_ones_hold(
    tmp_path: Path, project: Path, capsys, mode: str
) -> None:
    require_junit5_javac()
    tests = sorted((project / "src" / "test").rglob("*Test.java"))
    for path in tests:
        assert main(["suggest", str(path), "--write", *(["--no-check"] if mode == "static" else [])]) == 0
    out = capsys.readouterr().out
    said = "values observed by running" if mode == "observed" else "static ranking only (--no-check)"
    assert said in out
    classes = tmp_path / "classes"
    result = javac(classes, sorted(project.rglob("*.java")))
    assert result.returncode == 0, result.stderr
    assert (classes / "org" / "example" / "stack" / "StackTest.class").exists()
    # Every previously oracle-free test now has an oracle.
    assert main(["scan", str(project)]) == 0
    assert capsys.readouterr().out == ""
    if mode == "observed":  # what was observed on this code holds on it: every test passes
        run = subprocess.run(
            ["java", "-jar", str(CONSOLE), "--class-path", str(classes), "--scan-class-path",
             "--disable-banner", "--details=summary"],
            capture_output=True, text=True,
        )  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        assert re.search(r"\b0 tests failed", run.stdout) and re.search(r"\b15 tests successful", run.stdout)
