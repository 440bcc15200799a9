"""``stawvs-ap analyse FILE``: several lines and the claim map of a position
(:func:`stawvs_ap.bots.analysis.analyse`), in the player's language or as JSON::

    stawvs-ap analyse game.json --seconds 2 --lines 5
    stawvs-ap analyse record.json --ply 30 --json

Each line is a move, its share of the win (as ``hint`` says it) or, where the
solver proved it, the verdict with best play, and its principal variation.
The claim map is in the JSON (``claims``) and in ``stawvs-ap svg --claims``.
"""

from __future__ import annotations

import argparse
import json
from typing import TypeVar

from ..bots.analysis import DEFAULT_LINES, MAX_LINES, Analysis, Line, analyse
from ..bots.options import ITERATIONS, MAX_SECONDS, SECONDS
from ..i18n import Phrase, catalogue, player_name
from ..records.plies import at_ply
from ..service.messages import HINT_CANDIDATE
from .botargs import (
    BotCliError,
    Outputs,
    add_initial_argument,
    add_ply_argument,
    declared,
    load_game_and_names,
    seed_of,
    whole,
)
from .messages import SOLVE_LINE, SOLVE_LOSS, SOLVE_SHARED, SOLVE_WIN
from .safe_io import Transaction

__all__ = ["add_analyse_command", "analysis_text"]

_P = TypeVar("_P", bound=argparse.ArgumentParser)


def analysis_text(found: Analysis, *, names: list[str] | None = None, locale: str = "en") -> str:
    """The lines of ``found`` in words, one per line, numbered: ``1. d5: 43% win
    share: d5 f4 e7``, or for a proven line the solver's verdict on it."""
    words = catalogue(locale)
    player = found.player
    name: str | Phrase = names[player - 1] if names else player_name(player)
    said = []
    for rank, line in enumerate(found.lines, start=1):
        said.append(f"{rank}. {words.say(_line_phrase(line, name))}")
    return "".join(text + "\n" for text in said)


def _line_phrase(line: Line, name: str | Phrase) -> Phrase:
    moves = " ".join(map(str, line.pv))
    if line.margin is None:
        percent = f"{100 * line.share:.0f}"
        verdict = Phrase(HINT_CANDIDATE, {"move": str(line.move), "percent": percent})
    elif line.margin > 0:
        verdict = Phrase(SOLVE_WIN, {"player": name, "margin": line.margin})
    elif line.margin < 0:
        verdict = Phrase(SOLVE_LOSS, {"player": name, "margin": -line.margin})
    else:
        verdict = Phrase(SOLVE_SHARED, {"player": name})
    return Phrase(SOLVE_LINE, {"verdict": verdict, "moves": moves})


def _cmd_analyse(args: argparse.Namespace, io: Transaction) -> Outputs:
    game, names = load_game_and_names(io, args.file, args.initial)
    game = at_ply(game, args.ply)
    if game.gameover:
        raise BotCliError("the game is over: there is nothing to analyse")
    found = analyse(
        game,
        seconds=args.seconds,
        iterations=args.iterations,
        lines=args.lines,
        seed=seed_of(args.seed),
    )
    if args.json:
        return {"-": json.dumps(found.to_dict()) + "\n"}
    return {"-": analysis_text(found, names=names, locale=args.locale)}


def add_analyse_command(sub: argparse._SubParsersAction[_P]) -> None:
    """Add ``analyse`` to the subparsers ``sub`` of the command line."""
    help_text = "print the best lines of a position and who is likely to collect each pyramid"
    command: argparse.ArgumentParser = sub.add_parser(
        "analyse", help=help_text, description=help_text
    )
    command.set_defaults(run=_cmd_analyse)
    command.add_argument(
        "file", metavar="FILE", help="a serialized state or a game record (JSON), - for stdin"
    )
    add_initial_argument(command)
    add_ply_argument(command)
    command.add_argument(
        "--seconds",
        type=declared(SECONDS),
        metavar="S",
        help=f"the analysis's time, at most {MAX_SECONDS:g} (default: 1, without --iterations)",
    )
    command.add_argument(
        "--iterations",
        type=declared(ITERATIONS),
        metavar="N",
        help="the search's iterations (with --seed, the same answer every time)",
    )
    command.add_argument(
        "--lines",
        type=whole,
        default=DEFAULT_LINES,
        metavar="K",
        help=f"how many moves to show, 1 to {MAX_LINES} (default: {DEFAULT_LINES})",
    )
    command.add_argument("--seed", metavar="S", help="seed of the search")
    command.add_argument(
        "--json",
        action="store_true",
        help="print JSON: player, lines (move, share, margin, exact, visits, pv), claims "
        "(square: each player's probability of collecting it), playouts, proven",
    )
