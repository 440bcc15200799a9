"""The serialized state's shape (CONTRACT §4): pydantic models, and JSON text in and out.

The models check a state's shape only; :mod:`stawvs_ap.state_checks` checks the
rules, and :mod:`stawvs_ap.state_io` reads whole states.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from .entry import Entry
from .errors import InvalidStateError
from .writer import to_json

__all__ = [
    "MAX_ENTRIES",
    "MAX_STATE_BYTES",
    "MAX_STATE_DEPTH",
    "TIMESTAMP",
    "BoardModel",
    "EntryModel",
    "GameState",
    "ResultModel",
    "StateModel",
    "check_depth",
    "check_depth_of_results",
    "parse_json",
    "to_json",
]

#: Documents larger than this are refused before parsing (a real game is far smaller).
MAX_STATE_BYTES: Final = 4_000_000
MAX_ENTRIES: Final = 2000
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
    stack: list[EntryModel] = Field(min_length=1, max_length=MAX_ENTRIES)


@dataclass(frozen=True, slots=True)
class GameState:
    """A loaded state: what the game object is rebuilt from."""

    numplayers: int
    variants: list[str]
    stack: list[Entry]


class _NonInteger(Exception):
    """A JSON number with a fraction or exponent, or NaN or Infinity."""


def _refuse_non_integer(token: str) -> float:
    raise _NonInteger(token)


# Made once: json.loads makes a new decoder on every call given a parse_float.
_INTEGERS_ONLY: Final = json.JSONDecoder(
    parse_float=_refuse_non_integer, parse_constant=_refuse_non_integer
)


def parse_json(text: str | bytes | bytearray) -> tuple[Any, bool]:
    """The parsed document, and whether it holds a non-integer number (never valid)."""
    if isinstance(text, str):
        try:
            return _INTEGERS_ONLY.decode(text), False
        except (_NonInteger, ValueError, RecursionError):
            pass  # parsed again below, which says what is wrong
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


def check_depth_of_results(model: StateModel) -> None:
    # Pydantic only descends as deep as the models do, so validating first is
    # safe; once the shape is known good, only the free-form extras of results
    # can be nested too deeply.
    for entry in model.stack:
        for result in entry.results:
            check_depth(list((result.model_extra or {}).values()), depth=5)


#: No part of a real state is nested this deeply (a board cell is 8 levels down).
MAX_STATE_DEPTH: Final = 20


def check_depth(data: Any, depth: int = 1) -> None:
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
