"""The JDK and JUnit toolchain the helper JVMs run on, with the helper compiled once into the cache.

Why its own module: finding ``java``/``javac`` and the JUnit Platform jars (``ORACULAR_JUNIT_PLATFORM``
when set, else Debian's console-standalone jar, else the launcher's separate jars) and compiling
the helper (``java/oracular/exec``) happen once per cache and JDK, before any helper JVM starts
(:mod:`oracular.execution.jvm`); classpath discovery and the checks need the same places (Debian's
jar folder, the cache root) without starting a JVM. :class:`file_lock` keeps processes that build
the same cache entry from racing.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from oracular.cache import default_cache_dir

HELPER_SOURCES = Path(__file__).resolve().parent / "java"
DEBIAN_JAVA = Path("/usr/share/java")
STANDALONE = "junit-platform-console-standalone.jar"
PLATFORM_PARTS = (
    "junit-platform-launcher.jar",
    "junit-platform-engine.jar",
    "junit-platform-commons.jar",
    "junit-jupiter-engine.jar",
    "junit-jupiter-api.jar",
    "junit-jupiter-params.jar",
    "junit-vintage-engine.jar",
    "junit4.jar",
    "hamcrest-core.jar",
    "opentest4j.jar",
    "apiguardian-api.jar",
)
"""What the launcher needs when Debian's console-standalone jar is absent."""
INSTALL_HINT = "apt-get install default-jdk-headless junit4 junit5"


class ToolchainMissing(RuntimeError):
    """No JDK, or no JUnit Platform jars: checks cannot run on this machine."""


def cache_root() -> Path:
    """``<oracular cache>/exec``: helper classes, scratch builds, results."""
    return default_cache_dir() / "exec"


@dataclass(frozen=True)
class Toolchain:
    java: Path
    javac: Path
    platform: tuple[Path, ...]
    """JUnit Platform launcher with Jupiter + Vintage (and JUnit 4): the helper's own classpath."""
    helper: Path
    """The compiled helper classes."""
    java_version: str

    @property
    def launcher_classpath(self) -> str:
        return os.pathsep.join(str(p) for p in (self.helper, *self.platform))

    @property
    def major(self) -> int:
        """The JDK's feature release (``javac 17.0.15`` -> 17; 0 when unreadable)."""
        digits = "".join(itertools.takewhile(str.isdigit, self.java_version.removeprefix("javac").strip()))
        return int(digits) if digits else 0

    @property
    def security_manager_options(self) -> tuple[str, ...]:
        """JDK 18 to 23 install a security manager (the helper's ``System.exit`` guard) only when
        allowed on the command line; 17 allows it by default, 24 refuses the option."""
        return ("-Djava.security.manager=allow",) if 18 <= self.major <= 23 else ()


_toolchain_lock = threading.Lock()
_toolchains: dict[Path, Toolchain] = {}


def _platform_jars(java_dir: Path) -> tuple[Path, ...]:
    explicit = os.environ.get("ORACULAR_JUNIT_PLATFORM")
    if explicit:
        jars = tuple(Path(p) for p in explicit.split(os.pathsep) if p)
        missing = [str(j) for j in jars if not j.exists()]
        if missing:
            raise ToolchainMissing(f"ORACULAR_JUNIT_PLATFORM names missing files: {', '.join(missing)}")
        return jars
    standalone = java_dir / STANDALONE
    if standalone.exists():
        return (standalone,)
    parts = tuple(java_dir / name for name in PLATFORM_PARTS)
    missing = [p.name for p in parts if not p.exists()]
    if missing:
        raise ToolchainMissing(
            f"JUnit Platform jars missing in {java_dir}: {', '.join(missing)} ({INSTALL_HINT})"
        )
    return parts


def find_toolchain(cache_dir: Path | None = None, java_dir: Path = DEBIAN_JAVA) -> Toolchain:
    """The JDK and JUnit jars, with the helper compiled (once per helper source and JDK)."""
    cache = (cache_dir or cache_root()).resolve()
    with _toolchain_lock:
        if cache in _toolchains:
            return _toolchains[cache]
        java, javac = shutil.which("java"), shutil.which("javac")
        if java is None or javac is None:
            raise ToolchainMissing(f"no JDK on PATH (java/javac not found; {INSTALL_HINT})")
        platform = _platform_jars(java_dir)
        version = (
            subprocess.run([javac, "-version"], capture_output=True, text=True, timeout=60).stdout.strip()
            or "javac"
        )
        helper = _compile_helper(cache, Path(javac), platform, version)
        toolchain = Toolchain(Path(java), Path(javac), platform, helper, version)
        _toolchains[cache] = toolchain
        return toolchain


def helper_fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(HELPER_SOURCES.rglob("*.java")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _compile_helper(cache: Path, javac: Path, platform: tuple[Path, ...], version: str) -> Path:
    key = hashlib.sha256(f"{helper_fingerprint()}\0{version}\0{platform}".encode()).hexdigest()[:16]
    target = cache / "helper" / key
    if (target / "oracular" / "exec" / "Runner.class").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(target.parent / f"{key}.lock"):
        if (target / "oracular" / "exec" / "Runner.class").exists():
            return target
        tmp = target.with_name(f"{key}.tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        sources = [str(p) for p in sorted(HELPER_SOURCES.rglob("*.java"))]
        result = subprocess.run(
            [str(javac), "-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d", str(tmp),
             "-cp", os.pathsep.join(map(str, platform)), *sources],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        if result.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ToolchainMissing(f"cannot compile Oracular's JVM helper: {result.stderr.strip()[:500]}")
        os.replace(tmp, target)
    return target


class file_lock:
    """An exclusive ``flock`` on ``path``: one process at a time builds a shared cache entry."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> file_lock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self._fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
