"""Benchmark cold starts: a new ``oracular serve`` to its first diagnostics, a new ``oracular suggest``.

Why: the issue's targets are "first diagnostics on the example <= 3 s after the server starts" and
"``oracular suggest`` on one file <= 3 s". Both are dominated by start-up: Python, the imports,
the project's index and the model (torch, the weights, int8 quantisation). The model loads in a
background thread that starts as early as it can (the server's ``initialized``; ``suggest``
before it indexes), so its loading overlaps the rest; ranking the first test waits for it.

Each sample is a fresh process:

- **serve**: from starting ``oracular serve`` (stdio, ``device: cpu``) to the first
  ``publishDiagnostics`` of the example's ``StackTest.java``, opened right after ``initialized``,
  as an editor opening a file does, and to the ranked ones that follow once the model has loaded;
  the time to the ``initialize`` answer is noted too;
- **suggest --no-check**: ``oracular suggest StackTest.java --no-check``, start to exit;
- **suggest**: the same with its default, observing the values by running each test's prefix
  (a JVM starts; ``--observe`` only).

Run from the repository root with the project's virtual environment::

    .venv/bin/python bench/cold_start_bench.py                    # 5 samples of each
    .venv/bin/python bench/cold_start_bench.py --repeat 10 --observe --json /tmp/cold.json
    ORACULAR_RANKER=baseline .venv/bin/python bench/cold_start_bench.py   # without the model
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsp_bench import CAPABILITIES, EXAMPLE_TEST, BenchClient
from lsprotocol import types
from scan_bench import machine


async def serve_once() -> tuple[float, float, float, int]:
    """Seconds to the ``initialize`` answer, to the example's first diagnostics and to its ranked
    ones (the same when the model was loaded first); how many diagnostics there were."""
    client = BenchClient()
    start = time.perf_counter()
    await client.start_io(sys.executable, "-m", "oracular", "serve")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=CAPABILITIES, initialization_options={"oracular": {"device": "cpu"}}, process_id=None
        )
    )
    initialized = time.perf_counter() - start
    client.initialized(types.InitializedParams())
    uri = EXAMPLE_TEST.as_uri()
    text = EXAMPLE_TEST.read_text(encoding="utf-8")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="java", version=1, text=text)
        )
    )
    ranked, diagnostics = await client.diagnostics_for(uri, 1)  # the complete set
    arrived = client.first.pop((uri, 1), ranked)  # the first: pending while the model loads
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return initialized, arrived - start, ranked - start, len(diagnostics)


def suggest_once(*options: str) -> float:
    command = [sys.executable, "-m", "oracular", "suggest", str(EXAMPLE_TEST), *options]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def describe(name: str, samples: list[float]) -> str:
    runs = " ".join(f"{s:.2f}" for s in samples)
    return f"{name}: median {statistics.median(samples):.2f} s, max {max(samples):.2f} s ({runs})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="samples of each (default 5)")
    parser.add_argument("--observe", action="store_true", help="also time 'suggest' observing values (a JVM)")
    parser.add_argument("--json", type=Path, help="write every sample here")
    args = parser.parse_args(argv)
    print(f"load before: {os.getloadavg()}", flush=True)
    figures: dict[str, list[float]] = {
        "serve: initialize": [],
        "serve: first diagnostics": [],
        "serve: ranked diagnostics": [],
    }
    for _ in range(args.repeat):
        initialized, diagnostics, ranked, count = asyncio.run(serve_once())
        figures["serve: initialize"].append(initialized)
        figures["serve: first diagnostics"].append(diagnostics)
        figures["serve: ranked diagnostics"].append(ranked)
        assert count > 0, "the example has oracle-free tests: its diagnostics cannot be empty"
    figures["suggest --no-check"] = [suggest_once("--no-check") for _ in range(args.repeat)]
    if args.observe:
        figures["suggest (observing)"] = [suggest_once() for _ in range(args.repeat)]
    for name, samples in figures.items():
        print(describe(name, samples))
    print(f"load after: {os.getloadavg()}")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "samples_s": figures}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
