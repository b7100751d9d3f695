"""Asking the project's build tool for the tests' classpath, offline: Maven's
``dependency:build-classpath`` and Gradle's test runtime classpath.

Why a module of its own: each answer costs seconds and runs the build's plugins, so it is
remembered per build-file fingerprint (a failure only for a while: what was missing may be
installed since), and :mod:`oracular.execution.classpath` falls back to local repositories when
neither tool answers.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from oracular.cache import write_atomically
from oracular.execution.toolchain import cache_root
from oracular.java.workspace import walk_project

MAVEN_TIMEOUT_S = 180.0


FAILURE_TTL_S = 600.0
"""How long a build tool's failure is remembered: asking Maven takes seconds, and what it lacked
may be installed since."""


GRADLE_TIMEOUT_S = 300.0


GRADLE_INIT = """
allprojects {
    afterEvaluate { p ->
        p.tasks.register("oracularClasspath") {
            doLast {
                def sets = p.extensions.findByName("sourceSets")
                if (sets != null && sets.findByName("test") != null) {
                    println "ORACULAR_CP " + sets.test.runtimeClasspath.files.join(File.pathSeparator)
                }
            }
        }
    }
}
"""


def build_fingerprint(paths: Iterable[Path]) -> str:
    """The build files' paths, times and sizes: what a remembered answer is valid for."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        try:
            stat = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{stat.st_mtime_ns}\0{stat.st_size}\n".encode())
    return digest.hexdigest()[:20]


def _cached(kind: str, key: str, compute) -> dict:
    """A build tool's answer, remembered per build-file fingerprint; a failure for
    :data:`FAILURE_TTL_S` only (the user may install what was missing meanwhile)."""
    path = cache_root() / "classpath" / f"{kind}-{key}.json"
    try:
        answer = json.loads(path.read_text(encoding="utf-8"))
        if answer.get("ok") or time.time() - path.stat().st_mtime < FAILURE_TTL_S:
            return answer
    except (OSError, ValueError):
        pass
    answer = compute()
    write_atomically(path, json.dumps(answer))
    return answer


def _first_error(output: str) -> str:
    """The first informative ``[ERROR]`` line of a build tool's output, shortened."""
    for line in output.splitlines():
        line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
        text = line.removeprefix("[ERROR]").strip()
        if line.startswith("[ERROR]") and text and not text.endswith(":"):
            return text[:200]
    tail = output.strip().splitlines()
    return tail[-1][:300] if tail else "no output"


def maven_classpath(root: Path, timeout_s: float = MAVEN_TIMEOUT_S) -> tuple[list[Path] | None, str]:
    """``mvn -o dependency:build-classpath`` (test scope, all modules); ``None`` and why on failure."""
    mvn = shutil.which("mvn")
    if mvn is None:
        return None, "Maven: mvn not installed"
    poms = [d / "pom.xml" for d, _, files in walk_project(root) if "pom.xml" in files]

    def compute() -> dict:
        with tempfile.TemporaryDirectory(prefix="oracular-mvn-") as tmp:
            out = Path(tmp) / "classpath.txt"
            command = [mvn, "-o", "-B", "-q", "dependency:build-classpath", f"-Dmdep.outputFile={out}",
                       "-Dmdep.appendOutput=true", "-Dmdep.includeScope=test"]  # fmt: skip
            try:
                done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=timeout_s)
            except subprocess.TimeoutExpired:
                return {"ok": False, "why": f"timed out after {timeout_s:.0f} s"}
            if done.returncode != 0 or not out.exists():
                return {"ok": False, "why": _first_error(done.stdout + done.stderr)}
            text = out.read_text(encoding="utf-8")
        entries = [e for chunk in text.splitlines() for e in chunk.split(os.pathsep) if e.strip()]
        return {"ok": True, "entries": entries}

    answer = _cached("maven", build_fingerprint(poms), compute)
    if not answer["ok"]:
        return None, f"Maven offline failed: {answer['why']}"
    return [Path(e) for e in dict.fromkeys(answer["entries"])], "Maven offline"


def gradle_classpath(root: Path, timeout_s: float = GRADLE_TIMEOUT_S) -> tuple[list[Path] | None, str]:
    """The ``test`` source set's runtime classpath of every Gradle project, offline."""
    gradle = shutil.which("gradle")
    if gradle is None:
        return None, "Gradle: gradle not installed (the wrapper would need the network)"
    builds = [
        d / f
        for d, _, files in walk_project(root)
        for f in files
        if f.startswith(("build.gradle", "settings.gradle"))
    ]

    def compute() -> dict:
        with tempfile.TemporaryDirectory(prefix="oracular-gradle-") as tmp:
            init = Path(tmp) / "oracular.gradle"
            init.write_text(GRADLE_INIT, encoding="utf-8")
            # no daemon: one would outlive the question (and Oracular) by hours, holding a JVM's
            # memory; its project cache in the temporary folder: nothing written into the user's tree
            command = [gradle, "--offline", "--no-daemon", "--project-cache-dir", str(Path(tmp) / "cache"),
                       "-q", "--console=plain", "-I", str(init), "oracularClasspath"]  # fmt: skip
            try:
                done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=timeout_s)
            except subprocess.TimeoutExpired:
                return {"ok": False, "why": f"timed out after {timeout_s:.0f} s"}
        entries = [
            e
            for line in done.stdout.splitlines()
            if line.startswith("ORACULAR_CP ")
            for e in line.removeprefix("ORACULAR_CP ").split(os.pathsep)
            if e.strip()
        ]
        if done.returncode != 0:
            return {"ok": False, "why": _first_error(done.stderr or done.stdout)}
        return {"ok": True, "entries": entries}

    answer = _cached("gradle", build_fingerprint(builds), compute)
    if not answer["ok"]:
        return None, f"Gradle offline failed: {answer['why']}"
    return [Path(e) for e in dict.fromkeys(answer["entries"])], "Gradle offline"
