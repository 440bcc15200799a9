"""The serialized state (CONTRACT §4): writing it, and reading it with every check.

A state is refused with :class:`~stawvs_ap.errors.InvalidStateError` (code
``BAD_STATE``) whose message names the first problem found: its shape (checked
by the pydantic models below), then the rules it breaks.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from . import pyramids
from .board import SQUARE_NAMES, SQUARES
from .errors import InvalidStateError
from .notation import MoveSyntaxError, parse_move
from .position import EMPTY, Position, Rules
from .variants import check_variants, rules_for

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
]

ENGINE_VERSION: Final = "20251113"
GAME_UID: Final = "stawvs"
#: Documents larger than this are refused before parsing (a real game is far smaller).
MAX_STATE_BYTES: Final = 4_000_000
#: ``lastmove`` values of the entries that end a game outside the rules.
ENDINGS: Final[tuple[str, ...]] = ("resign", "timeout", "draw", "abandoned")

# Not pydantic's strict mode: it would refuse JSON arrays (lists) for tuples.
_Strict = ConfigDict(extra="forbid", populate_by_name=True)
PyramidJSON = tuple[StrictStr, StrictInt]
CellJSON = tuple[PyramidJSON] | tuple[PyramidJSON, StrictInt]


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
    timestamp: StrictStr = Field(alias="_timestamp", max_length=40)
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
    stack: list[EntryModel] = Field(min_length=1, max_length=2000)


@dataclass(frozen=True, slots=True)
class Entry:
    """A stack entry: a position, the results of the move that made it, when."""

    position: Position
    results: list[dict[str, Any]]
    timestamp: str
    version: str = ENGINE_VERSION
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def ended(self) -> bool:
        """Whether this entry ends the game (its results announce the end)."""
        return any(r.get("type") == "eog" for r in self.results)

    @property
    def winners(self) -> list[int]:
        for result in self.results:
            if result.get("type") == "winners":
                return list(result["players"])
        return []


@dataclass(frozen=True, slots=True)
class GameState:
    """A loaded state: what the game object is rebuilt from."""

    numplayers: int
    variants: list[str]
    stack: list[Entry]


def _colour_and_size(pyramid: int) -> tuple[str, int]:
    colour = pyramids.GHOST if pyramids.is_ghost(pyramid) else pyramids.COLOURS[
        pyramids.colour_of(pyramid)
    ]
    return colour, pyramids.size_of(pyramid)


# Writing and reading states handles every pyramid of every entry: look them up.
_JSON_OF_PYRAMID: Final[tuple[tuple[str, int], ...]] = tuple(
    _colour_and_size(p) for p in range(len(pyramids.KINDS) + 3)  # then the 3 ghosts
)
_PYRAMID_OF_JSON: Final[dict[tuple[str, int], int]] = {
    pair: p for p, pair in enumerate(_JSON_OF_PYRAMID)
}


# Abstract Play writes board entries file by file (a8…a1, b8…b1, …); so do we.
_FILE_ORDER: Final[tuple[int, ...]] = tuple(row * 8 + col for col in range(8) for row in range(8))


def entry_dict(entry: Entry) -> dict[str, Any]:
    """The JSON form of a stack entry (computed once per entry)."""
    cached = entry.cache.get("dict")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    pos = entry.position
    board, caps = pos.board, pos.caps
    cells = []
    for sq in _FILE_ORDER:
        pyramid = board[sq]
        if pyramid == EMPTY:
            continue
        cell: list[Any] = [list(_JSON_OF_PYRAMID[pyramid])]
        if caps[sq]:
            cell.append(caps[sq])
        cells.append([SQUARE_NAMES[sq], cell])
    out: dict[str, Any] = {
        "_version": entry.version,
        "_results": entry.results,
        "_timestamp": entry.timestamp,
        "currplayer": pos.currplayer,
        "mode": pos.mode,
    }
    if pos.lastmove is not None:
        out["lastmove"] = pos.lastmove
    out["eliminated"] = list(pos.eliminated)
    out["board"] = {"dataType": "Map", "value": cells}
    out["captured"] = [[list(_JSON_OF_PYRAMID[p]) for p in c] for c in pos.captured]
    entry.cache["dict"] = out
    return out


def dump_state(numplayers: int, variants: list[str], stack: list[Entry]) -> dict[str, Any]:
    """The serialized state as a JSON-ready dict (CONTRACT §4)."""
    top = stack[-1]
    return {
        "game": GAME_UID,
        "numplayers": numplayers,
        "variants": list(variants),
        "gameover": top.ended,
        "winner": top.winners,
        "stack": [entry_dict(e) for e in stack],
    }


def _format_validation_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "the document"
    return f"{where}: {first['msg']}"


def load_state(data: str | bytes | dict[str, Any]) -> GameState:
    """Read and check a serialized state (JSON text or parsed dict)."""
    if isinstance(data, str | bytes | bytearray):
        if len(data) > MAX_STATE_BYTES:
            raise InvalidStateError(
                f"the state is {len(data)} bytes long; states over {MAX_STATE_BYTES} are refused"
            )
        try:
            data = json.loads(data)
        except RecursionError:
            raise InvalidStateError("the state is nested too deeply to be a Stawvs state") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidStateError(f"the state is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InvalidStateError(f"a state must be a JSON object, not {type(data).__name__}")
    # Fast path for the usual, well-formed state. Pydantic only descends as deep as
    # the models do, so validating first is safe; once the shape is known good,
    # only the free-form extras of results can be nested too deeply, and checking
    # those is the same as walking the whole document (thousands of cells) again.
    try:
        model: StateModel | None = StateModel.model_validate(data)
    except (ValidationError, RecursionError):
        model = None
    if model is not None:
        for entry in model.stack:
            for result in entry.results:
                _check_depth(list((result.model_extra or {}).values()), depth=5)
    else:
        _check_depth(data)
    if "game" not in data:
        raise InvalidStateError("the state does not say which game it is (no 'game' key)")
    if data["game"] != GAME_UID:
        raise InvalidStateError(f"this is a state of game {_short(data['game'])}, not of Stawvs")
    _check_versions(data)
    if model is None:
        try:
            model = StateModel.model_validate(data)
        except RecursionError:
            raise InvalidStateError(
                "the state is nested too deeply to be a Stawvs state"
            ) from None
        except ValidationError as exc:
            raise InvalidStateError(f"malformed state: {_format_validation_error(exc)}") from None
    return _check_state(model)


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
                f"not {_short(version)}"
            )
        if version != ENGINE_VERSION:
            raise InvalidStateError(
                f"stack entry {i} was written by engine version {_short(version)}; "
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


def _short(value: object) -> str:
    """``repr(value)``, cut short: messages quote what they refuse, not all of it."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_state(model: StateModel) -> GameState:
    n = model.numplayers
    if not 2 <= n <= 4:
        raise InvalidStateError(f"Stawvs is for 2 to 4 players, not {n}")
    try:
        variants = check_variants(model.variants)
    except ValueError as exc:
        raise InvalidStateError(str(exc)) from None
    rules = rules_for(n, variants)
    stack = [_entry(rules, i, e) for i, e in enumerate(model.stack)]
    if stack[0].position.lastmove is not None:
        raise InvalidStateError("stack entry 0 is the starting position and has no last move")
    for i, entry in enumerate(stack[:-1]):
        if entry.ended:
            raise InvalidStateError(f"stack entry {i} ends the game, yet more entries follow it")
    for i, entry in enumerate(stack):
        _check_ending(i, entry)
    top = stack[-1]
    if model.gameover != top.ended or sorted(model.winner) != sorted(top.winners):
        raise InvalidStateError(
            f"'gameover' ({model.gameover}) and 'winner' ({_short(model.winner)}) disagree "
            "with the results of the last stack entry"
        )
    return GameState(n, variants, stack)


def _check_ending(index: int, entry: Entry) -> None:
    """An entry ends the game exactly when every player has passed, or by an ending call."""
    pos = entry.position
    if pos.is_over and not entry.ended:
        raise InvalidStateError(
            f"stack entry {index}: every player has passed, but its results do not end the game"
        )
    if entry.ended and not pos.is_over and pos.lastmove not in ENDINGS:
        raise InvalidStateError(
            f"stack entry {index} ends the game, but not every player has passed"
        )
    if pos.lastmove in ENDINGS and not entry.ended:
        raise InvalidStateError(
            f"stack entry {index}: the last move {pos.lastmove!r} ends a game, "
            "but its results do not"
        )


def _entry(rules: Rules, index: int, model: EntryModel) -> Entry:
    where = f"stack entry {index}"
    n = rules.numplayers

    def player_ok(p: int, what: str) -> None:
        if not 1 <= p <= n:
            raise InvalidStateError(f"{where}: {what} is player {p}, but there are {n} players")

    player_ok(model.currplayer, "the player to move")
    for p in model.eliminated:
        player_ok(p, "an eliminated player")
    if len(set(model.eliminated)) != len(model.eliminated):
        raise InvalidStateError(f"{where}: a player is listed twice as eliminated")
    if len(model.captured) != n:
        raise InvalidStateError(
            f"{where}: 'captured' has {len(model.captured)} collections for {n} players"
        )
    board = [EMPTY] * 64
    caps = [0] * 64
    on_board: list[int] = []  # coloured pyramids, in the order the cells list them
    ghost_squares: list[int] = []
    for name, cell in model.board.value:
        sq = SQUARES.get(name)
        if sq is None:
            raise InvalidStateError(f"{where}: {name!r} is not a square of the 8×8 board")
        if board[sq] != EMPTY:
            raise InvalidStateError(f"{where}: square {name} is listed twice")
        pyramid = _PYRAMID_OF_JSON.get(cell[0], EMPTY)
        if pyramid == EMPTY:
            try:  # for the message saying what is wrong with it
                pyramid = pyramids.parse(cell[0][0], cell[0][1], allow_ghost=True)
            except ValueError as exc:
                raise InvalidStateError(f"{where}: square {name}: {exc}") from None
        board[sq] = pyramid
        ghost = pyramids.is_ghost(pyramid)
        if len(cell) == 2:
            owner = cell[1]
            player_ok(owner, f"the cap on {name}")
            caps[sq] = owner
        elif ghost:
            raise InvalidStateError(f"{where}: the ghost pyramid on {name} has no cap on it")
        if ghost:
            ghost_squares.append(sq)
        else:
            on_board.append(pyramid)
    counts = Counter(on_board)  # counted in C; first-seen order, as the messages expect
    captured: list[list[int]] = []
    for p, collection in enumerate(model.captured, start=1):
        mine = []
        for colour, size in collection:
            pyramid = _PYRAMID_OF_JSON.get((colour, size), EMPTY)
            if pyramid == EMPTY or pyramids.is_ghost(pyramid):
                try:  # for the message saying what is wrong with it
                    pyramid = pyramids.parse(colour, size)
                except ValueError as exc:
                    raise InvalidStateError(f"{where}: player {p}'s collection: {exc}") from None
            mine.append(pyramid)
        counts.update(mine)
        captured.append(mine)
    for kind, count in counts.items():
        if count > pyramids.PER_KIND:
            raise InvalidStateError(
                f"{where}: there are {count} of {pyramids.describe(kind)[2:]}s; "
                f"the set has {pyramids.PER_KIND} of each kind"
            )
    for p in range(1, n + 1):
        placed = caps.count(p)
        if placed > rules.caps_per_player:
            raise InvalidStateError(
                f"{where}: player {p} has {placed} caps; each player has {rules.caps_per_player}"
            )
    if model.mode == "place":
        _check_placements(where, caps, model.currplayer, rules)
    # A ghost stands where its owner's cap took the pyramid into their collection.
    ghosts = Counter((caps[sq], pyramids.size_of(board[sq])) for sq in sorted(ghost_squares))
    for (p, size), count in ghosts.items():
        collected = sum(1 for pyramid in captured[p - 1] if pyramids.size_of(pyramid) == size)
        if count > collected:
            raise InvalidStateError(
                f"{where}: player {p}'s caps stand on {count} ghost(s) of size {size}, "
                f"but their collection has only {collected} pyramid(s) of that size"
            )
    if model.lastmove is not None and model.lastmove not in ENDINGS:
        try:
            parse_move(model.lastmove)
        except MoveSyntaxError:
            raise InvalidStateError(
                f"{where}: last move {model.lastmove!r} is not a move"
            ) from None
    position = Position(
        rules, board, caps,
        currplayer=model.currplayer, mode=model.mode, eliminated=model.eliminated,
        captured=captured, lastmove=model.lastmove,
    )
    results = [r.model_dump() for r in model.results]
    _check_results(where, results, n)
    return Entry(position, results, model.timestamp, model.version)


def _check_placements(where: str, caps: list[int], currplayer: int, rules: Rules) -> None:
    """While caps are placed, players 1, 2, … take turns: the caps on the board say
    whose turn it is. Otherwise a player could place more caps than they own."""
    placed = sum(1 for owner in caps if owner)
    n = rules.numplayers
    if placed >= n * rules.caps_per_player:
        raise InvalidStateError(
            f"{where}: every cap has been placed, so the mode must be 'collect', not 'place'"
        )
    for p in range(1, n + 1):
        expected = len(range(p - 1, placed, n))
        if caps.count(p) != expected:
            raise InvalidStateError(
                f"{where}: after {placed} placements player {p} should have {expected} "
                f"cap(s) on the board, not {caps.count(p)}"
            )
    if currplayer != placed % n + 1:
        raise InvalidStateError(
            f"{where}: after {placed} placements it is player {placed % n + 1}'s turn, "
            f"not player {currplayer}'s"
        )


def _check_results(where: str, results: list[dict[str, Any]], numplayers: int) -> None:
    """The fields that the chat log, the render and the winners read must be there
    and well typed: a tampered result would otherwise break them later."""
    for result in results:
        kind = result["type"]
        need: tuple[str, ...] = _RESULT_SQUARES.get(kind, ())
        for key in need:
            square = result.get(key)
            if not isinstance(square, str) or square not in SQUARES:
                raise InvalidStateError(
                    f"{where}: a {kind!r} result needs a square as {key!r}, "
                    f"not {_short(square)}"
                )
        if kind == "move" and not isinstance(result.get("what"), str):
            raise InvalidStateError(f"{where}: a 'move' result needs the claimed pyramid as 'what'")
        payload = result.get("payload", [])
        if kind == "announce" and not (
            isinstance(payload, list) and all(isinstance(x, str) for x in payload)
        ):
            raise InvalidStateError(f"{where}: an 'announce' payload must be a list of texts")
        players = result.get("players") if kind == "winners" else [result.get("player")]
        if kind in ("winners", "resigned", "timeout") and not (
            isinstance(players, list)
            and all(type(p) is int and 1 <= p <= numplayers for p in players)
        ):
            raise InvalidStateError(
                f"{where}: the players of a {kind!r} result must be numbers from 1 to "
                f"{numplayers}, not {_short(result.get('players', result.get('player')))}"
            )


# The squares each kind of result names (and the render and chat log read).
_RESULT_SQUARES: Final[dict[str, tuple[str, ...]]] = {
    "place": ("where",),
    "move": ("from", "to", "how"),
}
