"""Game records (CONTRACT §8): writing them, and the starting-position notation.

A record is what a host archives when a game ends: a header (game, variants,
site, dates, players with scores and results) and the moves in rounds, in the
shape of Abstract Play's ``gamerecord`` schema. Unlike the Abstract Play
engine's, our records carry ``header.startingPosition``, so a record alone
replays the game (:func:`from_record`).

The starting position is written rank by rank, 8 down to 1, ranks separated by
``/``, each rank's squares from file a to h: a pyramid code (colour ``PI``,
``BL``, ``GR`` or ``OR`` and size ``1``–``3``) or ``.`` for an empty square::

    .PI2BL1GR2GR1OR3PI2./OR3BL2.../.../.OR1GR3PI3BL2GR1OR2.

Reading is forgiving (case and whitespace are ignored); writing is canonical,
so ``format_starting_position(parse_starting_position(text))`` gives back the
canonical text and ``parse_starting_position(format_starting_position(b)) == b``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from . import pyramids
from .board import square_name
from .errors import InvalidRecordError, StawvsError
from .metadata import GAMEINFO, variant_display_names
from .position import EMPTY
from .state_checks import ENDINGS

if TYPE_CHECKING:
    from .game import StawvsGame

__all__ = [
    "ENDINGS",
    "ISO_8601",
    "QUIET_RESULTS",
    "SITE_NAME",
    "format_starting_position",
    "from_record",
    "gen_record",
    "notable_results",
    "parse_starting_position",
    "ranks",
]

#: Result types a record leaves out: they add nothing to the move string.
QUIET_RESULTS: Final = frozenset({"move", "place", "pass", "eog", "winners"})
#: ``header.site.name`` unless the caller gives another.
SITE_NAME: Final = "Abstract Play"
#: What a record's dates look like (RFC 3339 date-time, as the schema asks).
ISO_8601: Final = re.compile(
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$"
)
EMPTY_MARK: Final = "."
GAPS: Final = 64 - pyramids.TOTAL
_MAX_NOTATION_LENGTH: Final = 1000
_CODES: Final[dict[str, int]] = {pyramids.pyramid_code(k): k for k in pyramids.KINDS}


# -- the starting position ---------------------------------------------------


def format_starting_position(board: Sequence[int]) -> str:
    """The canonical notation of a 64-square board (pyramid per square, or EMPTY)."""
    if len(board) != 64:
        raise StawvsError("BAD_ARGUMENT", f"a board has 64 squares, not {len(board)}")
    cells = [EMPTY_MARK if p == EMPTY else pyramids.pyramid_code(p) for p in board]
    return "/".join("".join(cells[rank * 8 : rank * 8 + 8]) for rank in range(8))


def parse_starting_position(text: object) -> list[int]:
    """The board (pyramid per square a8…h1, ``EMPTY`` for a gap) a notation describes.

    Raises :class:`~stawvs_ap.errors.InvalidRecordError` naming the first
    problem: not text, wrong number of ranks or squares, an unknown code, more
    than five pyramids of a kind, or not exactly four empty squares.
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"the starting position must be text, not {text!r}")
    if len(text) > _MAX_NOTATION_LENGTH:
        raise InvalidRecordError("the starting position is far too long to be a Stawvs board")
    compact = "".join(text.split()).upper()
    ranks_text = compact.split("/")
    if len(ranks_text) != 8:
        raise InvalidRecordError(
            f"the starting position has {len(ranks_text)} ranks; it needs 8 "
            "(from rank 8 down to rank 1, separated by '/')"
        )
    board: list[int] = []
    for row, rank_text in enumerate(ranks_text):
        board.extend(_parse_rank(rank_text, row))
    counts = Counter(p for p in board if p != EMPTY)
    for kind in pyramids.KINDS:
        if counts[kind] > pyramids.PER_KIND:
            raise InvalidRecordError(
                f"the starting position has {counts[kind]} {pyramids.pyramid_code(kind)} "
                f"pyramids; the set has {pyramids.PER_KIND} of each kind"
            )
    gaps = board.count(EMPTY)
    if gaps != GAPS:
        raise InvalidRecordError(
            f"the starting position has {gaps} empty squares; it needs exactly {GAPS}"
        )
    return board


def _parse_rank(text: str, row: int) -> list[int]:
    rank = 8 - row
    cells: list[int] = []
    at = 0
    while at < len(text):
        if len(cells) == 8:
            raise InvalidRecordError(
                f"rank {rank} of the starting position has more than 8 squares"
            )
        where = f"rank {rank}, square {square_name(row * 8 + len(cells))}"
        if text[at] == EMPTY_MARK:
            cells.append(EMPTY)
            at += 1
            continue
        code = text[at : at + 3]
        if code not in _CODES:
            raise InvalidRecordError(
                f"{where} of the starting position: {code!r} is not a pyramid code "
                "(PI, BL, GR or OR followed by 1, 2 or 3, or '.' for an empty square)"
            )
        cells.append(_CODES[code])
        at += 3
    if len(cells) != 8:
        raise InvalidRecordError(
            f"rank {rank} of the starting position has {len(cells)} squares, not 8"
        )
    return cells


# -- writing a record ----------------------------------------------------------


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
    keys = [
        (p + 1 in winners, score if by_score else 0) for p, score in enumerate(scores)
    ]
    return [1 + sum(other > key for other in keys) for key in keys]


def _timestamp(value: object, what: str) -> str:
    if isinstance(value, datetime):
        when = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"
    if isinstance(value, str) and ISO_8601.match(value):
        return value
    raise StawvsError(
        "BAD_ARGUMENT", f"{what} must be a datetime or ISO-8601 date-time text, not {value!r}"
    )


def _player_entry(
    given: object, seat: int, score: int, won: bool
) -> dict[str, Any]:
    if not isinstance(given, dict) or not isinstance(given.get("name"), str):
        raise StawvsError(
            "BAD_ARGUMENT", f"player {seat} must be a dict with a 'name' (text), not {given!r}"
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
    game: StawvsGame,
    *,
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
    "is_ai": ...}`` (``uid`` and ``is_ai`` optional). Dates default to the
    timestamps of the first and last stack entries; ``date-generated`` is
    the game's clock now. With 3 or 4 players each player also gets a
    ``rank`` (see :func:`ranks`). The whole stack is recorded, whatever
    position :meth:`~stawvs_ap.game.StawvsGame.load` shows. Raises
    :class:`~stawvs_ap.errors.StawvsError` (``NOT_FINISHED``) for a game in
    progress and (``BAD_ARGUMENT``) for players that do not fit the game.
    """
    top = game.clone().load(-1)
    if not top.gameover:
        raise StawvsError("NOT_FINISHED", "Only a finished game has a record.")
    if not isinstance(players, list) or len(players) != top.numplayers:
        count = len(players) if isinstance(players, list) else players
        raise StawvsError(
            "BAD_ARGUMENT", f"the game has {top.numplayers} players, but {count} were given"
        )
    entries = top.stack
    scores = top.position.scores()
    winners = top.winner
    by_score = entries[-1].get("lastmove") not in ENDINGS
    player_entries = [
        _player_entry(given, seat, scores[seat - 1], seat in winners)
        for seat, given in enumerate(players, start=1)
    ]
    if top.numplayers > 2:
        for entry, rank in zip(player_entries, ranks(scores, winners, by_score=by_score),
                               strict=True):
            entry["rank"] = rank
    header: dict[str, Any] = {
        "game": {"name": GAMEINFO.name, "variants": variant_display_names(top.variants)},
        "site": {"name": site, "gameid": uid},
    }
    if event is not None:
        header["event"] = event
    if round is not None:
        header["round"] = round
    header["date-start"] = _timestamp(
        entries[0]["_timestamp"] if date_start is None else date_start, "date_start"
    )
    header["date-end"] = _timestamp(
        entries[-1]["_timestamp"] if date_end is None else date_end, "date_end"
    )
    header["date-generated"] = top._clock()
    if unrated:
        header["unrated"] = True
    header["players"] = player_entries
    header["startingPosition"] = format_starting_position(top.load(0).position.board)
    plays: list[str | dict[str, Any]] = []
    for entry in entries[1:]:
        notable = notable_results(entry["_results"])
        move = entry.get("lastmove") or ""
        plays.append({"move": move, "result": notable} if notable else move)
    n = top.numplayers
    return {"header": header, "moves": [plays[i : i + n] for i in range(0, len(plays), n)]}


def from_record(record: object, *, initial: str | bytes | dict[str, Any] | None = None
                ) -> StawvsGame:
    """The game a record describes, every move replayed and validated.

    See :func:`stawvs_ap.replay.from_record`, which this calls (imported late,
    since replaying needs :class:`~stawvs_ap.game.StawvsGame`).
    """
    from .replay import from_record as replay_record

    return replay_record(record, initial=initial)
