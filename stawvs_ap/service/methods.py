"""The engine as a JSON-RPC 2.0 service on standard input and output.

``stawvs-ap serve`` (also ``python -m stawvs_ap serve``) reads one JSON text per
line, a request or a batch, and writes one response line per line that calls
for an answer, flushed at once (the framing is :mod:`stawvs_ap.service.jsonrpc`'s).
Logs go to standard error only.

Every method is stateless: the caller sends the game as ``state`` (the text
:meth:`~stawvs_ap.StawvsGame.serialize` gives, or that JSON as an object) and
gets back what it asked for; a method that changes the game returns the new
``state`` as text, exactly what ``serialize()`` gives. The server keeps no game
between requests, so any worker of a pool can answer any request.

What it answers is bounded as well as what it reads: texts have at most
:data:`MAX_TEXT_LENGTH` characters, player names :data:`MAX_NAME_LENGTH`,
lists of names or players :data:`MAX_PLAYERS` entries; an answer (a batch's
whole) is at most :data:`MAX_RESPONSE_BYTES`; and an in-process caller of
:func:`call` gets objects of its own, never ones the server keeps.

Errors: ``-32700`` (a line that is not JSON), ``-32600`` (not a valid request,
an id that is not text, a finite number or null, an empty or oversized batch,
a line over :data:`MAX_LINE_BYTES`, an answer over :data:`MAX_RESPONSE_BYTES`),
``-32601`` (unknown method), ``-32602`` (missing, unknown or mistyped
parameters, texts and lists over their limits),
``-32603`` (a fault of the server, logged with its traceback) and
:data:`APP_ERROR` (``1000``) for every refusal of the engine, with the
engine's code in ``error.data.code`` and a sentence a player can read as
``error.message``. Nothing ends the server but the end of its input or a
closed standard output (both exit 0).

Methods that return words for people (verdicts, labels, the chat log, the
metadata, refusals of moves) take an optional ``locale``, a language tag such
as ``"de"`` or ``"pt-BR"``: ``de-AT`` is answered in German, a language
without a catalogue in English. Codes, states and results are the same in
every language.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, BinaryIO, Final

from .. import __version__
from ..core.variants import VARIANTS as VARIANT_IDS
from ..errors import StawvsError
from ..host.game import StawvsGame
from ..i18n import negotiate
from ..records import from_record
from ..state.format import MAX_ENTRIES
from .jsonrpc import (
    INVALID_PARAMS,
    MAX_BATCH,
    MAX_LINE_BYTES,
    MAX_RESPONSE_BYTES,
    METHOD_NOT_FOUND,
    RpcError,
    serve_lines,
)
from .jsonrpc import answer_line as _answer_line

__all__ = [
    "APP_ERROR",
    "MAX_BATCH",
    "MAX_LINE_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_RESPONSE_BYTES",
    "MAX_TEXT_LENGTH",
    "METHODS",
    "Method",
    "answer_line",
    "call",
    "serve",
]

#: ``error.code`` of every refusal by the engine (its own code is in ``error.data.code``).
APP_ERROR: Final = 1000

Params = dict[str, Any]
Result = dict[str, Any]


# -- parameters ---------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What a parameter must be: a test, and the words for the error when it fails."""

    test: Callable[[object], bool]
    what: str


#: The longest text parameter (a move, a seed, a record id), in characters.
MAX_TEXT_LENGTH: Final = 1000
#: The longest player name (and player uid), in characters: names are repeated
#: in every sentence of a chat log.
MAX_NAME_LENGTH: Final = 100
#: The most names or players a list may hold (a game has at most 4 players).
MAX_PLAYERS: Final = 4
#: The most moves one ``move`` request plays (a state holds at most this many entries).
MAX_MOVES: Final = MAX_ENTRIES


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: object, limit: int = MAX_TEXT_LENGTH) -> bool:
    return isinstance(value, str) and len(value) <= limit


def _is_texts(value: object, most: int, limit: int) -> bool:
    return isinstance(value, list) and len(value) <= most and all(_is_text(v, limit) for v in value)


_PLAYER_KEYS: Final = {"name": str, "uid": str, "is_ai": bool}


def _is_player(value: object) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_NAME_LENGTH
    return (
        isinstance(value, dict)
        and all(k in _PLAYER_KEYS and isinstance(v, _PLAYER_KEYS[k]) for k, v in value.items())
        and all(len(v) <= MAX_NAME_LENGTH for v in value.values() if isinstance(v, str))
    )


STATE: Final = Kind(lambda v: isinstance(v, str | dict), "a serialized state (JSON text or object)")
TEXT: Final = Kind(_is_text, f"text of at most {MAX_TEXT_LENGTH:,} characters")
LOCALE: Final = Kind(_is_text, "a language tag such as 'de' or 'pt-BR'")
INT: Final = Kind(_is_int, "a whole number")
OBJECT: Final = Kind(lambda v: isinstance(v, dict), "an object")
#: Any value passes here: the game or the bot refuses what is not a seed with
#: ``BAD_ARGUMENT`` naming the range (0 to 2^63-1), the refusal the Python API
#: and the command line give, so that the text ``"7"`` is refused everywhere alike.
SEED: Final = Kind(lambda v: True, "a whole number from 0 to 2^63-1")
VARIANTS: Final = Kind(
    lambda v: _is_texts(v, len(VARIANT_IDS), MAX_NAME_LENGTH),
    f"a list of at most {len(VARIANT_IDS)} variant ids",
)
NAMES: Final = Kind(
    lambda v: _is_texts(v, MAX_PLAYERS, MAX_NAME_LENGTH),
    f"a list of at most {MAX_PLAYERS} names of at most {MAX_NAME_LENGTH} characters",
)
MOVES: Final = Kind(
    lambda v: bool(v) and _is_texts(v, MAX_MOVES, MAX_TEXT_LENGTH),
    f"a list of 1 to {MAX_MOVES} move strings",
)
PLAYERS: Final = Kind(
    lambda v: isinstance(v, list) and len(v) <= MAX_PLAYERS and all(map(_is_player, v)),
    f"a list of at most {MAX_PLAYERS} players, each a name or an object {{name?, uid?, is_ai?}} "
    f"whose texts have at most {MAX_NAME_LENGTH} characters",
)


@dataclass(frozen=True)
class Method:
    """A method of the protocol: its parameters (required and optional) and its body."""

    run: Callable[[Params], Result]
    required: dict[str, Kind]
    optional: dict[str, Kind]

    def check(self, params: Params) -> Params:
        """The parameters, checked: absent optional ones (or null) left out.

        Raises :class:`RpcError` (``INVALID_PARAMS``) naming the first problem.
        """
        unknown = sorted(set(params) - set(self.required) - set(self.optional))
        if unknown:
            takes = ", ".join([*self.required, *(f"{n}?" for n in self.optional)]) or "nothing"
            raise RpcError(
                INVALID_PARAMS, f"unknown parameter {unknown[0]!r} (this method takes {takes})"
            )
        for name in self.required:
            if name not in params:
                raise RpcError(INVALID_PARAMS, f"missing parameter {name!r}")
        checked = {k: v for k, v in params.items() if v is not None or k in self.required}
        for name, value in checked.items():
            kind = self.required.get(name) or self.optional[name]
            if not kind.test(value):
                raise RpcError(INVALID_PARAMS, f"parameter {name!r} must be {kind.what}")
        return checked


#: Every method of the protocol by name.
METHODS: Final[dict[str, Method]] = {}


def _method(
    name: str, required: dict[str, Kind] | None = None, optional: dict[str, Kind] | None = None
) -> Callable[[Callable[[Params], Result]], Callable[[Params], Result]]:
    def register(run: Callable[[Params], Result]) -> Callable[[Params], Result]:
        METHODS[name] = Method(run, required or {}, optional or {})
        return run

    return register


# -- the methods ----------------------------------------------------------------


class RecentGames:
    """The games of the last few state texts the server read or wrote, by their
    exact text, handed out as copies.

    A host sends back the state a ``move`` answered, and asks several things of
    one state (moves, a verdict, a render); loading a 61-ply state is about
    1.3 ms of a 2.3 ms request (benchmarks/service.py). Bounded to the
    ``size`` most recent texts; tests/test_service.py checks that answers are
    the same with it as without. Safe to share between threads (the HTTP
    transport answers requests in several).
    """

    def __init__(self, size: int = 16) -> None:
        self._size = size
        self._games: OrderedDict[str, StawvsGame] = OrderedDict()
        self._lock = threading.Lock()

    def game(self, state: object) -> StawvsGame:
        """The game of ``state`` (text or object), a copy the caller may change."""
        if not isinstance(state, str):
            return StawvsGame(state)  # type: ignore[arg-type]  # the loader names what is wrong
        with self._lock:
            game = self._games.get(state)
            if game is not None:
                self._games.move_to_end(state)
                return game.clone()
        game = StawvsGame(state)  # outside the lock: loading is the slow part
        self.remember(state, game)
        return game.clone()

    def remember(self, state: str, game: StawvsGame) -> None:
        """Keep ``game`` as ``state`` loads it: showing its last entry, no preview
        and no mark of a move just made."""
        kept = game.clone().load(-1)
        with self._lock:
            self._games[state] = kept
            self._games.move_to_end(state)
            while len(self._games) > self._size:
                self._games.popitem(last=False)


RECENT: Final = RecentGames()


def _game(params: Params) -> StawvsGame:
    game = RECENT.game(params["state"])
    # The call's language (English without one), never that of the call that
    # made the game RECENT keeps.
    game.locale = params.get("locale")
    return game


def _played(game: StawvsGame) -> Result:
    """What a method that changed the game answers (its new state is remembered)."""
    state = game.serialize()
    RECENT.remember(state, game)
    return {
        "state": state,
        "results": game.results,
        "gameover": game.gameover,
        "winner": game.winner,
        "currplayer": game.currplayer,
    }


@cache
def _gameinfo_in(language: str) -> dict[str, Any]:
    info: dict[str, Any] = json.loads(StawvsGame.info(locale=language))
    return info


def _gameinfo(locale: str | None = None) -> dict[str, Any]:
    """The metadata with its words in ``locale``'s language (one per language, kept)."""
    return _gameinfo_in(negotiate(locale))


@_method("version")
def _version(params: Params) -> Result:
    return {"version": _gameinfo()["version"], "package": __version__}


# The metadata is made once; every answer gets a copy of its own, so that a caller
# in the same process that changes an answer changes nothing else.


@_method("info", optional={"locale": LOCALE})
def _info(params: Params) -> Result:
    return {"gameinfo": copy.deepcopy(_gameinfo(params.get("locale")))}


@_method("variants", optional={"state": STATE, "locale": LOCALE})
def _variants(params: Params) -> Result:
    result: Result = {"available": copy.deepcopy(_gameinfo(params.get("locale"))["variants"])}
    if "state" in params:
        game = _game(params)
        result["active"] = list(game.variants)
        result["names"] = game.get_variants()
    return result


@_method("new", {"players": INT}, {"variants": VARIANTS, "seed": SEED})
def _new(params: Params) -> Result:
    game = StawvsGame(params["players"], variants=params.get("variants"), seed=params.get("seed"))
    state = game.serialize()
    RECENT.remember(state, game)
    return {"state": state}


@_method("moves", {"state": STATE})
def _moves(params: Params) -> Result:
    return {"moves": _game(params).moves()}


@_method("validate", {"state": STATE, "move": TEXT}, {"locale": LOCALE})
def _validate(params: Params) -> Result:
    # Every key, null where validate_move leaves it out: one shape for every verdict.
    return _game(params).validate_move(params["move"])._asdict()


@_method("move", {"state": STATE}, {"move": TEXT, "moves": MOVES, "locale": LOCALE})
def _move(params: Params) -> Result:
    if ("move" in params) == ("moves" in params):
        raise RpcError(INVALID_PARAMS, "give either 'move' (one move) or 'moves' (a list)")
    game = _game(params)
    if "move" in params:
        game.move(params["move"])
        return _played(game)
    for index, move in enumerate(params["moves"]):
        try:
            game.move(move)
        except StawvsError as exc:
            data = {"code": exc.code, "index": index, "move": move}
            raise RpcError(APP_ERROR, exc.message, data) from None
    return _played(game)


@_method("preview", {"state": STATE, "move": TEXT}, {"locale": LOCALE})
def _preview(params: Params) -> Result:
    game = _game(params).move(params["move"], partial=True)
    return {"render": game.render(), "results": game.results}


@_method("click", {"state": STATE, "move": TEXT, "row": INT, "col": INT}, {"locale": LOCALE})
def _click(params: Params) -> Result:
    return _game(params).handle_click(params["move"], params["row"], params["col"])._asdict()


@_method("render", {"state": STATE}, {"ply": INT, "locale": LOCALE})
def _render(params: Params) -> Result:
    game = _game(params)
    if "ply" in params:
        game.load(params["ply"])
    return {"render": game.render()}


@_method("scores", {"state": STATE}, {"locale": LOCALE})
def _scores(params: Params) -> Result:
    sidebar = _game(params).sidebar_scores()
    return {"scores": sidebar[0]["scores"], "sidebar": sidebar}


@_method("chat_log", {"state": STATE}, {"names": NAMES, "locale": LOCALE})
def _chat_log(params: Params) -> Result:
    return {"chat_log": _game(params).chat_log(params.get("names"))}


@_method("move_history", {"state": STATE})
def _move_history(params: Params) -> Result:
    return {"move_history": _game(params).move_history()}


@cache
def _any_game() -> StawvsGame:
    return StawvsGame(2, seed=0)


@_method("same_move", {"a": TEXT, "b": TEXT})
def _same_move(params: Params) -> Result:
    # same_move reads no position: any game answers it.
    return {"same": _any_game().same_move(params["a"], params["b"])}


@_method("resign", {"state": STATE, "player": INT}, {"locale": LOCALE})
def _resign(params: Params) -> Result:
    return _played(_game(params).resign(params["player"]))


@_method("timeout", {"state": STATE, "player": INT}, {"locale": LOCALE})
def _timeout(params: Params) -> Result:
    return _played(_game(params).timeout(params["player"]))


@_method("draw", {"state": STATE}, {"locale": LOCALE})
def _draw(params: Params) -> Result:
    return _played(_game(params).draw())


@_method("abandoned", {"state": STATE}, {"locale": LOCALE})
def _abandoned(params: Params) -> Result:
    return _played(_game(params).abandoned())


@_method("record", {"state": STATE}, {"uid": TEXT, "players": PLAYERS})
def _record(params: Params) -> Result:
    game = _game(params)
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


@_method("replay", {"record": OBJECT}, {"initial": STATE})
def _replay(params: Params) -> Result:
    game = from_record(params["record"], initial=params.get("initial"))
    return {"state": game.serialize()}


# -- serving ------------------------------------------------------------------------


def call(method: str, params: dict[str, Any] | list[Any]) -> Result:
    """The result of ``method`` with ``params``; raises :class:`RpcError` for an
    unknown method, bad parameters (checked before anything runs) and every
    refusal of the engine (``APP_ERROR``, the engine's code in ``data.code``)."""
    spec = METHODS.get(method)
    if spec is None:
        raise RpcError(METHOD_NOT_FOUND, f"there is no method {method[:80]!r}")
    if not isinstance(params, dict):
        raise RpcError(INVALID_PARAMS, "params must be an object: parameters go by name")
    checked = spec.check(params)
    try:
        return spec.run(checked)
    except StawvsError as exc:
        raise RpcError(APP_ERROR, exc.message, {"code": exc.code}) from None


def answer_line(line: bytes) -> str | None:
    """The response line (no newline) to one request line, None when nothing is
    to be answered. Never raises."""
    return _answer_line(line, call)


def serve(
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> int:
    """Serve the methods on ``stdin``/``stdout`` (default: the process's own)
    until the end of input; return the exit status (0; 130 after Ctrl-C)."""
    return serve_lines(call, stdin, stdout, max_line_bytes=max_line_bytes)
