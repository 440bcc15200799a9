"""The bot subcommands of ``stawvs-ap``: ``hint``, ``arena`` and ``play``.

::

    stawvs-ap hint game.json --seconds 1            # best move and the top candidates
    stawvs-ap arena --bot mcts:seconds=0.25 --bot greedy --games 200 --jobs 2
    stawvs-ap play --bot mcts --players 3 --variant hey

:func:`add_bot_commands` adds them to the command line's subparsers. Bad
input is a :class:`~stawvs_ap.errors.StawvsError`, which the command line
reports as one line on standard error with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO, TypeVar

from ..bots import Bot
from ..bots.arena import Match, format_table, match_report, play_match, summarise
from ..bots.base import TOP
from ..bots.journal import Journal
from ..bots.options import ITERATIONS, MAX_ITERATIONS, MAX_SECONDS, SECONDS, Option, excerpt
from ..bots.runners import InProcess, LocalProcesses, Runner, cores
from ..bots.spec import BotSpec, make_bot, options_help
from ..core.variants import check_variants
from ..errors import ErrorCode, StawvsError
from ..host.game import StawvsGame
from ..i18n import LIST_SEPARATOR, Catalogue, Phrase, catalogue
from . import messages as m
from .console import MAX_LINE, Console, shown
from .safe_io import Transaction
from .textboard import board_text

Outputs = dict[str, str]

__all__ = ["MAX_GAMES", "BotCliError", "add_bot_commands", "progress_bar", "runner_for", "seed_of"]

_P = TypeVar("_P", bound=argparse.ArgumentParser)


class BotCliError(StawvsError):
    """Bad input to a bot subcommand (code ``BAD_ARGUMENT``)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_ARGUMENT, message)


# -- arguments ---------------------------------------------------------------------


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a whole number") from None


def _declared(option: Option[Any]) -> Callable[[str], Any]:
    """An argparse type reading ``option`` as its declaration says (type and range)."""

    def read(text: str) -> Any:
        try:
            return option.parse(text)
        except StawvsError as exc:
            raise argparse.ArgumentTypeError(exc.message.replace("option ", "--", 1)) from None

    return read


def _spec(text: str) -> BotSpec:
    try:
        return BotSpec.parse(text)
    except StawvsError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def seed_of(text: str | None) -> int | str | None:
    """A seed as given: a whole number is used as a number, anything else as text."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _variants(given: Sequence[str] | None) -> list[str]:
    try:
        return check_variants(given or [])
    except ValueError as exc:
        raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None


def _lineup(bots: Sequence[BotSpec], players: int | None, *, seats: int = 0) -> list[BotSpec]:
    """One spec per seat to fill: ``players`` seats less ``seats`` taken by people,
    the last ``--bot`` filling the seats the others leave."""
    count = players if players is not None else max(2, len(bots) + seats)
    if not 2 <= count <= 4:
        raise BotCliError(f"Stawvs is for 2 to 4 players, not {count}")
    wanted = count - seats
    if len(bots) > wanted:
        raise BotCliError(f"{len(bots)} bots given for {wanted} seats")
    return list(bots) + [bots[-1]] * (wanted - len(bots))


def _load(io: Transaction, path: str) -> StawvsGame:
    """The game in the state file ``path`` (``-``: standard input), read within
    the command line's size limit."""
    data = io.read(path, "state")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BotCliError(f"cannot read state {path!r}: it is not UTF-8 text") from None
    if not text.strip():
        raise BotCliError(f"the state on {path!r} is empty")
    return StawvsGame(text)


# -- hint --------------------------------------------------------------------------


def _cmd_hint(args: argparse.Namespace, io: Transaction) -> dict[str, str]:
    game = _load(io, args.state)
    if game.gameover:
        raise BotCliError("the game is over: there is nothing to hint")
    # Without --seconds or --iterations the spec's own budget holds (else the bot's).
    bot, budget = make_bot(
        args.bot, seed=seed_of(args.seed), seconds=args.seconds, iterations=args.iterations
    )
    candidates = bot.analyse(
        game, seconds=budget.seconds, iterations=budget.iterations, top=args.top
    )
    if args.json:
        doc = {
            "player": game.currplayer,
            "best": str(candidates[0].move),
            "candidates": [c.to_dict() for c in candidates],
        }
        return {"-": json.dumps(doc) + "\n"}
    lines = [f"best: {candidates[0].move}", f"{'move':<10} {'visits':>7} {'value':>7}"]
    lines += [f"{c.move!s:<10} {c.visits:>7} {c.value:>7.3f}" for c in candidates]
    return {"-": "\n".join(lines) + "\n"}


# -- arena -------------------------------------------------------------------------


#: The most games one ``arena`` run plays (its results are held in memory).
MAX_GAMES = 100_000


def progress_bar(stream: TextIO, width: int = 30) -> _ProgressBar:
    """A progress callback drawing ``[#####.....] done/total games`` on ``stream``,
    with the games retried after a worker died under them."""
    return _ProgressBar(stream, width)


class _ProgressBar:
    def __init__(self, stream: TextIO, width: int) -> None:
        self.stream, self.width = stream, width
        self.started = time.monotonic()
        self.open = False  # a bar is drawn and its line not yet ended

    def __call__(self, done: int, total: int, retries: int = 0) -> None:
        filled = self.width * done // total if total else self.width
        elapsed = time.monotonic() - self.started
        again = f", {retries} retried" if retries else ""
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games {elapsed:.0f}s{again}")
        self.open = done != total
        self.stream.write("" if self.open else "\n")
        self.stream.flush()

    def end(self) -> None:
        """End the bar's line, so that what follows (an error, an interrupt) has its own."""
        if self.open:
            self.stream.write("\n")
            self.stream.flush()
            self.open = False


def runner_for(cluster: str | None, jobs: int | None) -> tuple[Runner, Callable[[], None]]:
    """The runner of ``--cluster ADDRESS`` or ``--jobs J`` (neither: this process),
    and how to let it go when done; ``BAD_ARGUMENT`` for both, or for more jobs
    than cores, and ``ARENA_FAILED`` for a cluster that cannot be reached."""
    if cluster is not None:
        if jobs is not None:
            raise BotCliError("give --jobs or --cluster, not both: the cluster has its own workers")
        from ..bots.cluster import Cluster  # Dask is imported only when asked for

        connected = Cluster(cluster)
        return connected, connected.close
    jobs = 1 if jobs is None else jobs
    most = cores()
    if not 1 <= jobs <= most:
        raise BotCliError(
            f"--jobs must be from 1 to {most} (the cores of this machine), not {jobs}"
        )
    return (LocalProcesses(jobs) if jobs > 1 else InProcess()), lambda: None


def _cmd_arena(args: argparse.Namespace, io: Transaction) -> dict[str, str]:
    lineup = _lineup(
        args.bot or [BotSpec.parse("mcts:seconds=0.25"), BotSpec.parse("greedy")], args.players
    )
    variants = _variants(args.variant)
    if not 1 <= args.games <= MAX_GAMES:
        raise BotCliError(f"--games must be from 1 to {MAX_GAMES:,}, not {args.games}")
    if args.resume and args.records is None:
        raise BotCliError("--resume continues the run kept with --records DIR: give its DIR")
    seed = seed_of(args.seed)
    assert seed is not None
    match = Match(tuple(lineup), tuple(variants), seed)
    progress = None if args.quiet else progress_bar(sys.stderr)
    runner, release = runner_for(args.cluster, args.jobs)  # refused before DIR is made
    journal = None
    try:
        if args.records:
            journal = Journal(args.records, match, resume=args.resume)
        results = play_match(
            lineup,
            args.games,
            variants=variants,
            seed=seed,
            runner=runner,
            keeper=journal,
            progress=progress,
        )
    except StawvsError as exc:
        if journal is None or exc.code != ErrorCode.ARENA_FAILED:
            raise
        kept = len(journal.played())
        raise BotCliError(
            f"{exc.message}; what it played is kept in {args.records!r} "
            f"({kept} game{'s' if kept != 1 else ''}): the same command with --resume "
            "continues the run"
        ) from None
    finally:
        release()
        if progress is not None:
            progress.end()
        if journal is not None:
            journal.close()
    if args.json:
        report = match_report(
            lineup,
            results,
            variants=variants,
            seed=seed,
            record_path=journal.record_path if journal else None,
        )
        return {"-": json.dumps(report, indent=2, ensure_ascii=False) + "\n"}
    plies = sum(r.plies for r in results) / len(results)
    retries = sum(r.attempts - 1 for r in results)
    notes = (f", {retries} retried" if retries else "") + (
        f", kept in {args.records}" if args.records else ""
    )
    return {
        "-": (
            f"{len(lineup)} players, variants: {', '.join(variants) or 'none'}, seed {seed}, "
            f"{len(results)} games, {plies:.1f} plies a game{notes}\n\n"
            + format_table(summarise(lineup, results))
        )
    }


# -- play --------------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace, io: Transaction) -> dict[str, str]:
    """A game in the terminal: written as it goes, so it has no outputs to commit."""
    lineup = _lineup(args.bot or [BotSpec.parse("mcts")], args.players, seats=1)
    players = len(lineup) + 1
    if not 1 <= args.seat <= players:
        raise BotCliError(f"--seat must be 1 to {players}, not {args.seat}")
    game = StawvsGame.new(
        players, _variants(args.variant), seed=seed_of(args.seed), locale=args.locale
    )
    words = catalogue(game.locale)
    seed = seed_of(args.seed)
    bots: dict[int, Bot] = {}
    names = [words.say(m.PLAY_YOU)] * players
    others = iter(lineup)
    for seat in range(1, players + 1):
        if seat != args.seat:
            spec = next(others)
            bots[seat] = spec.make(None if seed is None else f"{seed}:{seat}")
            names[seat - 1] = words.say(Phrase(m.PLAY_BOT_NAME, {"name": spec.name}))
    _Session(game, bots, names, args.seat, Console()).run()
    return {}


class _Session:
    """A terminal game: the person at ``seat`` types, the bots answer."""

    def __init__(
        self, game: StawvsGame, bots: dict[int, Bot], names: list[str], seat: int, console: Console
    ) -> None:
        self.game, self.bots, self.names, self.seat = game, bots, names, seat
        self.console = console
        self.turns: list[int] = []  # the plies at which the person moved
        self.words: Catalogue = catalogue(game.locale)

    def say(self, text: str | Phrase) -> None:
        self.console.say(text if isinstance(text, str) else self.words.say(text))

    def run(self) -> None:
        game = self.game
        self.say(Phrase(m.PLAY_WELCOME, {"players": game.numplayers, "seat": self.seat}))
        self.say(board_text(game, names=self.names))
        while not game.gameover:
            player = game.currplayer
            if player in self.bots:
                move = self.bots[player].choose(game)
                game.move(move)
                name = self.names[player - 1]
                self.say(
                    Phrase(m.PLAY_BOT_PLAYS, {"player": player, "name": name, "move": str(move)})
                )
                self.say(board_text(game, names=self.names))
                continue
            if not self.ask():
                self.say(Phrase(m.PLAY_BYE))
                return
        self.say(Phrase(m.PLAY_GAME_OVER))

    def ask(self) -> bool:
        """Read and carry out one line of the person's; False at the end of input or ``quit``."""
        game = self.game
        self.console.write(self.words.say(m.PLAY_PROMPT))
        line = self.console.read_line()
        if line is None:
            self.say("")
            return False
        text = line.text.strip()
        if not self.console.interactive():  # typed ahead or piped: show it as if typed
            self.say(shown(text))
        if line.too_long:
            self.say(Phrase(m.PLAY_TOO_LONG, {"limit": MAX_LINE}))
            return True
        command = text.lower()
        if command in ("quit", "exit"):
            return False
        if command in ("help", "?"):
            self.say(Phrase(m.PLAY_HELP))
        elif command == "moves":
            moves = game.moves()
            self.say(Phrase(m.PLAY_MOVES, {"count": len(moves), "moves": " ".join(moves)}))
        elif command == "hint":
            adviser = next(iter(self.bots.values()))
            best = adviser.analyse(game, top=3)  # within the adviser's own budget
            adviser.forget()  # its tree is now rooted at the person's turn
            candidates = [
                self.words.say(
                    Phrase(
                        m.PLAY_HINT_CANDIDATE,
                        {"move": str(c.move), "percent": f"{100 * c.value:.0f}"},
                    )
                )
                for c in best
            ]
            separator = self.words.say(LIST_SEPARATOR)
            self.say(Phrase(m.PLAY_HINT, {"candidates": separator.join(candidates)}))
        elif command == "undo":
            self.undo()
        elif not text:
            pass
        else:
            before = self._ply()
            try:
                game.move(text)
            except StawvsError as exc:
                message = shown(exc.message, 200)
                self.say(Phrase(m.PLAY_ILLEGAL, {"message": message, "code": str(exc.code)}))
                return True
            self.turns.append(before)
            self.say(board_text(game, names=self.names))
        return True

    def _ply(self) -> int:
        return sum(len(round_) for round_ in self.game.move_history())

    def undo(self) -> None:
        if not self.turns:
            self.say(Phrase(m.PLAY_NO_UNDO))
            return
        back_to = self.turns.pop()
        while self._ply() > back_to:
            self.game.pop()
        for bot in self.bots.values():
            bot.forget()
        self.say(Phrase(m.PLAY_TAKEN_BACK))
        self.say(board_text(self.game, names=self.names))


# -- the parser --------------------------------------------------------------------


def add_bot_commands(sub: argparse._SubParsersAction[_P]) -> None:
    """Add ``hint``, ``arena`` and ``play`` to the subparsers ``sub`` of the command line
    (each sets ``run``, the function the command line calls with the parsed arguments)."""

    def command(
        name: str, help_text: str, run: Callable[[argparse.Namespace, Transaction], Outputs]
    ) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=options_help(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        parser.set_defaults(run=run)
        return parser

    bot_help = "a bot: random, greedy, mcts or uct, with options as NAME:KEY=VALUE,... (below)"
    variant_help = "variants: hole, random, hey, finalfree, pieces-2"

    hint = command("hint", "print the best move and the top candidates of a bot", _cmd_hint)
    hint.add_argument("state", metavar="STATE", help="serialized state file, - for stdin")
    hint.add_argument(
        "--bot",
        type=_spec,
        default=BotSpec("mcts"),
        metavar="SPEC",
        help=bot_help + " (default: mcts)",
    )
    hint.add_argument(
        "--seconds",
        type=_declared(SECONDS),
        metavar="S",
        help=f"thinking time, at most {MAX_SECONDS:g} "
        "(default: the spec's budget, else the bot's own: 1 s for mcts and uct)",
    )
    hint.add_argument(
        "--iterations",
        type=_declared(ITERATIONS),
        metavar="N",
        help=f"search iterations, 1 to {MAX_ITERATIONS:,}",
    )
    hint.add_argument(
        "--top", type=_declared(TOP), default=5, metavar="K", help="candidates shown (default 5)"
    )
    hint.add_argument("--seed", metavar="S", help="seed of the bot")
    hint.add_argument("--json", action="store_true", help="print JSON instead")

    arena = command("arena", "play games between bots and print their results", _cmd_arena)
    arena.add_argument(
        "--bot",
        type=_spec,
        action="append",
        metavar="SPEC",
        help=bot_help + "; once per seat, the last fills the rest "
        "(default: mcts:seconds=0.25 and greedy)",
    )
    arena.add_argument(
        "--games",
        type=_whole,
        default=20,
        metavar="N",
        help="games to play, 1 to 100,000 (default 20; a multiple of the players keeps seats even)",
    )
    arena.add_argument(
        "--players", type=_whole, metavar="N", help="2, 3 or 4 (default: one per --bot, at least 2)"
    )
    arena.add_argument("--variant", action="extend", nargs="+", metavar="V", help=variant_help)
    arena.add_argument(
        "--seed",
        default="1",
        metavar="S",
        help="the same seed gives the same boards and bot seeds (default 1)",
    )
    arena.add_argument(
        "--jobs",
        type=_whole,
        metavar="J",
        help="games played at once in separate processes, at most one per core (default 1)",
    )
    arena.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT); "
        "needs pip install 'stawvs-ap[cluster]'",
    )
    arena.add_argument(
        "--records",
        metavar="DIR",
        help="keep every game as it finishes: its record (DIR/game-NNNNNN.json, "
        "replayable) and its result (DIR/arena.jsonl)",
    )
    arena.add_argument(
        "--resume",
        action="store_true",
        help="continue the run kept in --records DIR: play only the games it lacks",
    )
    arena.add_argument("--json", action="store_true", help="print a JSON report instead")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")

    play = command("play", "play a game against bots in the terminal", _cmd_play)
    play.add_argument(
        "--bot",
        type=_spec,
        action="append",
        metavar="SPEC",
        help=bot_help + "; once per bot seat, the last fills the rest (default: mcts)",
    )
    play.add_argument(
        "--players", type=_whole, metavar="N", help="2, 3 or 4 (default: you and one per --bot)"
    )
    play.add_argument("--variant", action="extend", nargs="+", metavar="V", help=variant_help)
    play.add_argument(
        "--seat", type=_whole, default=1, metavar="N", help="your seat: 1 plays first (default 1)"
    )
    play.add_argument("--seed", metavar="S", help="the same seed gives the same board")
