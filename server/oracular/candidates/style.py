"""How each test framework spells an oracle, so emitted code compiles in the user's file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from oracular.java.junit import Flavour

_JUNIT4_VERSION = re.compile(
    r"<artifactId>junit</artifactId>\s*<version>4\.(\d+)|junit:junit:4\.(\d+)|junit4-4\.(\d+)"
)

FORCED_STYLES = (Flavour.JUNIT4, Flavour.JUNIT5)
"""The frameworks a user may force the suggestions' spelling to (JUnit 3 files keep theirs)."""
ASSERTION_STYLES = ("auto", *(style.value for style in FORCED_STYLES))
"""The ``assertion_style`` setting's values: ``auto`` spells oracles as the file's imports do."""


@dataclass(frozen=True)
class AssertionStyle:
    flavour: Flavour
    assertions_class: str | None
    """Class to import assertions from statically; ``None`` when they are inherited (JUnit 3)."""
    expected_first: bool
    """JUnit's ``assertEquals(expected, actual)``; TestNG's order is ``(actual, expected)``."""
    supports_assert_throws: bool
    boxed_needs_cast: bool
    """JUnit 4, JUnit 3 and TestNG have no ``assertEquals(int, Integer)``: the call is ambiguous."""

    def static_import(self, method: str) -> str | None:
        return f"{self.assertions_class}.{method}" if self.assertions_class else None


def junit4_supports_assert_throws(project_root: Path | None, source_text: str = "") -> bool:
    """JUnit 4.13 added ``assertThrows``: trust the build file, or the file already using it."""
    if "assertThrows(" in source_text:
        return True
    if project_root is None:
        return False
    for name in ("pom.xml", "build.gradle", "build.gradle.kts"):
        build = project_root / name
        if build.is_file():
            try:
                match = _JUNIT4_VERSION.search(build.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            if match:
                minor = int(next(g for g in match.groups() if g))
                return minor >= 13
    return False


def style_for(flavour: Flavour, *, junit4_assert_throws: bool = False) -> AssertionStyle:
    if flavour is Flavour.JUNIT5:
        return AssertionStyle(flavour, "org.junit.jupiter.api.Assertions", True, True, False)
    if flavour is Flavour.JUNIT4:
        return AssertionStyle(flavour, "org.junit.Assert", True, junit4_assert_throws, True)
    if flavour is Flavour.TESTNG:
        return AssertionStyle(flavour, "org.testng.Assert", False, True, True)
    return AssertionStyle(flavour, None, True, False, True)
