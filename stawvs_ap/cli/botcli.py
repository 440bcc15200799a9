"""The bot subcommands of ``stawvs-ap``: ``hint`` and ``arena`` here, ``selfplay``
and ``play`` in :mod:`~stawvs_ap.cli.playcli`.

::

    stawvs-ap hint game.json --seconds 1            # best move and the top candidates
    stawvs-ap arena --bot mcts:seconds=0.25 --bot greedy --games 200 --jobs 2

:func:`add_bot_commands` adds them all to the command line's subparsers. Bad
input is a :class:`~stawvs_ap.errors.StawvsError`, which the command line
reports as one line on standard error with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TextIO, TypeVar

from ..bots.arena import (
    Match,
    failures_text,
    format_table,
    match_report,
    play_match,
    summarise,
)
from ..bots.base import TOP, BotErrorCode
from ..bots.journal import Journal
from ..bots.options import ITERATIONS, MAX_ITERATIONS, MAX_SECONDS, SECONDS
from ..bots.runners import InProcess, LocalProcesses, Runner, cores
from ..bots.spec import BotSpec, make_bot, options_help
from ..errors import StawvsError
from ..i18n import Phrase, catalogue
from ..records.plies import at_ply
from ..service.hints import choice_note, hint_rows
from .botargs import (
    BOT_HELP,
    VARIANT_HELP,
    BotCliError,
    Outputs,
    add_initial_argument,
    add_ply_argument,
    declared,
    lineup_of,
    load_game,
    seed_of,
    spec_argument,
    variants_of,
    whole,
)
from .messages import PLAY_HINT, THINKING
from .playcli import add_play_commands
from .safe_io import Transaction
from .terminal import thinking

__all__ = ["MAX_GAMES", "add_bot_commands", "progress_bar", "runner_for"]

_P = TypeVar("_P", bound=argparse.ArgumentParser)


# -- hint --------------------------------------------------------------------------


def _cmd_hint(args: argparse.Namespace, io: Transaction) -> dict[str, str]:
    game = at_ply(load_game(io, args.state, args.initial), args.ply)
    if game.gameover:
        raise BotCliError("the game is over: there is nothing to hint")
    # Without --seconds or --iterations the spec's own budget holds (else the bot's).
    bot, budget = make_bot(
        args.bot, seed=seed_of(args.seed), seconds=args.seconds, iterations=args.iterations
    )
    with bot, thinking(sys.stderr, catalogue(args.locale).say(THINKING)):
        candidates = bot.analyse(
            game, seconds=budget.seconds, iterations=budget.iterations, top=args.top
        )
    rows = hint_rows(game, candidates)
    words = catalogue(args.locale)
    note = choice_note(rows)
    if args.json:
        doc = {
            "player": game.currplayer,
            "best": str(candidates[0].move),
            "sorted_by": "choice, then share",
            "candidates": [row.to_dict(words) for row in rows],
            "note": None if note is None else words.say(note),
        }
        return {"-": json.dumps(doc) + "\n"}
    # The same words as the terminal game and the page: the choice, then the others,
    # and why the choice is first when a move listed below it shows a higher share.
    choice = words.say(Phrase(PLAY_HINT, {"candidates": rows[0].words(words)}))
    lines = [choice + "\n", *(f"  {row.words(words)}\n" for row in rows[1:])]
    if note is not None:
        lines.append(f"  ({words.say(note)})\n")
    return {"-": "".join(lines)}


# -- arena -------------------------------------------------------------------------


#: The most games one ``arena`` run plays (its results are held in memory).
MAX_GAMES = 100_000


def progress_bar(stream: TextIO, width: int = 30, unit: str = "games") -> _ProgressBar | None:
    """A progress callback drawing ``[#####.....] done/total games`` on ``stream``
    (``unit`` counts something else), with the games retried after a worker died
    under them; None (no bar) when ``stream`` is not a terminal, so that a log
    file gets no frames of it."""
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # a closed or file-less stream
        terminal = False
    return _ProgressBar(stream, width, unit) if terminal else None


class _ProgressBar:
    def __init__(self, stream: TextIO, width: int, unit: str = "games") -> None:
        self.stream, self.width, self.unit = stream, width, unit
        self.started = time.monotonic()
        self.open = False  # a bar is drawn and its line not yet ended

    def __call__(self, done: int, total: int, retries: int = 0) -> None:
        filled = self.width * done // total if total else self.width
        elapsed = time.monotonic() - self.started
        again = f", {retries} retried" if retries else ""
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} {self.unit} {elapsed:.0f}s{again}")
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
    lineup = lineup_of(
        args.bot or [BotSpec.parse("mcts:seconds=0.25"), BotSpec.parse("greedy")], args.players
    )
    variants = variants_of(args.variant)
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
        if journal is None or exc.code != BotErrorCode.ARENA_FAILED:
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
            + failures_text(lineup, results)
        )
    }


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

    bot_help, variant_help = BOT_HELP, VARIANT_HELP

    hint = command("hint", "print the best move and the top candidates of a bot", _cmd_hint)
    hint.add_argument(
        "state", metavar="STATE", help="a serialized state or a game record, - for stdin"
    )
    add_initial_argument(hint)
    add_ply_argument(hint)
    hint.add_argument(
        "--bot",
        type=spec_argument,
        default=BotSpec("mcts"),
        metavar="SPEC",
        help=bot_help + " (default: mcts)",
    )
    hint.add_argument(
        "--seconds",
        type=declared(SECONDS),
        metavar="S",
        help=f"thinking time, at most {MAX_SECONDS:g} "
        "(default: the spec's budget, else the bot's own: 1 s for mcts and uct)",
    )
    hint.add_argument(
        "--iterations",
        type=declared(ITERATIONS),
        metavar="N",
        help=f"search iterations, 1 to {MAX_ITERATIONS:,}",
    )
    hint.add_argument(
        "--top", type=declared(TOP), default=5, metavar="K", help="candidates shown (default 5)"
    )
    hint.add_argument("--seed", metavar="S", help="seed of the bot")
    hint.add_argument("--json", action="store_true", help="print JSON instead")

    arena = command("arena", "play games between bots and print their results", _cmd_arena)
    arena.add_argument(
        "--bot",
        type=spec_argument,
        action="append",
        metavar="SPEC",
        help=bot_help + "; once per seat, the last fills the rest "
        "(default: mcts:seconds=0.25 and greedy)",
    )
    arena.add_argument(
        "--games",
        type=whole,
        default=20,
        metavar="N",
        help="games to play, 1 to 100,000 (default 20; a multiple of the players keeps seats even)",
    )
    arena.add_argument(
        "--players", type=whole, metavar="N", help="2, 3 or 4 (default: one per --bot, at least 2)"
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
        type=whole,
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
    add_play_commands(command)
