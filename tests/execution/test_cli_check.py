"""``oracular suggest`` runs the code by default: observed oracles first, each suggestion checked,
a confident expectation that fails shown as a possible bug, and ``--no-check`` or a missing JDK
falling back to static ranking, said in the output."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from oracular.cli.main import main
from oracular.execution.sandbox import sandboxed

from ..conftest import EXAMPLE
from .conftest import TEST_PACKAGE, require_toolchain

COUNTER = EXAMPLE / TEST_PACKAGE / "BoundedCounterTest.java"
OBSERVED = "values observed by running each test's prefix in a scratch copy, " + (
    "in a sandbox" if sandboxed("prefer") else "without a sandbox"
)


def test_suggest_json_observes_and_check_runs_each_oracle(capsys) -> None:
    require_toolchain()
    assert main(["suggest", str(COUNTER), "--json", "--check", "--classpath", ""]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["mode"] == OBSERVED
    tests = {t["method"]: t for t in document["tests"]}
    assert all(t["observed"] for t in tests.values())
    value = tests["testValueAfterIncrement"]["suggestions"]
    assert value[0]["oracle"] == "assertEquals(1, v);" and value[0]["source"] in ("observed", "literal")
    assert value[0]["observed"] == {"status": "holds", "value": "1", "possibleBug": False}
    assert value[0]["check"]["status"] == "holds"  # and it holds when run as inserted
    throws = tests["testIncrementPastMax"]["suggestions"][0]
    assert throws["oracle"] == "assertThrows(IllegalStateException.class, () -> c.increment());"
    assert throws["observed"]["status"] == "holds" and throws["check"]["status"] == "holds"
    assert document["check"]["error"] is None and document["check"]["elapsed_s"] > 0


def test_a_confident_expectation_that_fails_is_a_possible_bug(capsys, tmp_path: Path) -> None:
    require_toolchain()
    project = tmp_path / "stack"
    shutil.copytree(EXAMPLE, project)
    stack = project / "src/main/java/org/example/stack/Stack.java"
    stack.write_text(stack.read_text().replace("return elements.size();", "return elements.size() - 1;"))
    test = project / TEST_PACKAGE / "StackTest.java"
    assert main(["suggest", str(test), "--line", "40", "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].endswith("· holds now (observed)")  # the first oracle holds on the code as it is
    # what the ranker expected confidently, failing: shown second, whatever else holds
    assert lines[3].endswith("assertEquals(1, s.size());  · fails now: was 0 — possible bug")
    assert lines[-1] == OBSERVED
    assert main(["suggest", str(test), "--line", "40", "--top", "3", "--check"]) == 0  # run as inserted
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].endswith("· holds now")
    assert lines[3].endswith("assertEquals(1, s.size());  · fails now: was 0 — possible bug")


def test_no_check_and_a_missing_jdk_rank_statically_and_say_so(capsys) -> None:
    assert main(["suggest", str(COUNTER), "--no-check", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("static ranking only (--no-check): values were not observed")
    assert "holds now" not in out
    # No java/javac on PATH: a fresh process, since a found toolchain is remembered per process.
    result = subprocess.run(
        [sys.executable, "-m", "oracular", "suggest", str(COUNTER), "--top", "2"],
        capture_output=True, text=True, env={**os.environ, "PATH": "/nonexistent"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (
        result.stdout.rstrip()
        .splitlines()[-1]
        .startswith("static ranking only: values not observed: no JDK on PATH")
    )
