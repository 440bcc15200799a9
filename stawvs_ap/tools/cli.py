"""The ``stawvs-ap`` command line (also ``python -m stawvs_ap``).

Subcommands read a serialized state (a file, or ``-`` for standard input) and
print to standard output or write the file given with ``-o``::

    stawvs-ap new --players 3 --variant hole --seed 7 > game.json
    stawvs-ap moves game.json
    stawvs-ap move game.json d5 -o game.json
    stawvs-ap show game.json
    stawvs-ap svg game.json -o board.svg
    stawvs-ap replay record.json --ply 20 --svg board.svg

Bad input (an unreadable file, a broken state or record, an illegal move, an
unknown variant, bad arguments) prints one line ``stawvs-ap: error: ...`` on
standard error and exits with status 2; no output file is written then, and
output files are only ever replaced whole.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .. import __version__
from ..errors import StawvsError
from ..host.game import StawvsGame
from ..records import from_record
from .botcli import add_bot_commands
from .svg import board_svg
from .textboard import board_text

__all__ = ["main"]

PROG = "stawvs-ap"
#: Exit status for bad input or bad arguments (argparse's own convention).
EXIT_BAD_INPUT = 2


class CliError(Exception):
    """Bad input: reported as one line on standard error, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error here."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{PROG}: error: {message} (see {self.prog} --help)\n")
        sys.exit(EXIT_BAD_INPUT)


# -- input and output ---------------------------------------------------------


def _label(path: str) -> str:
    return "standard input" if path == "-" else repr(path)


def _read_text(path: str, what: str) -> str:
    """The text of ``path`` (``-``: standard input), or a CliError naming the problem."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise CliError(f"cannot read {what} {_label(path)}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CliError(f"cannot read {what} {_label(path)}: it is not UTF-8 text") from None


def _game_from_text(text: str, path: str) -> StawvsGame:
    if not text.strip():
        raise CliError(f"the state on {_label(path)} is empty")
    return StawvsGame(text)


def _load_game(path: str) -> StawvsGame:
    return _game_from_text(_read_text(path, "state"), path)


def _load_json(path: str, what: str) -> Any:
    text = _read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            f"the {what} on {_label(path)} is not JSON ({exc.msg} at line {exc.lineno})"
        ) from None


def _write_outputs(outputs: dict[str, str]) -> None:
    """Write every ``path: text`` (``-``: standard output), all or nothing.

    Each file is first written in full to a temporary file beside it; only
    when all are written are they moved into place, so a failure leaves no
    half-written or partial set of outputs behind.
    """
    staged: list[tuple[str, str]] = []
    try:
        for path, text in outputs.items():
            if path == "-":
                continue
            directory = os.path.dirname(os.path.abspath(path))
            fd, temp = tempfile.mkstemp(prefix=".stawvs-ap-", suffix=".tmp", dir=directory)
            staged.append((temp, path))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        mode = _new_file_mode()
        for temp, path in staged:
            os.chmod(temp, mode)  # mkstemp's files are private; outputs are ordinary files
            os.replace(temp, path)
    except (OSError, UnicodeError) as exc:
        for temp, _ in staged:
            if os.path.exists(temp):
                os.unlink(temp)
        if isinstance(exc, UnicodeError):
            raise CliError(f"cannot write the output as UTF-8: {exc}") from None
        target = getattr(exc, "filename", None) or "the output"
        raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
    for path, text in outputs.items():
        if path == "-":
            sys.stdout.write(text)


def _new_file_mode() -> int:
    """The permissions ``open()`` would give a new file under the current umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _json(value: Any, *, pretty: bool = True) -> str:
    if pretty:
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"


def _show_ply(game: StawvsGame, ply: int | None) -> StawvsGame:
    """Show stack entry ``ply`` (0 is the start, negative counts from the end)."""
    if ply is not None:
        game.load(ply)
    return game


def _seed(text: str | None) -> int | str | None:
    """A seed as given: a whole number is used as a number, anything else as text."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


# -- subcommands ------------------------------------------------------------------


def _cmd_new(args: argparse.Namespace) -> None:
    game = StawvsGame(args.players, variants=args.variant or [], seed=_seed(args.seed))
    _write_outputs({args.output: game.serialize() + "\n"})


def _cmd_moves(args: argparse.Namespace) -> None:
    moves = _load_game(args.state).moves()
    text = _json(moves, pretty=False) if args.json else "".join(m + "\n" for m in moves)
    _write_outputs({"-": text})


def _cmd_move(args: argparse.Namespace) -> None:
    game = _load_game(args.state)
    for number, move in enumerate(args.moves, start=1):
        try:
            game.move(move)
        except StawvsError as exc:
            where = f"move {number} " if len(args.moves) > 1 else "move "
            raise CliError(f"illegal {where}{move!r}: {exc.message} [{exc.code}]") from None
    _write_outputs({args.output: game.serialize() + "\n"})


def _cmd_validate(args: argparse.Namespace) -> None:
    verdict = _load_game(args.state).validate_move(args.move)
    _write_outputs({"-": _json(verdict.to_dict(), pretty=False)})


def _cmd_render(args: argparse.Namespace) -> None:
    game = _show_ply(_load_game(args.state), args.ply)
    _write_outputs({args.output: _json(game.render())})


def _cmd_svg(args: argparse.Namespace) -> None:
    game = _show_ply(_load_game(args.state), args.ply)
    _write_outputs({args.output: board_svg(game, args.size, names=args.names)})


def _cmd_show(args: argparse.Namespace) -> None:
    game = _show_ply(_load_game(args.state), args.ply)
    _write_outputs({"-": board_text(game, names=args.names)})


def _cmd_info(args: argparse.Namespace) -> None:
    _write_outputs({"-": _json(json.loads(StawvsGame.info()))})


def _record_names(record: Any) -> list[str] | None:
    """The players' names from a record's header, when it has them all."""
    try:
        names = [str(p["name"]) for p in record["header"]["players"]]
    except (KeyError, TypeError):
        return None
    return names or None


def _cmd_replay(args: argparse.Namespace) -> None:
    record = _load_json(args.record, "record")
    if isinstance(record, dict) and "header" not in record and isinstance(
        record.get("record"), dict
    ):
        record = record["record"]  # a golden fixture file wraps its game's record
    initial = _read_text(args.initial, "initial state") if args.initial else None
    game = _show_ply(from_record(record, initial=initial), args.ply)
    names = args.names or _record_names(record)
    outputs = {"-": board_text(game, names=names)}
    if args.svg:
        outputs[args.svg] = board_svg(game, args.size, names=names)
    if args.render:
        outputs[args.render] = _json(game.render())
    if len(set(outputs)) < 1 + bool(args.svg) + bool(args.render):
        raise CliError("--svg and --render must name different files")
    _write_outputs(outputs)


def _cmd_record(args: argparse.Namespace) -> None:
    text = _read_text(args.state, "state")
    game = _game_from_text(text, args.state)
    names = list(args.names or [])
    if names and len(names) != game.numplayers:
        raise CliError(f"--names needs {game.numplayers} names, one per player")
    players = [
        {"name": names[i] if names else f"Player {i + 1}", "uid": f"p{i + 1}", "is_ai": False}
        for i in range(game.numplayers)
    ]
    uid = args.uid or "local-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    _write_outputs({args.output: _json(game.gen_record(uid=uid, players=players))})


# -- the parser ---------------------------------------------------------------------


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _add_state(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("state", metavar="STATE", help="serialized state file, - for stdin")


def _add_view(parser: argparse.ArgumentParser, *, names: bool = True) -> None:
    parser.add_argument("--ply", type=_whole_number, metavar="N",
                        help="show stack entry N (0 = start, -1 = last) instead of the last")
    if names:
        parser.add_argument("--names", nargs="+", metavar="NAME", help="player names, in order")


def _add_output(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("-o", "--output", default="-", metavar="OUT",
                        help=f"write the {what} to OUT (default: standard output)")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Play, show and replay games of Stawvs.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, help_text: str, run: Callable[[argparse.Namespace], None]
                ) -> argparse.ArgumentParser:
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        cmd.set_defaults(run=run)
        return cmd

    new = command("new", "print the state of a new game", _cmd_new)
    new.add_argument("--players", type=_whole_number, required=True, metavar="N",
                     help="2, 3 or 4 players")
    new.add_argument("--variant", action="extend", nargs="+", metavar="V",
                     help="variants: hole, random, hey, finalfree, pieces-2")
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
    _add_state(svg)
    _add_view(svg)
    svg.add_argument("--size", type=_whole_number, default=560, help="width in pixels")
    _add_output(svg, "SVG")

    show = command("show", "print the position as a text diagram", _cmd_show)
    _add_state(show)
    _add_view(show)

    command("info", "print the game's metadata as JSON", _cmd_info)

    replay = command("replay", "replay a game record and show its end (or ply N)", _cmd_replay)
    replay.add_argument("record", metavar="RECORD",
                        help="game record JSON file (or a golden fixture file), - for stdin")
    replay.add_argument("--initial", metavar="STATE",
                        help="a state with the starting board, for records without one")
    _add_view(replay)
    replay.add_argument("--svg", metavar="OUT", help="also draw the position to OUT")
    replay.add_argument("--render", metavar="OUT", help="also write the render JSON to OUT")
    replay.add_argument("--size", type=_whole_number, default=560, help="SVG width in pixels")

    record = command("record", "print the record of a finished game", _cmd_record)
    _add_state(record)
    record.add_argument("--names", nargs="+", metavar="NAME", help="player names, in order")
    record.add_argument("--uid", help="the game's id in the record (default: from the state)")
    _add_output(record, "record")
    add_bot_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        args.run(args)
    except SystemExit as exc:  # --help, --version and argument errors
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except (CliError, StawvsError) as exc:
        message = exc.message if isinstance(exc, StawvsError) else str(exc)
        sys.stderr.write(f"{PROG}: error: {' '.join(message.split())}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into `head`: not an error worth a traceback
        return 0
    return 0
