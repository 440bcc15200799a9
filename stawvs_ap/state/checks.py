"""The full checks of a serialized state: the reference every way in must agree with.

A state is accepted when its shape is right (the models of
:mod:`stawvs_ap.state.format`), its first entry is a position a new game of
its variants starts from, and every later entry is exactly what its
``lastmove`` makes of the entry before (docs/CONTRACT.md §4). Each refusal is an
:class:`~stawvs_ap.errors.InvalidStateError` naming the first problem found.
:func:`check_position` holds the rules any position must keep, for games
started from a position notation.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError

from ..core.events import Abandoned, DrawAgreed, Event, GameEnded, Resigned, TimedOut
from ..core.moves import Move, MoveSyntaxError
from ..core.position import EMPTY, Position
from ..core.pyramids import PER_KIND, PYRAMIDS
from ..core.squares import SQUARE_NAMES, SQUARES
from ..core.variants import Rules, check_variants, expected_gaps, rules_for
from ..errors import ErrorCode, InvalidStateError
from .entry import ENDINGS, ENGINE_VERSION, GAME_UID, Entry
from .format import EntryModel, StateModel, check_sizes, short
from .results import results_of
from .timestamps import is_timestamp

__all__ = ["GameState", "check_position", "ending_events", "load_checked"]

_SQUARE_OF_NAME: Final = {name: SQUARES[sq] for sq, name in enumerate(SQUARE_NAMES)}
_PYRAMID_OF_JSON: Final[dict[tuple[str, int], int]] = {
    (p.colour.code, int(p.size)): int(p) for p in PYRAMIDS
}
_COLOURED_OF_JSON: Final = {key: p for key, p in _PYRAMID_OF_JSON.items() if p < 12}


@dataclass(frozen=True, slots=True)
class GameState:
    """A loaded state: what a game object is made from."""

    numplayers: int
    variants: list[str]
    stack: list[Entry]


def load_checked(data: dict[str, Any]) -> GameState:
    """The game a state document (a dict within the size limits) holds, with every check."""
    if "game" not in data:
        raise InvalidStateError("the state does not say which game it is (no 'game' key)")
    if data["game"] != GAME_UID:
        raise InvalidStateError(f"this is a state of game {short(data['game'])}, not of Stawvs")
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
    rules = rules_for(n, variants)
    start = _position_of(rules, 0, model.stack[0])
    _check_start(start, model.stack[0], variants)
    stack = [Entry(start, None, (), model.stack[0].timestamp)]
    for index, given in enumerate(model.stack[1:], start=1):
        stack.append(_following(index, stack[-1], given, _position_of(rules, index, given)))
    top = stack[-1]
    if model.gameover != top.ended or sorted(model.winner) != top.winners:
        raise InvalidStateError(
            f"'gameover' ({model.gameover}) and 'winner' ({short(model.winner)}) disagree "
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
                f"not {short(version)}"
            )
        if version != ENGINE_VERSION:
            raise InvalidStateError(
                f"stack entry {i} was written by engine version {short(version)}; "
                f"this engine reads version {ENGINE_VERSION} only"
            )


def _position_of(rules: Rules, index: int, model: EntryModel) -> Position:
    """The position an entry writes down, every value in range (not yet its rules)."""
    where = f"stack entry {index}"
    n = rules.numplayers
    if not is_timestamp(model.timestamp):
        raise InvalidStateError(f"{where}: {model.timestamp!r} is not a real time")
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
                f"{where}: player {p}'s collection holds {short(list(bad))}, which is no "
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
    board = [EMPTY] * 64
    caps = [0] * 64
    # Looked up in bulk (in C); a cell that does not fit is then found and named.
    squares = [_SQUARE_OF_NAME.get(name, -1) for name, _ in cells]
    kinds = [_PYRAMID_OF_JSON.get(cell[0], -1) for _, cell in cells]
    if -1 in squares or -1 in kinds or len(set(squares)) != len(squares):
        _refuse_cells(where, cells)
    for sq, kind, (name, cell) in zip(squares, kinds, cells, strict=True):
        board[sq] = kind
        if len(cell) == 2:
            owner: int = cell[1]
            if not 1 <= owner <= numplayers:
                _check_player(where, owner, numplayers, f"the cap on {name}")
            caps[sq] = owner
    return board, caps


def _refuse_cells(where: str, cells: list[tuple[str, tuple[Any, ...]]]) -> None:
    seen: set[int] = set()
    for name, cell in cells:
        sq = _SQUARE_OF_NAME.get(name)
        if sq is None:
            raise InvalidStateError(f"{where}: {short(name)} is not a square of the 8×8 board")
        if sq in seen:
            raise InvalidStateError(f"{where}: square {name} is listed twice")
        seen.add(sq)
        if cell[0] not in _PYRAMID_OF_JSON:
            raise InvalidStateError(
                f"{where}: square {name}: {short(list(cell[0]))} is not a pyramid"
            )


def _check_player(where: str, player: int, numplayers: int, what: str) -> None:
    if not 1 <= player <= numplayers:
        raise InvalidStateError(
            f"{where}: {what} is player {player}, but there are {numplayers} players"
        )


def _check_start(start: Position, model: EntryModel, variants: list[str]) -> None:
    """The first entry is a position a new game of ``variants`` starts from."""
    where = "stack entry 0 (the starting position)"
    if model.lastmove is not None:
        raise InvalidStateError(f"{where} has no last move, but {short(model.lastmove)} is given")
    if model.results:
        raise InvalidStateError(f"{where} has no results")
    _check_start_position(where, start, variants)


def _check_start_position(where: str, start: Position, variants: list[str]) -> None:
    if start.capped:
        raise InvalidStateError(f"{where} has no caps on the board")
    if any(start.captured):
        raise InvalidStateError(f"{where} has empty collections")
    if start.mode != "place":
        raise InvalidStateError(f"{where} is in the placement phase ('mode': 'place')")
    if start.currplayer != 1 or start.eliminated:
        raise InvalidStateError(f"{where} has player 1 to move and nobody eliminated")
    counts = Counter(start.board)
    for kind in PYRAMIDS:
        wanted = PER_KIND if not kind.is_ghost else 0
        if counts[kind] != wanted:
            raise InvalidStateError(
                f"{where} has {counts[kind]} pyramids {kind.code}; a new game has {wanted}"
            )
    gaps = [sq for sq in range(64) if start.board[sq] == EMPTY]
    fixed = expected_gaps(variants)
    if fixed is not None and gaps != fixed:
        names = " ".join(SQUARE_NAMES[sq] for sq in fixed)
        raise InvalidStateError(f"{where}: with these variants the empty squares are {names}")


def is_new_game_start(position: Position, variants: list[str]) -> bool:
    """Whether ``position`` is one a new game of ``variants`` starts from."""
    try:
        _check_start_position("", position, variants)
    except InvalidStateError:
        return False
    return True


def ending_events(how: str, player: int | None, numplayers: int) -> tuple[Event, ...]:
    """The events of a game ended outside the rules: ``resign``/``timeout`` by
    ``player`` (every other player wins), ``draw`` (all win), ``abandoned`` (none)."""
    everyone = tuple(range(1, numplayers + 1))
    if how == "resign" and player is not None:
        return Resigned(player), GameEnded(tuple(p for p in everyone if p != player))
    if how == "timeout" and player is not None:
        return TimedOut(player), GameEnded(tuple(p for p in everyone if p != player))
    if how == "draw":
        return DrawAgreed(), GameEnded(everyone)
    if how == "abandoned":
        return Abandoned(), GameEnded(())
    raise ValueError(f"{how!r} is not an ending")


def _following(index: int, previous: Entry, given: EntryModel, position: Position) -> Entry:
    """Entry ``index`` as what its ``lastmove`` makes of ``previous``; refused unless
    the position and results it writes down are exactly those."""
    where = f"stack entry {index}"
    lastmove = given.lastmove
    if previous.ended:
        raise InvalidStateError(f"stack entry {index - 1} ends the game, yet more entries follow")
    if lastmove is None:
        raise InvalidStateError(f"{where} does not say which move made it (no 'lastmove')")
    before = previous.position
    if lastmove in ENDINGS:
        named = (given.results[0].model_extra or {}) if given.results else {}
        player = named.get("player")
        try:
            events = ending_events(
                lastmove, player if type(player) is int else None, before.rules.numplayers
            )
        except ValueError:
            raise InvalidStateError(f"{where}: the ending {lastmove!r} names no player") from None
        expected = before
    else:
        try:
            move = Move.parse(lastmove)
        except MoveSyntaxError:
            raise InvalidStateError(
                f"{where}: its last move {short(lastmove)} is not a move"
            ) from None
        if str(move) != lastmove or not before.is_legal(move):
            raise InvalidStateError(
                f"{where}: its last move {short(lastmove)} is not a legal move after entry "
                f"{index - 1}"
            )
        expected, events = before.play(move)
    results = [r.model_dump() for r in given.results]
    # Compared as JSON text: in Python True == 1, and a boolean is no player number.
    if json.dumps(results) != json.dumps(results_of(events)):
        raise InvalidStateError(f"{where}: its results are not those of {short(lastmove)}")
    if position != expected:
        raise InvalidStateError(
            f"{where} does not follow from entry {index - 1} by {short(lastmove)}: "
            f"{_first_difference(expected, position)}"
        )
    return Entry(expected, lastmove, events, given.timestamp)


def _first_difference(expected: Position, given: Position) -> str:
    for sq in range(64):
        if (expected.board[sq], expected.caps[sq]) != (given.board[sq], given.caps[sq]):
            return f"square {SQUARE_NAMES[sq]} differs"
    for name in ("currplayer", "eliminated", "captured"):
        if getattr(expected, name) != getattr(given, name):
            return f"its {name!r} differs"
    return "it differs"


# -- any position ------------------------------------------------------------------


def check_position(position: Position) -> None:
    """Refuse (``BAD_POSITION``) a position that breaks a rule: more than five
    pyramids of a kind, caps that do not fit the turn order or the caps each
    player has, passes before every cap is placed, ghosts (on the board before
    the end, or in a collection), a game already over.

    A position in the collection phase may hold fewer caps than the players
    own: movement does not depend on it, and puzzles and tests use it."""

    def refuse(message: str) -> InvalidStateError:
        return InvalidStateError(message, ErrorCode.BAD_POSITION)

    rules = position.rules
    n = rules.numplayers
    if not 1 <= position.currplayer <= n:
        raise refuse(f"the player to move is player {position.currplayer}; there are {n}")
    if position.is_over:
        raise refuse("every player has passed: the game is over, there is nothing to play")
    if any(PYRAMIDS[p].is_ghost for c in position.captured for p in c):
        raise refuse("a collection holds a ghost; ghosts stay on the board under caps")
    caps = position.caps
    if any(not 0 <= owner <= n for owner in caps):
        raise refuse(f"a cap belongs to a player who is not in this {n}-player game")
    if any(caps[sq] and position.board[sq] == EMPTY for sq in range(64)):
        raise refuse("a cap stands on a square without a pyramid")
    if len(set(position.eliminated)) != len(position.eliminated) or any(
        not 1 <= p <= n for p in position.eliminated
    ):
        raise refuse("the passed players must be distinct players of the game")
    counts = Counter(p for p in position.board if p != EMPTY and not PYRAMIDS[p].is_ghost)
    for collection in position.captured:
        counts.update(collection)
    for kind, count in counts.items():
        if count > PER_KIND:
            raise refuse(f"there are {count} pyramids {PYRAMIDS[kind].code}; the set has 5")
    placed = [caps.count(p) for p in range(1, n + 1)]
    if any(count > rules.caps_per_player for count in placed):
        raise refuse(f"a player has more than {rules.caps_per_player} caps")
    if position.mode == "place":
        total = sum(placed)
        if total >= rules.total_caps:
            raise refuse("every cap is on the board, so the mode is 'collect'")
        expected = [len(range(p - 1, total, n)) for p in range(1, n + 1)]
        if placed != expected or position.currplayer != total % n + 1:
            raise refuse(
                "while caps are placed, players 1, 2, … take turns: the caps on the "
                "board do not fit the player to move"
            )
        if position.eliminated:
            raise refuse("nobody can have passed while caps are placed")
    ghosts = [
        sq
        for sq in range(64)
        if position.board[sq] != EMPTY and PYRAMIDS[position.board[sq]].is_ghost
    ]
    if ghosts and (not position.is_over or rules.finalfree):
        raise refuse("ghosts are left only by the final captures, once every player has passed")
    if any(not caps[sq] for sq in ghosts):
        raise refuse("a ghost always has a cap on it")
