"""The train/dev package lists that decide which Debian projects may feed which stage.

Why this module exists: the corpus is split by *project*, not by test, so that the metrics we
publish are measured on code the models never trained on. Everything downstream (fetching, mining,
dictionary building) must therefore agree on one reading of the two list files, and a package that
slipped into both lists would silently leak dev data into training. Parsing, de-duplication and
that overlap check live here, in one place, so no caller can get them subtly different.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = [
    "LISTS_ENV_VAR",
    "TUNE",
    "CorpusLists",
    "Split",
    "default_lists_dir",
    "is_valid_package_name",
    "read_package_list",
]

LISTS_ENV_VAR = "ORACULAR_CORPUS_LISTS"
TRAIN_FILE = "train-packages.txt"
DEV_FILE = "dev-packages.txt"

Split = Literal["train", "dev"]

TUNE = ("commons-csv", "commons-math3", "args4j", "joptsimple", "javatuples", "java-diff-utils", "xmlunit",
        "opencsv")  # fmt: skip
"""The dev projects whose failures may be read to build rules (``DEVELOPERS.md``): the *tune* split.
The other dev projects are the *report* split: their figures are the headline, and nothing is
chosen, fitted or read test by test on them."""

# Debian policy 5.6.1: lower-case alphanumerics plus "+", "-" and ".", at least two characters,
# starting with an alphanumeric. Names become directory names and command arguments, so anything
# else (a "/" or ".." above all) is refused rather than trusted.
_PACKAGE_NAME = re.compile(r"[a-z0-9][a-z0-9+.-]+")


def is_valid_package_name(name: str) -> bool:
    """True if ``name`` is a well-formed Debian source package name."""
    return _PACKAGE_NAME.fullmatch(name) is not None


def default_lists_dir() -> Path:
    """Locate the folder holding ``train-packages.txt`` and ``dev-packages.txt``.

    ``$ORACULAR_CORPUS_LISTS`` wins; otherwise look for ``shared/corpus`` in every ancestor of this
    source file and of the working directory (the lists live beside the repository, in the
    ``shared/`` folder of its parent).
    """
    override = os.environ.get(LISTS_ENV_VAR)
    if override:
        return Path(override).expanduser()
    starts = (Path(__file__).resolve().parent, Path.cwd().resolve())
    for start in starts:
        for folder in (start, *start.parents):
            candidate = folder / "shared" / "corpus"
            if (candidate / TRAIN_FILE).is_file() or (candidate / DEV_FILE).is_file():
                return candidate
    raise FileNotFoundError(
        f"Could not find the corpus package lists ({TRAIN_FILE}, {DEV_FILE}): no 'shared/corpus' "
        f"folder above {starts[0]} or {starts[1]}. Set {LISTS_ENV_VAR}=/path/to/shared/corpus, "
        "or pass the list file explicitly with --list FILE."
    )


def read_package_list(path: str | os.PathLike[str]) -> list[str]:
    """Read one package name per line, skipping blanks and ``#`` comments, first occurrence kept.

    Raises ``ValueError`` naming the file and line for anything that is not a package name.
    """
    path = Path(path)
    names: dict[str, None] = {}
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        name = raw.split("#", 1)[0].strip()
        if not name:
            continue
        if not is_valid_package_name(name):
            raise ValueError(f"{path}:{lineno}: {name!r} is not a Debian source package name")
        names.setdefault(name, None)
    return list(names)


@dataclass(frozen=True)
class CorpusLists:
    """Both package lists, checked to be disjoint."""

    train: list[str]
    dev: list[str]

    def __post_init__(self) -> None:
        overlap = sorted(set(self.train) & set(self.dev))
        if overlap:
            raise ValueError(
                f"{len(overlap)} package(s) appear in both the train and the dev list, which would "
                f"leak dev projects into training: {', '.join(overlap)}"
            )

    @classmethod
    def load(cls, directory: str | os.PathLike[str] | None = None) -> CorpusLists:
        """Read both lists from ``directory`` (default: :func:`default_lists_dir`)."""
        folder = Path(directory) if directory is not None else default_lists_dir()
        return cls(
            train=read_package_list(folder / TRAIN_FILE),
            dev=read_package_list(folder / DEV_FILE),
        )

    @property
    def tune(self) -> list[str]:
        return [p for p in self.dev if p in TUNE]

    @property
    def report(self) -> list[str]:
        """The dev projects nothing is tuned on (:data:`TUNE`'s complement)."""
        return [p for p in self.dev if p not in TUNE]

    def split_of(self, package: str) -> Split | None:
        """``"train"`` or ``"dev"`` for a listed package; ``None`` means reserved for evaluation."""
        if package in self.train:
            return "train"
        if package in self.dev:
            return "dev"
        return None
