"""The oracles Oracular writes compile: ``--write`` on the bundled example, then real ``javac``.

Needs a JDK and Debian's JUnit 5 jars (``.ci/run`` installs them). Without them the test is
skipped on a developer machine, but fails in CI, where a skip would hide a broken set-up.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from oracular.cli.main import main

from .conftest import EXAMPLE

JARS = [
    Path("/usr/share/java") / n for n in ("junit-jupiter-api.jar", "apiguardian-api.jar", "opentest4j.jar")
]


def require_toolchain() -> None:
    missing = [str(j) for j in JARS if not j.exists()]
    if shutil.which("javac") is None:
        missing.append("javac")
    if missing:
        message = f"Java toolchain missing: {', '.join(missing)} (apt-get install junit5 default-jdk)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def test_written_oracles_compile_and_behave(tmp_path: Path, capsys) -> None:
    require_toolchain()
    project = tmp_path / "stack"
    shutil.copytree(EXAMPLE, project)
    tests = sorted((project / "src" / "test").rglob("*Test.java"))
    for path in tests:
        assert main(["suggest", str(path), "--write"]) == 0
    capsys.readouterr()
    sources = [str(p) for p in sorted(project.rglob("*.java"))]
    out = tmp_path / "classes"
    classpath = ":".join(map(str, JARS))
    result = subprocess.run(
        ["javac", "-d", str(out), "-cp", classpath, *sources], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert (out / "org" / "example" / "stack" / "StackTest.class").exists()
    # Every previously oracle-free test now has an oracle.
    assert main(["scan", str(project)]) == 0
    assert capsys.readouterr().out == ""
