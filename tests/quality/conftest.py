"""An engine over the quality fixtures (OraclePolish's Employee, JFreeChart's table...) and helpers.

The fixtures are a small workspace of units; each test parses an inline test class against it
with the ``java()`` helper and runs one check.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oracular.candidates.render import TextEdit, apply_edits
from oracular.engine import EngineSettings, OracleEngine
from oracular.java.source import SourceText
from oracular.java.workspace import WorkspaceIndex
from oracular.quality import Finding, QualitySettings, check_file
from oracular.ranking.baseline import BaselineRanker

from ..conftest import TEST_DICTIONARY, indexed, java

QUALITY_FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def quality_index() -> WorkspaceIndex:
    return indexed(QUALITY_FIXTURES)


@pytest.fixture
def qengine(quality_index: WorkspaceIndex) -> OracleEngine:
    return OracleEngine(
        quality_index,
        ranker=BaselineRanker(),
        settings=EngineSettings(top_k=5, abstain_below=0.0),
        global_dictionary=TEST_DICTIONARY,
    )


def run_check(engine: OracleEngine, code: str, text: str) -> tuple[SourceText, list[Finding]]:
    """Parse an inline test class and run one check over it (with fixes)."""
    source = java(text)
    return source, check_file(engine, engine.analyse(source), QualitySettings.only([code]))


def apply(source: SourceText, edits: tuple[TextEdit, ...] | list[TextEdit]) -> str:
    """The document text after applying LSP edits (made against ``source``)."""
    return apply_edits(source, list(edits))
