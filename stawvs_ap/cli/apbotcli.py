"""``stawvs-ap ap-bot``: the Stawvs bot for Abstract Play's bot framework.

::

    stawvs-ap ap-bot --http 127.0.0.1:8080 --bot mcts:seconds=20 --stage prod
    stawvs-ap ap-bot --check --env-file /etc/stawvs-ap/ap-bot.env

It reads its settings from the environment, or from ``--env-file`` (the
environment taking precedence), ``--stage`` filling in the token address and
scope (docs/abstract-play-bot.md), and refuses to start, in one line and with
status 2, when any is missing or bad, when the journal cannot be held, or
when no token can be had with its credentials. ``--check`` runs the same
checks and asks the public query address once, one line per check, without
serving. It serves through the same launcher as ``serve --http``
(:func:`stawvs_ap.service.webserver.limited_server`: the same limits on
connections, request heads and slow clients), logs one line of JSON per event
on standard error (``bot.started`` first), polls its games every ``--poll``
seconds, and journals its positions in ``--journal`` (default: the user's
state folder, :func:`~stawvs_ap.apbot.journal.default_journal_path`). On
SIGTERM or SIGINT it stops accepting requests, gives a search under way the
rest of :data:`STOP_SECONDS` and exits 0. It needs the ``web`` and ``ap-bot``
extras.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any, Final

from ..bots.spec import BotSpec
from .botargs import spec_argument
from .webcli import WebCliError, parse_address

__all__ = ["AP_BOT_EXTRA", "STOP_SECONDS", "add_ap_bot_command"]

#: What to install for the bot.
AP_BOT_EXTRA: Final = 'pip install "stawvs-ap[web,ap-bot]"'
#: Seconds from a stop signal to the end of the process, at most.
STOP_SECONDS: Final = 15.0
#: Seconds the server gives requests under way at a stop.
_SERVER_STOP_SECONDS: Final = 2
_NEEDED: Final = frozenset({"starlette", "uvicorn", "anyio", "h11", "cryptography"})


def _settings(args: argparse.Namespace) -> Any:
    from ..apbot.settings import BotSettings, read_env_file

    env: dict[str, str] = {}
    if args.env_file is not None:
        env.update(read_env_file(args.env_file))
    env.update(os.environ)
    return BotSettings.from_environment(env, stage=args.stage)


def _check(args: argparse.Namespace) -> dict[str, str]:
    """The checks of ``--check``, one line each on standard output."""
    from ..apbot.outbound import Failed, Outbound
    from ..apbot.settings import shown_url

    settings = _settings(args)  # its refusal names every bad setting, in one line
    print("ok: settings (the public key read)", flush=True)
    outbound = Outbound(settings)
    failed = []
    try:
        outbound.token()
        print(f"ok: a token from {shown_url(settings.token_url)}", flush=True)
    except Failed as exc:
        print(f"failed: {exc}", flush=True)
        failed.append("token")
    query = b'{"query":"get_game","pars":{"metaGame":"stawvs","id":"stawvs-ap-check","cbit":0}}'
    where = shown_url(settings.ap_query_url)
    try:
        status, _ = outbound.post(settings.ap_query_url, query, "application/json")
    except Failed as exc:
        status, why = 0, str(exc)
    else:
        why = f"{where} answered {status}"
    if status and status not in {403, 404, 405}:
        print(f"ok: the public query address {where} answers", flush=True)
    else:
        print(f"failed: {why}", flush=True)
        failed.append("query")
    if failed:
        raise WebCliError(f"the checks failed: {', '.join(failed)}")
    return {}


def _cmd_ap_bot(args: argparse.Namespace, io: object) -> dict[str, str]:
    try:
        # Imported here to tell at once what is missing.
        import uvicorn  # noqa: F401

        from ..apbot import ApBot, Journal, default_journal_path
        from ..apbot.app import create_app
        from ..apbot.logs import LOGGER, log_event
        from ..apbot.outbound import Failed, Outbound
        from ..apbot.poller import Keeper
        from ..service import http
        from ..service.webserver import limited_server
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _NEEDED:
            raise
        raise WebCliError(
            f"the bot needs Starlette, uvicorn and cryptography: {AP_BOT_EXTRA}"
        ) from None
    if args.check:
        return _check(args)
    if args.http is None:
        raise WebCliError("ap-bot needs --http HOST:PORT (or --check)")
    if not 0 <= args.poll <= 86_400:  # NaN too
        raise WebCliError("--poll must be 0 (off) or a number of seconds up to 86400")
    settings = _settings(args)
    LOGGER.propagate = False
    quiet = logging.NullHandler()  # a refusal is said in the one error line alone
    LOGGER.addHandler(quiet)
    outbound = Outbound(settings)
    try:
        outbound.token()  # the credentials tried before anything is served
    except Failed as exc:
        raise WebCliError(f"no token, the bot does not start: {exc}") from None
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    LOGGER.removeHandler(quiet)
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    journal_path: Path = args.journal or default_journal_path()
    journal = Journal(journal_path)
    host, port = args.http
    try:
        sock = http.bind(host, port)
    except OSError as exc:
        journal.close()
        raise WebCliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    bot = ApBot(settings, args.bot, journal, outbound=outbound)
    keeper = Keeper(bot, poll=args.poll)
    stops: list[int] = []
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    server = limited_server(create_app(bot))
    server.config.timeout_graceful_shutdown = _SERVER_STOP_SECONDS

    def stop(signum: int, frame: object) -> None:
        stops.append(signum)
        server.should_exit = True  # also when the signal comes before uvicorn listens for it

    try:
        # uvicorn stops the server on these signals and raises them again once
        # stopped: these handlers then take them, so the stop ends with status 0.
        for sig in previous:
            signal.signal(sig, stop)
        keeper.start()
        actual = sock.getsockname()[1]
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        log_event(
            "bot.started",
            url=f"http://{shown}:{actual}/",
            bot=str(args.bot),
            journal=str(journal_path),
            poll_seconds=args.poll,
        )
        server.run(sockets=[sock])
    finally:
        bot.close(wait=STOP_SECONDS - _SERVER_STOP_SECONDS - 1)
        for sig, handler_before in previous.items():
            signal.signal(sig, handler_before)
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
    cmd.add_argument(
        "--poll",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="ask for each game in play every SECONDS, for turns whose webhook never came "
        "(default: 300; 0: never)",
    )
    cmd.add_argument(
        "--env-file",
        type=Path,
        metavar="PATH",
        help="read settings from KEY=VALUE lines (the environment takes precedence)",
    )
    cmd.add_argument(
        "--stage",
        choices=("dev", "prod"),
        help="fill in the token address and OAuth scope Abstract Play publishes for the stage",
    )
    cmd.add_argument(
        "--check",
        action="store_true",
        help="check the settings, the key, the credentials and the query address, then stop",
    )
