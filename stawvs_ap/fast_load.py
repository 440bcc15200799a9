"""Loading a state by replaying it: the fast ways in, for states a game wrote.

A state's first entry is checked in full; each later entry must be what its
``lastmove`` makes of the one before, so those are played instead of checked.
Either function answers None when a state is not as expected; the full checks
of :func:`stawvs_ap.state_io.load_state` then say what is wrong with it, so
every way in refuses the same states.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Final, cast

from pydantic import ValidationError

from .entry import ENGINE_VERSION, GAME_UID, Entry, entry_dict, entry_dict_without_cells
from .errors import InvalidStateError
from .state_checks import (
    CELL_OF_TEXT,
    ENDINGS,
    board_from_text,
    check_header,
    check_stack,
    entry_from_model,
)
from .state_format import (
    MAX_ENTRIES,
    TIMESTAMP,
    GameState,
    StateModel,
    check_depth_of_results,
    parse_json,
    to_json,
)
from .validation import judge
from .writer import entry_text

__all__ = ["load_by_replay", "load_from_text"]


def load_by_replay(data: dict[str, Any]) -> GameState | None:
    """The fast path for a state whose entries follow each other by legal moves,
    as every state a game writes does: check the first entry in full, then play
    each entry's ``lastmove`` and compare what it gives with what is written.
    None when anything differs; the full checks then find what is wrong."""
    stack = data.get("stack")
    if not isinstance(stack, list) or not 2 <= len(stack) <= MAX_ENTRIES:
        return None
    try:
        start = _checked_start(data, stack[0])
        if start is None:
            return None
        header, variants, entries = start
        for raw in stack[1:]:
            if type(raw) is not dict:
                return None
            entry = _played_entry(entries[-1], raw.get("lastmove"), raw.get("_timestamp"))
            if entry is None or entry_dict(entry, entries[-1]) != raw:
                return None
            entries.append(entry)
        check_stack(entries, header.gameover, header.winner)
    except (ValidationError, InvalidStateError, RecursionError):
        return None
    return GameState(header.numplayers, variants, entries)


#: How every stack entry starts when written compactly, by this engine and by
#: Abstract Play's. JSON strings escape their quotes, so it cannot occur inside one.
_ENTRY_START: Final = '{"_version":"' + ENGINE_VERSION + '"'


def load_from_text(text: str | bytes | bytearray) -> GameState | None:
    """The fastest path, for a state written compactly with the usual key order.

    The top-level keys are parsed and checked in full. So is the first entry,
    except that its board cells are looked up by their text (see
    :func:`_cut_board`); the rest of that entry, written back, must give the
    very text it was read from. Each later entry's ``lastmove`` (read off the
    text) is played, and the text those entries would be written as must match
    what was given, byte for byte. None when anything differs.
    """
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    parts = text.split(_ENTRY_START)
    if not 2 <= len(parts) <= MAX_ENTRIES + 1 or not parts[0].endswith('"stack":['):
        return None
    first_text = _ENTRY_START + parts[1]
    end = "]}" if len(parts) == 2 else ","
    if not first_text.endswith(end):
        return None
    first_text = first_text[: -len(end)]
    board = _cut_board(first_text)
    if board is None:
        return None
    without_cells, cells = board
    try:
        head, has_float = parse_json(parts[0] + without_cells + "]}")
        if type(head) is not dict or has_float:
            return None
        start = _checked_start(head, head.get("stack", [None])[0], cells)
        if start is None:
            return None
        header, variants, entries = start
        if not _written_as(entries[0], head["stack"][0], without_cells):
            return None
        for body in parts[2:]:
            lastmove = _quoted_after(body, '"lastmove":"')
            entry = _played_entry(entries[-1], lastmove, _quoted_after(body, '"_timestamp":"'))
            if entry is None:
                return None
            entries.append(entry)
        if len(entries) > 1:
            entry_text(entries[0])  # the later entries' text is patched from it
            later = [entry_text(entry, before) for before, entry in pairwise(entries)]
            if None in later:
                return None
            written = ",".join(cast(list[str], later))
            if text != parts[0] + first_text + "," + written + "]}":
                return None
        check_stack(entries, header.gameover, header.winner)
    except (ValidationError, InvalidStateError, RecursionError):
        return None
    return GameState(header.numplayers, variants, entries)


_BOARD_START: Final = ',"board":{"dataType":"Map","value":['
_NO_RESULTS: Final = _ENTRY_START + ',"_results":[],'


def _cut_board(entry_text: str) -> tuple[str, list[tuple[int, int, int]]] | None:
    """``entry_text`` with its board's cells cut out, and those cells read off
    their text; None unless every cell is a coloured pyramid written compactly
    and the entry has no results.

    Why the cells cut out are the entry's board: the rest of the entry is later
    written back and must equal what is left here (see :func:`_written_as`).
    Without results, nothing but the board itself can hold the text cut at: any
    other text that looks like it would lie inside a JSON string, and so would
    have its quotes escaped.
    """
    if not entry_text.startswith(_NO_RESULTS):
        return None
    at = entry_text.find(_BOARD_START)
    if at < 0:
        return None
    start = at + len(_BOARD_START)
    end = entry_text.find("]}", start)
    if end < 0:
        return None
    body = entry_text[start:end]
    cells: list[tuple[int, int, int] | None] = []
    if body:
        if body[0] != "[" or body[-1] != "]":
            return None
        # Compact cells are separated by "],[", which occurs nowhere inside one,
        # so this is exactly a list of the cells looked up.
        cells = list(map(CELL_OF_TEXT.get, body[1:-1].split("],[")))
        if None in cells:
            return None
    return entry_text[:start] + entry_text[end:], cast(list[tuple[int, int, int]], cells)


def _written_as(entry: Entry, given: dict[str, Any], text: str) -> bool:
    """Whether ``entry``, written with the keys in the order of ``given`` and its
    board cells left out, is ``text``: then the entry's cells are all it left out."""
    ours = entry_dict_without_cells(entry)
    if ours.keys() != given.keys():
        return False
    return to_json({key: ours[key] for key in given}) == text


def _quoted_after(text: str, key: str) -> str | None:
    """The raw text of the string value that follows ``key`` in ``text``, if any."""
    at = text.find(key)
    if at < 0:
        return None
    at += len(key)
    end = text.find('"', at)
    return text[at:end] if end >= 0 else None


def _checked_start(
    data: dict[str, Any], first: Any, cells: list[tuple[int, int, int]] | None = None
) -> tuple[StateModel, list[str], list[Entry]] | None:
    """The top-level keys and the first entry, with every check of the full path;
    ``cells`` are the first entry's board cells when read apart from ``first``
    (see :func:`_cut_board`)."""
    if data.get("game") != GAME_UID or type(first) is not dict:
        return None
    if first.get("_version") != ENGINE_VERSION:
        return None
    header = StateModel.model_validate({**data, "stack": [first]})
    check_depth_of_results(header)
    variants, rules = check_header(header)
    board_read = None
    if cells is not None:
        board_read = board_from_text(cells, rules.numplayers)
        if board_read is None:
            return None
    return header, variants, [entry_from_model(rules, 0, header.stack[0], board_read)]


def _played_entry(previous: Entry, lastmove: object, timestamp: object) -> Entry | None:
    """The entry that playing ``lastmove`` on ``previous`` gives, stamped ``timestamp``;
    None unless it is a legal complete move and the stamp is well formed."""
    if type(lastmove) is not str or lastmove in ENDINGS:
        return None
    if type(timestamp) is not str or not TIMESTAMP.fullmatch(timestamp):
        return None
    verdict = judge(previous.position, lastmove, game_over=previous.ended)
    if verdict.code is not None or verdict.complete != 1 or verdict.move is None:
        return None
    position, results = previous.position.play(verdict.move)
    return Entry(position, results, timestamp, played_from=previous.position)
