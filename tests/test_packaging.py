"""The wheel carries the shipped weights, where an install that is not a checkout looks for them.

Why: an editable install reads ``models/`` from the checkout, so nothing else notices when a
plain ``pip install`` (a wheel) silently loses the model and falls back to the baseline ranker.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from oracular.candidates import values

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_installs_the_models_folder_under_share(tmp_path: Path) -> None:
    pytest.importorskip("setuptools", reason="building a wheel without isolation needs setuptools")
    build = [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*build, "-w", str(tmp_path)], check=True, cwd=tmp_path)
    (wheel,) = tmp_path.glob("oracular-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = [p.relative_to(REPO / "models") for p in (REPO / "models").rglob("*") if p.is_file()]
    assert shipped
    for path in shipped:
        assert any(name.endswith(f".data/data/share/oracular/models/{path.as_posix()}") for name in names), (
            path
        )


def test_outside_a_checkout_the_models_are_read_from_the_install_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ORACULAR_MODELS", raising=False)
    monkeypatch.setattr(values, "__file__", str(tmp_path / "site-packages/oracular/candidates/values.py"))
    assert values.models_dir() == Path(sys.prefix) / "share" / "oracular" / "models"
