"""What a prefix read off the clock is no expectation (:mod:`oracular.execution.clock_values`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from oracular.execution.clock_values import holds_the_clock

NOW = datetime(2026, 12, 7, 16, 56, 16, tzinfo=UTC)


@pytest.mark.parametrize(
    "payload",
    [
        '"2026-12-07"',  # LocalDate.now()
        '"2026-12-07T16:56:16+00:00"',  # a formatted Calendar (pdfbox)
        '"Mon Dec 07 16:56:16 UTC 2026"',  # Date.toString()
        '"07/12/2026"',
        '"20261207-report.txt"',
        '"Dec 7, 2026"',  # DateFormat.MEDIUM
        "1796662576",  # an epoch second
        "1796662576123",  # an epoch millisecond
        '"2026-12-08"',  # the day after in a time zone ahead
    ],
)
def test_the_runs_day_or_time_is_the_clocks(payload: str) -> None:
    assert holds_the_clock(payload, NOW)


@pytest.mark.parametrize(
    "payload",
    ['"2019-03-01"', '"hello"', "42", "1234567890", '"12345678901234"', '"Dec 7, 2019"'],
)
def test_other_values_are_not(payload: str) -> None:
    assert not holds_the_clock(payload, NOW)
