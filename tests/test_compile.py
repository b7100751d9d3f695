"""The oracles Oracular writes compile: ``--write`` on the bundled example, then real ``javac``.

Needs a JDK and Debian's JUnit 5 jars (``.ci/run`` installs them). Without them the test is
skipped on a developer machine, but fails in CI, where a skip would hide a broken set-up.
"""

from pathlib import Path

from oracular.cli.main import main

from .conftest import javac, require_junit5_javac


def test_written_oracles_compile_and_behave(tmp_path: Path, project: Path, capsys) -> None:
    require_junit5_javac()
    tests = sorted((project / "src" / "test").rglob("*Test.java"))
    for path in tests:
        assert main(["suggest", str(path), "--write"]) == 0
    capsys.readouterr()
    out = tmp_path / "classes"
    result = javac(out, sorted(project.rglob("*.java")))
    assert result.returncode == 0, result.stderr
    assert (out / "org" / "example" / "stack" / "StackTest.class").exists()
    # Every previously oracle-free test now has an oracle.
    assert main(["scan", str(project)]) == 0
    assert capsys.readouterr().out == ""
