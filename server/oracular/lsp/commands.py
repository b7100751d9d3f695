"""``workspace/executeCommand`` ``oracular.suggest [uri, line?]``: the JSON of ``oracular suggest --json``.

For scripts and editor extensions that want the whole ranking rather than code actions. An open
document is read from the editor's buffer, any other file from disk, as the CLI would.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path

from oracular.engine import FileReport
from oracular.java.source import SourceError, SourceText, load_source, parse_text, validate_text

if TYPE_CHECKING:
    from oracular.lsp.server import OracularServer

SUGGEST = "oracular.suggest"


def parse_arguments(arguments: list[Any]) -> tuple[str, int | None]:
    if not 1 <= len(arguments) <= 2 or not isinstance(arguments[0], str):
        raise JsonRpcInvalidParams(f"{SUGGEST} expects [uri, line?], got {arguments!r}")
    line = arguments[1] if len(arguments) == 2 else None
    if line is not None and (isinstance(line, bool) or not isinstance(line, int) or line < 1):
        raise JsonRpcInvalidParams(f"{SUGGEST}: line must be a 1-based line number, got {line!r}")
    return arguments[0], line


def _source(text: str | None, path: Path) -> SourceText:
    """The buffer's text if the document is open, else the file (worker thread: reads and parses)."""
    if text is None:
        return load_source(path)
    validate_text(text, str(path))
    return parse_text(text, path)


def _at_line(report: FileReport, line: int | None) -> FileReport:
    """``report`` cut to the test containing 1-based ``line``, as ``OracleEngine.suggest(line=)`` cuts."""
    if line is None:
        return report
    return dataclasses.replace(report, tests=[t for t in report.tests if t.test.spans_line(line)])


async def suggest(server: OracularServer, arguments: list[Any]) -> dict[str, Any]:
    uri, line = parse_arguments(arguments)
    fs_path = to_fs_path(uri)
    if fs_path is None:
        raise JsonRpcInvalidParams(f"{SUGGEST}: {uri} is not a file URI")
    path = Path(fs_path)
    document = server.open_document(uri)
    if document is not None:
        # The open version's report is (or is about to be) in the cache: rank nothing twice.
        # Files the server is silent on (not tests, bad input) are ranked (or refused) below.
        analysis = await server.documents.shown(uri)
        if analysis is not None and analysis.report is not None:
            state = server.code_runs.state(analysis)  # ranked with observed values, once they arrived
            report = state.report if state is not None and state.report is not None else analysis.report
            return _at_line(report, line).to_json()
    engine = await server.engines.for_path(path)

    def run() -> dict[str, Any]:
        source = _source(document.text if document is not None else None, path)
        return engine.suggest(source, line=line).to_json()

    try:
        return await server.worker.run(run)
    except SourceError as exc:
        raise JsonRpcInvalidParams(str(exc)) from exc


def register(server: OracularServer) -> None:
    @server.command(SUGGEST)
    async def suggest_command(*arguments: Any) -> dict[str, Any]:
        return await suggest(server, list(arguments))
