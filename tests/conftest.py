"""Shared fixtures: the bundled example, the Java fixtures, and an engine indexing both."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oracular.candidates.values import load_global_dictionary
from oracular.engine import EngineSettings, OracleEngine
from oracular.java.source import SourceText, load_source, parse_text
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


@pytest.fixture(scope="session")
def index() -> WorkspaceIndex:
    idx = WorkspaceIndex([FIXTURES, EXAMPLE])
    idx.refresh()
    return idx


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


def java(text: str) -> SourceText:
    """Parse an inline Java snippet (dedented) as a file named Snippet.java."""
    import textwrap

    return parse_text(textwrap.dedent(text).strip() + "\n", Path("Snippet.java"))


def oracle_free_names(engine: OracleEngine, source: SourceText) -> list[str]:
    return [s.test.name for s in engine.analyse(source).oracle_free]
