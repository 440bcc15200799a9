"""The board as JSON for the Abstract Play renderer (docs/CONTRACT.md §6).

The annotations are made from the shown move's events (or the partial move
being previewed); the labels are worded in the player's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..core.events import Event, Moved, Placed
from ..core.moves import Move
from ..core.position import EMPTY, Position
from ..core.pyramids import PYRAMIDS, Colour
from ..core.scoring import group_collection, score
from ..i18n import Catalogue, Phrase, catalogue
from .messages import STASH_LABEL

__all__ = ["legend", "render"]

_BOARD_GLYPHS: Final = {
    1: "pyramid-up-small-upscaled",
    2: "pyramid-up-medium-upscaled",
    3: "pyramid-up-large-upscaled",
}
_COLLECTION_GLYPHS: Final = {
    1: "pyramid-flattened-small",
    2: "pyramid-flattened-medium",
    3: "pyramid-flattened-large",
}
#: The palette colour of the first pyramid colour (PI); the others follow it.
_FIRST_PYRAMID_COLOUR: Final = 8


def legend(numplayers: int) -> dict[str, Any]:
    """The glyph for every key the pieces and stashes use."""
    out: dict[str, Any] = {}
    for colour in (Colour.PINK, Colour.BLUE, Colour.GREEN, Colour.ORANGE):
        palette = _FIRST_PYRAMID_COLOUR + colour
        for size, glyph in _BOARD_GLYPHS.items():
            out[f"{colour.code}{size}"] = {"name": glyph, "colour": palette}
        for size, glyph in _COLLECTION_GLYPHS.items():
            out[f"{colour.code}{size}c"] = {"name": glyph, "colour": palette}
    for size, glyph in _BOARD_GLYPHS.items():
        out[f"{Colour.GREY.code}{size}"] = {"name": glyph, "colour": "#aaa", "opacity": 0.25}
    for player in range(1, numplayers + 1):
        out[f"P{player}"] = {"name": "piece", "scale": 0.3, "colour": player}
    out["note"] = {"text": "\u2718", "scale": 0.5}
    return out


_LEGENDS: Final = {n: legend(n) for n in (2, 3, 4)}


def _legend(numplayers: int) -> dict[str, Any]:
    return _LEGENDS.get(numplayers) or legend(numplayers)


# Every render writes 64 cells and each collected pyramid: look their keys up.
_CODES: Final = tuple(p.code for p in PYRAMIDS)
_STASH_CODES: Final = tuple(f"{code}c" for code in _CODES)
_CAP_KEYS: Final = tuple(f"P{player}" for player in range(5))  # "P0" is never used


def _pieces(position: Position) -> list[list[list[str]]]:
    board, caps = position.board, position.caps
    rows: list[list[list[str]]] = []
    for row in range(8):
        cells: list[list[str]] = []
        for sq in range(row * 8, row * 8 + 8):
            pyramid = board[sq]
            if pyramid == EMPTY:
                cells.append([])
            elif caps[sq]:
                cells.append([_CODES[pyramid], _CAP_KEYS[caps[sq]]])
            else:
                cells.append([_CODES[pyramid]])
        rows.append(cells)
    return rows


def _areas(position: Position, words: Catalogue) -> list[dict[str, Any]]:
    areas = []
    for player, collection in enumerate(position.captured, start=1):
        if not collection:
            continue
        stacks = group_collection(collection)
        stash = [[_STASH_CODES[p] for p in stack] for stack in stacks]
        label = words.say(Phrase(STASH_LABEL, {"player": player, "points": score(collection)}))
        areas.append({"type": "localStash", "label": label, "stash": stash})
    return areas


def _at(sq: int) -> dict[str, int]:
    return {"row": sq >> 3, "col": sq & 7}


def _annotations(
    events: Sequence[Event], partial: Move | None, exit_mark: bool
) -> list[dict[str, Any]]:
    notes: list[dict[str, Any]] = []
    if partial is not None:  # a cap chosen (FROM), perhaps with where it lands (FROM-TO)
        assert partial.source is not None
        if exit_mark:
            notes.append({"type": "exit", "targets": [_at(partial.source)]})
        if partial.dest is not None:
            notes.append({"type": "move", "targets": [_at(partial.source), _at(partial.dest)]})
        return notes
    for event in events:
        if type(event) is Placed:
            notes.append({"type": "enter", "targets": [_at(event.square)]})
        elif type(event) is Moved:
            source, dest, target = event.source, event.dest, event.target
            if exit_mark:
                notes.append({"type": "exit", "targets": [_at(source)]})
            notes.append({"type": "move", "targets": [_at(source), _at(dest)]})
            notes.append({"type": "glyph", "glyph": "note", "targets": [_at(target)]})
            notes.append({"type": "move", "style": "dashed", "targets": [_at(dest), _at(target)]})
    return notes


def render(
    position: Position,
    events: Sequence[Event],
    *,
    numplayers: int,
    exit_mark: bool = False,
    partial: Move | None = None,
    words: Catalogue | None = None,
) -> dict[str, Any]:
    """The render of ``position``, annotated with the move whose ``events`` are
    given, or with the ``partial`` move (``FROM`` or ``FROM-TO``) being previewed.

    ``exit_mark`` adds the ``exit`` mark on the square a cap just left, which
    only an object that has just made (or previewed) the move shows. Labels
    are in ``words``' language (default English).
    """
    out: dict[str, Any] = {
        "renderer": "stacking-expanding",
        "board": {"style": "squares", "width": 8, "height": 8},
        "legend": {key: dict(glyph) for key, glyph in _legend(numplayers).items()},
        "pieces": _pieces(position),
    }
    areas = _areas(position, words or catalogue())
    if areas:
        out["areas"] = areas
    notes = _annotations(events, partial, exit_mark)
    if notes:
        out["annotations"] = notes
    return out
