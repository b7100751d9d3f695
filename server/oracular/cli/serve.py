"""``oracular serve``: the language server, on stdio (what editors launch) or on TCP.

On TCP the client is whoever connects, so the server listens on loopback only unless
``--allow-remote`` says otherwise, and runs no project code (the ``checkOracles`` checks) unless
``--allow-code-execution`` says so (:mod:`oracular.lsp.execution_policy`).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import socket
import sys

from oracular.lsp.execution_policy import ALLOW_FLAG

ALLOW_REMOTE_FLAG = "--allow-remote"


def host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(
            f"expected HOST:PORT (e.g. 127.0.0.1:2087; port 0 picks one), got {value!r}"
        )
    return host.removeprefix("[").removesuffix("]"), int(port)


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address (127.0.0.0/8, ::1)."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(info[4][0]).is_loopback for info in infos)


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("serve", help="run the language server (stdio unless --tcp)")
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument(
        "--tcp", type=host_port, metavar="HOST:PORT", help="listen on TCP (loopback only) instead of stdio"
    )
    # vscode-languageclient (and others) append --stdio when told to use stdio.
    transport.add_argument("--stdio", action="store_true", help="serve on stdio (the default)")
    parser.add_argument(
        ALLOW_REMOTE_FLAG,
        action="store_true",
        help="with --tcp: accept a HOST that is not loopback (anyone who can reach it gets the session)",
    )
    parser.add_argument(
        ALLOW_FLAG,
        action="store_true",
        help="with --tcp: let the client's checkOracles setting run the project's code (never without it)",
    )
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="warning",
        help="server log on stderr (default: warning); stdout carries the protocol",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # Imported here so that the other sub-commands do not pay for pygls.
    from oracular.lsp.execution_policy import Launch
    from oracular.lsp.server import create_server

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.tcp is None:
        server = create_server(Launch("stdio"))
        server.start_io()
        return server.exit_code if server.exit_code is not None else 0
    host, port = args.tcp
    if not is_loopback(host):
        if not args.allow_remote:
            print(
                f"oracular serve: {host} is not a loopback address: anyone who can reach it would get "
                f"the session. Use 127.0.0.1, or pass {ALLOW_REMOTE_FLAG} if you mean it.",
                file=sys.stderr,
            )
            return 2
        print(f"oracular serve: warning: listening on {host}, which is not loopback", file=sys.stderr)
    server = create_server(Launch("tcp", allow_code_execution=args.allow_code_execution))
    server.start_tcp(host, port)
    return server.exit_code if server.exit_code is not None else 0
