"""The game's own methods: what the host contract answers, over the service.

Each is declared once (:func:`~stawvs_ap.service.protocol.method`) and listed
in :data:`METHODS`; :mod:`stawvs_ap.service.methods` puts the lists together.
"""

from __future__ import annotations

import copy
import hashlib
import json
from functools import cache
from typing import Any, Final

from .. import __version__
from ..errors import StawvsError
from ..host.game import StawvsGame
from ..i18n import negotiate
from ..records import from_record
from .jsonrpc import RpcError
from .protocol import (
    APP_ERROR,
    BOOL,
    INT,
    LOCALE,
    MOVES,
    NAMES,
    OBJECT,
    PLAYERS,
    SEED,
    STATE,
    TEXT,
    VARIANTS,
    Method,
    Params,
    Result,
    method,
    obj,
)
from .recent import RECENT, game_of, played

__all__ = ["METHODS"]

_TEXTS: Final = {"type": "array", "items": {"type": "string"}}
_PLAYED: Final = {"$ref": "#/$defs/played"}


@cache
def _gameinfo_in(language: str) -> dict[str, Any]:
    info: dict[str, Any] = json.loads(StawvsGame.info(locale=language))
    return info


def _gameinfo(locale: str | None = None) -> dict[str, Any]:
    """The metadata with its words in ``locale``'s language (one per language, kept)."""
    return _gameinfo_in(negotiate(locale))


@method(
    "version",
    "The engine's version (that of its states) and the package's.",
    result=obj(
        {
            "version": {
                "type": "string",
                "description": "the engine version written in states, e.g. 20251113",
            },
            "package": {"type": "string", "description": "the stawvs-ap package version"},
        }
    ),
)
def version(params: Params) -> Result:
    return {"version": _gameinfo()["version"], "package": __version__}


# The metadata is made once; every answer gets a copy of its own, so that a caller
# in the same process that changes an answer changes nothing else.


@method(
    "info",
    "The game's metadata (Abstract Play gameinfo).",
    optional={"locale": LOCALE},
    result=obj({"gameinfo": {"$ref": "urn:stawvs-ap:schema:gameinfo"}}),
)
def info(params: Params) -> Result:
    return {"gameinfo": copy.deepcopy(_gameinfo(params.get("locale")))}


_VARIANT: Final = {
    "type": "object",
    "required": ["uid", "name"],
    "properties": {
        "uid": {"type": "string"},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "group": {"type": "string"},
    },
}


@method(
    "variants",
    "The variants the game offers; with a state, also that game's active variant ids and "
    "their display names (as records list them).",
    optional={"state": STATE, "locale": LOCALE},
    result=obj(
        {
            "available": {"type": "array", "items": _VARIANT},
            "active": _TEXTS,
            "names": _TEXTS,
        },
        ["available"],
    ),
)
def variants(params: Params) -> Result:
    result: Result = {"available": copy.deepcopy(_gameinfo(params.get("locale"))["variants"])}
    if "state" in params:
        game = game_of(params)
        result["active"] = list(game.variants)
        result["names"] = game.get_variants()
    return result


@method(
    "new",
    "A new game: 2 to 4 players, variant ids, and a seed (same seed and variants, same board).",
    required={"players": INT},
    optional={"variants": VARIANTS, "seed": SEED},
    result=obj({"state": {"$ref": "#/$defs/stateText"}}),
)
def new(params: Params) -> Result:
    game = StawvsGame(params["players"], variants=params.get("variants"), seed=params.get("seed"))
    state = game.serialize()
    RECENT.remember(state, game)
    return {"state": state}


@method(
    "moves",
    'The legal complete moves of the player to move (["pass"] when they must pass, [] once '
    "the game is over).",
    required={"state": STATE},
    result=obj({"moves": _TEXTS}),
)
def moves(params: Params) -> Result:
    return {"moves": game_of(params).moves()}


@method(
    "validate",
    "The verdict on a move string for the player to move; every key is present, null where "
    "it does not apply.",
    required={"state": STATE, "move": TEXT},
    optional={"locale": LOCALE},
    result={"$ref": "#/$defs/verdict"},
)
def validate(params: Params) -> Result:
    # Every key, null where validate_move leaves it out: one shape for every verdict.
    return game_of(params).validate_move(params["move"])._asdict()


@method(
    "move",
    "Apply one move ('move') or several in turn ('moves'); a refused move refuses the "
    "request (error 1000, data.index names it in 'moves').",
    required={"state": STATE},
    optional={"move": TEXT, "moves": MOVES, "locale": LOCALE},
    one_of=("move", "moves"),
    result=_PLAYED,
)
def move(params: Params) -> Result:
    game = game_of(params)
    if "move" in params:
        game.move(params["move"])
        return played(game)
    for index, each in enumerate(params["moves"]):
        try:
            game.move(each)
        except StawvsError as exc:
            data = {"code": exc.code, "index": index, "move": each}
            raise RpcError(APP_ERROR, exc.message, data) from None
    return played(game)


@method(
    "preview",
    "The board after a partial (FROM, FROM-TO) or complete move, without playing it.",
    required={"state": STATE, "move": TEXT},
    optional={"locale": LOCALE},
    result=obj({"render": {"$ref": "#/$defs/render"}, "results": {"$ref": "#/$defs/results"}}),
)
def preview(params: Params) -> Result:
    game = game_of(params).move(params["move"], partial=True)
    return {"render": game.render(), "results": game.results}


@method(
    "click",
    "Extend a move with a click on render square (row, col): row 0 is rank 8, col 0 is file a.",
    required={"state": STATE, "move": TEXT, "row": INT, "col": INT},
    optional={"locale": LOCALE},
    result={"$ref": "#/$defs/clickVerdict"},
)
def click(params: Params) -> Result:
    game = game_of(params)
    return game.handle_click(params["move"], params["row"], params["col"])._asdict()


@method(
    "render",
    "The board for the Abstract Play renderer, at the end or after stack entry 'ply' (0 the "
    "start, negative from the end).",
    required={"state": STATE},
    optional={"ply": INT, "locale": LOCALE},
    result=obj({"render": {"$ref": "#/$defs/render"}}),
)
def render(params: Params) -> Result:
    game = game_of(params)
    if "ply" in params:
        game.load(params["ply"])
    return {"render": game.render()}


_INTS: Final = {"type": "array", "items": {"type": "integer"}}


@method(
    "scores",
    "Each player's score, and the sidebar scores as the host shows them.",
    required={"state": STATE},
    optional={"locale": LOCALE},
    result=obj(
        {
            "scores": _INTS,
            "sidebar": {
                "type": "array",
                "items": obj({"name": {"type": "string"}, "scores": _INTS}),
            },
        }
    ),
)
def scores(params: Params) -> Result:
    sidebar = game_of(params).sidebar_scores()
    return {"scores": sidebar[0]["scores"], "sidebar": sidebar}


@method(
    "chat_log",
    "Per stack entry with results: its timestamp, then one sentence per result; 'names' are "
    "the players' names in seating order.",
    required={"state": STATE},
    optional={"names": NAMES, "locale": LOCALE},
    result=obj({"chat_log": {"type": "array", "items": _TEXTS}}),
)
def chat_log(params: Params) -> Result:
    return {"chat_log": game_of(params).chat_log(params.get("names"))}


@method(
    "move_history",
    "The moves played, in rounds of one move per player.",
    required={"state": STATE},
    result=obj({"move_history": {"type": "array", "items": _TEXTS}}),
)
def move_history(params: Params) -> Result:
    return {"move_history": game_of(params).move_history()}


@cache
def _any_game() -> StawvsGame:
    return StawvsGame(2, seed=0)


@method(
    "same_move",
    "Whether two move strings denote the same move (case and spaces aside).",
    required={"a": TEXT, "b": TEXT},
    result=obj({"same": {"type": "boolean"}}),
)
def same_move(params: Params) -> Result:
    # same_move reads no position: any game answers it.
    return {"same": _any_game().same_move(params["a"], params["b"])}


def _ending(name: str, summary: str, by_player: bool) -> Method:
    """The method that ends the game as the host's call ``name`` does."""

    def end(params: Params) -> Result:
        game = game_of(params)
        ending = getattr(game, name)
        return played(ending(params["player"]) if by_player else ending())

    required = {"state": STATE, "player": INT} if by_player else {"state": STATE}
    return method(name, summary, required=required, optional={"locale": LOCALE}, result=_PLAYED)(
        end
    )


_ENDINGS: Final = (
    _ending("resign", "Player 'player' resigns: the game ends, every other player wins.", True),
    _ending(
        "timeout", "Player 'player' ran out of time: the game ends, every other player wins.", True
    ),
    _ending("draw", "The players agreed a draw: everyone wins.", False),
    _ending("abandoned", "The game was abandoned: nobody wins.", False),
)


@method(
    "record",
    "The record of a finished game; 'uid' defaults to one made from the state, 'players' to "
    "'Player 1'… (a player is a name or {name?, uid?, is_ai?}; a player without a name is "
    "'Player N', in every language).",
    required={"state": STATE},
    optional={"uid": TEXT, "players": PLAYERS},
    result=obj({"record": {"$ref": "urn:stawvs-ap:schema:gamerecord"}}),
)
def record(params: Params) -> Result:
    game = game_of(params)
    given = params.get("players", [{}] * game.numplayers)
    # A player without a name is "Player N", in every language: a record is data.
    players = [
        {"name": p} if isinstance(p, str) else {"name": f"Player {number}", **p}
        for number, p in enumerate(given, start=1)
    ]
    uid = params.get("uid")
    if uid is None:
        # Made from the game alone, so asking twice gives the same record id.
        uid = "local-" + hashlib.sha256(game.serialize().encode("utf-8")).hexdigest()[:12]
    return {"record": game.gen_record(uid=uid, players=players)}


@method(
    "replay",
    "The state a record describes, every move replayed and checked; 'initial' gives the "
    "starting board of records without header.startingPosition. The record of a game in "
    "progress is refused (BAD_RECORD) unless 'unfinished' is true.",
    required={"record": OBJECT},
    optional={"initial": STATE, "unfinished": BOOL},
    result=obj({"state": {"$ref": "#/$defs/stateText"}}),
)
def replay(params: Params) -> Result:
    game = from_record(
        params["record"],
        initial=params.get("initial"),
        allow_unfinished=params.get("unfinished", False),
    )
    return {"state": game.serialize()}


#: The game's methods, in the order the protocol lists them.
METHODS: Final[tuple[Method, ...]] = (
    version,
    info,
    variants,
    new,
    moves,
    validate,
    move,
    preview,
    click,
    render,
    scores,
    chat_log,
    move_history,
    same_move,
    *_ENDINGS,
    record,
    replay,
)
