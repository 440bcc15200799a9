"""The one acceptor of serialized states: what decides that a state is a game
that could have been played.

A state is accepted when its shape is right (the models of
:mod:`stawvs_ap.state.format`), its first entry is a position a new game of
its variants starts from (:func:`start_entry`, by the core's
:func:`~stawvs_ap.core.invariants.start_fault`), and every later entry is
exactly what its ``lastmove`` makes of the entry before (docs/CONTRACT.md §4):
:func:`following_entry` is the one decision of whether such a step could have
been played, and the entry given must then be the one it makes. Each refusal
is an :class:`~stawvs_ap.errors.InvalidStateError` naming the first problem
found. :func:`load_checked` applies all of it to a document; the fast path of
:mod:`stawvs_ap.state.reader` makes the same decision faster, through
:func:`start_entry` and :func:`following_entry`, and never refuses on its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from typing import Any, Final, cast

from pydantic import ValidationError

from ..core.events import ENDINGS
from ..core.invariants import start_fault
from ..core.moves import Move, MoveSyntaxError
from ..core.position import EMPTY, Position
from ..core.pyramids import PYRAMIDS
from ..core.squares import SQUARE_NAMES, SQUARE_OF_NAME
from ..core.variants import Rules, check_variants, rules_for
from ..errors import InvalidStateError, excerpt
from .entry import ENGINE_VERSION, GAME_UID, Entry
from .format import EntryModel, StateModel, check_sizes
from .results import results_of
from .timestamps import is_timestamp
from .writer import Written

__all__ = ["GameState", "following_entry", "load_checked", "start_entry"]

_PYRAMID_OF_JSON: Final[dict[tuple[str, int], int]] = {
    (p.colour.code, int(p.size)): int(p) for p in PYRAMIDS
}
_FIRST: Final = itemgetter(0)
_COLOURED_OF_JSON: Final = {key: p for key, p in _PYRAMID_OF_JSON.items() if p < 12}


@dataclass(frozen=True, slots=True)
class GameState:
    """A loaded state: what a game object is made from."""

    numplayers: int
    variants: list[str]
    stack: list[Entry]
    #: The stack's text as this engine writes it, when the reader has it.
    written: Written | None = None


def load_checked(data: dict[str, Any]) -> GameState:
    """The game a state document (a dict within the size limits) holds, with every check."""
    if "game" not in data:
        raise InvalidStateError("the state does not say which game it is (no 'game' key)")
    if data["game"] != GAME_UID:
        raise InvalidStateError(f"this is a state of game {excerpt(data['game'])}, not of Stawvs")
    _check_versions(data)
    check_sizes(data)
    try:
        model = StateModel.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the document"
        raise InvalidStateError(f"malformed state: {where}: {first['msg']}") from None
    n = model.numplayers
    if not 2 <= n <= 4:
        raise InvalidStateError(f"Stawvs is for 2 to 4 players, not {n}")
    try:
        variants = check_variants(model.variants)
    except ValueError as exc:
        raise InvalidStateError(str(exc)) from None
    stack = [start_entry(rules_for(n, variants), variants, model.stack[0])]
    for index, given in enumerate(model.stack[1:], start=1):
        stack.append(_checked_following(index, stack[-1], given))
    top = stack[-1]
    if model.gameover != top.ended or sorted(model.winner) != top.winners:
        raise InvalidStateError(
            f"'gameover' ({model.gameover}) and 'winner' ({excerpt(model.winner)}) disagree "
            "with the last stack entry"
        )
    return GameState(n, variants, stack)


def _check_versions(data: dict[str, Any]) -> None:
    stack = data.get("stack")
    for i, entry in enumerate(stack if isinstance(stack, list) else []):
        if not isinstance(entry, dict) or "_version" not in entry:
            continue  # the model reports it
        version = entry["_version"]
        if not isinstance(version, str):
            raise InvalidStateError(
                f"stack entry {i}: '_version' must be text such as \"{ENGINE_VERSION}\", "
                f"not {excerpt(version)}"
            )
        if version != ENGINE_VERSION:
            raise InvalidStateError(
                f"stack entry {i} was written by engine version {excerpt(version)}; "
                f"this engine reads version {ENGINE_VERSION} only"
            )


def _position_of(rules: Rules, index: int, model: EntryModel) -> Position:
    """The position an entry writes down, every value in range (not yet its rules)."""
    where = f"stack entry {index}"
    n = rules.numplayers
    _check_player(where, model.currplayer, n, "the player to move")
    for p in model.eliminated:
        _check_player(where, p, n, "an eliminated player")
    if len(set(model.eliminated)) != len(model.eliminated):
        raise InvalidStateError(f"{where}: a player is listed twice as eliminated")
    if len(model.captured) != n:
        raise InvalidStateError(
            f"{where}: 'captured' has {len(model.captured)} collections for {n} players"
        )
    board, caps = _board_of(where, model.board.value, n)
    captured: list[list[int]] = []
    for p, collection in enumerate(model.captured, start=1):
        mine = [_COLOURED_OF_JSON.get(c, -1) for c in collection]
        if -1 in mine:
            bad = collection[mine.index(-1)]
            raise InvalidStateError(
                f"{where}: player {p}'s collection holds {excerpt(list(bad))}, which is no "
                "coloured pyramid"
            )
        captured.append(mine)
    return Position.build(
        rules, board, caps, model.currplayer, model.eliminated, captured, model.mode
    )


def _board_of(
    where: str, cells: list[tuple[str, tuple[Any, ...]]], numplayers: int
) -> tuple[list[int], list[int]]:
    """The pyramid and cap owner of each square from a board's cells; refused,
    naming the cell, when a square is unknown or listed twice, a pyramid
    unknown or a cap's owner not a player."""
    # Looked up in bulk (in C); a cell that does not fit is then found and named.
    names, pieces = zip(*cells, strict=True) if cells else ((), ())
    found = list(map(SQUARE_OF_NAME.get, names))
    kinds = list(map(_PYRAMID_OF_JSON.get, map(_FIRST, pieces)))
    if None in found or None in kinds or len(set(found)) != len(found):
        _refuse_cells(where, cells)
    squares = cast(list[int], found)
    placed: dict[int, int] = dict(zip(squares, cast(list[int], kinds), strict=True))
    board = list(map(placed.get, range(64), repeat(EMPTY)))
    caps = [0] * 64
    sizes = list(map(len, pieces))
    if 2 in sizes:  # a new game's board has no caps; later boards a few
        for at, size in enumerate(sizes):
            if size == 2:
                owner: int = pieces[at][1]
                if not 1 <= owner <= numplayers:
                    _check_player(where, owner, numplayers, f"the cap on {names[at]}")
                caps[squares[at]] = owner
    return board, caps


def _refuse_cells(where: str, cells: list[tuple[str, tuple[Any, ...]]]) -> None:
    seen: set[int] = set()
    for name, cell in cells:
        sq = SQUARE_OF_NAME.get(name)
        if sq is None:
            raise InvalidStateError(f"{where}: {excerpt(name)} is not a square of the 8×8 board")
        if sq in seen:
            raise InvalidStateError(f"{where}: square {name} is listed twice")
        seen.add(sq)
        if cell[0] not in _PYRAMID_OF_JSON:
            raise InvalidStateError(
                f"{where}: square {name}: {excerpt(list(cell[0]))} is not a pyramid"
            )


def _check_player(where: str, player: int, numplayers: int, what: str) -> None:
    if not 1 <= player <= numplayers:
        raise InvalidStateError(
            f"{where}: {what} is player {player}, but there are {numplayers} players"
        )


def _check_timestamp(where: str, timestamp: str) -> None:
    if not is_timestamp(timestamp):
        raise InvalidStateError(f"{where}: {excerpt(timestamp)} is not a real time")


def start_entry(rules: Rules, variants: list[str], model: EntryModel) -> Entry:
    """The first entry of a state, refused unless its position is one a new game
    of ``variants`` starts from."""
    where = "stack entry 0 (the starting position)"
    _check_timestamp("stack entry 0", model.timestamp)
    start = _position_of(rules, 0, model)
    if model.lastmove is not None:
        raise InvalidStateError(f"{where} has no last move, but {excerpt(model.lastmove)} is given")
    if model.results:
        raise InvalidStateError(f"{where} has no results")
    fault = start_fault(start, variants)
    if fault is None:
        return Entry(start, None, (), model.timestamp)
    if fault.what == "pyramids":
        assert fault.pyramid is not None
        raise InvalidStateError(
            f"{where} has {fault.found} pyramids {fault.pyramid.code}; "
            f"a new game has {fault.wanted}"
        )
    if fault.what == "gaps":
        names = " ".join(SQUARE_NAMES[sq] for sq in fault.gaps)
        raise InvalidStateError(f"{where}: with these variants the empty squares are {names}")
    raise InvalidStateError(f"{where} {_START_RULES[fault.what]}")


_START_RULES: Final = {
    "caps": "has no caps on the board",
    "collections": "has empty collections",
    "mode": "is in the placement phase ('mode': 'place')",
    "turn": "has player 1 to move and nobody eliminated",
}


def following_entry(
    index: int, previous: Entry, lastmove: str | None, timestamp: str, player: object = None
) -> Entry:
    """Entry ``index`` as its ``lastmove`` makes it of ``previous`` (the entry
    before it), stamped ``timestamp``: the one decision of whether a step of a
    stack could have been played. ``player`` is the one a ``resign`` or
    ``timeout`` names in its results.

    Refused, naming the entry, when the timestamp is no real time, the game
    had ended, ``lastmove`` is missing, an ending names no player, or the move
    is no legal complete move of the entry before, written normalised."""
    where = f"stack entry {index}"
    _check_timestamp(where, timestamp)
    if previous.ended:
        raise InvalidStateError(f"stack entry {index - 1} ends the game, yet more entries follow")
    if lastmove is None:
        raise InvalidStateError(f"{where} does not say which move made it (no 'lastmove')")
    if lastmove in ENDINGS:
        try:
            return previous.ended_by(lastmove, player if type(player) is int else None, timestamp)
        except ValueError:
            raise InvalidStateError(
                f"{where}: the ending {excerpt(lastmove)} names no player"
            ) from None
    try:
        move = Move.parse(lastmove)
    except MoveSyntaxError:
        raise InvalidStateError(
            f"{where}: its last move {excerpt(lastmove)} is not a move"
        ) from None
    if str(move) != lastmove or not previous.position.is_legal(move):
        raise InvalidStateError(
            f"{where}: its last move {excerpt(lastmove)} is not a legal move after entry "
            f"{index - 1}"
        )
    return previous.after(move, timestamp)


def _checked_following(index: int, previous: Entry, given: EntryModel) -> Entry:
    """Entry ``index`` made by :func:`following_entry`; refused unless the position
    and results ``given`` writes down are exactly those."""
    named = (given.results[0].model_extra or {}) if given.results else {}
    entry = following_entry(index, previous, given.lastmove, given.timestamp, named.get("player"))
    position = _position_of(previous.position.rules, index, given)
    results = [r.model_dump() for r in given.results]
    # Compared as JSON text: in Python True == 1, and a boolean is no player number.
    if json.dumps(results) != json.dumps(results_of(entry.events)):
        raise InvalidStateError(
            f"stack entry {index}: its results are not those of {excerpt(given.lastmove)}"
        )
    if position != entry.position:
        raise InvalidStateError(
            f"stack entry {index} does not follow from entry {index - 1} by "
            f"{excerpt(given.lastmove)}: {_first_difference(entry.position, position)}"
        )
    return entry


def _first_difference(expected: Position, given: Position) -> str:
    for sq in range(64):
        if (expected.board[sq], expected.caps[sq]) != (given.board[sq], given.caps[sq]):
            return f"square {SQUARE_NAMES[sq]} differs"
    for name in ("currplayer", "eliminated", "captured"):
        if getattr(expected, name) != getattr(given, name):
            return f"its {name!r} differs"
    return "it differs"
