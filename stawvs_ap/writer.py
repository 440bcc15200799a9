"""Writing a state as compact JSON text, fast (CONTRACT §4).

Hosts serialize the whole stack after every move, and loading a state a game
wrote compares the text its entries would be written as with what was given.
So each entry's text is built once and kept, and an entry that follows another
by a move reuses its predecessor's cell texts, patching the few squares the
move changed. The text is exactly ``to_json(dump_state(...))``, which the
tests check, only made faster.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

import pydantic_core
from pydantic_core import PydanticSerializationError

from .entry import (
    CELLS,
    ENGINE_VERSION,
    GAME_UID,
    PYRAMID_JSON,
    Entry,
    board_cells,
    board_cells_after,
    dump_state,
    follows,
)

__all__ = ["entry_text", "state_text", "to_json"]


def to_json(value: Any) -> str:
    """Compact JSON text of a state (or any part of one), as ``json.dumps(value,
    separators=(",", ":"), ensure_ascii=False)`` writes it, in about half the time."""
    text = _utf8_json(value)
    if text is None:
        # A lone surrogate (which JSON can carry as an escape) cannot be written as
        # UTF-8: escape everything outside ASCII instead, which reads back the same.
        return json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return text


def _utf8_json(value: Any) -> str | None:
    """Compact JSON text of ``value``; None if some text in it is not valid UTF-8."""
    try:
        return pydantic_core.to_json(value).decode()
    except (PydanticSerializationError, UnicodeDecodeError):
        return None


#: ``_CELL_TEXT[sq][pyramid][owner]``: the compact text of that board cell.
_CELL_TEXT: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(tuple(to_json(cell) for cell in by_owner) for by_owner in by_pyramid)
    for by_pyramid in CELLS
)
_PYRAMID_TEXT: Final[tuple[str, ...]] = tuple(to_json(p) for p in PYRAMID_JSON)
_VERSION_TEXT: Final = '{"_version":' + to_json(ENGINE_VERSION)


# Successive entries share most strings and collections (a replay stamps many
# moves in the same millisecond; a move changes one collection): write each once.
@lru_cache(maxsize=4096)
def _string_text(text: str) -> str | None:
    return _utf8_json(text)


@lru_cache(maxsize=4096)
def _collection_text(collection: tuple[int, ...]) -> str:
    return ",".join([_PYRAMID_TEXT[p] for p in collection])


def entry_text(entry: Entry, previous: Entry | None = None) -> str | None:
    """The compact JSON text of a stack entry, built once; ``previous`` (the
    entry before it) lets its board be patched from that one's. None when the
    entry holds text that UTF-8 cannot carry (see :func:`to_json`)."""
    if entry._text is not None:
        return entry._text
    pos = entry.position
    prior = previous._cell_texts if previous is not None and follows(entry, previous) else None
    if prior is not None and previous is not None:
        cells = board_cells_after(previous.position, prior, pos, _CELL_TEXT)
    else:
        cells = board_cells(pos, _CELL_TEXT)
    results = _utf8_json(entry.results) if entry.results else "[]"
    timestamp = _string_text(entry.timestamp)
    if results is None or timestamp is None or entry.version != ENGINE_VERSION:
        return None  # the whole state is written by to_json instead
    lastmove = ""
    if pos.lastmove is not None:
        lastmove_text = _string_text(pos.lastmove)
        if lastmove_text is None:
            return None
        lastmove = ',"lastmove":' + lastmove_text
    captured = "],[".join(map(_collection_text, pos.captured))
    text = (
        f'{_VERSION_TEXT},"_results":{results},"_timestamp":{timestamp},'
        f'"currplayer":{pos.currplayer},"mode":"{pos.mode}"{lastmove},'
        f'"eliminated":[{",".join(map(str, pos.eliminated))}],'
        f'"board":{{"dataType":"Map","value":[{",".join(cells)}]}},'
        f'"captured":[[{captured}]]}}'
    )
    entry._cell_texts = cells
    entry._text = text
    return text


def state_text(numplayers: int, variants: Sequence[str], stack: Sequence[Entry]) -> str:
    """The serialized state as compact JSON text: ``to_json(dump_state(...))``."""
    texts = []
    previous = None
    for entry in stack:
        text = entry_text(entry, previous)
        if text is None:
            return to_json(dump_state(numplayers, variants, stack))
        texts.append(text)
        previous = entry
    top = stack[-1]
    return (
        f'{{"game":"{GAME_UID}","numplayers":{numplayers},"variants":{to_json(list(variants))},'
        f'"gameover":{"true" if top.ended else "false"},"winner":{to_json(top.winners)},'
        f'"stack":[{",".join(texts)}]}}'
    )
