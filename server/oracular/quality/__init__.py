"""Oracle-quality checks beyond "no assertion": weak oracles in tests that do assert.

One module per check (``discarded_result``, ``unused_input``, ``swallowed_exception``,
``swapped_arguments``, ``brittle``, ``untested_precondition``); :func:`check_file` runs them
over the engine's analysis of a document and returns :class:`Finding` objects with fixes.
"""

from oracular.quality.finding import Finding, Fix, Severity
from oracular.quality.runner import CHECKS, QualitySettings, check_file

__all__ = ["CHECKS", "Finding", "Fix", "QualitySettings", "Severity", "check_file"]
