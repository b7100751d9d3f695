"""Download and unpack the upstream source of Debian packages into a local, resumable cache.

Why this module exists: the training corpus is the developer-written JUnit tests shipped inside
Debian's Java source packages. Getting them means ~340 ``apt-get source`` calls against a partial
mirror (the Debian packaging part often 404s, a few upstream tarballs are missing) and ~600 MB of
tarballs, so the step has to tolerate per-package failures, never download twice, and never leave
a half-unpacked tree that a later mining run would mistake for a complete one. Hence:

* ``<cache>/downloads/<pkg>/`` keeps what apt fetched; it only appears (by rename) once a
  download produced an upstream tarball, so its presence means "skip the download".
* ``<cache>/src/<pkg>/`` is the unpacked upstream project root. It is built in a temporary
  folder, marker file included, and renamed into place, so a package either has a complete tree
  with ``.oracular-fetched.json`` or nothing.
* Tarballs are untrusted input: members with absolute paths or ``..`` reject the whole tarball,
  and extraction goes through tarfile's ``"data"`` filter.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from tqdm import tqdm
from tqdm.contrib.logging import logging_redirect_tqdm

from oracular.corpus.lists import is_valid_package_name
from oracular.java.workspace import is_test_path

__all__ = [
    "MARKER_NAME",
    "AptSourceError",
    "Downloader",
    "FetchReport",
    "PackageStatus",
    "UnsafeTarballError",
    "apt_source_download",
    "count_test_files",
    "fetch_packages",
    "find_orig_tarball",
    "unpack_tarball",
]

logger = logging.getLogger("oracular.corpus")

MARKER_NAME = ".oracular-fetched.json"
MAX_MEMBER_BYTES = 20 * 1024 * 1024
"""Files bigger than this are not extracted: they are bundled binaries or data, never test code."""
APT_TIMEOUT_S = 600.0

Downloader = Callable[[str, Path], Path | None]
"""``(package, dest_dir) -> tarball``: put the upstream tarball in ``dest_dir``, or return None."""

Status = Literal["fetched", "cached", "failed"]

# NAME_VERSION.orig.tar.EXT, or NAME_VERSION.orig-COMPONENT.tar.EXT for secondary tarballs.
_ORIG_TARBALL = re.compile(
    r"(?P<source>[^_/]+)_(?P<version>[^_/]+)\.orig(?:-(?P<component>[A-Za-z0-9][A-Za-z0-9-]*))?"
    r"\.tar\.(?:gz|xz|bz2|lzma|zst)"
)
_DEB_SRC_HINT = (
    "apt has no 'deb-src' sources. Enable them: in /etc/apt/sources.list.d/debian.sources change "
    "each 'Types: deb' line to 'Types: deb deb-src' (or add 'deb-src' lines to "
    "/etc/apt/sources.list), then run 'apt-get update'."
)


class AptSourceError(RuntimeError):
    """``apt-get source`` could not be used at all (missing, no deb-src, unknown package, hung)."""


class UnsafeTarballError(ValueError):
    """A tarball member would land outside the extraction folder."""


@dataclass
class PackageStatus:
    """Outcome for one package; ``reason`` is set only when ``status == "failed"``."""

    package: str
    status: Status
    version: str | None = None
    tarball: str | None = None
    test_files: int = 0
    elapsed_s: float = 0.0
    reason: str | None = None


@dataclass
class FetchReport:
    """What a :func:`fetch_packages` run did, per package and in total."""

    cache_dir: str
    packages: list[PackageStatus] = field(default_factory=list)
    elapsed_s: float = 0.0

    def _count(self, status: Status) -> int:
        return sum(1 for p in self.packages if p.status == status)

    @property
    def fetched(self) -> int:
        """Packages downloaded and/or unpacked by this run."""
        return self._count("fetched")

    @property
    def cached(self) -> int:
        """Packages already complete in the cache, left untouched."""
        return self._count("cached")

    @property
    def failed(self) -> int:
        """Packages with no usable source tree; see :attr:`failures` for why."""
        return self._count("failed")

    @property
    def failures(self) -> dict[str, str]:
        """``package -> reason`` for every failed package."""
        return {p.package: p.reason or "unknown" for p in self.packages if p.status == "failed"}

    @property
    def no_tests(self) -> int:
        """Available (fetched or cached) packages in which no test file was found."""
        return sum(1 for p in self.packages if p.status != "failed" and p.test_files == 0)

    @property
    def test_files(self) -> int:
        """Test files across all available packages."""
        return sum(p.test_files for p in self.packages if p.status != "failed")

    def summary(self) -> str:
        """One human-readable paragraph."""
        total = len(self.packages)
        available = total - self.failed
        text = (
            f"{available} of {total} packages available in {self.cache_dir} "
            f"({self.fetched} fetched, {self.cached} already cached), "
            f"with {self.test_files} test files in total; {self.failed} failed"
        )
        if self.failures:
            text += " (" + "; ".join(f"{p}: {r}" for p, r in self.failures.items()) + ")"
        empty = [p.package for p in self.packages if p.status != "failed" and p.test_files == 0]
        text += f"; {self.no_tests} without test files"
        if empty:
            text += " (" + ", ".join(empty) + ")"
        return text + f". Took {self.elapsed_s:.1f} s."

    def to_json(self, indent: int | None = 2) -> str:
        """The totals and every :class:`PackageStatus`, as a JSON document."""
        document = {
            "cache_dir": self.cache_dir,
            "elapsed_s": round(self.elapsed_s, 3),
            "total": len(self.packages),
            "fetched": self.fetched,
            "cached": self.cached,
            "failed": self.failed,
            "no_tests": self.no_tests,
            "test_files": self.test_files,
            "failures": self.failures,
            "packages": [asdict(p) for p in self.packages],
        }
        return json.dumps(document, indent=indent)


def find_orig_tarball(directory: Path) -> Path | None:
    """The main ``*.orig.tar.*`` in ``directory`` (not a ``.orig-COMPONENT`` one), if any."""
    if not directory.is_dir():
        return None
    mains = sorted(
        p
        for p in directory.iterdir()
        if p.is_file() and (m := _ORIG_TARBALL.fullmatch(p.name)) is not None and m["component"] is None
    )
    return mains[0] if mains else None


def apt_source_download(name: str, dest_dir: Path, *, timeout: float = APT_TIMEOUT_S) -> Path | None:
    """Run ``apt-get source --download-only NAME`` in ``dest_dir``; return the orig tarball or None.

    A non-zero exit is normal on the partial mirror (the Debian part 404s after the tarball
    arrived), so the result is judged by what is on disk. Raises :class:`AptSourceError` when apt
    cannot be used for this package at all.
    """
    try:
        proc = subprocess.run(
            ["apt-get", "source", "--download-only", name],
            cwd=dest_dir,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "LC_ALL": "C"},
            check=False,
        )
    except FileNotFoundError as exc:
        raise AptSourceError(
            "apt-get not found: fetching needs a Debian/Ubuntu host with deb-src enabled "
            "(or put the tarballs in <cache>/downloads/<package>/ yourself)"
        ) from exc
    except subprocess.TimeoutExpired as exc:
        raise AptSourceError(f"apt-get source timed out after {timeout:.0f} s") from exc
    errors = [line for line in proc.stderr.splitlines() if line.startswith("E:")]
    if any("deb-src" in line for line in errors):
        raise AptSourceError(_DEB_SRC_HINT)
    if any("Unable to find a source package" in line for line in errors):
        raise AptSourceError(
            f"no source package named {name!r} in the apt index "
            "(check the name; run 'apt-get update' after enabling deb-src)"
        )
    tarball = find_orig_tarball(dest_dir)
    if tarball is None:
        logger.warning(
            "%s: apt-get exited %d without a tarball: %s",
            name,
            proc.returncode,
            " | ".join(errors) or proc.stderr.strip()[-300:],
        )
    elif proc.returncode != 0:
        logger.debug("%s: apt-get exited %d but the tarball arrived", name, proc.returncode)
    return tarball


def _is_test_file(relative: PurePosixPath) -> bool:
    """The engine's own rule (one definition of "test source" for mining and scanning)."""
    return relative.suffix == ".java" and is_test_path(Path(relative))


def count_test_files(root: Path) -> int:
    """Count ``.java`` files under ``src/test`` or named ``*Test``, ``*Tests`` or ``*TestCase``."""
    count = 0
    for folder, _dirs, files in os.walk(root):
        base = PurePosixPath(Path(folder).relative_to(root).as_posix())
        count += sum(1 for f in files if _is_test_file(base / f))
    return count


def _safe_member_filter(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    parts = PurePosixPath(member.name).parts
    if member.name.startswith(("/", "\\")) or ".." in parts:
        raise UnsafeTarballError(f"unsafe path in tarball: {member.name!r}")
    filtered = tarfile.data_filter(member, dest)
    if filtered is not None and filtered.isfile() and filtered.size > MAX_MEMBER_BYTES:
        logger.debug("skipping %s (%d bytes)", member.name, member.size)
        return None
    return filtered


def unpack_tarball(tarball: Path, dest: Path) -> Path:
    """Extract ``tarball`` into the empty folder ``dest``; return the project root inside it.

    The root is ``dest`` itself, or its only entry when the tarball has a single top-level folder
    (the usual ``project-1.0/``). Raises :class:`UnsafeTarballError` for path-escaping members.
    """
    with tarfile.open(tarball) as archive:
        archive.extractall(dest, filter=_safe_member_filter)
    entries = list(dest.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and not entries[0].is_symlink():
        return entries[0]
    return dest


class _Fetcher:
    """One package at a time, on any thread; shared state is only the fetch.log append."""

    def __init__(self, cache_dir: Path, downloader: Downloader) -> None:
        self.downloads = cache_dir / "downloads"
        self.src = cache_dir / "src"
        self.log_path = cache_dir / "fetch.log"
        self.downloader = downloader
        self._log_lock = threading.Lock()
        self.downloads.mkdir(parents=True, exist_ok=True)
        self.src.mkdir(parents=True, exist_ok=True)

    def run(self, name: str) -> PackageStatus:
        start = time.monotonic()
        try:
            status = self._fetch(name, start)
        except Exception as exc:  # one package's failure must never stop the others
            logger.debug("%s failed", name, exc_info=True)
            status = PackageStatus(name, "failed", reason=f"{type(exc).__name__}: {exc}")
        status.elapsed_s = round(time.monotonic() - start, 3)
        self._record(status)
        return status

    def _fetch(self, name: str, start: float) -> PackageStatus:
        if not is_valid_package_name(name):
            return PackageStatus(name, "failed", reason="not a Debian source package name")
        marker = _read_marker(self.src / name / MARKER_NAME)
        if marker is not None:
            return PackageStatus(
                name,
                "cached",
                version=marker.get("version"),
                tarball=marker.get("tarball"),
                test_files=int(marker.get("test_files", 0)),
            )
        tarball = find_orig_tarball(self.downloads / name) or self._download(name)
        if tarball is None:
            return PackageStatus(name, "failed", reason="no upstream tarball on the mirror")
        return self._unpack(name, tarball, start)

    def _download(self, name: str) -> Path | None:
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.partial-", dir=self.downloads))
        try:
            got = self.downloader(name, staging)
            if got is None:
                return None
            if got.parent != staging:
                shutil.copy2(got, staging / got.name)
            final = self.downloads / name
            shutil.rmtree(final, ignore_errors=True)  # leftovers without a tarball
            staging.rename(final)
            return final / got.name
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _unpack(self, name: str, tarball: Path, start: float) -> PackageStatus:
        workdir = Path(tempfile.mkdtemp(prefix=f".{name}.unpack-", dir=self.src))
        try:
            root = unpack_tarball(tarball, workdir)
            match = _ORIG_TARBALL.fullmatch(tarball.name)
            status = PackageStatus(
                name,
                "fetched",
                version=match["version"] if match else None,
                tarball=tarball.name,
                test_files=count_test_files(root),
            )
            marker = {
                "package": name,
                "version": status.version,
                "tarball": status.tarball,
                "test_files": status.test_files,
                "elapsed_s": round(time.monotonic() - start, 3),
                "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            (root / MARKER_NAME).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
            final = self.src / name
            shutil.rmtree(final, ignore_errors=True)  # an unmarked, hence incomplete, tree
            root.rename(final)
            return status
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    def _record(self, status: PackageStatus) -> None:
        if status.status == "failed":
            logger.warning("%s: failed: %s", status.package, status.reason)
        else:
            logger.info(
                "%s: %s %s (%d test files, %.1f s)",
                status.package,
                status.status,
                status.version,
                status.test_files,
                status.elapsed_s,
            )
        line = "\t".join(
            [
                datetime.now(UTC).isoformat(timespec="seconds"),
                status.package,
                status.status,
                status.version or "-",
                str(status.test_files),
                f"{status.elapsed_s:.1f}s",
                status.reason or "",
            ]
        )
        with self._log_lock, self.log_path.open("a", encoding="utf-8") as log:
            log.write(line.rstrip("\t") + "\n")


def _read_marker(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def fetch_packages(
    names: Iterable[str],
    cache_dir: str | os.PathLike[str],
    *,
    downloader: Downloader = apt_source_download,
    jobs: int = 2,
    progress: bool = True,
) -> FetchReport:
    """Make ``<cache_dir>/src/<pkg>/`` exist for every package that can be had; report the rest.

    Packages already marked complete are skipped, tarballs already downloaded are only unpacked,
    and failures are recorded per package, never raised. ``jobs`` packages are handled at once.
    The report lists packages in input order (duplicates dropped).
    """
    cache = Path(cache_dir).expanduser()
    unique = list(dict.fromkeys(names))
    fetcher = _Fetcher(cache, downloader)
    report = FetchReport(cache_dir=str(cache))
    start = time.monotonic()
    results: dict[str, PackageStatus] = {}
    with (
        ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="fetch") as pool,
        tqdm(total=len(unique), desc="fetch", unit="pkg", disable=not progress) as bar,
        logging_redirect_tqdm() if progress else contextlib.nullcontext(),  # keep the bar intact
    ):
        futures = [pool.submit(fetcher.run, name) for name in unique]
        for future in as_completed(futures):
            status = future.result()
            results[status.package] = status
            bar.set_postfix_str(f"{status.package}: {status.status}", refresh=False)
            bar.update()
    report.packages = [results[name] for name in unique]
    report.elapsed_s = time.monotonic() - start
    logger.info("%s", report.summary())
    return report
