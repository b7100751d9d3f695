"""How long a loose test file (no build file, no ``.git`` above it) holds up another project's
diagnostics.

Why: a ``LooseTest.java`` dropped into a folder of checkouts once made the server index every
checkout in that folder on its one analysis thread, and a document of another project waited
28 s for its diagnostics behind it. Now only the loose file's own folder is indexed, on a thread
of its own; the target is at most 1 s of delay.

What it does, ``--repeat`` times: copy the dev projects (``--projects``, from the corpus cache)
into a temporary folder of checkouts, with a ``LooseTest.java`` beside them, and the bundled
example elsewhere; start a server; open the loose file and, at once, the example's
``StackTest.java``; time ``didOpen`` -> diagnostics of the example. The server is warm: its ranker
loaded, and the example indexed and ranked once (``BoundedCounterTest.java``). The same without the
loose file is the reference. The delay is the difference of the medians.

Run from the repository root::

    .venv/bin/python bench/loose_bench.py
    .venv/bin/python bench/loose_bench.py --repeat 5 --json /tmp/loose.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scan_bench import machine
from soak_bench import PROJECTS, REPLY_TIMEOUT_S, Peer

from oracular.cache import default_cache_dir

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "stack"
STACK_TEST = Path("src/test/java/org/example/stack/StackTest.java")
WARM_UP = STACK_TEST.with_name("BoundedCounterTest.java")
LOOSE_PROJECTS = PROJECTS + ",guava-libraries,commons-math3"
"""About 5,300 Java files beside the loose file: the issue's folder held 7,728."""
LOOSE_TEST = REPO / "tests" / "fixtures" / "loose" / "LooseTest.java"


async def time_to_diagnostics(folder: Path, loose: Path | None) -> float:
    """Seconds from opening the example's test (right after ``loose``, if any) to its diagnostics."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "oracular",
        "serve",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    peer = Peer(process)
    try:
        options = {"oracular": {"device": "cpu"}}
        _, ready = peer.request("initialize", {"capabilities": {}, "initializationOptions": options})
        await asyncio.wait_for(ready, REPLY_TIMEOUT_S)
        peer.send("initialized", {})
        while not any("ranker on" in m for m in peer.logs):  # loading it is not what is measured
            await asyncio.sleep(0.05)
        # Nor is the first ranking (the model's first inference) or indexing the example.
        warm = folder / "stack" / WARM_UP
        item = {"uri": warm.as_uri(), "languageId": "java", "version": 1, "text": warm.read_text()}
        peer.send("textDocument/didOpen", {"textDocument": item})
        await peer.diagnostics_for(warm.as_uri(), 1)
        for path in [p for p in (loose, folder / "stack" / STACK_TEST) if p is not None]:
            item = {"uri": path.as_uri(), "languageId": "java", "version": 1, "text": path.read_text()}
            peer.send("textDocument/didOpen", {"textDocument": item})
        started = time.perf_counter()
        await peer.diagnostics_for((folder / "stack" / STACK_TEST).as_uri(), 1)
        elapsed = time.perf_counter() - started
        if loose is not None:
            await peer.diagnostics_for(loose.as_uri(), 1)
        _, down = peer.request("shutdown", None)
        await asyncio.wait_for(down, REPLY_TIMEOUT_S)
        peer.send("exit", None)
        await asyncio.wait_for(process.wait(), 30)
        return elapsed
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="oracular-loose-") as tmp:
        root = Path(tmp)
        checkouts = root / "checkouts"
        for project in args.projects.split(","):
            source = default_cache_dir() / "src" / project
            if source.is_dir():
                shutil.copytree(source, checkouts / project, symlinks=True)
        loose = checkouts / "LooseTest.java"
        shutil.copy(LOOSE_TEST, loose)
        files = sum(1 for _ in checkouts.rglob("*.java"))
        shutil.copytree(EXAMPLE, root / "example" / "stack")
        alone, with_loose = [], []
        for _ in range(args.repeat):
            alone.append(await time_to_diagnostics(root / "example", None))
            with_loose.append(await time_to_diagnostics(root / "example", loose))
    delay = statistics.median(with_loose) - statistics.median(alone)
    return {
        "machine": machine(),
        "java_files_beside_the_loose_file": files,
        "alone_s": [round(t, 3) for t in alone],
        "after_a_loose_file_s": [round(t, 3) for t in with_loose],
        "delay_s": round(delay, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--projects", default=LOOSE_PROJECTS, help="dev-list packages copied beside the loose file"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = asyncio.run(bench(args))
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
