"""``stawvs-ap review``: where a game was won and lost (see :mod:`stawvs_ap.bots.review`).

::

    stawvs-ap review record.json --bot mcts --seconds-per-move 0.5 --jobs 2 \\
        --json review.json --svg review.svg

FILE is a record (ours or Abstract Play's, or a golden fixture file wrapping
one) or a serialized state; several FILEs are reviewed through one runner
(``--jobs`` local processes or the Dask ``--cluster``), with the same results
as one at a time. The table and the graph speak the player's language; the
JSON (docs/CONTRACT.md, ``review.schema.json``) is the same in every one. A
progress bar is drawn on standard error only when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Sequence
from typing import Any, TypeVar

from ..bots.options import SECONDS
from ..bots.review import Review, review_many
from ..bots.spec import BotSpec, options_help
from ..i18n import Argument, Catalogue, Phrase, catalogue, player_name
from ..pictures.evalgraph import MARKS, evaluation_svg
from . import messages as m
from .botargs import (
    BOT_HELP,
    BotCliError,
    Outputs,
    add_initial_argument,
    declared,
    read_initial,
    read_state_or_record,
    record_names,
    replayed,
    seed_of,
    spec_argument,
    whole,
)
from .botcli import progress_bar, runner_for
from .safe_io import Transaction

__all__ = ["MAX_FILES", "add_review_command", "columns", "review_table"]

_P = TypeVar("_P", bound=argparse.ArgumentParser)

#: The most files one ``review`` run reads.
MAX_FILES = 1000


def _names(record: Any, players: int) -> list[str] | None:
    """The players' names from a record's header (cut, :func:`record_names`), one
    for each of ``players``."""
    names = record_names(record)
    return names if names is not None and len(names) == players else None


def columns(text: str) -> int:
    """The terminal columns ``text`` takes, as terminals draw it: two for a wide
    character (Korean, Chinese, Japanese, most emoji, or one made an emoji by
    U+FE0F), none for a combining mark, a format character, a Korean vowel or
    final consonant written apart (NFD), a skin tone, or what a zero-width
    joiner adds to an emoji; one for the others.

    >>> columns("Bob"), columns("김민수"), columns("e\\u0301"), columns("தமிழ்")
    (3, 6, 1, 4)
    >>> columns("\\u2764\\ufe0f"), columns("\\U0001f44d\\U0001f3fd"), columns("a\\u00adb")
    (2, 2, 3)
    """
    total = 0
    previous = 0  # the columns of the character before, for U+FE0F
    joined = False  # after a zero-width joiner: part of the emoji before
    for char in unicodedata.normalize("NFC", text):
        code = ord(char)
        if joined:
            width, joined = 0, False
        elif char == "\u200d":
            width, joined = 0, True
        elif char == "\ufe0f":
            width = 2 - previous if previous == 1 else 0  # an emoji's presentation
        elif char == "\u00ad":
            width = 1  # a soft hyphen is drawn, as terminals do
        elif (
            unicodedata.combining(char)
            or unicodedata.category(char) in ("Mn", "Me", "Cf")
            or 0x1160 <= code <= 0x11FF  # Hangul vowels and finals, written apart
            or 0xD7B0 <= code <= 0xD7FF
            or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        ):
            width = 0
        else:
            width = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        total += width
        previous = width if char != "\ufe0f" else 2
    return total


def review_table(found: Review, names: Sequence[str], words: Catalogue) -> str:
    """The review as text: a heading, one row per ply, one summary per player."""
    heading = words.say(
        Phrase(m.REVIEW_HEADING, {"bot": found.bot, "seconds": f"{found.seconds:.1f}"})
    )
    heads = [
        words.say(w)
        for w in (
            m.REVIEW_COLUMN_PLY,
            m.REVIEW_COLUMN_PLAYER,
            m.REVIEW_COLUMN_MOVE,
            m.REVIEW_COLUMN_BETTER,
            m.REVIEW_COLUMN_LOSS,
        )
    ]
    rows = [
        [
            str(p.ply),
            names[p.player - 1],
            p.move,
            p.best if p.best is not None and p.best != p.move else "",
            "" if p.forced else f"{p.loss:.2f}",
            MARKS.get(p.judgement or "", ""),
        ]
        for p in found.plies
    ]
    widths = [max(columns(r[c]) for r in [[*heads, ""], *rows]) for c in range(6)]
    lines = [heading, ""]
    for row in [[*heads, ""], *rows]:
        cells = [" " * (widths[0] - columns(row[0])) + row[0]] + [
            cell + " " * (width - columns(cell))
            for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    for summary in found.players:
        name = names[summary.player - 1]
        if summary.accuracy is None:
            lines.append(words.say(Phrase(m.REVIEW_SUMMARY_NO_MOVES, {"name": name})))
            continue
        args: dict[str, Argument] = {
            "name": name,
            "accuracy": round(summary.accuracy),
            "inaccuracies": summary.inaccuracies,
            "mistakes": summary.mistakes,
            "blunders": summary.blunders,
        }
        lines.append(words.say(Phrase(m.REVIEW_SUMMARY, args)))
    return "\n".join(lines) + "\n"


def _cmd_review(args: argparse.Namespace, io: Transaction) -> Outputs:
    if len(args.files) > MAX_FILES:
        raise BotCliError(f"review reads at most {MAX_FILES} files at once")
    several = len(args.files) > 1
    if several and args.svg:
        raise BotCliError("--svg draws the graph of one game: give one FILE")
    for path in (args.json, args.svg):
        if path is not None:
            io.reserve(path)
    seed = seed_of(args.seed)
    assert seed is not None  # the option has a default
    read = [read_state_or_record(io, path) for path in args.files]
    initial = read_initial(io, args.initial)
    # Each record replayed here (a game in progress too; from --initial when it
    # has no board), each state loaded: the review takes the games.
    games = [replayed(text, record, None if record is None else initial) for text, record in read]
    runner, release = runner_for(args.cluster, args.jobs)
    progress = progress_bar(sys.stderr, unit="positions") if sys.stderr.isatty() else None
    try:
        reviews = review_many(
            games,
            bot=args.bot,
            seconds_per_move=args.seconds_per_move,
            seed=seed,
            runner=runner,
            progress=progress,
        )
    finally:
        release()
        if progress is not None:
            progress.end()
    words = catalogue(args.locale)
    texts = []
    for (_, record), found in zip(read, reviews, strict=True):
        names = _names(record, found.numplayers) or [
            words.say(player_name(p)) for p in range(1, found.numplayers + 1)
        ]
        texts.append(review_table(found, names, words))
    outputs: Outputs = {"-": "\n".join(texts)}
    if args.json:
        documents = [r.to_dict() for r in reviews]
        outputs[args.json] = (
            json.dumps(documents if several else documents[0], indent=2, ensure_ascii=False) + "\n"
        )
    if args.svg:
        found = reviews[0]
        outputs[args.svg] = evaluation_svg(
            found.start,
            found.plies,
            names=_names(read[0][1], found.numplayers),
            locale=args.locale,
        )
    return outputs


def add_review_command(sub: argparse._SubParsersAction[_P]) -> None:
    """Add ``review`` to the subparsers ``sub`` of the command line (it sets ``run``,
    the function the command line calls with the parsed arguments)."""
    help_text = "review a game: where it was won and lost, ply by ply"
    parser: argparse.ArgumentParser = sub.add_parser(
        "review",
        help=help_text,
        description=help_text,
        epilog=options_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=_cmd_review)
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a game record (ours or Abstract Play's, with --initial) or a state; several are "
        "reviewed together",
    )
    add_initial_argument(parser)
    parser.add_argument(
        "--bot",
        type=spec_argument,
        default=BotSpec("mcts"),
        metavar="SPEC",
        help=BOT_HELP + " (default: mcts; mcts:iterations=N makes the review reproducible)",
    )
    parser.add_argument(
        "--seconds-per-move",
        type=declared(SECONDS),
        metavar="S",
        help="thinking time for each position (default: the spec's budget, else the bot's own)",
    )
    parser.add_argument(
        "--seed", default="1", metavar="S", help="the bots' seed (default 1): the same review"
    )
    parser.add_argument(
        "--jobs",
        type=whole,
        metavar="J",
        help="positions appraised at once in separate processes, at most one per core",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="appraise on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT)",
    )
    parser.add_argument("--json", metavar="OUT", help="write the review as JSON to OUT")
    parser.add_argument("--svg", metavar="OUT", help="draw the evaluation graph to OUT")
