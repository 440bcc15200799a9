"""Reading a serialized state: :func:`load_state`, with one fast path beside the full checks.

What a state may hold is decided in one place, :mod:`stawvs_ap.state.checks`
(``fast=False`` runs it alone: :func:`~stawvs_ap.state.checks.load_checked`).
The fast path only makes that decision faster for a state this engine wrote:
its header and first entry go through the full checks, each later entry is
made by :func:`~stawvs_ap.state.checks.following_entry` (the one decision of
whether a step could have been played) from its ``lastmove``, and the text this
engine writes for the game so made must be the very text given, which stands
for comparing every field. The fast path never refuses: whatever it does not
accept goes to the full checks, which accept it or name what is wrong, so the
way in never changes the verdict.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ..errors import InvalidStateError
from .checks import GameState, following_entry, load_checked
from .format import (
    INTEGER_JSON,
    MAX_STATE_BYTES,
    check_sizes,
    read_document,
)
from .writer import Written, state_dict, to_json

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
    # With one entry there is nothing to replay: the full checks alone are
    # faster. A new game's entry is written in about 1,300 characters; a first
    # entry far longer is no start this engine wrote, and is left to the full
    # checks rather than parsed twice.
    second = text.find(',{"_version"', at)
    if second < 0 or second - at > _FIRST_ENTRY_MAX:
        return None
    try:
        head = INTEGER_JSON.decode(text[:at] + _STACK + "]}")
        first, end = INTEGER_JSON.raw_decode(text, at + len(_STACK))
        if type(head) is not dict or type(first) is not dict:
            return None
        start = load_checked({**head, "stack": [first], "gameover": False, "winner": []})
    except (ValueError, RecursionError, InvalidStateError):
        return None
    entries = start.stack
    try:
        for index, hint in enumerate(_MOVE_HINT.finditer(text, end), start=1):
            # The results, which name who resigned, are not read: such an
            # ending is refused here and left to the full checks.
            entries.append(following_entry(index, entries[-1], hint[2], hint[1]))
    except InvalidStateError:
        return None
    # The first entry was checked in full, so only the rest must be written as
    # this engine writes it (Abstract Play's engine writes a first entry's keys
    # in another order; all else it writes as we do).
    ours = state_dict(start.numplayers, start.variants, entries)
    first_ours, *later = ours["stack"]
    ours["stack"] = []
    if text[:at] + _STACK + "]}" != to_json(ours):
        return None
    if text[end:] != ("," + to_json(later)[1:] if later else "]") + "}":
        return None
    # The later entries' text is the writer's, checked above: kept for the
    # game's next write (state.writer.write_state).
    written = Written(tuple(entries), to_json(first_ours) + text[end:-2])
    return GameState(start.numplayers, start.variants, entries, written)
