"""Benchmark batch ``oracular suggest`` over a whole project's test sources, locally and on Ray.

Why: the issue's targets are ">= 10 test files/s over commons-io's test sources with ``--jobs 2``
(static ranking, shipped model), peak RSS <= 1.5 GiB", "with observation, all of commons-io's tests
in <= 10 minutes on 2 cores", and for Ray "the same JSON Lines as the local run, and its overhead
against the process pool measured".

Each run is one ``oracular suggest PROJECT --json --jobs N`` process, as a user runs it, timed
from its start to its exit; the JSON Lines go to a file. The peak RSS is the largest sum of the
resident memory of the command and all its children (pool workers, helper JVMs, Ray's processes
while ``--ray`` runs), sampled from ``/proc`` every 100 ms.

Run from the repository root with the project's virtual environment::

    .venv/bin/python bench/batch_bench.py                        # commons-io, static, --jobs 2
    .venv/bin/python bench/batch_bench.py --observe              # ... running each test's prefix
    .venv/bin/python bench/batch_bench.py --ray                  # also on a fresh local Ray
    .venv/bin/python bench/batch_bench.py --project DIR --jobs 1 --json /tmp/batch.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from scan_bench import machine

from oracular.cache import default_cache_dir
from oracular.java.workspace import test_sources

PAGE = os.sysconf("SC_PAGE_SIZE")


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (0 once it has exited)."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            with open(f"/proc/{current}/statm") as statm:
                total += int(statm.read().split()[1]) * PAGE
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    pending += [int(c) for c in children.read().split()]
        except (OSError, ValueError):
            continue
    return total


@dataclass
class Run:
    label: str
    command: list[str]
    seconds: float
    exit_code: int
    files: int
    lines: int
    peak_rss_mib: float
    summary: str
    first_file_s: float
    """When the first file's document arrived: start-up, model, index."""
    steady_files_per_s: float
    """Files per second from the first document to the last."""

    @property
    def files_per_s(self) -> float:
        return self.files / self.seconds


def run(label: str, command: list[str], files: int, out: Path, env: dict[str, str]) -> Run:
    peak = 0
    arrivals: list[float] = []
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.1)

    def drain_stderr(into: list[str]) -> None:
        assert process.stderr is not None
        into.extend(process.stderr)

    err: list[str] = []
    threads = [
        threading.Thread(target=sample, daemon=True),
        threading.Thread(target=drain_stderr, args=(err,)),
    ]
    for thread in threads:
        thread.start()
    assert process.stdout is not None
    with out.open("w") as lines:
        for line in process.stdout:  # one JSON document per file, as each file finishes
            arrivals.append(time.perf_counter() - start)
            lines.write(line)
    process.wait()
    seconds = time.perf_counter() - start
    done.set()
    for thread in threads:
        thread.join()
    summary = "; ".join(line.strip() for line in err if "file(s)" in line or "observed" in line)
    first = arrivals[0] if arrivals else seconds
    steady = (
        (len(arrivals) - 1) / (arrivals[-1] - first) if len(arrivals) > 1 and arrivals[-1] > first else 0.0
    )
    print(f"{label}: {seconds:.1f} s, {files / seconds:.1f} files/s (first file after {first:.1f} s, then "
          f"{steady:.1f} files/s), peak {peak / 2**20:.0f} MiB, exit {process.returncode}; {summary}",
          flush=True)  # fmt: skip
    return Run(
        label,
        command,
        seconds,
        process.returncode,
        files,
        len(arrivals),
        peak / 2**20,
        summary,
        first,
        steady,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", type=Path, help="a Java project (default: commons-io from the cache)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--observe", action="store_true", help="run each test's prefix (default: --no-check)")
    parser.add_argument("--ray", action="store_true", help="also run on a fresh local Ray and compare")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    project = args.project or default_cache_dir() / "src" / "commons-io"
    if not project.is_dir():
        print(f"batch_bench: no project at {project} (run 'oracular corpus fetch')", file=sys.stderr)
        return 2
    files = len(list(test_sources([project])))
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    base = [sys.executable, "-m", "oracular", "suggest", str(project), "--json", "--jobs", str(args.jobs)]
    if not args.observe:
        base.append("--no-check")
    mode = "observed" if args.observe else "static"
    print(f"{project}: {files} test files, {mode}, --jobs {args.jobs}; load {os.getloadavg()}", flush=True)
    runs = []
    with tempfile.TemporaryDirectory(prefix="oracular-batch-") as tmp:
        pool_out = Path(tmp) / "pool.jsonl"
        runs.append(run(f"process pool ({args.jobs})", base, files, pool_out, env))
        identical = None
        if args.ray:
            ray_out = Path(tmp) / "ray.jsonl"
            runs.append(
                run("local Ray (started by the command)", [*base, "--ray", "local"], files, ray_out, env)
            )
            identical = sorted(ray_out.read_text().splitlines()) == sorted(pool_out.read_text().splitlines())
            print(f"Ray JSON Lines identical to the pool's (order aside): {identical}; "
                  f"overhead {runs[1].seconds - runs[0].seconds:+.1f} s")  # fmt: skip
    if args.json:
        figures = {
            "machine": machine(),
            "load": os.getloadavg(),
            "project": str(project),
            "mode": mode,
            "runs": [{**asdict(r), "files_per_s": r.files_per_s} for r in runs],
            "ray_identical": identical,
        }
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
