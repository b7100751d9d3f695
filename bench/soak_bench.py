"""Soak the language server: open, edit and close real test files for up to 30 minutes, and report
the server's RSS every minute.

Why: an editor session lasts all day, and every keystroke is a ``didChange``. Memory that grows
with the number of messages (bookkeeping never dropped, caches never bounded) makes a server that
is fine in a test and huge by the afternoon. Growth after the first minutes (once the indexes,
the model and the allocator's arenas are warm) is what this measures.

What it does, round robin over ``--files`` real test files (the dev projects' test sources in the
corpus cache, as ``scan_bench.py`` finds them, else the example and the fixtures; each opened in
place and never written):

1. ``didOpen``, then wait for that version's diagnostics;
2. ``--edits`` incremental edits (a comment line inserted at the top, then removed again), each
   followed by an ``inlayHint`` request, every fifth one cancelled at once with ``$/cancelRequest``;
3. a ``codeAction`` over the whole file, which waits for the last version's analysis, and that
   version's diagnostics;
4. ``didClose``.

The server ranks with its default ranker, the shipped model when ``models/oracles`` holds one
(``ORACULAR_RANKER`` is removed from its environment unless ``--baseline``). Every request is
bounded in number (``--max-messages``) and time; the client is a bare JSON-RPC peer over stdio,
so it costs less than the server. ``--tracemalloc PREFIX`` runs the server under ``tracemalloc``,
takes a snapshot after the warm-up and one at the end, and prints where memory grew in between
(slower: for finding a leak, not for the figures).

Run from the repository root::

    .venv/bin/python bench/soak_bench.py                         # 30 minutes, 50 files
    .venv/bin/python bench/soak_bench.py --minutes 3 --tracemalloc /tmp/soak
    .venv/bin/python bench/soak_bench.py --json /tmp/soak.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from scan_bench import machine

from oracular.cache import default_cache_dir
from oracular.corpus.lists import CorpusLists

REPO = Path(__file__).resolve().parents[1]
MAX_MINUTES = 30
MAX_LINES = 3000
"""Files longer than this are left out: a soak is about many messages, not about one huge file."""
REPLY_TIMEOUT_S = 180.0
PROJECTS = "commons-csv,joptsimple,java-diff-utils,commons-io"
"""The dev projects of the mutant evaluation (``docs/execution.md``): each of a few hundred files,
so the soak holds four indexes, as an editor with four projects open would."""
BOOT = """
import signal, sys, tracemalloc
tracemalloc.start(12)
taken = []
def dump(*_):
    taken.append(1)
    tracemalloc.take_snapshot().dump(f"{sys.argv[1]}.{len(taken)}")
signal.signal(signal.SIGUSR1, dump)
from oracular.cli.main import main
sys.exit(main(["serve"]))
"""


def test_files(count: int, projects: list[str]) -> list[Path]:
    """``count`` test files, round robin over ``projects`` (dev-list packages in the corpus cache),
    then the repository's example and fixtures."""
    dev = set(CorpusLists.load().dev) if projects else set()
    unknown = sorted(set(projects) - dev)
    if unknown:
        raise SystemExit(f"not on the dev list: {', '.join(unknown)}")
    roots = [default_cache_dir() / "src" / p for p in projects] + [
        REPO / "examples",
        REPO / "tests" / "fixtures",
    ]
    pools = [
        [f for f in sorted(r.rglob("*Test.java")) if f.read_bytes().count(b"\n") <= MAX_LINES]
        for r in roots
        if r.is_dir()
    ]
    found: list[Path] = []
    while len(found) < count and any(pools):
        for pool in pools:
            if pool and len(found) < count:
                found.append(pool.pop(0))
    return found


class Peer:
    """A bare JSON-RPC peer on the server's stdio."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process, self.stdin, self.stdout = process, process.stdin, process.stdout
        self.sent = 0
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future[dict]] = {}
        self.diagnostics: dict[str, int] = {}
        self.published = asyncio.Event()
        self.logs: list[str] = []
        self.reader = asyncio.ensure_future(self._read())

    def send(self, method: str, params: Any, msg_id: int | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if msg_id is not None:
            message["id"] = msg_id
        body = json.dumps(message).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.sent += 1

    def request(self, method: str, params: Any) -> tuple[int, asyncio.Future[dict]]:
        self.next_id += 1
        future: asyncio.Future[dict] = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        self.send(method, params, self.next_id)
        return self.next_id, future

    async def _read(self) -> None:
        while True:
            length = 0
            while (line := await self.stdout.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            message = json.loads(await self.stdout.readexactly(length))
            if "id" in message and "method" in message:  # the server asks: answer at once
                self.send_reply(message["id"])
            elif "id" in message:
                future = self.waiting.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("method") == "window/logMessage":
                self.logs.append(message["params"]["message"])
            elif message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self.diagnostics[params["uri"]] = params.get("version", -1)
                self.published.set()

    def send_reply(self, msg_id: Any) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": None}).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    async def diagnostics_for(self, uri: str, version: int) -> None:
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        while self.diagnostics.get(uri) != version:
            self.published.clear()
            await asyncio.wait_for(self.published.wait(), max(0.0, deadline - time.monotonic()))


@dataclass
class Result:
    machine: dict[str, Any]
    files: int
    minutes: float = 0.0
    cycles: int = 0
    messages: int = 0
    rss_mib_per_minute: list[float] = field(default_factory=list)
    growth_after_warmup_mib: float | None = None
    peak_rss_mib: float = 0.0


def rss_mib_of(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]


async def cycle(peer: Peer, path: Path, edits: int) -> None:
    uri, text = path.as_uri(), path.read_text(encoding="utf-8", errors="replace")
    peer.send(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}},
    )
    await peer.diagnostics_for(uri, 1)
    top = {"line": 0, "character": 0}
    version = 1
    for i in range(edits):
        version += 1
        if i % 2 == 0:
            change = {"range": {"start": top, "end": top}, "text": f"// soak {i}\n"}
        else:
            change = {"range": {"start": top, "end": {"line": 1, "character": 0}}, "text": ""}
        peer.send(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        msg_id, reply = peer.request(
            "textDocument/inlayHint",
            {"textDocument": {"uri": uri}, "range": {"start": top, "end": {"line": 99999, "character": 0}}},
        )
        if i % 5 == 4:
            peer.send("$/cancelRequest", {"id": msg_id})
        await asyncio.wait_for(reply, REPLY_TIMEOUT_S)
    whole = {"start": top, "end": {"line": 99999, "character": 0}}
    _, actions = peer.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}},
    )
    await asyncio.wait_for(actions, REPLY_TIMEOUT_S)
    await peer.diagnostics_for(uri, version)
    peer.send("textDocument/didClose", {"textDocument": {"uri": uri}})


async def soak(args: argparse.Namespace) -> Result:
    files = test_files(args.files, args.projects.split(",") if args.projects else [])
    env = dict(os.environ)
    if not args.baseline:
        env.pop("ORACULAR_RANKER", None)
    command = [sys.executable, "-m", "oracular", "serve"]
    if args.tracemalloc:
        command = [sys.executable, "-c", BOOT, args.tracemalloc]
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, cwd=REPO
    )
    peer = Peer(process)
    result = Result(machine(), len(files))
    try:
        _, ready = peer.request(
            "initialize",
            {
                "processId": os.getpid(),
                "capabilities": {},
                "rootUri": None,
                "initializationOptions": {"oracular": {"device": "cpu"}},
            },
        )
        await asyncio.wait_for(ready, REPLY_TIMEOUT_S)
        peer.send("initialized", {})
        started = time.monotonic()
        deadline = started + args.minutes * 60
        next_sample = started + 60
        warmup_rss = None
        while time.monotonic() < deadline and peer.sent < args.max_messages:
            await cycle(peer, files[result.cycles % len(files)], args.edits)
            result.cycles += 1
            now = time.monotonic()
            while now >= next_sample:
                rss = rss_mib_of(process.pid)
                result.rss_mib_per_minute.append(round(rss, 1))
                minute = len(result.rss_mib_per_minute)
                print(f"minute {minute:2d}: server RSS {rss:7.1f} MiB, {peer.sent} messages", flush=True)
                if minute == args.warmup:
                    warmup_rss = rss
                    if args.tracemalloc:
                        process.send_signal(signal.SIGUSR1)
                next_sample += 60
        result.minutes = round((time.monotonic() - started) / 60, 2)
        final = rss_mib_of(process.pid)
        if warmup_rss is not None:
            result.growth_after_warmup_mib = round(final - warmup_rss, 1)
        if args.tracemalloc:
            process.send_signal(signal.SIGUSR1)
            await asyncio.sleep(10)
        result.messages = peer.sent
        result.peak_rss_mib = max([*result.rss_mib_per_minute, final])
        _, down = peer.request("shutdown", None)
        await asyncio.wait_for(down, REPLY_TIMEOUT_S)
        peer.send("exit", None)
        await asyncio.wait_for(process.wait(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return result


def print_growth(prefix: str, top: int = 25) -> None:
    before = tracemalloc.Snapshot.load(f"{prefix}.1")
    after = tracemalloc.Snapshot.load(f"{prefix}.2")
    print(f"\nwhere memory grew between the snapshots (top {top}, by traceback):")
    for stat in after.compare_to(before, "traceback")[:top]:
        print(f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
        for line in stat.traceback.format()[-6:]:
            print("    " + line)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=MAX_MINUTES, help=f"at most {MAX_MINUTES}")
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--projects", default=PROJECTS, help="dev-list packages to take files from")
    parser.add_argument("--edits", type=int, default=20, help="incremental edits per open")
    parser.add_argument("--warmup", type=int, default=5, help="minutes before growth is counted")
    parser.add_argument("--max-messages", type=int, default=200_000)
    parser.add_argument("--baseline", action="store_true", help="the baseline ranker instead of the model")
    parser.add_argument("--tracemalloc", metavar="PREFIX", help="snapshot the server's allocations")
    parser.add_argument("--json", type=Path, help="write the result here")
    args = parser.parse_args()
    args.minutes = min(args.minutes, MAX_MINUTES)
    result = asyncio.run(soak(args))
    print(json.dumps(asdict(result), indent=2))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=2) + "\n")
    if args.tracemalloc:
        print_growth(args.tracemalloc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
