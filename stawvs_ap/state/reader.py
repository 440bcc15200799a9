"""Reading a serialized state: :func:`load_state`, with one fast path beside the full checks.

The full checks (:func:`stawvs_ap.state.checks.load_checked`, ``fast=False``)
are the reference. A state a game wrote takes the fast path: the header and
the first entry get the full checks, then each later entry's ``lastmove`` is
played and the entry this engine would write for it must equal the one given.
Whatever the fast path does not accept goes to the full checks, which then
accept it or name what is wrong, so the way in never changes the verdict.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.moves import Move, MoveSyntaxError
from ..errors import InvalidStateError
from .checks import GameState, load_checked
from .entry import ENDINGS, Entry
from .format import MAX_STATE_BYTES, read_document
from .timestamps import is_timestamp
from .writer import entry_dict

__all__ = ["GameState", "load_state"]


def load_state(doc: str | bytes | bytearray | dict[str, Any], *, fast: bool = True) -> GameState:
    """The game a serialized state holds (JSON text, UTF-8 bytes or a parsed dict).

    Raises :class:`~stawvs_ap.errors.InvalidStateError` (``BAD_STATE``) naming
    the first problem. ``fast=False`` skips the fast path: same verdicts, slower.
    """
    data = read_document(doc)
    if fast:
        text = doc if isinstance(doc, str | bytes | bytearray) else _as_text(data)
        if text is not None and _booleans_only_in_gameover(text):
            # A dict is read again from its text, which refuses every float
            # standing for an integer (1.0 == 1 would pass the comparisons).
            strict = data if text is doc else _read_strictly(text)
            loaded = _replayed(strict) if strict is not None else None
            if loaded is not None:
                return loaded
    return load_checked(data)


def _as_text(data: dict[str, Any]) -> str | None:
    """A parsed state as JSON text; None if it holds values that are not JSON's
    (the full checks name them)."""
    try:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= MAX_STATE_BYTES else None


def _read_strictly(text: str) -> dict[str, Any] | None:
    try:
        return read_document(text)
    except InvalidStateError:
        return None


def _booleans_only_in_gameover(text: str | bytes | bytearray) -> bool:
    """Whether the only JSON boolean is the one of ``gameover``: in Python
    ``True == 1``, so the comparisons of the fast path must never meet a boolean
    standing for a number. (Floats were refused as the document was read.)"""
    if isinstance(text, str):
        return text.count("true") + text.count("false") == 1
    return text.count(b"true") + text.count(b"false") == 1


def _replayed(data: dict[str, Any]) -> GameState | None:
    """The fast path: None unless every later entry is exactly what replaying gives."""
    stack = data.get("stack")
    if not isinstance(stack, list) or len(stack) < 2 or not isinstance(stack[0], dict):
        return None
    first = load_checked({**data, "stack": stack[:1], "gameover": False, "winner": []})
    entries = first.stack
    for raw in stack[1:]:
        entry = _played(entries[-1], raw)
        if entry is None:
            return None
        entries.append(entry)
    top = entries[-1]
    if data.get("gameover") is not top.ended or data.get("winner") != top.winners:
        return None
    return GameState(first.numplayers, first.variants, entries)


def _played(previous: Entry, raw: object) -> Entry | None:
    """The entry ``raw`` should be, by playing its ``lastmove``; None if it is not."""
    if type(raw) is not dict or previous.ended:
        return None
    lastmove, timestamp = raw.get("lastmove"), raw.get("_timestamp")
    if type(lastmove) is not str or lastmove in ENDINGS or type(timestamp) is not str:
        return None
    if not is_timestamp(timestamp):
        return None
    try:
        move = Move.parse(lastmove)
    except MoveSyntaxError:
        return None
    if not previous.position.is_legal(move):
        return None
    position, events = previous.position.play(move)
    entry = Entry(position, str(move), events, timestamp)
    return entry if entry_dict(entry) == raw else None
