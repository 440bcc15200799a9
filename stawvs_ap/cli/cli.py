"""The ``stawvs-ap`` command line (also ``python -m stawvs_ap``).

Subcommands read a serialized state (a file, or ``-`` for standard input) and
print to standard output or write the file given with ``-o``::

    stawvs-ap new --players 3 --variant hole --seed 7 > game.json
    stawvs-ap moves game.json
    stawvs-ap move game.json d5 -o game.json
    stawvs-ap show game.json
    stawvs-ap svg game.json -o board.svg
    stawvs-ap replay record.json --ply 20 --svg board.svg
    stawvs-ap show game.json --lang de

Words for people (verdicts, the text board, the picture, the render's labels,
the ``play`` game) are in the language ``--lang`` names, else in the one the
environment asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
else English; states, records and codes are the same in every language.

Bad input (an unreadable or oversized file, a broken state or record, an
illegal move, an unknown variant, bad arguments, an output that cannot be
written) prints one line ``stawvs-ap: error: ...`` on standard error and exits
with status 2. A command's outputs are written together or not at all, and a
command that rewrites its own input holds a lock on it meanwhile: see
:mod:`stawvs_ap.cli.safe_io`.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from .. import __version__
from ..bots.analysis import analyse
from ..bots.options import SECONDS
from ..errors import StawvsError, excerpt
from ..host.game import StawvsGame
from ..i18n import Phrase, catalogue, language_of_environment, negotiate
from ..pictures.svg import board_svg
from ..pictures.textboard import board_text
from ..records import from_record, record_in
from ..records.plies import at_ply
from ..service import METHODS, serve
from ..state.format import MAX_STATE_BYTES
from .analysecli import add_analyse_command
from .apbotcli import add_ap_bot_command
from .botargs import (
    VARIANT_HELP,
    add_initial_argument,
    add_ply_argument,
    declared,
    load_game_and_names,
    local_uid,
    read_initial,
    record_names,
    seed_of,
    whole,
)
from .botcli import add_bot_commands
from .messages import WROTE
from .reviewcli import add_review_command
from .safe_io import (
    CliErrorCode,
    Interrupted,
    Transaction,
    flush_stdout,
    interrupts_raise,
    label,
    write_stdout,
)
from .solvecli import add_solve_command
from .webcli import add_http_option, add_playground_command, run_http

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["main"]

PROG = "stawvs-ap"
#: Exit status for bad input or bad arguments (argparse's own convention).
EXIT_BAD_INPUT = 2


Outputs = dict[str, str]
Command = Callable[[argparse.Namespace, Transaction], Outputs]


class CliError(StawvsError):
    """Bad input (code ``BAD_COMMAND``): reported as one line on standard error, exit status 2."""

    def __init__(self, message: str) -> None:
        super().__init__(CliErrorCode.BAD_COMMAND, message)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error here."""

    def error(self, message: str) -> NoReturn:
        _complain(f"error: {message} (see {self.prog} --help)")
        sys.exit(EXIT_BAD_INPUT)

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops write errors; help or a version lost to a full disk is a failure.
        if not message:
            return
        if file is None or file is sys.stdout:
            write_stdout(message)
        else:
            _complain(message.rstrip("\n"), prefix=False)


# -- input and output ---------------------------------------------------------


def _game_from_text(text: str, path: str) -> StawvsGame:
    if not text.strip():
        raise CliError(f"the state on {label(path)} is empty")
    return StawvsGame(text)


def _load_game(io: Transaction, path: str) -> StawvsGame:
    return _game_from_text(io.read_text(path, "state"), path)


def _load_json(io: Transaction, path: str, what: str) -> Any:
    text = io.read_text(path, what)
    try:
        return json.loads(text.removeprefix("\ufeff"))  # an editor's byte-order mark
    except json.JSONDecodeError as exc:
        raise CliError(
            f"the {what} on {label(path)} is not JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    except ValueError:  # a number of over 4,300 digits
        raise CliError(f"the {what} on {label(path)} holds a number too long to read") from None
    except RecursionError:
        raise CliError(f"the {what} on {label(path)} is nested too deeply") from None


def _file_outputs(args: argparse.Namespace) -> list[str]:
    """The files a command will write, to be checked before it does any work."""
    paths: list[str] = []
    for option in ("output", "svg", "render"):
        path = getattr(args, option, None)
        if path is None or (option == "output" and path == "-"):
            continue
        if path == "-":
            raise CliError(f"--{option} needs a file name; the board goes to standard output")
        if path in paths:
            raise CliError("--svg and --render must name different files")
        paths.append(path)
    return paths


def _json(value: Any, *, pretty: bool = True) -> str:
    if pretty:
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


def _show_ply(game: StawvsGame, ply: int | None) -> StawvsGame:
    """Show stack entry ``ply`` (0 is the start, negative counts from the end)."""
    if ply is not None:
        game.load(ply)
    return game


# -- subcommands ------------------------------------------------------------------
# Each returns its outputs, ``path: text`` (``-``: standard output), for main to
# write together.


def _cmd_new(args: argparse.Namespace, io: Transaction) -> Outputs:
    game = StawvsGame(args.players, variants=args.variant or [], seed=seed_of(args.seed))
    return {args.output: game.serialize() + "\n"}


def _cmd_moves(args: argparse.Namespace, io: Transaction) -> Outputs:
    moves = _load_game(io, args.state).moves()
    return {"-": _json(moves, pretty=False) if args.json else "".join(m + "\n" for m in moves)}


def _cmd_move(args: argparse.Namespace, io: Transaction) -> Outputs:
    game = _load_game(io, args.state)
    game.locale = args.locale
    for number, move in enumerate(args.moves, start=1):
        try:
            game.move(move)
        except StawvsError as exc:
            where = f"move {number} " if len(args.moves) > 1 else "move "
            raise CliError(f"illegal {where}{excerpt(move)}: {exc.message} [{exc.code}]") from None
    return {args.output: game.serialize() + "\n"}


def _cmd_validate(args: argparse.Namespace, io: Transaction) -> Outputs:
    verdict = _load_game(io, args.state).validate_move(args.move, locale=args.locale)
    return {"-": _json(verdict.to_dict(), pretty=False)}


def _cmd_render(args: argparse.Namespace, io: Transaction) -> Outputs:
    game = _show_ply(_load_game(io, args.state), args.ply)
    return {args.output: _json(game.render(locale=args.locale))}


def _cmd_svg(args: argparse.Namespace, io: Transaction) -> Outputs:
    game, names = load_game_and_names(io, args.state, args.initial)
    game = at_ply(game, args.ply)
    names = args.names or names
    claims = None
    if args.claims:
        claims = analyse(game, seconds=args.seconds, seed=seed_of(args.seed)).claims
    picture = board_svg(game, args.size, names=names, locale=args.locale, claims=claims)
    return {args.output: picture}


def _cmd_show(args: argparse.Namespace, io: Transaction) -> Outputs:
    game = _show_ply(_load_game(io, args.state), args.ply)
    return {"-": board_text(game, names=args.names, locale=args.locale)}


def _cmd_info(args: argparse.Namespace, io: Transaction) -> Outputs:
    return {"-": _json(json.loads(StawvsGame.info(locale=args.locale)))}


def _cmd_replay(args: argparse.Namespace, io: Transaction) -> Outputs:
    loaded = _load_json(io, args.record, "record")
    record = record_in(loaded) or loaded  # from_record says what is wrong with one
    initial = read_initial(io, args.initial)
    game = from_record(record, initial=initial, allow_unfinished=args.unfinished)
    game = _show_ply(game, args.ply)
    game.locale = args.locale
    names = args.names or record_names(record)
    outputs = {"-": board_text(game, names=names)}
    if args.svg:
        outputs[args.svg] = board_svg(game, args.size, names=names)
    if args.render:
        outputs[args.render] = _json(game.render())
    return outputs


def _cmd_record(args: argparse.Namespace, io: Transaction) -> Outputs:
    text = io.read_text(args.state, "state")
    game = _game_from_text(text, args.state)
    names = list(args.names or [])
    if names and len(names) != game.numplayers:
        raise CliError(f"--names needs {game.numplayers} names, one per player")
    players = [
        {"name": names[i] if names else f"Player {i + 1}", "uid": f"p{i + 1}", "is_ai": False}
        for i in range(game.numplayers)
    ]
    uid = args.uid or local_uid(text)
    return {args.output: _json(game.gen_record(uid=uid, players=players))}


def _cmd_serve(args: argparse.Namespace, io: Transaction) -> Outputs:
    if args.http is not None:
        run_http(*args.http, page=False)
        return {}
    status = serve()
    if status:
        raise SystemExit(status)
    return {}


# -- the parser ---------------------------------------------------------------------


def _methods_help() -> str:
    """The service's methods and their parameters, for ``serve --help``."""
    width = max(map(len, METHODS))
    lines = ["methods (parameters by name; ? marks an optional one):"]
    for name, method in METHODS.items():
        lines.append(f"  {name:<{width}}  {method.call_help()}".rstrip())
    return "\n".join(lines)


def _add_state(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", metavar="STATE", help="serialized state file, - for stdin")


def _add_view(parser: argparse.ArgumentParser, *, names: bool = True) -> None:
    parser.add_argument(
        "--ply",
        type=whole,
        metavar="N",
        help="show stack entry N (0 = start, -1 = last) instead of the last",
    )
    if names:
        parser.add_argument("--names", nargs="+", metavar="NAME", help="player names, in order")


def _add_output(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="OUT",
        help=f"write the {what} to OUT (default: standard output)",
    )


_LANG_HELP = "the language of the words for people, such as de or pt-BR (default: from LANG)"


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Play, show and replay games of Stawvs.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--lang", metavar="TAG", help=_LANG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, help_text: str, run: Command) -> argparse.ArgumentParser:
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        cmd.set_defaults(run=run)
        return cmd

    new = command("new", "print the state of a new game", _cmd_new)
    new.add_argument("--players", type=whole, required=True, metavar="N", help="2, 3 or 4 players")
    new.add_argument(
        "--variant",
        action="extend",
        nargs="+",
        metavar="V",
        help=VARIANT_HELP,
    )
    new.add_argument("--seed", metavar="S", help="the same seed gives the same board")
    _add_output(new, "state")

    moves = command("moves", "list the legal moves, one per line", _cmd_moves)
    _add_state(moves)
    moves.add_argument("--json", action="store_true", help="print a JSON list instead")

    move = command("move", "apply moves and print the new state", _cmd_move)
    _add_state(move)
    move.add_argument("moves", nargs="+", metavar="MOVE", help="e.g. d5 or c3-f6,f2 or pass")
    _add_output(move, "state")

    validate = command("validate", "print the verdict on a move as JSON", _cmd_validate)
    _add_state(validate)
    validate.add_argument("move", metavar="MOVE")

    render = command("render", "print the board JSON for a renderer", _cmd_render)
    _add_state(render)
    _add_view(render, names=False)
    _add_output(render, "render JSON")

    svg = command("svg", "draw the position as an SVG picture", _cmd_svg)
    svg.add_argument(
        "state", metavar="FILE", help="a serialized state or a game record (JSON), - for stdin"
    )
    add_initial_argument(svg)
    add_ply_argument(svg)
    svg.add_argument("--names", nargs="+", metavar="NAME", help="player names, in order")
    svg.add_argument(
        "--claims",
        action="store_true",
        help="tint each pyramid by the player most likely to collect it (an analysis: "
        "docs/analysis.md)",
    )
    svg.add_argument(
        "--seconds",
        type=declared(SECONDS),
        metavar="S",
        help="the time of the --claims analysis (default: 1)",
    )
    svg.add_argument("--seed", metavar="S", help="the seed of the --claims analysis")
    svg.add_argument("--size", type=whole, default=560, help="width in pixels")
    _add_output(svg, "SVG")

    show = command("show", "print the position as a text diagram", _cmd_show)
    _add_state(show)
    _add_view(show)

    command("info", "print the game's metadata as JSON", _cmd_info)

    replay = command("replay", "replay a game record and show its end (or ply N)", _cmd_replay)
    replay.add_argument(
        "record",
        metavar="RECORD",
        help="game record JSON file (or a golden fixture file), - for stdin",
    )
    add_initial_argument(replay)
    replay.add_argument(
        "--unfinished",
        action="store_true",
        help="take the record of a game in progress (refused without it: a record "
        "usually ends with its result)",
    )
    _add_view(replay)
    replay.add_argument("--svg", metavar="OUT", help="also draw the position to OUT")
    replay.add_argument("--render", metavar="OUT", help="also write the render JSON to OUT")
    replay.add_argument("--size", type=whole, default=560, help="SVG width in pixels")

    record = command("record", "print the record of a finished game", _cmd_record)
    _add_state(record)
    record.add_argument("--names", nargs="+", metavar="NAME", help="player names, in order")
    record.add_argument("--uid", help="the game's id in the record (default: from the state)")
    _add_output(record, "record")

    serve = command(
        "serve", "answer JSON-RPC 2.0 requests, one per line, on standard input", _cmd_serve
    )
    serve.formatter_class = argparse.RawDescriptionHelpFormatter
    serve.epilog = _methods_help()
    add_http_option(serve)
    add_playground_command(sub)
    add_bot_commands(sub)
    add_ap_bot_command(sub)
    add_solve_command(sub)
    add_review_command(sub)
    add_analyse_command(sub)
    for subcommand in sub.choices.values():  # --lang after the command too
        subcommand.add_argument("--lang", metavar="TAG", default=argparse.SUPPRESS, help=_LANG_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    try:
        with interrupts_raise():
            return _run(argv)
    except StawvsError as exc:  # CliError and FileError among them
        _complain(f"error: {' '.join(exc.message.split())}")
        return EXIT_BAD_INPUT
    except Interrupted as exc:
        _complain("interrupted")
        return 128 + exc.signum
    except KeyboardInterrupt:  # our handler is only installed in the main thread
        _complain("interrupted")
        return 128 + signal.SIGINT


def _run(argv: Sequence[str] | None) -> int:
    parser = _build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # a first try: show what there is
        write_stdout(parser.format_help())
        flush_stdout()
        return 0
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and argument errors
        flush_stdout()
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    args.locale = negotiate(args.lang) if args.lang else language_of_environment()
    with Transaction(MAX_STATE_BYTES) as io:
        for path in _file_outputs(args):
            io.reserve(path)
        outputs = args.run(args, io)
        io.commit(outputs)
    written = [path for path in outputs if path != "-"]
    if written:  # one line, so that a write to a file is not mistaken for nothing
        _complain(catalogue(args.locale).say(Phrase(WROTE, {"files": ", ".join(written)})))
    return 0


def _complain(line: str, *, prefix: bool = True) -> None:
    try:
        sys.stderr.write(f"{PROG}: {line}\n" if prefix else f"{line}\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass  # nowhere left to say it; the exit status still does
