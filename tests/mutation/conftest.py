"""The mutation tests run Java as the execution tests do (one warm checker, a private cache), on a
copy of the pseudo-testing fixture project (``tests/fixtures/pseudo``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..execution.conftest import _private_cache, checker, require_toolchain  # noqa: F401 (fixtures)

PSEUDO = Path(__file__).resolve().parents[1] / "fixtures" / "pseudo"
PSEUDO_TEST = Path("src/test/java/org/example/pseudo/IntStackTest.java")
PSEUDO_MAIN = Path("src/main/java/org/example/pseudo/IntStack.java")


@pytest.fixture
def pseudo_project(tmp_path: Path) -> Path:
    """A private copy of the fixture: a pseudo-tested method, a partially tested one, and a
    surviving mutant of each of Reneri's causes."""
    root = tmp_path / "pseudo"
    shutil.copytree(PSEUDO, root)
    return root
