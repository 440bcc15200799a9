"""The serialized state's shape (docs/CONTRACT.md §4): reading the document, size
limits, and the pydantic models that check its shape.

:func:`read_document` turns text or bytes of at most :data:`MAX_STATE_BYTES`, or a
parsed dict, into a dict; :func:`check_sizes` refuses the containers that the
models would walk item by item before counting them, so that no document takes
long to refuse. The models then check the shape; :mod:`stawvs_ap.state.checks`
the rules.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..errors import InvalidStateError, excerpt
from .timestamps import PATTERN as TIMESTAMP_PATTERN

__all__ = [
    "INTEGER_JSON",
    "MAX_ENTRIES",
    "MAX_STATE_BYTES",
    "BoardModel",
    "EntryModel",
    "ResultModel",
    "StateModel",
    "check_sizes",
    "read_document",
]

#: Documents larger than this are refused before parsing (a real game is far smaller).
MAX_STATE_BYTES: Final = 4_000_000
#: More stack entries than any game can have: after the placements (p caps) at
#: most 60 - p claims, with fewer than n passes between two of them, so at most
#: p + n × (61 - p) moves (220 for 4 players with 2 caps), an ending and the start.
MAX_ENTRIES: Final = 256
_MAX_KEYS: Final = 16  # keys of the state, an entry or a result object
_MAX_RESULTS: Final = 10
_MAX_RESULT_ITEMS: Final = 64  # items of a list inside a result (an announce payload)
_MAX_TEXT: Final = 1000  # characters of any text inside a result


# -- the document ------------------------------------------------------------------


class _NonInteger(ValueError):
    """A JSON number with a fraction or exponent, or NaN or Infinity."""


def _refuse_non_integer(token: str) -> float:
    raise _NonInteger(token)


#: A JSON decoder whose numbers are all integers: any other number raises
#: ``ValueError``. Made once: json.loads makes a new decoder on every call given
#: a parse_float.
INTEGER_JSON: Final = json.JSONDecoder(
    parse_float=_refuse_non_integer, parse_constant=_refuse_non_integer
)


def read_document(doc: object) -> dict[str, Any]:
    """The state document as a dict within every size limit; refused with
    :class:`InvalidStateError` otherwise. Numbers in a state are whole numbers:
    a fraction, an exponent, NaN or Infinity is refused as it is read."""
    if isinstance(doc, str | bytes | bytearray):
        if len(doc) > MAX_STATE_BYTES:
            unit = "characters" if isinstance(doc, str) else "bytes"
            raise InvalidStateError(
                f"the state is {len(doc)} {unit} long; states over {MAX_STATE_BYTES} {unit} "
                "are refused"
            )
        try:
            text = doc if isinstance(doc, str) else bytes(doc).decode("utf-8")
            # Editors on some systems start a UTF-8 file with a byte-order mark: not JSON's.
            text = text.removeprefix("\ufeff")
            data = INTEGER_JSON.decode(text)
        except _NonInteger as exc:
            raise InvalidStateError(
                f"the state holds the number {excerpt(exc.args[0])}; every number in a state "
                "is a whole number"
            ) from None
        except RecursionError:
            raise InvalidStateError("the state is nested too deeply to be a Stawvs state") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidStateError(f"the state is not valid JSON ({exc})") from None
    else:
        data = doc
    if not isinstance(data, dict):
        raise InvalidStateError(f"a state must be a JSON object, not {type(data).__name__}")
    return data


_KEYS: Final = frozenset({"game", "numplayers", "variants", "gameover", "winner", "stack"})
#: The text fields of an entry, as messages name them, and how long they may be.
_TEXT_FIELDS: Final = tuple(
    (key, repr(key), longest)
    for key, longest in (("_version", 40), ("_timestamp", 40), ("mode", 10), ("lastmove", 100))
)
_SEQUENCES: Final = (list, tuple)
_COLLECTIONS: Final = (list, tuple, dict)
_CONTAINERS: Final = (list, tuple, dict, str)


def check_sizes(data: dict[str, Any]) -> None:
    """Every container of a state within its limit, counted before its items are
    read, top-down, so that no document (a parsed one above all, which has no
    byte count) takes long to refuse: the keys, the stack, and in each entry its
    board, collections, eliminations and results (whose free-form fields are
    read here, bounded). What is no container where one belongs is left for the
    models to name. Messages are made only for a refusal: a state that passes
    costs a count per container."""
    _limit("the state", data, _MAX_KEYS)
    unknown = sorted(str(key)[:40] for key in data if key not in _KEYS)
    if unknown:
        raise InvalidStateError(f"malformed state: {unknown[0]}: Extra inputs are not permitted")
    _limit("'game'", data.get("game"), 40)
    variants = data.get("variants")
    _limit("'variants'", variants, 10)
    for variant in variants if isinstance(variants, _SEQUENCES) else ():
        _limit("a variant", variant, 40)
    _limit("'winner'", data.get("winner"), 4)
    stack = data.get("stack")
    _limit("the stack", stack, MAX_ENTRIES)
    for i, entry in enumerate(stack if isinstance(stack, _SEQUENCES) else ()):
        if not isinstance(entry, dict):
            continue
        _limit("", entry, _MAX_KEYS, i)
        for key, name, longest in _TEXT_FIELDS:
            _limit(name, entry.get(key), longest, i)
        _limit("'eliminated'", entry.get("eliminated"), 4, i)
        board = entry.get("board")
        if isinstance(board, dict):
            _limit("the board", board, 2, i)
            _limit("the board", board.get("value"), 64, i)
        captured = entry.get("captured")
        _limit("'captured'", captured, 4, i)
        for collection in captured if isinstance(captured, _SEQUENCES) else ():
            _limit("a collection", collection, 60, i)
        results = entry.get("_results")
        _limit("'_results'", results, _MAX_RESULTS, i)
        for result in results if isinstance(results, _SEQUENCES) else ():
            _limit("a result", result, _MAX_KEYS, i)
            for value in result.values() if isinstance(result, dict) else ():
                _check_result_value(i, value, depth=1)


def _check_result_value(entry: int, value: Any, depth: int) -> None:
    """A value inside a result of stack entry ``entry``: short text, short lists,
    shallow nesting."""
    if depth > 3:
        raise InvalidStateError(f"stack entry {entry}: a result is nested too deeply")
    _limit("a result's text", value, _MAX_TEXT, entry)
    if isinstance(value, _COLLECTIONS):
        _limit("a result's list", value, _MAX_RESULT_ITEMS, entry)
        items = value.values() if isinstance(value, dict) else value
        for item in items:
            _check_result_value(entry, item, depth + 1)


def _limit(what: str, value: Any, limit: int, entry: int | None = None) -> None:
    """Refuse ``value`` (``what``, of stack entry ``entry`` if one is given) when it
    is a container or a text longer than ``limit``."""
    if isinstance(value, _CONTAINERS) and len(value) > limit:
        if entry is not None:
            what = f"stack entry {entry}: {what}" if what else f"stack entry {entry}"
        raise InvalidStateError(
            f"{what} is too long: {len(value)} items or characters, "
            f"at most {limit} in a Stawvs state"
        )


# -- the shape ---------------------------------------------------------------------

# Not pydantic's strict mode: it would refuse JSON arrays (lists) for tuples.
_Strict = ConfigDict(extra="forbid", populate_by_name=True)
PyramidJSON = tuple[StrictStr, StrictInt]
SquareName = Annotated[StrictStr, Field(max_length=2)]
# Most cells hold a lone pyramid: trying that shape first halves the validation time.
CellJSON = Annotated[
    tuple[PyramidJSON] | tuple[PyramidJSON, StrictInt], Field(union_mode="left_to_right")
]


class BoardModel(BaseModel):
    """A JavaScript ``Map`` as Abstract Play writes it."""

    model_config = _Strict
    dataType: Literal["Map"]
    value: list[tuple[SquareName, CellJSON]] = Field(max_length=64)


class ResultModel(BaseModel):
    """A result object: its type; its other fields are checked against the replay."""

    model_config = ConfigDict(extra="allow")
    type: StrictStr = Field(max_length=40)


class EntryModel(BaseModel):
    """One stack entry: the position after a move and that move's results."""

    model_config = _Strict
    version: StrictStr = Field(alias="_version", max_length=40)
    results: list[ResultModel] = Field(alias="_results", max_length=_MAX_RESULTS)
    timestamp: StrictStr = Field(alias="_timestamp", pattern=TIMESTAMP_PATTERN)
    currplayer: StrictInt
    mode: Literal["place", "collect"]
    lastmove: Annotated[StrictStr, Field(max_length=100)] | None = None
    eliminated: list[StrictInt] = Field(default_factory=list, max_length=4)
    captured: list[Annotated[list[PyramidJSON], Field(max_length=60)]] = Field(max_length=4)
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
