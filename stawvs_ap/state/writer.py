"""Writing a game as a serialized state (docs/CONTRACT.md §4): the one writer.

:func:`entry_dict` writes one stack entry as JSON data, :func:`state_dict` the
whole game, and :func:`to_json` turns either into compact JSON text. Board
cells come from a table made once, so each written cell is a lookup.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import pydantic_core

from ..core.events import FinalCapture
from ..core.position import EMPTY, Position
from ..core.pyramids import PYRAMIDS
from ..core.squares import SQUARE_NAMES, iter_squares
from .entry import ENGINE_VERSION, GAME_UID, Entry

__all__ = [
    "FILE_ORDER",
    "PYRAMID_JSON",
    "Written",
    "board_cells",
    "cells_after",
    "entry_dict",
    "state_dict",
    "to_json",
    "write_state",
]


class Written(NamedTuple):
    """Entries already written (the stack's first ones) and their texts as
    the stack's JSON holds them, joined by commas: what :func:`write_state`
    reuses."""

    entries: tuple[Entry, ...]
    text: str


#: The JSON of each pyramid, ``["PI", 1]``, by pyramid number (ghosts included).
PYRAMID_JSON: Final[tuple[list[Any], ...]] = tuple([p.colour.code, int(p.size)] for p in PYRAMIDS)
#: ``_CELLS[sq][pyramid][owner]``: the board cell ``[square, [pyramid(, owner)]]``.
#: Shared by every entry that shows it: callers must copy before changing one.
_CELLS: Final[tuple[tuple[tuple[list[Any], ...], ...], ...]] = tuple(
    tuple(
        tuple(
            [SQUARE_NAMES[sq], [PYRAMID_JSON[p], owner] if owner else [PYRAMID_JSON[p]]]
            for owner in range(5)
        )
        for p in range(len(PYRAMIDS))
    )
    for sq in range(64)
)
#: Abstract Play writes board entries file by file (a8…a1, b8…b1, …); so do we.
FILE_ORDER: Final[tuple[int, ...]] = tuple(row * 8 + col for col in range(8) for row in range(8))
#: Where each square comes in :data:`FILE_ORDER`, and the squares written before it.
_WRITTEN_AT: Final = tuple(FILE_ORDER.index(sq) for sq in range(64))
_WRITTEN_BEFORE: Final = tuple(
    sum(1 << other for other in FILE_ORDER[: FILE_ORDER.index(sq)]) for sq in range(64)
)


def board_cells(position: Position) -> list[list[Any]]:
    """The board as the cells of a JavaScript ``Map``, file by file."""
    board, caps = position.board, position.caps
    return [_CELLS[sq][board[sq]][caps[sq]] for sq in FILE_ORDER if board[sq] != EMPTY]


def entry_dict(entry: Entry, cells: list[list[Any]] | None = None) -> dict[str, Any]:
    """One stack entry as JSON data, keys in the order Abstract Play writes them;
    ``cells`` are its board cells when the caller has them already.

    Its board cells and pyramids are shared with other entries: copy the
    result before changing it.
    """
    pos = entry.position
    out: dict[str, Any] = {
        "_version": ENGINE_VERSION,
        "_results": entry.results,
        "_timestamp": entry.timestamp,
        "currplayer": pos.currplayer,
        "mode": pos.mode,
    }
    if entry.lastmove is not None:
        out["lastmove"] = entry.lastmove
    out["eliminated"] = list(pos.eliminated)
    out["board"] = {"dataType": "Map", "value": board_cells(pos) if cells is None else cells}
    out["captured"] = [[PYRAMID_JSON[p] for p in c] for c in pos.captured]
    return out


def _head(numplayers: int, variants: Sequence[str], top: Entry) -> dict[str, Any]:
    return {
        "game": GAME_UID,
        "numplayers": numplayers,
        "variants": list(variants),
        "gameover": top.ended,
        "winner": top.winners,
    }


def _entry_dicts(stack: Sequence[Entry], start: int = 0) -> list[dict[str, Any]]:
    """The JSON data of ``stack[start:]``, each entry's cells patched from the last."""
    entries = []
    cells: list[list[Any]] = []
    for index in range(start, len(stack)):
        entry = stack[index]
        cells = (
            cells_after(stack[index - 1].position, entry, cells)
            if index > start
            else board_cells(entry.position)
        )
        entries.append(entry_dict(entry, cells))
    return entries


def state_dict(numplayers: int, variants: Sequence[str], stack: Sequence[Entry]) -> dict[str, Any]:
    """The whole game as a JSON-ready dict (shares parts with other entries: see
    :func:`entry_dict`)."""
    return {**_head(numplayers, variants, stack[-1]), "stack": _entry_dicts(stack)}


def write_state(
    numplayers: int, variants: Sequence[str], stack: Sequence[Entry], written: Written | None
) -> tuple[str, Written]:
    """The whole game as compact JSON text, ``to_json(state_dict(...))``, and
    what was written, for the next call. When ``written`` (from an earlier
    call, or from the loader) holds the very entries the stack begins with,
    only the entries after them are written.

    Hosts write the whole game after every move (the service answers each
    ``move`` with it) and entries never change: a 61-ply game with one new
    entry is written in a twentieth of the time. tests/test_writer.py checks the
    text is the plain way's after moves, undos, loads, endings and loading.
    """
    known, body = written if written is not None else ((), "")
    if len(known) > len(stack) or not all(map(operator.is_, known, stack)):
        known, body = (), ""  # no longer the stack that was written: all of it anew
    new = _entry_dicts(stack, len(known))
    if new:
        body += ("," if body else "") + to_json(new)[1:-1]
    head = to_json(_head(numplayers, variants, stack[-1]))
    return head[:-1] + ',"stack":[' + body + "]}", Written(tuple(stack), body)


def cells_after(before: Position, entry: Entry, cells: list[list[Any]]) -> list[list[Any]]:
    """The board cells of ``entry``, made from those of the position before it
    (``cells``) by changing only the squares its move changed: what
    :func:`board_cells` gives, in a third of the time, which hosts feel since
    they write whole games after every move (tests/test_writer.py checks both
    agree). Final captures repaint squares without changing a mask: their
    cells are made anew."""
    after = entry.position
    if any(type(event) is FinalCapture for event in entry.events):
        return board_cells(after)
    out = cells.copy()
    changed = (before.occupied ^ after.occupied) | (before.capped ^ after.capped)
    # Latest written square first, so that a removal does not shift those still to patch.
    for sq in sorted(iter_squares(changed), key=_WRITTEN_AT.__getitem__, reverse=True):
        at = (before.occupied & _WRITTEN_BEFORE[sq]).bit_count()
        if after.board[sq] == EMPTY:
            del out[at]
        else:
            out[at] = _CELLS[sq][after.board[sq]][after.caps[sq]]
    return out


def to_json(value: Any) -> str:
    """Compact JSON text, exactly as ``json.dumps(value, separators=(",", ":"),
    ensure_ascii=False)`` writes it, in about half the time. For what this
    package writes: JSON types only, and no text a player typed."""
    return pydantic_core.to_json(value).decode()
