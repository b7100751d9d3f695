"""The oracle engine: from a parsed test file to ranked, rendered oracles per oracle-free test.

Modules, one job each: :mod:`.settings` (what a user may change), :mod:`.analysis` (which tests
have an oracle, and the file's habits), :mod:`.scope` (what a test's body can see),
:mod:`.oracle_engine` (the engine: analysis, candidates, ranking, rendering), :mod:`.answers`
(whether to answer) and :mod:`.reports` (what it answers, and its JSON). The ranking itself is
:mod:`oracular.ranking.pipeline`'s. This package's names are the engine's public interface.
"""

from oracular.engine.analysis import FileAnalysis, TestStatus
from oracular.engine.oracle_engine import OracleEngine, RankingCancelled
from oracular.engine.reports import FileReport, Suggestion, TestReport
from oracular.engine.settings import EngineSettings

__all__ = [
    "EngineSettings",
    "FileAnalysis",
    "FileReport",
    "OracleEngine",
    "RankingCancelled",
    "Suggestion",
    "TestReport",
    "TestStatus",
]
