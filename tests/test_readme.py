"""The README's set-up command and the example output it shows, against a real run.

Why: the example is what a new user compares their first run with; nothing else would notice it
going stale when the model, the ranking or the listing changes. The shipped model ranks (as for a
user), the code runs in a scratch copy (as ``suggest`` does by default), and the comparison is of
shape where a CPU's arithmetic may move a score in the third decimal: the tests, the exception
type, each test's first suggestion and the last line must be the README's; every other line must
have its form.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from .conftest import REPO
from .execution.conftest import require_toolchain

_NUMBER = re.compile(r"\d+\.\d+")
_SUGGESTION = re.compile(r"^  \d\. \[\d\.\d{3}\] \S.*;(  · .+)?$")


def _readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def _set_up_command() -> list[str]:
    """The ``oracular suggest ...`` part of the README's first set-up command."""
    line = next(line for line in _readme().splitlines() if ".venv/bin/oracular suggest" in line)
    return line.split(".venv/bin/oracular ", 1)[1].split()


def _example() -> list[str]:
    text = _readme()
    fence = "```text\n"
    start = text.index(fence, text.index("Example (the set-up command with `--top 3`")) + len(fence)
    return text[start : text.index("```", start)].splitlines()


def _mask(line: str) -> str:
    return _NUMBER.sub("#", line)


def _blocks(lines: list[str]) -> dict[str, list[str]]:
    """Each test's lines under its header (``path:line name (focal: ...)``)."""
    blocks: dict[str, list[str]] = {}
    for line in lines:
        if not line.startswith(" ") and ".java:" in line:
            blocks[line] = []
        elif line.startswith(" ") and blocks:
            blocks[list(blocks)[-1]].append(line)
    return blocks


def test_the_readme_example_is_what_the_set_up_command_prints() -> None:
    require_toolchain()
    command = _set_up_command()
    assert command[0] == "suggest" and (REPO / command[-1]).is_file(), command
    env = {k: v for k, v in os.environ.items() if k != "ORACULAR_RANKER"}  # the shipped model, as for a user
    result = subprocess.run(
        [sys.executable, "-m", "oracular", *command[:-1], "--top", "3", command[-1]],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    actual, example = result.stdout.splitlines(), _example()
    assert example[-2] == "..." and actual[-1] == example[-1]
    shown, ran = _blocks(example), _blocks(actual)
    assert shown and set(shown) <= set(ran), "the README's tests and focal methods"
    for header, lines in shown.items():
        got = ran[header]
        assert len(got) == len(lines) == 4, header
        assert _mask(got[0]) == _mask(lines[0]), header  # the exception line, its type included
        assert _mask(got[1]) == _mask(lines[1]), header  # the first suggestion and its annotation
        assert all(_SUGGESTION.match(line) for line in got[1:] + lines[1:]), header
