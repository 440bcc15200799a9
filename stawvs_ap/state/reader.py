"""Reading a serialized state: :func:`load_state`, with one fast path beside the full checks.

The full checks (:func:`stawvs_ap.state.checks.load_checked`, ``fast=False``)
are the reference. A state this engine wrote takes the fast path: its header
and first entry get the full checks, each later entry's ``lastmove`` is played,
and the text this engine writes for the game so made must be the very text
given. Whatever the fast path does not accept goes to the full checks, which
accept it or name what is wrong, so the way in never changes the verdict.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ..core.collector import collector_paused
from ..core.moves import Move, MoveSyntaxError
from ..errors import InvalidStateError
from .checks import GameState, load_checked
from .entry import ENDINGS, Entry
from .format import (
    INTEGER_JSON,
    MAX_STATE_BYTES,
    check_sizes,
    read_document,
)
from .timestamps import is_timestamp
from .writer import state_dict, to_json

__all__ = ["GameState", "load_state"]


def load_state(doc: str | bytes | bytearray | dict[str, Any], *, fast: bool = True) -> GameState:
    """The game a serialized state holds (JSON text, UTF-8 bytes or a parsed dict).

    Raises :class:`~stawvs_ap.errors.InvalidStateError` (``BAD_STATE``) naming
    the first problem. ``fast=False`` skips the fast path: same verdicts, slower.
    """
    if isinstance(doc, dict):  # parsed input: the limits of text, before anything walks it
        check_sizes(doc)
    if fast:
        text = _as_text(doc)
        loaded = _replayed(text) if text is not None else None
        if loaded is not None:
            return loaded
    return load_checked(read_document(doc))


def _as_text(doc: object) -> str | None:
    """The document as text within the size limit, for the fast path; None when
    it cannot be had (the full checks then say why)."""
    try:
        if isinstance(doc, str):
            text = doc
        elif isinstance(doc, bytes | bytearray):
            text = bytes(doc).decode("utf-8")
        else:
            text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= MAX_STATE_BYTES else None


_STACK: Final = '"stack":['
_FIRST_ENTRY_MAX: Final = 8192
# How this engine writes the start of each later entry's position: where the
# moves to replay are read. Only a hint: the whole text is compared at the end.
_MOVE_HINT: Final = re.compile(
    r'"_timestamp":"([^"\\]*)","currplayer":\d+,"mode":"[a-z]+","lastmove":"([^"\\]*)"'
)


def _replayed(text: str) -> GameState | None:
    """The fast path: the game ``text`` holds when it is exactly the text this
    engine writes for it; None otherwise."""
    at = text.find(_STACK)
    if at < 0:
        return None
    # A new game's entry is written in about 1,300 characters; a first entry far
    # longer is no start this engine wrote, and is left to the full checks
    # rather than parsed twice.
    second = text.find(',{"_version"', at)
    if (second if second >= 0 else len(text)) - at > _FIRST_ENTRY_MAX:
        return None
    try:
        with collector_paused():
            head = INTEGER_JSON.decode(text[:at] + _STACK + "]}")
            first, end = INTEGER_JSON.raw_decode(text, at + len(_STACK))
        if type(head) is not dict or type(first) is not dict:
            return None
        start = load_checked({**head, "stack": [first], "gameover": False, "winner": []})
    except (ValueError, RecursionError, InvalidStateError):
        return None
    entries = start.stack
    for hint in _MOVE_HINT.finditer(text, end):
        entry = _played(entries[-1], hint[2], hint[1])
        if entry is None:
            return None
        entries.append(entry)
    # The first entry was checked in full, so only the rest must be written as
    # this engine writes it (Abstract Play's engine writes a first entry's keys
    # in another order; all else it writes as we do).
    ours = state_dict(start.numplayers, start.variants, entries)
    later = ours["stack"][1:]
    ours["stack"] = []
    if text[:at] + _STACK + "]}" != to_json(ours):
        return None
    if text[end:] != ("," + to_json(later)[1:] if later else "]") + "}":
        return None
    return GameState(start.numplayers, start.variants, entries)


def _played(previous: Entry, lastmove: str, timestamp: str) -> Entry | None:
    """The entry playing ``lastmove`` on ``previous`` makes, stamped ``timestamp``;
    None unless it is a legal complete move and a real time."""
    if previous.ended or lastmove in ENDINGS or not is_timestamp(timestamp):
        return None
    try:
        move = Move.parse(lastmove)
    except MoveSyntaxError:
        return None
    if not previous.position.is_legal(move):
        return None
    position, events = previous.position.play(move)
    return Entry(position, str(move), events, timestamp)
