"""``oracular serve``: the language server, on stdio (what editors launch) or on TCP."""

from __future__ import annotations

import argparse
import logging


def host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(
            f"expected HOST:PORT (e.g. 127.0.0.1:2087; port 0 picks one), got {value!r}"
        )
    return host, int(port)


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("serve", help="run the language server (stdio unless --tcp)")
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument(
        "--tcp", type=host_port, metavar="HOST:PORT", help="listen on TCP instead of stdio"
    )
    # vscode-languageclient (and others) append --stdio when told to use stdio.
    transport.add_argument("--stdio", action="store_true", help="serve on stdio (the default)")
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="warning",
        help="server log on stderr (default: warning); stdout carries the protocol",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that the other sub-commands do not pay for pygls.
    from oracular.lsp.server import create_server

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    server = create_server()
    if args.tcp:
        server.start_tcp(*args.tcp)
    else:
        server.start_io()
    return 0
