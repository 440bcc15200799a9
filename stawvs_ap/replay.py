"""Replaying a game record (CONTRACT §8): :func:`from_record`.

Every move is validated as a host would; a record that cannot be read or
replayed raises :class:`~stawvs_ap.errors.InvalidRecordError` (code
``BAD_RECORD``) saying where and why, never ``KeyError`` or ``TypeError``.
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

from . import state_io
from .board import square_name
from .errors import InvalidRecordError, StawvsError
from .game import StawvsGame, utc_timestamp
from .metadata import GAMEINFO, variant_ids_from_display_names
from .position import EMPTY, Position
from .records import (
    ENDINGS,
    ISO_8601,
    format_starting_position,
    notable_results,
    parse_starting_position,
)
from .variants import check_variants, empty_squares, rules_for

__all__ = ["from_record"]

_ENDING_RESULT: Final = {"resign": "resigned", "timeout": "timeout"}


class _ReplayClock:
    """Timestamps for replayed moves: the record's start for every move but the
    last, its end for the last (the record keeps no other times), then the
    real time for anything played after the replay."""

    def __init__(self, start: str, end: str, plies: int) -> None:
        self._start, self._end, self._left = start, end, plies

    def __call__(self) -> str:
        self._left -= 1
        if self._left > 0:
            return self._start
        return self._end if self._left == 0 else utc_timestamp()


def from_record(record: object, *, initial: str | bytes | dict[str, Any] | None = None
                ) -> StawvsGame:
    """The game a record describes, every move replayed and validated.

    The starting board comes from ``header.startingPosition``, or from
    ``initial`` (a serialized state, whose first stack entry is used) for
    records without one, such as the Abstract Play engine's. Display names
    are mapped back to variant ids; the player count is that of
    ``header.players``. Endings (``resign``, ``timeout``, ``draw``,
    ``abandoned``) are applied with the player their result names. Results a
    record gives beside a move, and the players' scores of a finished game,
    must agree with the replay.
    """
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record is a JSON object, not {type(record).__name__}")
    header, rounds = record.get("header"), record.get("moves")
    if not isinstance(header, dict):
        raise InvalidRecordError("the record has no 'header' object")
    if not isinstance(rounds, list) or not all(isinstance(r, list) for r in rounds):
        raise InvalidRecordError("the record's 'moves' must be a list of rounds (lists)")
    names = _player_names(header)
    variants = _variants(header)
    plies = sum(len(r) for r in rounds)
    start = _date(header, "date-start")
    clock = _ReplayClock(start, _date(header, "date-end"), plies)
    if initial is not None:
        game = _game_from_initial(initial, len(names), variants, clock)
        if "startingPosition" in header:
            given = format_starting_position(parse_starting_position(header["startingPosition"]))
            if given != format_starting_position(game.position.board):
                raise InvalidRecordError(
                    "the record's startingPosition is not the board of the initial state"
                )
    elif "startingPosition" in header:
        board = parse_starting_position(header["startingPosition"])
        game = _game_from_board(board, len(names), variants, start, clock)
    else:
        raise InvalidRecordError(
            "the record has no startingPosition; give the initial state of the game to replay it"
        )
    for number, moves in enumerate(rounds, start=1):
        if len(moves) > len(names):
            raise InvalidRecordError(
                f"round {number} has {len(moves)} moves, but there are {len(names)} players"
            )
        for entry in moves:
            _replay_entry(game, entry, number, names)
    _check_scores(game, header, names)
    return game


def _player_names(header: dict[str, Any]) -> list[str]:
    players = header.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise InvalidRecordError("the record's header.players must list the 2 to 4 players")
    names = []
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise InvalidRecordError(f"player {seat} of the record has no name")
        names.append(player["name"])
    return names


def _variants(header: dict[str, Any]) -> list[str]:
    game = header.get("game")
    if not isinstance(game, dict) or game.get("name") != GAMEINFO.name:
        name = game.get("name") if isinstance(game, dict) else None
        raise InvalidRecordError(f"the record is not of a game of {GAMEINFO.name} ({name!r})")
    shown = game.get("variants", [])
    if not isinstance(shown, list) or not all(isinstance(v, str) for v in shown):
        raise InvalidRecordError("header.game.variants must be a list of variant names")
    try:
        return check_variants(variant_ids_from_display_names(shown))
    except KeyError as exc:
        raise InvalidRecordError(f"{exc.args[0]!r} is not a variant of {GAMEINFO.name}") from None
    except ValueError as exc:
        raise InvalidRecordError(f"the record's variants do not go together: {exc}") from None


def _date(header: dict[str, Any], key: str) -> str:
    value = header.get(key)
    return value if isinstance(value, str) and ISO_8601.match(value) else utc_timestamp()


def _game_from_board(
    board: list[int], numplayers: int, variants: list[str], start: str, clock: _ReplayClock
) -> StawvsGame:
    if "random" not in variants:
        gaps = empty_squares(variants, random.Random(0))
        if [sq for sq in range(64) if board[sq] == EMPTY] != gaps:
            where = ", ".join(square_name(sq) for sq in gaps)
            raise InvalidRecordError(
                f"with these variants the empty squares of the starting position must be {where}"
            )
    position = Position(rules_for(numplayers, variants), board, [0] * 64)
    state = state_io.dump_state(numplayers, variants, [state_io.Entry(position, [], start)])
    return _load(state, clock)


def _game_from_initial(
    initial: str | bytes | dict[str, Any], numplayers: int, variants: list[str],
    clock: _ReplayClock,
) -> StawvsGame:
    if isinstance(initial, str | bytes) and len(initial) > state_io.MAX_STATE_BYTES:
        raise InvalidRecordError("the initial state is too long to be a Stawvs state")
    try:
        state = json.loads(initial) if isinstance(initial, str | bytes) else initial
    except (ValueError, RecursionError):  # RecursionError: nested too deeply
        raise InvalidRecordError("the initial state is not valid JSON") from None
    stack = state.get("stack") if isinstance(state, dict) else None
    if not isinstance(stack, list) or not stack:
        raise InvalidRecordError("the initial state is not a serialized Stawvs state")
    # Only the starting position counts: a later state of the same game will do.
    state = {**state, "stack": stack[:1], "gameover": False, "winner": []}
    game = _load(state, clock)
    if game.numplayers != numplayers:
        raise InvalidRecordError(
            f"the record has {numplayers} players, the initial state {game.numplayers}"
        )
    if sorted(game.variants) != sorted(variants):
        raise InvalidRecordError(
            f"the record's variants {variants} differ from the initial state's {game.variants}"
        )
    return game


def _load(state: dict[str, Any], clock: _ReplayClock) -> StawvsGame:
    try:
        return StawvsGame(state, clock=clock)
    except StawvsError as exc:
        raise InvalidRecordError(f"the starting position cannot be used: {exc.message}") from None


def _replay_entry(game: StawvsGame, entry: object, number: int, names: list[str]) -> None:
    player = game.currplayer
    where = f"round {number}, {names[player - 1]} (player {player})"
    if entry is None:
        if game.gameover:
            return  # padding after the end, as other engines write it
        raise InvalidRecordError(f"{where}: no move is given, but in Stawvs everyone moves")
    given: object = None
    if isinstance(entry, str):
        move = entry
    elif isinstance(entry, dict) and isinstance(entry.get("move"), str):
        move, given = entry["move"], entry.get("result")
    else:
        raise InvalidRecordError(f"{where}: {entry!r} is not a move")
    try:
        _apply(game, move, given)
    except StawvsError as exc:
        raise InvalidRecordError(f"{where}: {move!r} is not legal: {exc.message}") from None
    if isinstance(given, list):
        produced = notable_results(game.results)
        if given != produced:
            raise InvalidRecordError(
                f"{where}: the record says {move!r} gave {json.dumps(given)}, "
                f"but replaying it gives {json.dumps(produced)}"
            )


def apply_move_or_ending(game: StawvsGame, move: str, player: int | None = None) -> None:
    """Play ``move`` on ``game``, where a record's move may also be an ending:
    ``resign`` and ``timeout`` need the ``player`` they end the game for."""
    ending = "".join(move.split()).lower()
    if ending not in ENDINGS:
        game.move(move)
    elif ending == "draw":
        game.draw()
    elif ending == "abandoned":
        game.abandoned()
    elif player is None:
        kind = _ENDING_RESULT[ending]
        raise StawvsError(
            "BAD_RECORD", f"its result must name the player, as {{'type': {kind!r}, 'player': p}}"
        )
    else:
        (game.resign if ending == "resign" else game.timeout)(player)


def _apply(game: StawvsGame, move: str, given: object) -> None:
    """Play a record's move; an ending's player is read from its results."""
    player = None
    kind = _ENDING_RESULT.get("".join(move.split()).lower())
    if kind is not None and isinstance(given, list):
        found = [r.get("player") for r in given if isinstance(r, dict) and r.get("type") == kind]
        if len(found) == 1 and isinstance(found[0], int):
            player = found[0]
    apply_move_or_ending(game, move, player)


def _check_scores(game: StawvsGame, header: dict[str, Any], names: list[str]) -> None:
    if not game.gameover:
        return
    scores = game.position.scores()
    for seat, player in enumerate(header["players"]):
        given = player.get("score")
        if isinstance(given, int | float) and not isinstance(given, bool) and given != scores[seat]:
            raise InvalidRecordError(
                f"the record gives {names[seat]} a score of {given}, "
                f"but replaying the moves gives {scores[seat]}"
            )
