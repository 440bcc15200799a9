"""Bots over the service: ``bot_move`` fills a seat, ``hint`` lists the best moves,
``solve`` gives the exact value of an endgame.

Every search is bounded: its budget is the call's (``seconds``,
``iterations``), else the spec's own, else the bot's default, and is refused
beyond :data:`MAX_SEARCH_SECONDS` and :data:`MAX_SEARCH_ITERATIONS`; an
iteration budget also stops at :data:`MAX_SEARCH_SECONDS` of wall time; a
solver's budget is ``seconds`` (default 1) and ``nodes``, within the same
seconds and :data:`MAX_SOLVE_NODES`, and its table fills at most the bots'
default memory (:data:`~stawvs_ap.bots.solver.TABLE_LIMIT` entries). At
most :data:`SEARCHES` ``.limit`` searches run at once in one process; one
more is refused at once with :data:`SERVER_BUSY`, so a crowd of searches can
neither queue without end nor starve the other requests of threads. Both
take ``locale``, the language of their refusal of a finished game (their
answers have no words).

A search that overruns its budget by more than :data:`GRACE_SECONDS` (a
plug-in that ignores its budget) loses its slot: the call is answered with
``BOT_FAILED``, the search's answer is dropped when it comes, and the
overrun of each plug-in is logged once. Python cannot stop a thread: the
search runs on in a thread of its own until it returns (docs/bots.md).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TypeVar

from ..bots.base import BotErrorCode
from ..bots.solver import Solver
from ..bots.spec import BotSpec
from ..errors import ErrorCode, IllegalMoveError, StawvsError
from ..host.game import StawvsGame
from ..host.messages import GAME_OVER
from ..i18n import catalogue
from ..records.plies import at_ply
from .hints import choice_note, hint_rows
from .jsonrpc import INVALID_REQUEST, RpcError, ServiceErrorCode
from .protocol import (
    INT,
    LOCALE,
    PLAYED_PROPERTIES,
    SEED,
    STATE,
    TEXT,
    Kind,
    Method,
    Params,
    Result,
    method,
    obj,
)
from .recent import game_of, played

__all__ = [
    "GRACE_SECONDS",
    "MAX_SEARCH_ITERATIONS",
    "MAX_SEARCH_SECONDS",
    "MAX_SOLVE_NODES",
    "MAX_TOP",
    "METHODS",
    "SEARCHES",
    "SERVER_BUSY",
    "SearchSlots",
    "checked_budget",
    "search_budget",
    "within_budget",
]

#: The longest search the service runs, in seconds of wall time.
MAX_SEARCH_SECONDS: Final = 5.0
#: The most iterations a search over the service may be given.
MAX_SEARCH_ITERATIONS: Final = 20_000
#: The most positions ``solve`` may visit (about a minute and a half of search; the
#: seconds stop it first).
MAX_SOLVE_NODES: Final = 2_000_000
#: The most candidates ``hint`` lists.
MAX_TOP: Final = 20
#: ``error.code`` of a search refused because every search slot is taken
#: (a JSON-RPC server error; ``error.data.limit`` is the number of slots).
SERVER_BUSY: Final = -32000
#: The seconds a search gets when neither the call nor the spec gives a budget.
DEFAULT_SECONDS: Final = 1.0
#: How long past its budget a search may run before its slot is taken back.
GRACE_SECONDS: Final = 1.0

_LOG = logging.getLogger("stawvs_ap.service")
_OVERRUN_LOGGED: set[str] = set()
_OVERRUN_LOCK = threading.Lock()
_T = TypeVar("_T")


def within_budget(name: str, seconds: float, search: Callable[[], _T]) -> _T:
    """What ``search()`` answers, if it answers within ``seconds`` +
    :data:`GRACE_SECONDS`; else ``BOT_FAILED`` at that moment, the search left
    to end in its own thread and its answer dropped. The first overrun of each
    bot name is logged."""
    done = threading.Event()
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(search())
        except BaseException as exc:  # handed to the caller below
            failure.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name=f"search {name}", daemon=True).start()
    if not done.wait(seconds + GRACE_SECONDS):
        with _OVERRUN_LOCK:
            first = name not in _OVERRUN_LOGGED
            _OVERRUN_LOGGED.add(name)
        if first:
            _LOG.warning(
                "stawvs-ap: bot %s ran past its budget of %gs and its grace of %gs: "
                "its slot is freed and its answers are dropped",
                name,
                seconds,
                GRACE_SECONDS,
            )
        raise StawvsError(
            BotErrorCode.BOT_FAILED,
            f"bot {name} did not answer within its budget of {seconds:g} seconds",
        )
    if failure:
        raise failure[0]
    return outcome[0]


def _is_seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


SECONDS: Final = Kind(
    _is_seconds,
    "a positive number of seconds",
    {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_SEARCH_SECONDS},
    "float",
)
ITERATIONS: Final = Kind(
    INT.test, INT.what, {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH_ITERATIONS}, "int"
)
NODES: Final = Kind(
    INT.test, INT.what, {"type": "integer", "minimum": 1, "maximum": MAX_SOLVE_NODES}, "int"
)
TOP: Final = Kind(INT.test, INT.what, {"type": "integer", "minimum": 1, "maximum": MAX_TOP}, "int")


class SearchSlots:
    """At most ``limit`` searches at a time; :meth:`held` refuses one more at once."""

    def __init__(self, limit: int = 2) -> None:
        self.set_limit(limit)
        self._request = threading.local()

    def set_limit(self, limit: int) -> None:
        """Allow ``limit`` searches at once (1–64), from the next search on."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 64:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "the search limit must be 1 to 64")
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold a slot for the ``with`` block; :class:`RpcError` ``SERVER_BUSY`` if none is free."""
        left = getattr(self._request, "left", None)
        if left is not None:
            if left <= 0:
                raise RpcError(
                    INVALID_REQUEST,
                    f"one request runs at most {self._request.most} searches",
                    {"limit": self._request.most},
                )
            self._request.left = left - 1
        slots = self._slots
        if not slots.acquire(blocking=False):
            raise RpcError(
                SERVER_BUSY,
                f"the server is already running {self.limit} searches: try again shortly",
                {"limit": self.limit},
                code=ServiceErrorCode.SERVER_BUSY,
            )
        try:
            yield
        finally:
            slots.release()

    @contextmanager
    def per_request(self, most: int) -> Iterator[None]:
        """Within the block, this thread runs at most ``most`` searches (a batch's share)."""
        self._request.left, self._request.most = most, most
        try:
            yield
        finally:
            del self._request.left


#: The search slots of this process.
SEARCHES: Final = SearchSlots()


def search_budget(
    spec: BotSpec, seconds: float | None = None, iterations: int | None = None
) -> tuple[float, int | None]:
    """The ``(seconds, iterations)`` a search of ``spec`` gets over the service.

    The call's budget if it gives one, else the spec's own, else
    :data:`DEFAULT_SECONDS`; ``BAD_ARGUMENT`` beyond the maxima. The seconds
    are never more than :data:`MAX_SEARCH_SECONDS`, even with an iteration budget.

    >>> search_budget(BotSpec.parse("mcts:iterations=300"))
    (5.0, 300)
    >>> search_budget(BotSpec.parse("mcts:iterations=300"), seconds=0.5)
    (0.5, None)
    """
    seconds, iterations = checked_budget(
        spec, seconds, iterations, DEFAULT_SECONDS, "a search over the service takes", ""
    )
    return (MAX_SEARCH_SECONDS if seconds is None else float(seconds)), iterations


def checked_budget(
    spec: BotSpec,
    seconds: float | None,
    iterations: int | None,
    default_seconds: float,
    what: str,
    each: str,
) -> tuple[float | None, int | None]:
    """The budget a call gives, else the spec's own, else ``default_seconds``;
    ``BAD_ARGUMENT`` (worded "``what`` at most ... seconds``each``") beyond the
    service's caps. The one check of every search the service runs.

    >>> checked_budget(BotSpec.parse("mcts"), None, 40, 1.0, "a search takes", "")
    (None, 40)
    """
    if seconds is None and iterations is None:
        # The spec's own budget, its values already checked against their declarations.
        options = dict(spec.options)
        seconds, iterations = options.get("seconds"), options.get("iterations")  # type: ignore[assignment]
        if seconds is None and iterations is None:
            seconds = default_seconds
    if seconds is not None and not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"{what} at most {MAX_SEARCH_SECONDS:g} seconds{each}"
        )
    if iterations is not None and not 1 <= iterations <= MAX_SEARCH_ITERATIONS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"{what} 1 to {MAX_SEARCH_ITERATIONS} iterations{each}"
        )
    return seconds, iterations


_SEARCH: Final = {"seconds": SECONDS, "iterations": ITERATIONS, "seed": SEED, "locale": LOCALE}


def _to_move(params: Params) -> StawvsGame:
    """The game of ``params`` (at its ``ply``, when it gives one), refused as a move
    on it is when it is over (in its language)."""
    game = at_ply(game_of(params), params.get("ply"))
    if game.gameover:
        raise IllegalMoveError(ErrorCode.GAMEOVER, catalogue(game.locale).say(GAME_OVER))
    return game


@method(
    "bot_move",
    "The move of bot 'bot' (a spec such as 'mcts' or 'uct:iterations=500'), played. A "
    "search's budget: 'seconds' (at most 5) and/or 'iterations' (1 to 20,000), else the "
    "spec's own, else 1 second; 'seed' makes it repeatable.",
    required={"state": STATE, "bot": TEXT},
    optional=_SEARCH,
    result={
        "description": "The bot's move and, as 'move' answers, the game after it.",
        **obj({"move": {"type": "string"}, **PLAYED_PROPERTIES}),
    },
)
def bot_move(params: Params) -> Result:
    spec = BotSpec.parse(params["bot"])
    seconds, iterations = search_budget(spec, params.get("seconds"), params.get("iterations"))
    game = _to_move(params)
    bot = spec.make(params.get("seed"))
    with SEARCHES.held():
        move = within_budget(
            spec.name, seconds, lambda: bot.choose(game, seconds=seconds, iterations=iterations)
        )
    game.move(move)
    return {"move": str(move), **played(game)}


_CANDIDATE: Final = obj(
    {
        "move": {"type": "string"},
        "share": {"type": "number", "minimum": 0, "maximum": 1},
        "lead": {"type": ["number", "null"]},
        "visits": {"type": "integer"},
        "words": {"type": "string"},
        "value": {"type": "number"},
    }
)


@method(
    "hint",
    "The best moves for the player to move by bot 'bot' (default 'mcts'): at most 'top' (1 "
    "to 20, default 5). The search's budget as bot_move's; 'ply' N thinks about the "
    "position after N moves of the history (negative: back from the end).",
    required={"state": STATE},
    optional={"bot": TEXT, "top": TOP, **_SEARCH, "ply": INT},
    result=obj(
        {
            "player": {"type": "integer"},
            "best": {"type": "string"},
            "candidates": {"type": "array", "minItems": 1, "items": _CANDIDATE},
            "note": {"type": ["string", "null"]},
            "proven": {"type": "boolean"},
        }
    ),
)
def hint(params: Params) -> Result:
    spec = BotSpec.parse(params.get("bot", "mcts"))
    top = params.get("top", 5)
    if not 1 <= top <= MAX_TOP:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"top must be 1 to {MAX_TOP}")
    seconds, iterations = search_budget(spec, params.get("seconds"), params.get("iterations"))
    game = _to_move(params)
    bot = spec.make(params.get("seed"))
    with SEARCHES.held():
        candidates = within_budget(
            spec.name,
            seconds,
            lambda: bot.analyse(game, seconds=seconds, iterations=iterations, top=top),
        )
    words = catalogue(game.locale)
    # "value" is "share" under its first name, kept for the hosts that read it.
    found = hint_rows(game, candidates)
    rows = [row.to_dict(words) | {"value": round(row.share, 4)} for row in found]
    note = choice_note(found)
    return {
        "player": game.currplayer,
        "best": str(candidates[0].move),
        "candidates": rows,
        # Why the choice is listed above a higher share; whether its share is proven.
        "note": None if note is None else words.say(note),
        "proven": bool(getattr(bot, "last_exact", False)),
    }


_MOVES: Final = {"type": "array", "items": {"type": "string"}}


@method(
    "solve",
    "The exact value of the position for the player to move, by the endgame solver: "
    "'margin' (their final score less the best other, every other player against them), "
    "'outcome', every move reaching it ('best') and one line of best play, when 'proven' "
    "within the budget: 'seconds' (at most 5; default 1, or 5 with 'nodes' alone) and/or "
    "'nodes' (positions visited, 1 to 2,000,000). A game finished by every player's pass "
    "has its final margin; one a host ended earlier is GAMEOVER. 'ply' as hint's.",
    required={"state": STATE},
    optional={"seconds": SECONDS, "nodes": NODES, "locale": LOCALE, "ply": INT},
    result=obj(
        {
            "player": {"type": "integer"},
            "margin": {"type": ["integer", "null"]},
            "outcome": {"enum": ["win", "shared", "loss", None]},
            "best": {"oneOf": [_MOVES, {"type": "null"}]},
            "line": _MOVES,
            "proven": {"type": "boolean"},
            "bound": {"type": ["integer", "null"]},
            "nodes": {"type": "integer"},
            "seconds": {"type": "number"},
        }
    ),
)
def solve(params: Params) -> Result:
    nodes = params.get("nodes")
    # A node budget alone is kept whole within the longest search, so that it repeats.
    seconds = params.get("seconds", DEFAULT_SECONDS if nodes is None else MAX_SEARCH_SECONDS)
    if not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a search over the service takes at most {MAX_SEARCH_SECONDS:g} seconds",
        )
    if nodes is not None and not 1 <= nodes <= MAX_SOLVE_NODES:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"the solver over the service visits 1 to {MAX_SOLVE_NODES:,} positions",
        )
    # The solver refuses one a host ended, in its language.
    game = at_ply(game_of(params), params.get("ply"))
    with SEARCHES.held():
        solution = Solver().solve(game, seconds=seconds, nodes=nodes)
    return {"player": game.currplayer, **solution.to_dict()}


#: The bots' methods, in the order the protocol lists them.
METHODS: Final[tuple[Method, ...]] = (bot_move, hint, solve)
