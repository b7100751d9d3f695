"""Values that hold the time of the run: what a prefix read off the clock is no expectation.

Why: each prefix runs twice, back to back, and a value both runs agree on is offered as the
expected one (:mod:`oracular.execution.observe`). A value holding the day or the second of the run
(``LocalDate.now()``, a formatted ``new Date()``, an epoch second) agrees with itself when both
runs fall within one second, and its oracle fails the next day: a false alarm that no check made
the same day catches. Seen on train (pdfbox's ``assertEquals("2026-12-07T16:56:16+00:00",
st.getPropertyValueAsString(...))`` as a top-1) and in dev runs (``LocalDate`` values of the day).
Milliseconds differ between the two runs and were already left out.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache

DATE_FORMATS = ("%Y-%m-%d", "%Y%m%d", "%Y/%m/%d", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%a %b %d", "%d %b %Y")
"""How a day is written by ISO formats, ``SimpleDateFormat`` patterns and ``Date.toString()``
(``Mon Dec 07 16:56:16 UTC 2026``); with :func:`_spelt` for "Dec 7, 2026" (``DateFormat.MEDIUM``)."""
EPOCH_SLACK_S = 2 * 86_400
"""An epoch second or millisecond this close to now is the clock's (time zones and a run near
midnight included)."""
_DIGITS = re.compile(r"(?<!\d)(\d{10}|\d{13})(?!\d)")


def _spelt(day: date) -> tuple[str, ...]:
    month = day.strftime("%b")
    return (f"{month} {day.day}, {day.year}", f"{day.day} {month} {day.year}")


def _days(now: datetime) -> tuple[date, ...]:
    """The run's day, in UTC and here, and the days either side (a run near midnight, a JVM in
    another time zone)."""
    local = now.astimezone()
    return tuple(sorted({(m + timedelta(days=shift)).date() for m in (now, local) for shift in (-1, 0, 1)}))


@lru_cache(maxsize=4)
def _written(days: tuple[date, ...]) -> tuple[str, ...]:
    """Every way :data:`DATE_FORMATS` and :func:`_spelt` write ``days``: made once a day, not once
    per value read."""
    return tuple(s for day in days for s in (*(day.strftime(f) for f in DATE_FORMATS), *_spelt(day)))


def holds_the_clock(payload: str, now: datetime | None = None) -> bool:
    """Whether an observed value's text holds the run's day or an epoch time near ``now``."""
    now = now or datetime.now(UTC)
    if any(written in payload for written in _written(_days(now))):
        return True
    seconds = now.timestamp()
    for match in _DIGITS.finditer(payload):
        value = int(match.group(1))
        if abs((value / 1000 if len(match.group(1)) == 13 else value) - seconds) <= EPOCH_SLACK_S:
            return True
    return False
