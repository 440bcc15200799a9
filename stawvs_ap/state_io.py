"""The serialized state (CONTRACT §4): writing it, and reading it with every check.

A state is refused with :class:`~stawvs_ap.errors.InvalidStateError` (code
``BAD_STATE``) whose message names the first problem found: its shape (checked
by the pydantic models below), then the rules it breaks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Annotated, Any, Final, Literal

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError
from pydantic_core import PydanticSerializationError

from .entry import ENGINE_VERSION, GAME_UID, Entry, dump_state, entry_dict
from .errors import InvalidStateError
from .state_checks import (
    ENDINGS,
    check_header,
    check_history,
    check_stack,
    entry_from_model,
    short,
)
from .validation import judge

__all__ = [
    "ENDINGS",
    "ENGINE_VERSION",
    "MAX_STATE_BYTES",
    "Entry",
    "GameState",
    "StateModel",
    "dump_state",
    "entry_dict",
    "load_state",
    "to_json",
]

#: Documents larger than this are refused before parsing (a real game is far smaller).
MAX_STATE_BYTES: Final = 4_000_000
_MAX_ENTRIES: Final = 2000
#: An ISO-8601 time in UTC or with an offset, as Abstract Play writes ``_timestamp``.
TIMESTAMP: Final = re.compile(
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$"
)

# Not pydantic's strict mode: it would refuse JSON arrays (lists) for tuples.
_Strict = ConfigDict(extra="forbid", populate_by_name=True)
PyramidJSON = tuple[StrictStr, StrictInt]
# Most cells hold a lone pyramid: trying that shape first halves the validation time.
CellJSON = Annotated[
    tuple[PyramidJSON] | tuple[PyramidJSON, StrictInt], Field(union_mode="left_to_right")
]


class BoardModel(BaseModel):
    """A JavaScript ``Map`` as Abstract Play writes it."""

    model_config = _Strict
    dataType: Literal["Map"]
    value: list[tuple[StrictStr, CellJSON]] = Field(max_length=64)


class ResultModel(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: StrictStr = Field(max_length=40)


class EntryModel(BaseModel):
    """One stack entry: the position after a move and that move's results."""

    model_config = _Strict
    version: StrictStr = Field(alias="_version", max_length=40)
    results: list[ResultModel] = Field(alias="_results", max_length=10)
    timestamp: StrictStr = Field(alias="_timestamp", pattern=TIMESTAMP.pattern)
    currplayer: StrictInt
    mode: Literal["place", "collect"]
    lastmove: Annotated[StrictStr, Field(max_length=100)] | None = None
    eliminated: list[StrictInt] = Field(default_factory=list, max_length=4)
    captured: list[list[PyramidJSON]] = Field(max_length=4)
    board: BoardModel


class StateModel(BaseModel):
    """The whole serialized game."""

    model_config = _Strict
    game: StrictStr = Field(max_length=40)
    numplayers: StrictInt
    variants: list[StrictStr] = Field(max_length=10)
    gameover: StrictBool
    winner: list[StrictInt] = Field(max_length=4)
    stack: list[EntryModel] = Field(min_length=1, max_length=_MAX_ENTRIES)


@dataclass(frozen=True, slots=True)
class GameState:
    """A loaded state: what the game object is rebuilt from."""

    numplayers: int
    variants: list[str]
    stack: list[Entry]


def to_json(state: dict[str, Any] | list[dict[str, Any]]) -> str:
    """Compact JSON text of a state (or of stack entries), as ``json.dumps(separators=(",", ":"),
    ensure_ascii=False)`` writes it, in about half the time."""
    try:
        return pydantic_core.to_json(state).decode()
    except (PydanticSerializationError, UnicodeDecodeError):
        # A lone surrogate (which JSON can carry as an escape) cannot be written as
        # UTF-8: escape everything outside ASCII instead, which reads back the same.
        return json.dumps(state, separators=(",", ":"), ensure_ascii=True)


def _format_validation_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the document"
    return f"{where}: {first['msg']}"


def load_state(data: str | bytes | dict[str, Any]) -> GameState:
    """Read and check a serialized state (JSON text or parsed dict)."""
    strictly_typed = False
    if isinstance(data, str | bytes | bytearray):
        if len(data) > MAX_STATE_BYTES:
            raise InvalidStateError(
                f"the state is {len(data)} bytes long; states over {MAX_STATE_BYTES} are refused"
            )
        fastest = _load_from_text(data)
        if fastest is not None:
            return fastest
        text = data
        data, has_float = _parse_json(text)
        strictly_typed = not has_float and _only_gameover_is_boolean(text)
    if not isinstance(data, dict):
        raise InvalidStateError(f"a state must be a JSON object, not {type(data).__name__}")
    if strictly_typed:
        replayed = _load_by_replay(data)
        if replayed is not None:
            return replayed
    shape_error: ValidationError | None = None
    try:
        model: StateModel | None = StateModel.model_validate(data)
    except ValidationError as exc:
        model, shape_error = None, exc
    except RecursionError:
        model = None
    if model is not None:
        _check_depth_of_results(model)
    else:
        _check_depth(data)
    if "game" not in data:
        raise InvalidStateError("the state does not say which game it is (no 'game' key)")
    if data["game"] != GAME_UID:
        raise InvalidStateError(f"this is a state of game {short(data['game'])}, not of Stawvs")
    _check_versions(data)
    if model is None:
        # The game and versions are reported first; then the shape error found above.
        if shape_error is None:  # pydantic ran out of stack
            raise InvalidStateError("the state is nested too deeply to be a Stawvs state")
        raise InvalidStateError(f"malformed state: {_format_validation_error(shape_error)}")
    variants, rules = check_header(model)
    stack = [entry_from_model(rules, i, e) for i, e in enumerate(model.stack)]
    check_stack(stack, model.gameover, model.winner)
    check_history(stack)
    return GameState(model.numplayers, variants, stack)


def _parse_json(text: str | bytes | bytearray) -> tuple[Any, bool]:
    """The parsed document, and whether it holds a non-integer number (never valid)."""
    floats: list[str] = []

    def note_float(token: str) -> float:
        floats.append(token)
        return float(token)

    try:
        return json.loads(text, parse_float=note_float, parse_constant=note_float), bool(floats)
    except RecursionError:
        raise InvalidStateError("the state is nested too deeply to be a Stawvs state") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidStateError(f"the state is not valid JSON ({exc})") from None


def _only_gameover_is_boolean(text: str | bytes | bytearray) -> bool:
    """Whether the only JSON boolean is the one of ``gameover`` (counted in C).

    ``true == 1`` in Python, so the replay path, which compares with ``==``,
    must only see documents where no boolean stands for a number.
    """
    if isinstance(text, str):
        return text.count("true") + text.count("false") == 1
    return text.count(b"true") + text.count(b"false") == 1


def _load_by_replay(data: dict[str, Any]) -> GameState | None:
    """The fast path for a state whose entries follow each other by legal moves,
    as every state a game writes does: check the first entry in full, then play
    each entry's ``lastmove`` and compare what it gives with what is written.
    None when anything differs; the full checks then find what is wrong."""
    stack = data.get("stack")
    if not isinstance(stack, list) or not 2 <= len(stack) <= _MAX_ENTRIES:
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


def _load_from_text(text: str | bytes | bytearray) -> GameState | None:
    """The fastest path, for a state written compactly with the usual key order:
    parse only the top-level keys and the first entry, play each later entry's
    ``lastmove`` (read off the text) and compare the text written for those
    entries with ours, byte for byte. None when anything differs."""
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    parts = text.split(_ENTRY_START)
    if not 3 <= len(parts) <= _MAX_ENTRIES + 1 or not parts[0].endswith('"stack":['):
        return None
    first_text = _ENTRY_START + parts[1]
    if not first_text.endswith(","):
        return None
    try:
        head, _ = _parse_json(parts[0] + first_text[:-1] + "]}")
        if type(head) is not dict:
            return None
        start = _checked_start(head, head.get("stack", [None])[0])
        if start is None:
            return None
        header, variants, entries = start
        for body in parts[2:]:
            lastmove = _quoted_after(body, '"lastmove":"')
            entry = _played_entry(entries[-1], lastmove, _quoted_after(body, '"_timestamp":"'))
            if entry is None:
                return None
            entries.append(entry)
        entry_dict(entries[0])  # the later entries' JSON is built from it
        later = [entry_dict(entry, before) for before, entry in pairwise(entries)]
        if text != parts[0] + first_text + to_json(later)[1:] + "}":
            return None
        check_stack(entries, header.gameover, header.winner)
    except (ValidationError, InvalidStateError, RecursionError):
        return None
    return GameState(header.numplayers, variants, entries)


def _quoted_after(text: str, key: str) -> str | None:
    """The raw text of the string value that follows ``key`` in ``text``, if any."""
    at = text.find(key)
    if at < 0:
        return None
    at += len(key)
    end = text.find('"', at)
    return text[at:end] if end >= 0 else None


def _checked_start(
    data: dict[str, Any], first: Any
) -> tuple[StateModel, list[str], list[Entry]] | None:
    """The top-level keys and the first entry, with every check of the full path."""
    if data.get("game") != GAME_UID or type(first) is not dict:
        return None
    if first.get("_version") != ENGINE_VERSION:
        return None
    header = StateModel.model_validate({**data, "stack": [first]})
    _check_depth_of_results(header)
    variants, rules = check_header(header)
    return header, variants, [entry_from_model(rules, 0, header.stack[0])]


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


def _check_depth_of_results(model: StateModel) -> None:
    # Pydantic only descends as deep as the models do, so validating first is
    # safe; once the shape is known good, only the free-form extras of results
    # can be nested too deeply.
    for entry in model.stack:
        for result in entry.results:
            _check_depth(list((result.model_extra or {}).values()), depth=5)


def _check_versions(data: dict[str, Any]) -> None:
    stack = data.get("stack")
    if not isinstance(stack, list):
        return  # the model reports it
    for i, entry in enumerate(stack):
        if not isinstance(entry, dict) or "_version" not in entry:
            continue  # the model reports it
        version = entry["_version"]
        if not isinstance(version, str):
            raise InvalidStateError(
                f"stack entry {i}: '_version' must be text such as \"{ENGINE_VERSION}\", "
                f"not {short(version)}"
            )
        if version != ENGINE_VERSION:
            raise InvalidStateError(
                f"stack entry {i} was written by engine version {short(version)}; "
                f"this engine reads version {ENGINE_VERSION} only"
            )


#: No part of a real state is nested this deeply (a board cell is 8 levels down).
MAX_STATE_DEPTH: Final = 20


def _check_depth(data: Any, depth: int = 1) -> None:
    """Refuse deeply nested documents before anything walks them recursively
    (pydantic, ``json.dumps``), which could exhaust the stack. ``depth`` is the
    level of ``data`` itself in the document (the document is level 1)."""
    pending: list[tuple[Any, int]] = [(data, depth)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_STATE_DEPTH:
            raise InvalidStateError("the state is nested too deeply to be a Stawvs state")
        if isinstance(value, dict):
            pending.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list | tuple):
            pending.extend((v, depth + 1) for v in value)


