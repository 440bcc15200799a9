"""The web subcommands of ``stawvs-ap``: ``serve --http`` and ``playground``.

::

    stawvs-ap serve --http 127.0.0.1:8765      # JSON-RPC 2.0 by POST to /rpc
    stawvs-ap playground --open                # the page on http://127.0.0.1:8765/

Both need the ``web`` extra (Starlette and uvicorn); without it they say what
to install, in one line, and exit with status 2. The modules that need it
are imported only here, when one of these commands runs, so the rest of the
command line works without them.
"""

from __future__ import annotations

import argparse
import sys
import webbrowser
from typing import Final

from ..errors import ErrorCode, StawvsError, excerpt

__all__ = ["WEB_EXTRA", "add_playground_command", "parse_address", "run_http"]

#: What to install for the web commands.
WEB_EXTRA: Final = 'pip install "stawvs-ap[web]"'
DEFAULT_PORT: Final = 8765
_WEB_MODULES: Final = frozenset({"starlette", "uvicorn", "anyio", "h11"})


class WebCliError(StawvsError):
    """Bad input to a web subcommand (code ``BAD_ARGUMENT``)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_ARGUMENT, message)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8765`` for IPv6) as a host and a port number.

    >>> parse_address("127.0.0.1:8765")
    ('127.0.0.1', 8765)
    """
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(
            f"{excerpt(text)} is not HOST:PORT (such as 127.0.0.1:8765)"
        )
    return host, int(port)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a port number (0 to 65535)")
    return int(text)


def run_http(host: str, port: int, *, page: bool, open_browser: bool = False) -> None:
    """Serve the methods (and with ``page`` the playground) on ``host``:``port``
    until interrupted, telling on standard output where."""
    try:
        # Imported here to tell at once what is missing.
        import uvicorn  # noqa: F401

        from ..playground import app as playground
        from ..service import http
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _WEB_MODULES:
            raise
        raise WebCliError(f"this command needs Starlette and uvicorn: {WEB_EXTRA}") from None
    try:
        sock = http.bind(host, port)
    except OSError as exc:
        raise WebCliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    actual = sock.getsockname()[1]
    hosts = http.loopback_hosts(host, actual)
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    if page:
        app = playground.create_app(hosts=hosts)
        url = f"http://{shown}:{actual}/"
        print(f"Stawvs playground on {url} (Ctrl-C stops it)", flush=True)
        if open_browser:
            webbrowser.open(url)
    else:
        app = http.create_app(hosts=hosts)
        print(f"JSON-RPC 2.0 on http://{shown}:{actual}/rpc (Ctrl-C stops it)", flush=True)
    if hosts is None:
        print(
            f"stawvs-ap: warning: {host} is not a loopback address: anyone who can reach it "
            "can use the server",
            file=sys.stderr,
            flush=True,
        )
    http.serve_http(app, sock)


def add_http_option(parser: argparse.ArgumentParser) -> None:
    """``serve``'s ``--http HOST:PORT``."""
    parser.add_argument(
        "--http",
        type=parse_address,
        metavar="HOST:PORT",
        help=f"serve JSON-RPC by POST to /rpc on HOST:PORT instead (needs {WEB_EXTRA})",
    )


def _cmd_playground(args: argparse.Namespace, io: object) -> dict[str, str]:
    run_http(args.host, args.port, page=True, open_browser=args.open)
    return {}


def add_playground_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``playground`` subcommand."""
    text = "play in a browser: a local page on the engine's HTTP service"
    cmd = sub.add_parser("playground", help=text, description=f"{text} (needs {WEB_EXTRA})")
    cmd.set_defaults(run=_cmd_playground)
    cmd.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, metavar="N", help="port (default 8765; 0: any)"
    )
    cmd.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    cmd.add_argument("--open", action="store_true", help="open the page in a web browser")
