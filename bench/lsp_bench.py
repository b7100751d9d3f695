"""Benchmark the language server (``oracular serve``) the way an editor uses it.

Why: an editor asks for inlay hints and hovers on every scroll and cursor move, and for code
actions whenever the cursor rests; these must come back in a few milliseconds from the cache.
Diagnostics must follow the opening of a file quickly even when it is large. This script drives a
real server over stdio, as an editor would, and times each request.

What it measures, per file (each file is opened in place and never written):

1. **didOpen -> diagnostics**: the first open (cold: it includes indexing the file's build root)
   and then ``--opens`` warm opens (close, then open again, which reuses the closed file's
   results), and ``--first-opens`` opens of the same text under new names in the same folder
   (a file the warm server has not seen: nothing to reuse): from sending ``didOpen`` to
   receiving ``publishDiagnostics`` for that version, the first set (a new file's first look,
   its tests not ranked yet) and the complete one. Debouncing does not apply to opens.
2. **warm latency** of ``--requests`` requests of each kind, one at a time, once the file is
   analysed: ``textDocument/codeAction`` and ``textDocument/hover`` on each test name in turn,
   ``codeAction/resolve`` of the first action offered, and ``textDocument/inlayHint`` over the
   whole file. Reported as p50 and p95.
3. **edit -> diagnostics** (``--edits``): with the file open and analysed, each edit inserts a
   statement at the start of the test in the middle of the file, or removes it again, then asks
   for the code actions there, as an editor does when the cursor rests (which starts the analysis
   at once instead of after the typing pause); timed from ``didChange`` to that version's
   ``publishDiagnostics``. Only the edited method is analysed again (``oracular.incremental``).
4. **peak RSS** of the server process (``getrusage`` of the reaped child).

The client announces resolve support and inlay hint refresh, like Neovim 0.11 and current VS Code,
and runs with ``device: cpu``. The server ranks with the engine's default ranker: the shipped neural
model when ``models/oracles`` holds one (diagnostics carry the top oracle, so its loading and ranking
are part of the time to diagnostics). ``ORACULAR_RANKER=baseline`` times the baseline heuristic,
which does not use torch, as the figures in ``docs/benchmarks.md`` do.

Run it from the repository root (``<cache>`` as in ``scan_bench.py``)::

    .venv/bin/python bench/lsp_bench.py                  # the example + two commons-io files
    .venv/bin/python bench/lsp_bench.py --file path/to/SomeTest.java --file other/BigTest.java
    .venv/bin/python bench/lsp_bench.py --requests 500 --json /tmp/lsp.json
    .venv/bin/python bench/lsp_bench.py --opens 30 --requests 0 --edits 100    # the incremental case
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from scan_bench import machine, rss_mib

from oracular.cache import default_cache_dir
from oracular.engine import OracleEngine
from oracular.java.source import load_source
from oracular.lsp.diagnostics import PENDING_DATA

REPO = Path(__file__).resolve().parents[1]
EXAMPLE_TEST = REPO / "examples/stack/src/test/java/org/example/stack/StackTest.java"
COMMONS_IO_TESTS = Path("src/test/java/org/apache/commons/io")
DEFAULT_LARGE = ("IOUtilsTestCase.java", "FileUtilsTestCase.java")
"""commons-io's 1,722-line test with oracle-free tests, and its largest test file (3,205 lines)."""
CAPABILITIES = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        code_action=types.CodeActionClientCapabilities(
            code_action_literal_support=types.ClientCodeActionLiteralOptions(
                code_action_kind=types.ClientCodeActionKindOptions(value_set=["quickfix", "source"])
            ),
            is_preferred_support=True,
            data_support=True,
            resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]),
        ),
        hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        inlay_hint=types.InlayHintClientCapabilities(),
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
    ),
    workspace=types.WorkspaceClientCapabilities(
        inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
        workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
    ),
    window=types.WindowClientCapabilities(work_done_progress=True),
)


@dataclass
class FileResult:
    path: str
    lines: int
    tests: int
    oracle_free: int
    open_cold_ms: float
    open_warm_ms: list[float] = field(default_factory=list)
    first_open_ms: list[float] = field(default_factory=list)
    """Opens under a new name: until the first diagnostics (the first look)."""
    first_open_complete_ms: list[float] = field(default_factory=list)
    """... and until the complete set (ranked, quality findings)."""
    latency_ms: dict[str, list[float]] = field(default_factory=dict)
    edit_ms: list[float] = field(default_factory=list)


class BenchClient(LanguageClient):
    """A bare pygls client that notes when each document version's diagnostics arrive."""

    def __init__(self) -> None:
        super().__init__("oracular-bench", "1")
        self.arrived: dict[tuple[str, int | None], tuple[float, list[types.Diagnostic]]] = {}
        """The complete diagnostics of each version, when they came."""
        self.first: dict[tuple[str, int | None], float] = {}
        """When each version's first diagnostics came (a first look, or the complete set)."""
        self.changed = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams) -> None:
            now, key = time.perf_counter(), (params.uri, params.version)
            self.first.setdefault(key, now)
            if not any(d.data == PENDING_DATA for d in params.diagnostics):
                self.arrived[key] = (now, list(params.diagnostics))
            self.changed.set()

        @self.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def progress_create(params: types.WorkDoneProgressCreateParams) -> None:
            return None

        @self.feature(types.PROGRESS)
        def progress(params: types.ProgressParams) -> None:
            return None

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def log(params: types.LogMessageParams) -> None:
            return None

        @self.feature(types.WORKSPACE_INLAY_HINT_REFRESH)
        def refresh(params: None) -> None:
            return None

    async def diagnostics_for(
        self, uri: str, version: int, timeout: float = 120.0
    ) -> tuple[float, list[types.Diagnostic]]:
        """When the complete diagnostics of ``version`` arrived, and what they were (waiting for
        them); :attr:`first` keeps when its first ones did, until the next open of that version."""
        deadline = time.perf_counter() + timeout
        while (uri, version) not in self.arrived:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.perf_counter()))
        return self.arrived.pop((uri, version))


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(samples: list[float], request: Any) -> Any:
    start = time.perf_counter()
    result = await request
    samples.append((time.perf_counter() - start) * 1000)
    return result


async def edit_in_one_method(client: BenchClient, uri: str, line: int, edits: int) -> list[float]:
    """``edits`` edits at ``line`` (insert a statement, then remove it), each timed to its diagnostics."""
    document = types.TextDocumentIdentifier(uri=uri)
    here = types.Position(line=line, character=0)
    statement = "        int oracularBench = 1;\n"
    samples = []
    for i in range(edits):
        version = i + 2  # the open document is version 1
        end = types.Position(line=line + (i % 2), character=0)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=here, end=end), text="" if i % 2 else statement
        )
        start = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=document,
                range=types.Range(start=here, end=here),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        arrived, _ = await client.diagnostics_for(uri, version)
        samples.append((arrived - start) * 1000)
    return samples


async def open_once(client: BenchClient, uri: str, text: str) -> tuple[float, float, list[types.Diagnostic]]:
    """Open ``text`` as ``uri``: ms to its first diagnostics, to the complete ones, and those."""
    item = types.TextDocumentItem(uri=uri, language_id="java", version=1, text=text)
    client.first.pop((uri, 1), None)
    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    arrived, diagnostics = await client.diagnostics_for(uri, 1)
    first = client.first.pop((uri, 1), arrived)
    return (first - start) * 1000, (arrived - start) * 1000, diagnostics


def close(client: BenchClient, uri: str) -> None:
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


async def bench_file(
    client: BenchClient, path: Path, opens: int, requests: int, edits: int = 0, first_opens: int = 0
) -> FileResult:
    source = load_source(path)
    tests = [s.test for s in OracleEngine().analyse(source).statuses]  # where the test names are
    text, uri = source.text, path.as_uri()
    document = types.TextDocumentIdentifier(uri=uri)
    _, cold_ms, diagnostics = await open_once(client, uri, text)
    result = FileResult(str(path), len(text.splitlines()), len(tests), len(diagnostics), cold_ms)
    for _ in range(opens):
        close(client, uri)
        result.open_warm_ms.append((await open_once(client, uri, text))[1])
    for i in range(first_opens):  # the same text under a name the server has not seen
        renamed = path.with_name(f"{path.stem}Bench{i}{path.suffix}").as_uri()
        first_ms, complete_ms, _ = await open_once(client, renamed, text)
        close(client, renamed)
        result.first_open_ms.append(first_ms)
        result.first_open_complete_ms.append(complete_ms)

    # Point at the oracle-free tests the server reported, else at any test.
    targets = [d.range.start for d in diagnostics] or [
        types.Position(line=t.line, character=t.name_node.start_point[1]) for t in tests
    ]

    kinds = ("codeAction", "codeAction/resolve", "inlayHint", "hover")
    latency: dict[str, list[float]] = {kind: [] for kind in kinds}
    whole = types.Range(
        start=types.Position(line=0, character=0),
        end=types.Position(line=len(text.splitlines()), character=0),
    )
    for i in range(requests):
        at = targets[i % len(targets)] if targets else types.Position(line=0, character=0)
        actions = await timed(
            latency["codeAction"],
            client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=document,
                    range=types.Range(start=at, end=at),
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
        )
        if actions:
            await timed(latency["codeAction/resolve"], client.code_action_resolve_async(actions[0]))
        await timed(
            latency["inlayHint"],
            client.text_document_inlay_hint_async(types.InlayHintParams(text_document=document, range=whole)),
        )
        await timed(
            latency["hover"],
            client.text_document_hover_async(types.HoverParams(text_document=document, position=at)),
        )
    if edits and tests:
        middle = tests[len(tests) // 2]
        body = middle.body if middle.body is not None else middle.node
        result.edit_ms = await edit_in_one_method(client, uri, body.start_point[0] + 1, edits)
    close(client, uri)
    result.latency_ms = {kind: samples for kind, samples in latency.items() if samples}
    return result


async def run(
    files: list[Path],
    opens: int,
    requests: int,
    settings: dict[str, Any],
    edits: int = 0,
    first_opens: int = 0,
) -> tuple[list[FileResult], float]:
    client = BenchClient()
    await client.start_io(sys.executable, "-m", "oracular", "serve")
    await client.initialize_async(
        types.InitializeParams(
            capabilities=CAPABILITIES,
            initialization_options={"oracular": {"device": "cpu", **settings}},
            process_id=None,
        )
    )
    client.initialized(types.InitializedParams())
    results = [await bench_file(client, path, opens, requests, edits, first_opens) for path in files]
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return results, rss_mib(resource.RUSAGE_CHILDREN)


def table(results: list[FileResult], peak_mib: float) -> str:
    lines = [
        "| file | lines | tests (oracle-free) | open -> diagnostics, cold | warm p50 / p95 "
        "| first open: first p50 / p95 | ... complete p50 / p95 "
        "| codeAction p50 / p95 | resolve p50 / p95 | inlayHint p50 / p95 | hover p50 / p95 "
        "| edit -> diagnostics p50 / p95 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:

        def pair(samples: list[float]) -> str:
            return (
                f"{percentile(samples, 0.5):.1f} / {percentile(samples, 0.95):.1f} ms" if samples else "n/a"
            )

        cells = [
            pair(r.latency_ms.get(kind, []))
            for kind in ("codeAction", "codeAction/resolve", "inlayHint", "hover")
        ]
        lines.append(
            f"| {Path(r.path).name} | {r.lines} | {r.tests} ({r.oracle_free}) | {r.open_cold_ms:.0f} ms "
            f"| {pair(r.open_warm_ms)} | {pair(r.first_open_ms)} | {pair(r.first_open_complete_ms)} "
            f"| {' | '.join(cells)} | {pair(r.edit_ms)} |"
        )
    lines.append(f"\nPeak RSS of the server: {peak_mib:.0f} MiB")
    return "\n".join(lines)


def default_files() -> list[Path]:
    files = [EXAMPLE_TEST]
    commons_io = default_cache_dir() / "src" / "commons-io" / COMMONS_IO_TESTS
    files += [commons_io / name for name in DEFAULT_LARGE if (commons_io / name).exists()]
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, action="append", help="a test file to open (repeatable)")
    parser.add_argument("--opens", type=int, default=20, help="warm opens per file (default 20)")
    parser.add_argument(
        "--first-opens", type=int, default=10, help="opens under a new name per file (default 10)"
    )
    parser.add_argument(
        "--requests", type=int, default=200, help="requests of each kind per file (default 200)"
    )
    parser.add_argument(
        "--edits", type=int, default=0, help="edits inside one test method per file, each timed (default 0)"
    )
    parser.add_argument("--json", type=Path, help="write every sample here")
    parser.add_argument(
        "--settings",
        type=json.loads,
        default={},
        metavar="JSON",
        help='server settings, e.g. \'{"checks": {"brittle-assertion": false}}\' (default: the defaults)',
    )
    args = parser.parse_args(argv)
    files = [f.resolve() for f in args.file] if args.file else default_files()
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        print(f"lsp_bench: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    results, peak = asyncio.run(
        run(files, args.opens, args.requests, args.settings, args.edits, args.first_opens)
    )
    print(table(results, peak))
    if args.json:
        args.json.write_text(
            json.dumps(
                {"machine": machine(), "peak_rss_mib": peak, "files": [asdict(r) for r in results]}, indent=2
            )
        )
    for r in results:
        slow = {k: percentile(v, 0.95) for k, v in r.latency_ms.items() if k in ("inlayHint", "hover")}
        if any(v >= 20 for v in slow.values()):
            print(f"note: {Path(r.path).name}: p95 over the 20 ms target: {slow}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
