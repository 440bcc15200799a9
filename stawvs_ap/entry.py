"""Stack entries and their JSON form (CONTRACT §4), written fast.

A game's stack holds one :class:`Entry` per move. Hosts serialize the whole
stack after every move, so each entry's JSON is built once and kept, and an
entry that follows another is built from its predecessor's: a move changes at
most three squares and one collection, and the unchanged board cells and
collections are shared, not rebuilt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeVar

from . import pyramids
from .board import SQUARE_NAMES, iter_squares
from .position import EMPTY, Position

__all__ = [
    "ENGINE_VERSION", "GAME_UID", "Entry", "dump_state", "entry_dict", "entry_dict_without_cells",
]

ENGINE_VERSION: Final = "20251113"
GAME_UID: Final = "stawvs"

Result = dict[str, Any]
_Cell = TypeVar("_Cell")


class Entry:
    """A stack entry: a position, the results of the move that made it, when.

    Entries never change once made; ``ended`` and ``winners`` are read off the
    results (an entry ends the game when its results say ``eog``). ``played_from``
    is the position a move was played from to reach this one, when known.
    """

    __slots__ = (
        "_cell_texts", "_json", "_text", "ended", "played_from", "position", "results",
        "timestamp", "version",
    )

    def __init__(
        self,
        position: Position,
        results: list[Result],
        timestamp: str,
        version: str = ENGINE_VERSION,
        played_from: Position | None = None,
    ) -> None:
        self.position = position
        self.played_from = played_from
        self.results = results
        self.timestamp = timestamp
        self.version = version
        self.ended = False
        for result in results:
            if result.get("type") == "eog":
                self.ended = True
        self._json: dict[str, Any] | None = None
        self._text: str | None = None  # see stawvs_ap.writer
        self._cell_texts: list[str] | None = None

    @property
    def winners(self) -> list[int]:
        for result in self.results:
            if result.get("type") == "winners":
                return list(result["players"])
        return []


def _pyramid_json(pyramid: int) -> list[Any]:
    colour = (
        pyramids.GHOST if pyramids.is_ghost(pyramid)
        else pyramids.COLOURS[pyramids.colour_of(pyramid)]
    )
    return [colour, pyramids.size_of(pyramid)]


_PYRAMID_COUNT: Final = len(pyramids.KINDS) + 3  # the coloured kinds, then 3 ghosts
#: The JSON of each pyramid, ``["PI", 1]``; shared by every entry that shows it.
PYRAMID_JSON: Final[tuple[list[Any], ...]] = tuple(
    _pyramid_json(p) for p in range(_PYRAMID_COUNT)
)
#: ``CELLS[sq][pyramid][owner]``: the board cell ``[square, [pyramid(, owner)]]``.
CELLS: Final[tuple[tuple[tuple[list[Any], ...], ...], ...]] = tuple(
    tuple(
        tuple(
            [SQUARE_NAMES[sq], [PYRAMID_JSON[p], owner] if owner else [PYRAMID_JSON[p]]]
            for owner in range(5)
        )
        for p in range(_PYRAMID_COUNT)
    )
    for sq in range(64)
)
# Abstract Play writes board entries file by file (a8…a1, b8…b1, …); so do we.
FILE_ORDER: Final[tuple[int, ...]] = tuple(row * 8 + col for col in range(8) for row in range(8))
#: ``_BEFORE[sq]``: the squares written before ``sq``, as a bitmask.
_BEFORE: Final[tuple[int, ...]] = tuple(
    sum(1 << other for other in FILE_ORDER[: FILE_ORDER.index(sq)]) for sq in range(64)
)
_WRITTEN_AS: Final[tuple[int, ...]] = tuple(FILE_ORDER.index(sq) for sq in range(64))


def board_cells(pos: Position, table: Sequence[Sequence[Sequence[_Cell]]]) -> list[_Cell]:
    """``pos``'s board cells in the order they are written; ``table[sq][pyramid][owner]``
    is a cell as written: JSON data or its text."""
    board, caps = pos.board, pos.caps
    return [table[sq][board[sq]][caps[sq]] for sq in FILE_ORDER if board[sq] != EMPTY]


def follows(entry: Entry, previous: Entry) -> bool:
    """Whether ``entry``'s board is ``previous``'s with only a move's changes:
    claims and cap moves, not the final captures (which repaint squares without
    changing a mask)."""
    return not entry.ended and entry.played_from is previous.position


def board_cells_after(
    prev: Position, cells: list[_Cell], pos: Position,
    table: Sequence[Sequence[Sequence[_Cell]]],
) -> list[_Cell]:
    """``pos``'s cells from ``prev``'s, when ``pos`` :func:`follows` from ``prev``
    (see :func:`board_cells` for ``table``)."""
    changed = (prev.occupied ^ pos.occupied) | (prev.capped ^ pos.capped)
    out = cells.copy()
    # Latest square first, so that a removal does not shift the places still to patch.
    for sq in sorted(iter_squares(changed), key=_WRITTEN_AS.__getitem__, reverse=True):
        at = (prev.occupied & _BEFORE[sq]).bit_count()
        if pos.board[sq] == EMPTY:
            del out[at]
        else:
            out[at] = table[sq][pos.board[sq]][pos.caps[sq]]
    return out


def entry_dict(entry: Entry, previous: Entry | None = None) -> dict[str, Any]:
    """The JSON form of a stack entry, built once; ``previous`` (the entry before
    it) lets it be built from that one's when a move led from one to the other."""
    if entry._json is not None:
        return entry._json
    pos = entry.position
    prior = previous._json if previous is not None and follows(entry, previous) else None
    if prior is not None and previous is not None:
        cells = board_cells_after(previous.position, prior["board"]["value"], pos, CELLS)
        prior_captured = previous.position.captured
        old_lists = prior["captured"]
        captured = [
            old_lists[i] if c is prior_captured[i] else [PYRAMID_JSON[p] for p in c]
            for i, c in enumerate(pos.captured)
        ]
    else:
        cells = board_cells(pos, CELLS)
        captured = _captured_json(pos)
    entry._json = _entry_json(entry, cells, captured)
    return entry._json


def entry_dict_without_cells(entry: Entry) -> dict[str, Any]:
    """The JSON form of a stack entry with no board cells (not kept): what is
    left to compare of an entry whose cells were read on their own."""
    return _entry_json(entry, [], _captured_json(entry.position))


def _captured_json(pos: Position) -> list[list[list[Any]]]:
    return [[PYRAMID_JSON[p] for p in c] for c in pos.captured]


def _entry_json(
    entry: Entry, cells: list[list[Any]], captured: list[list[list[Any]]]
) -> dict[str, Any]:
    pos = entry.position
    out: dict[str, Any] = {
        "_version": entry.version,
        "_results": entry.results,
        "_timestamp": entry.timestamp,
        "currplayer": pos.currplayer,
        "mode": pos.mode,
    }
    if pos.lastmove is not None:
        out["lastmove"] = pos.lastmove
    out["eliminated"] = list(pos.eliminated)
    out["board"] = {"dataType": "Map", "value": cells}
    out["captured"] = captured
    return out


def dump_state(numplayers: int, variants: Sequence[str], stack: Sequence[Entry]) -> dict[str, Any]:
    """The serialized state as a JSON-ready dict (CONTRACT §4).

    Its parts are shared with the entries' cached JSON: copy before changing it.
    """
    top = stack[-1]
    entries = []
    previous = None
    for entry in stack:
        entries.append(entry_dict(entry, previous))
        previous = entry
    return {
        "game": GAME_UID,
        "numplayers": numplayers,
        "variants": list(variants),
        "gameover": top.ended,
        "winner": top.winners,
        "stack": entries,
    }
