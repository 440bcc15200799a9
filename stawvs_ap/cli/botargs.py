"""What the bot commands share: their errors, argument types, seeds, lineups and the
state they read (:mod:`~stawvs_ap.cli.botcli` for ``hint`` and ``arena``,
:mod:`~stawvs_ap.cli.playcli` for ``selfplay`` and ``play``)."""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from ..bots.arena import derived_seed
from ..bots.options import Option
from ..bots.spec import BotSpec
from ..core.position import MAX_SEED
from ..core.variants import VARIANTS, check_variants
from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import SEED_RANGE, StawvsGame, check_seed
from ..i18n import printable
from ..records import game_of, record_in
from ..records.replay import NAME_SHOWN
from .safe_io import Transaction, label

__all__ = [
    "BOT_HELP",
    "INITIAL_HELP",
    "VARIANT_HELP",
    "BotCliError",
    "Outputs",
    "add_initial_argument",
    "add_ply_argument",
    "declared",
    "lineup_of",
    "load_game",
    "load_game_and_names",
    "local_uid",
    "read_initial",
    "read_state_or_record",
    "record_names",
    "replayed",
    "seat_seed",
    "seed_of",
    "spec_argument",
    "variants_of",
    "whole",
]

#: A command's outputs: ``path: text`` (``-``: standard output), written together.
Outputs = dict[str, str]

BOT_HELP = (
    "a bot: random, greedy, mcts, uct or an installed plug-in, with options as "
    "NAME:KEY=VALUE,... (below); or exec:COMMAND, an engine program (docs/bots.md)"
)
#: The variants' help, made from the core's list of variants.
VARIANT_HELP = "variants: " + ", ".join(VARIANTS)


class BotCliError(StawvsError):
    """Bad input to a bot subcommand (code ``BAD_ARGUMENT``)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_ARGUMENT, message)


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a whole number") from None


def record_names(record: Any) -> list[str] | None:
    """The players' names from a record's header, when it has them all, as a
    terminal may show them (:func:`stawvs_ap.i18n.printable`), each cut to
    :data:`~stawvs_ap.records.replay.NAME_SHOWN` characters as the record's
    errors show them."""
    try:
        names = [printable(p["name"], limit=NAME_SHOWN) for p in record["header"]["players"]]
    except (KeyError, TypeError):
        return None
    if not all(name.strip() for name in names):  # a blank name: "Player N" for all
        return None
    return names or None


def declared(option: Option[Any]) -> Callable[[str], Any]:
    """An argparse type reading ``option`` as its declaration says (type and range)."""

    def read(text: str) -> Any:
        try:
            return option.parse(text)
        except StawvsError as exc:
            raise argparse.ArgumentTypeError(exc.message.replace("option ", "--", 1)) from None

    return read


def spec_argument(text: str) -> BotSpec:
    try:
        return BotSpec.parse(text, allow_exec=True)  # the person typing it runs it
    except StawvsError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def local_uid(state: str) -> str:
    """The id of a game record made here from the state text ``state``: the same
    game, the same id."""
    return "local-" + hashlib.sha256(state.encode("utf-8")).hexdigest()[:12]


def seed_of(text: str | None) -> int | None:
    """The seed ``text`` writes: a whole number from 0 to 2^63-1 in ASCII digits, or
    None when no seed was given; ``BAD_ARGUMENT`` naming the range otherwise (``abc``,
    ``1.5``, ``-1`` and ``+7`` alike), as the Python API and the service refuse it.

    >>> seed_of("7"), seed_of(None)
    (7, None)
    """
    if text is None:
        return None
    if text.isascii() and text.isdigit() and len(text) <= len(str(MAX_SEED)):
        return check_seed(int(text))
    raise StawvsError(ErrorCode.BAD_ARGUMENT, f"{SEED_RANGE}, not {excerpt(text)}")


def seat_seed(seed: int | None, seat: int) -> int | None:
    """The seed of the bot in ``seat`` of a game seeded with ``seed`` (None: unseeded)."""
    return None if seed is None else derived_seed(seed, "seat", seat)


def variants_of(given: Sequence[str] | None) -> list[str]:
    try:
        return check_variants(given or [])
    except ValueError as exc:
        raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None


def lineup_of(bots: Sequence[BotSpec], players: int | None, *, seats: int = 0) -> list[BotSpec]:
    """One spec per seat to fill: ``players`` seats less ``seats`` taken by people,
    the last ``--bot`` filling the seats the others leave."""
    count = players if players is not None else max(2, len(bots) + seats)
    if not 2 <= count <= 4:
        raise BotCliError(f"Stawvs is for 2 to 4 players, not {count}")
    wanted = count - seats
    if len(bots) > wanted:
        raise BotCliError(
            f"{len(bots)} bots given for {wanted} seat"
            if wanted == 1
            else f"{len(bots)} bots given for {wanted} seats"
        )
    return list(bots) + [bots[-1]] * (wanted - len(bots))


#: The help of ``--initial``, wherever a command takes a record.
INITIAL_HELP = (
    "a state file with the starting board, for a record without one (Abstract Play's "
    "records have none)"
)


def add_initial_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--initial STATE`` option of a command that takes a record."""
    parser.add_argument("--initial", metavar="STATE", help=INITIAL_HELP)


#: The help of ``--ply``, wherever a command thinks about one position of a history.
PLY_HELP = (
    "the position after N moves of the record or state's history (0: the start; "
    "negative counts back from the end, -1 being the position before the last move; "
    "default: the last position)"
)


def add_ply_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--ply N`` option of a command that thinks about one position
    (:func:`stawvs_ap.records.plies.at_ply` says what N means)."""
    parser.add_argument("--ply", type=whole, metavar="N", help=PLY_HELP)


def read_initial(io: Transaction, path: str | None) -> str | None:
    """The text of the ``--initial`` state file, when one was given."""
    return None if path is None else io.read_text(path, "initial state")


def replayed(text: str, record: dict[str, Any] | None, initial: str | None) -> StawvsGame:
    """The game of what :func:`read_state_or_record` read: the state, or the record
    replayed (a game in progress too) from ``initial`` when it has no board."""
    if record is None and initial is not None:
        raise BotCliError("--initial goes with a record, not with a state")
    return game_of(text if record is None else record, initial)


def load_game(io: Transaction, path: str, initial: str | None = None) -> StawvsGame:
    """The game in ``path`` (``-``: standard input), read within the command line's
    size limit: a state, or a record replayed (a game in progress too; from the
    state file ``initial`` when the record has no starting board)."""
    return load_game_and_names(io, path, initial)[0]


def load_game_and_names(
    io: Transaction, path: str, initial: str | None = None
) -> tuple[StawvsGame, list[str] | None]:
    """:func:`load_game`, and the players' names when ``path`` holds a record
    that names them all."""
    text, record = read_state_or_record(io, path)
    game = replayed(text, record, read_initial(io, initial))
    return game, None if record is None else record_names(record)


def read_state_or_record(io: Transaction, path: str) -> tuple[str, dict[str, Any] | None]:
    """What the file ``path`` holds: its text (a state's, as the state loader takes
    it) and, when it is a game record (or a fixture wrapping one in ``record``),
    the record; refused in one line when it is empty or not UTF-8. Text that is
    no JSON is given back as a state's, for the state loader to say what is wrong
    with it (where the JSON breaks, a number too long); JSON nested too deeply to
    read is refused here, naming the state or record."""
    text = io.read_text(path, "state or record")
    if not text.strip():
        raise BotCliError(f"{label(path)} is empty: neither a state nor a record")
    try:
        # A byte-order mark is refused by JSON, and taken by the state loader.
        parsed = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:  # neither can be read: name both, as replay names the record
        raise BotCliError(f"the state or record on {label(path)} is nested too deeply") from None
    except ValueError:  # a number of over 4,300 digits
        return text, None
    return text, record_in(parsed)
