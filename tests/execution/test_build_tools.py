"""A build tool's answer is remembered per build-file fingerprint; a failure only for a while, so
that installing what it lacked is seen without touching the build file."""

from __future__ import annotations

import os
import time

import pytest

from oracular.execution import build_tools


def test_a_failure_is_asked_again_once_it_is_old(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr(build_tools, "cache_root", lambda: tmp_path)
    answers = iter([{"ok": False, "why": "missing"}, {"ok": True, "entries": ["a.jar"]}])
    asked = []

    def compute() -> dict:
        asked.append(1)
        return next(answers)

    assert build_tools._cached("maven", "k", compute) == {"ok": False, "why": "missing"}
    assert build_tools._cached("maven", "k", compute)["ok"] is False and len(asked) == 1  # remembered
    stale = time.time() - build_tools.FAILURE_TTL_S - 1
    os.utime(tmp_path / "classpath" / "maven-k.json", (stale, stale))
    assert build_tools._cached("maven", "k", compute) == {"ok": True, "entries": ["a.jar"]}
    os.utime(tmp_path / "classpath" / "maven-k.json", (stale, stale))
    assert build_tools._cached("maven", "k", compute)["ok"] is True and len(asked) == 2  # a success stays
