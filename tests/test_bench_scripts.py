"""Every benchmark under ``bench/`` still starts.

Why a test: the benchmarks are run by hand, not by CI, so a renamed module breaks one silently
until someone needs its figures (``cold_start_bench.py`` once imported a module a refactor had
merged away). ``--help`` imports everything a script imports and parses its options, without
timing anything.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*_bench.py")))
def test_the_benchmark_starts(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
