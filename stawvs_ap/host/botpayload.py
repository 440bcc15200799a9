"""Games as an outside bot is given them (docs/CONTRACT.md §3.1): Abstract
Play's bot framework sends a bot the player count, the variants, the moves so
far in rounds and a ``context`` taken from the game's ``botContext()``.

A Stawvs board is dealt at random, so the moves alone cannot rebuild a game:
the context carries the starting board, ``{"board": ENTRIES}``, ENTRIES being
the first stack entry's board ``Map`` as a state writes it (``[[square,
[[colour, size]]], ...]``, file by file, empty squares left out). This module
reads such a payload into a one-entry state, which the state floor checks as
any state's start (§4.1), and lists the moves to replay; the game
(:meth:`StawvsGame.from_bot_payload <stawvs_ap.host.game.StawvsGame.from_bot_payload>`)
replays them, each validated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from ..errors import ErrorCode, InvalidRecordError, StawvsError, excerpt
from ..state.entry import ENGINE_VERSION
from ..state.format import MAX_ENTRIES

__all__ = ["MAX_PAYLOAD_MOVES", "BotPayload", "read_bot_payload", "start_state"]

#: The most moves a payload may hold: a state's entries less the start.
MAX_PAYLOAD_MOVES: Final = MAX_ENTRIES - 1
#: The longest move text read (a state's ``lastmove`` is at most this long too).
_MAX_MOVE_CHARS: Final = 100


class BotPayload(NamedTuple):
    """What a bot payload says about a game: who plays, under which variants,
    the moves made (flattened in turn order, each with its round and its place
    in the round, both from 1) and the starting board's cells (None without a
    context)."""

    numplayers: int
    variants: list[str]
    moves: list[tuple[int, int, str]]
    board: list[Any] | None


def _bad(message: str) -> StawvsError:
    return StawvsError(ErrorCode.BAD_ARGUMENT, message)


def read_bot_payload(payload: object) -> BotPayload:
    """The game a payload describes, its fields checked for shape (``BAD_ARGUMENT``
    naming the field); the variants are checked by the game (``BAD_VARIANT``).

    >>> read_bot_payload({"numPlayers": 2, "variants": [], "moves": [["b2", "c2"]]}).moves
    [(1, 1, 'b2'), (1, 2, 'c2')]
    """
    if not isinstance(payload, Mapping):
        raise _bad(f"a bot payload is an object, not {excerpt(payload)}")
    players = payload.get("numPlayers")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise _bad(f"numPlayers must be 2, 3 or 4, not {excerpt(players)}")
    variants = payload.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise _bad(f"variants must be a list of variant ids, not {excerpt(variants)}")
    rounds = payload.get("moves", [])
    if not isinstance(rounds, list):
        raise _bad(f"moves must be a list of rounds, not {excerpt(rounds)}")
    moves: list[tuple[int, int, str]] = []
    for r, round_ in enumerate(rounds, 1):
        if not isinstance(round_, list):
            raise _bad(f"round {r} of the moves is not a list of moves: {excerpt(round_)}")
        if len(moves) + len(round_) > MAX_PAYLOAD_MOVES:
            raise _bad(f"a game has at most {MAX_PAYLOAD_MOVES} moves")
        for m, move in enumerate(round_, 1):
            if not isinstance(move, str) or len(move) > _MAX_MOVE_CHARS:
                raise _bad(f"round {r}, move {m} is not a move: {excerpt(move)}")
            moves.append((r, m, move))
    return BotPayload(players, list(variants), moves, _board(payload.get("context")))


def _board(context: object) -> list[Any] | None:
    """The starting board's cells of a context, or None when there is no context
    (Abstract Play sends none, or an empty list, when ``botContext()`` gives nothing)."""
    if context is None or context == [] or context == {}:
        return None
    if not isinstance(context, Mapping) or not isinstance(context.get("board"), list):
        raise _bad('the context must be {"board": [[square, cell], ...]}')
    board: list[Any] = context["board"]
    return board


def start_state(
    numplayers: int, variants: list[str], board: list[Any], timestamp: str
) -> dict[str, Any]:
    """A one-entry state whose start is ``board`` (cells of a ``Map``), for the
    state floor to check as any state's first entry."""
    entry = {
        "_version": ENGINE_VERSION,
        "_results": [],
        "_timestamp": timestamp,
        "currplayer": 1,
        "mode": "place",
        "eliminated": [],
        "board": {"dataType": "Map", "value": board},
        "captured": [[] for _ in range(numplayers)],
    }
    return {
        "game": "stawvs",
        "numplayers": numplayers,
        "variants": variants,
        "gameover": False,
        "winner": [],
        "stack": [entry],
    }


def refused_move(round_: int, place: int, move: str, why: str) -> InvalidRecordError:
    """The refusal of a history that does not replay (``BAD_RECORD``), naming the
    round and the move."""
    return InvalidRecordError(
        f"round {round_}, move {place} ({excerpt(move)}) does not replay: {why}"
    )
