"""The commands in which bots finish a game: ``selfplay`` (bots alone) and ``play``
(a person against bots in the terminal, :mod:`~stawvs_ap.cli.playgame`).

::

    stawvs-ap selfplay game.json --bot greedy -o over.json
    stawvs-ap play --bot mcts --players 3 --variant hey
    stawvs-ap play saved.json --seat 2 --bot mcts --record record.json
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable

from ..bots import Bot
from ..bots.arena import labels
from ..bots.base import play_turn
from ..bots.spec import BotSpec
from ..host.game import StawvsGame
from ..i18n import Phrase, catalogue
from . import messages as m
from .botargs import (
    BOT_HELP,
    VARIANT_HELP,
    BotCliError,
    Outputs,
    add_initial_argument,
    lineup_of,
    load_game,
    local_uid,
    seat_seed,
    seed_of,
    spec_argument,
    variants_of,
    whole,
)
from .playgame import TerminalGame
from .safe_io import Transaction
from .terminal import Console, thinking, wants_colour

__all__ = ["add_play_commands"]

#: How a subcommand's parser is made: ``command(name, help, run)``.
Command = Callable[
    [str, str, Callable[[argparse.Namespace, Transaction], Outputs]], argparse.ArgumentParser
]


# -- selfplay and play: a game to play on ---------------------------------------------


def _game_and_lineup(
    args: argparse.Namespace, io: Transaction, default_bot: str, *, seats: int
) -> tuple[StawvsGame, list[BotSpec]]:
    """The game in ``args.state``, or a new one of ``--players`` and ``--variant``,
    and the bots for its seats less ``seats`` taken by people."""
    bots = args.bot or [BotSpec.parse(default_bot)]
    if args.state is None:
        if args.initial is not None:
            raise BotCliError("--initial goes with a record, not with a new game")
        lineup = lineup_of(bots, args.players, seats=seats)
        players = len(lineup) + seats
        variants = variants_of(args.variant)
        game = StawvsGame.new(players, variants, seed=seed_of(args.seed), locale=args.locale)
        return game, lineup
    if args.players is not None or args.variant:
        raise BotCliError("--players and --variant make a new game: give them or a state")
    game = load_game(io, args.state, args.initial)
    game.locale = args.locale
    if game.gameover:
        raise BotCliError("the game is over already")
    return game, lineup_of(bots, game.numplayers, seats=seats)


def _add_game_options(parser: argparse.ArgumentParser, state: str, bot: str, players: str) -> None:
    """The options of ``selfplay`` and ``play``: a state, or a new game's; the bots."""
    parser.add_argument("state", nargs="?", metavar="STATE", help=state)
    add_initial_argument(parser)
    parser.add_argument("--bot", type=spec_argument, action="append", metavar="SPEC", help=bot)
    parser.add_argument("--players", type=whole, metavar="N", help=players)
    parser.add_argument("--variant", action="extend", nargs="+", metavar="V", help=VARIANT_HELP)
    parser.add_argument("--seed", metavar="S", help="seeds the new board and the bots")


def _cmd_selfplay(args: argparse.Namespace, io: Transaction) -> Outputs:
    """Bots finish a game: the one in ``args.state``, or a new one."""
    game, lineup = _game_and_lineup(args, io, "greedy", seats=0)
    seed = seed_of(args.seed)
    bots = [spec.make(seat_seed(seed, seat)) for seat, spec in enumerate(lineup, start=1)]
    try:
        with thinking(sys.stderr, catalogue(args.locale).say(m.THINKING)):
            while not game.gameover:
                play_turn(game, bots[game.currplayer - 1])
    finally:
        for bot in bots:
            bot.close()
    return {args.output: game.serialize() + "\n"}


# -- play --------------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace, io: Transaction) -> dict[str, str]:
    """A game in the terminal, written as it goes; its output is the record asked for."""
    if args.record:
        io.reserve(args.record)  # a record that cannot be written is refused before the game
    game, lineup = _game_and_lineup(args, io, "mcts", seats=1)
    players = game.numplayers
    if not 1 <= args.seat <= players:
        raise BotCliError(f"--seat must be 1 to {players}, not {args.seat}")
    seed = seed_of(args.seed)
    seats = [seat for seat in range(1, players + 1) if seat != args.seat]
    bots: dict[int, Bot] = {
        seat: spec.make(seat_seed(seed, seat)) for seat, spec in zip(seats, lineup, strict=True)
    }
    words = catalogue(game.locale)
    names = [words.say(m.PLAY_YOU) if args.name is None else args.name] * players
    for seat, label in zip(seats, labels(lineup), strict=True):
        names[seat - 1] = label

    def resume_command(path: str) -> str:
        specs = [str(spec) for spec in lineup]
        while len(specs) > 1 and specs[-1] == specs[-2]:
            specs.pop()  # the last --bot fills the remaining seats
        argv = ["stawvs-ap", "play", path, "--seat", str(args.seat)]
        for spec in specs:
            argv += ["--bot", spec]
        return shlex.join(argv)

    console = Console(colour=wants_colour(sys.stdout, args.colour))
    session = TerminalGame(
        game, bots, names, args.seat, console, resume_command=resume_command, verbose=args.verbose
    )
    try:
        finished = session.run(resumed=args.state is not None)
    finally:
        for bot in bots.values():
            bot.close()
    if not args.record:
        return {}
    if not finished:
        console.say(words.say(Phrase(m.PLAY_NO_RECORD, {"path": args.record})))
        return {}
    players_of_record = [
        {"name": name, "uid": f"p{seat}", "is_ai": seat in bots}
        for seat, name in enumerate(names, start=1)
    ]
    record = session.game.gen_record(
        uid=local_uid(session.game.serialize()), players=players_of_record
    )
    console.say(words.say(Phrase(m.PLAY_RECORD_WRITTEN, {"path": args.record})))
    return {args.record: json.dumps(record, indent=2, ensure_ascii=False) + "\n"}


def add_play_commands(command: Command) -> None:
    """Add ``selfplay`` and ``play`` with ``command(name, help, run)``, which makes
    a subcommand's parser."""
    selfplay = command(
        "selfplay", "let bots finish a game (a new one, or the game in STATE)", _cmd_selfplay
    )
    _add_game_options(
        selfplay,
        "a state or a record to play on (- for stdin); without it a new game",
        BOT_HELP + "; once per seat, the last fills the rest (default: greedy)",
        "2, 3 or 4, for a new game (default: one per --bot, at least 2)",
    )
    selfplay.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="OUT",
        help="write the final state to OUT (default: standard output)",
    )

    play = command("play", "play a game against bots in the terminal", _cmd_play)
    _add_game_options(
        play,
        "a saved game to resume (save FILE writes one) or a record of a game in progress; "
        "without it a new game",
        BOT_HELP + "; once per bot seat, the last fills the rest (default: mcts)",
        "2, 3 or 4 (default: you and one per --bot)",
    )
    play.add_argument(
        "--seat", type=whole, default=1, metavar="N", help="your seat: 1 plays first (default 1)"
    )
    play.add_argument(
        "--name", help="your name on the board and in the record (default: You, in your language)"
    )
    play.add_argument(
        "--record", metavar="OUT", help="write the game's record to OUT when the game is over"
    )
    play.add_argument(
        "--colour",
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help="colours: auto (a terminal without NO_COLOR; the default), always or never",
    )
    play.add_argument("--verbose", action="store_true", help="add the codes to refusals")
