"""``stawvs-ap ap-bot``: the Stawvs bot for Abstract Play's bot framework.

::

    stawvs-ap ap-bot --http 127.0.0.1:8080 --bot mcts:seconds=20

It reads its settings from the environment (``AP_BOT_PUBLIC_KEY``,
``BOT_CLIENT_ID``, ``BOT_CLIENT_SECRET``, ``BOT_OAUTH_SCOPE``,
``BOT_TOKEN_URL``, ``BOT_QUERY_URL``, ``AP_QUERY_URL``; docs/abstract-play-bot.md)
and refuses to start, in one line and with status 2, when one it needs is
missing or bad. It serves through the same launcher as ``serve --http``
(:func:`stawvs_ap.service.webserver.limited_server`: the same limits on
connections, request heads and slow clients), logs one line of JSON per event on
standard error, and journals its positions in ``--journal`` (default: the
user's state folder, :func:`~stawvs_ap.apbot.journal.default_journal_path`).
It needs the ``web`` and ``ap-bot`` extras.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Final

from ..bots.spec import BotSpec
from .botargs import spec_argument
from .webcli import WebCliError, parse_address

__all__ = ["AP_BOT_EXTRA", "add_ap_bot_command"]

#: What to install for the bot.
AP_BOT_EXTRA: Final = 'pip install "stawvs-ap[web,ap-bot]"'
_NEEDED: Final = frozenset({"starlette", "uvicorn", "anyio", "httptools", "cryptography"})


def _cmd_ap_bot(args: argparse.Namespace, io: object) -> dict[str, str]:
    try:
        # Imported here to tell at once what is missing (httptools keeps the
        # limits of every server of ours: stawvs_ap.service.webserver).
        import httptools  # noqa: F401
        import uvicorn  # noqa: F401

        from ..apbot import ApBot, BotSettings, create_app, default_journal_path
        from ..service import http
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _NEEDED:
            raise
        raise WebCliError(
            f"the bot needs Starlette, uvicorn, httptools and cryptography: {AP_BOT_EXTRA}"
        ) from None
    settings = BotSettings.from_environment()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("stawvs_ap.apbot")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    host, port = args.http
    try:
        sock = http.bind(host, port)
    except OSError as exc:
        raise WebCliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    journal: Path = args.journal or default_journal_path()
    bot = ApBot(settings, args.bot, journal)
    try:
        actual = sock.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        print(
            f"Stawvs bot ({args.bot}) on http://{shown}:{actual}/, journal {journal} "
            "(Ctrl-C stops it)",
            flush=True,
        )
        http.serve_http(create_app(bot), sock)
    finally:
        bot.close()
    return {}


def add_ap_bot_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``ap-bot`` subcommand."""
    text = "play Stawvs on Abstract Play: the bot framework's webhook endpoint"
    cmd = sub.add_parser(
        "ap-bot",
        help=text,
        description=f"{text} (needs {AP_BOT_EXTRA}; settings: docs/abstract-play-bot.md)",
    )
    cmd.set_defaults(run=_cmd_ap_bot)
    cmd.add_argument(
        "--http",
        type=parse_address,
        required=True,
        metavar="HOST:PORT",
        help="where to listen (behind an HTTPS proxy; 127.0.0.1:8080 for one on this machine)",
    )
    cmd.add_argument(
        "--bot",
        type=spec_argument,
        default=BotSpec("mcts"),
        metavar="SPEC",
        help="the bot that chooses the moves (default: mcts); its seconds cap the think time",
    )
    cmd.add_argument(
        "--journal",
        type=Path,
        metavar="PATH",
        help="the SQLite journal of positions (default: in the user's state folder)",
    )
