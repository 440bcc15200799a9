"""Writing a game record (docs/CONTRACT.md §8): :func:`gen_record`.

A record is what a host archives when a game ends: a header (game, variants,
site, dates, players with scores and results) and the moves in rounds, in the
shape of Abstract Play's ``gamerecord`` schema. Unlike the Abstract Play
engine's, our records carry ``header.startingPosition`` (the board notation of
:mod:`stawvs_ap.core.notation`; the whole position notation for a game started
from an arbitrary position), so a record alone replays the game
(:func:`stawvs_ap.records.from_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from ..core.invariants import is_new_game_start
from ..core.notation import format_board
from ..errors import ErrorCode, StawvsError, excerpt
from ..state.entry import ENDINGS, Entry
from ..state.timestamps import to_timestamp
from .metadata import GAMEINFO, variant_display_names

__all__ = [
    "QUIET_RESULTS",
    "SITE_NAME",
    "gen_record",
    "notable_results",
    "ranks",
    "record_time",
    "starting_notation",
]

#: Result types a record leaves out: they add nothing to the move string.
QUIET_RESULTS: Final = frozenset({"move", "place", "pass", "eog", "winners"})
#: ``header.site.name`` unless the caller gives another.
SITE_NAME: Final = "Abstract Play"


def notable_results(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results a record keeps beside a move (announcements, endings)."""
    return [dict(r) for r in results if r.get("type") not in QUIET_RESULTS]


def ranks(scores: Sequence[int], winners: Sequence[int], *, by_score: bool) -> list[int]:
    """Each player's rank, 1 = best, ties sharing a rank ("1224" ranking).

    Winners come first. With ``by_score`` (a game played to its end) players
    are then ordered by score; otherwise (a resignation, timeout, draw or
    abandonment, where the scores decided nothing) all winners share rank 1
    and all others the next rank.
    """
    keys = [(p + 1 in winners, score if by_score else 0) for p, score in enumerate(scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


def starting_notation(start: Entry, variants: list[str]) -> str:
    """``header.startingPosition`` for a game whose first entry is ``start``: the
    board alone for a new game's position, else the whole position notation."""
    position = start.position
    if is_new_game_start(position, variants):
        return format_board(position.board)
    return position.notation()


def record_time(value: object, what: str) -> str:
    """A header date as records write it (see :func:`stawvs_ap.state.timestamps.to_timestamp`);
    ``BAD_ARGUMENT`` naming ``what`` otherwise."""
    try:
        return to_timestamp(value)
    except ValueError as exc:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"{what}: {exc}") from None


def _player_entry(given: object, seat: int, score: int, won: bool) -> dict[str, Any]:
    if not isinstance(given, dict) or not isinstance(given.get("name"), str):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"player {seat} must be a dict with a 'name' (text), not {excerpt(given)}",
        )
    entry: dict[str, Any] = {"name": given["name"]}
    userid = given.get("uid", given.get("userid"))
    if userid is not None:
        entry["userid"] = str(userid)
    entry["score"] = score
    entry["result"] = 1 if won else 0
    if isinstance(given.get("is_ai"), bool):
        entry["is_ai"] = given["is_ai"]
    return entry


def gen_record(
    stack: Sequence[Entry],
    numplayers: int,
    variants: Sequence[str],
    *,
    clock: Callable[[], str],
    uid: str,
    players: list[dict[str, Any]],
    date_start: str | datetime | None = None,
    date_end: str | datetime | None = None,
    event: str | None = None,
    round: str | None = None,  # the record header's own name
    unrated: bool = False,
    site: str = SITE_NAME,
) -> dict[str, Any]:
    """The record of a finished game, valid against Abstract Play's ``gamerecord`` schema.

    ``players`` are given in seating order as ``{"name": ..., "uid": ...,
    "is_ai": ...}`` (``uid`` and ``is_ai`` optional), and must be distinct
    (the schema wants unique player entries). Dates default to the timestamps
    of the first and last stack entries and are written in UTC to the
    millisecond; ``date-generated`` is the game's ``clock`` now. With 3 or 4
    players each player also gets a ``rank`` (see :func:`ranks`). Raises
    :class:`StawvsError` (``NOT_FINISHED``) for a game in progress and
    (``BAD_ARGUMENT``) for players or dates that do not fit.
    """
    top = stack[-1]
    if not top.ended:
        raise StawvsError(ErrorCode.NOT_FINISHED, "Only a finished game has a record.")
    if not isinstance(players, list) or len(players) != numplayers:
        count = len(players) if isinstance(players, list) else players
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"the game has {numplayers} players, but {count} were given"
        )
    scores = top.position.scores()
    winners = top.winners
    player_entries = [
        _player_entry(given, seat, scores[seat - 1], seat in winners)
        for seat, given in enumerate(players, start=1)
    ]
    if numplayers > 2:
        by_score = top.lastmove not in ENDINGS
        for entry, rank in zip(
            player_entries, ranks(scores, winners, by_score=by_score), strict=True
        ):
            entry["rank"] = rank
    given = [(p["name"], p.get("userid"), p.get("is_ai")) for p in player_entries]
    if len(set(given)) != len(given):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            "the players must be distinct: give each seat its own name or uid",
        )
    header: dict[str, Any] = {
        "game": {"name": GAMEINFO.name, "variants": variant_display_names(variants)},
        "site": {"name": site, "gameid": uid},
    }
    if event is not None:
        header["event"] = event
    if round is not None:
        header["round"] = round
    header["date-start"] = record_time(
        stack[0].timestamp if date_start is None else date_start, "date_start"
    )
    header["date-end"] = record_time(top.timestamp if date_end is None else date_end, "date_end")
    header["date-generated"] = clock()
    if unrated:
        header["unrated"] = True
    header["players"] = player_entries
    header["startingPosition"] = starting_notation(stack[0], list(variants))
    plays: list[str | dict[str, Any]] = []
    for played in stack[1:]:
        notable = notable_results(played.results)
        move = played.lastmove or ""
        plays.append({"move": move, "result": notable} if notable else move)
    n = numplayers
    return {"header": header, "moves": [plays[i : i + n] for i in range(0, len(plays), n)]}
