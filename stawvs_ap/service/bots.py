"""Bots over the service: ``bot_move`` fills a seat, ``hint`` lists the best moves.

Every search is bounded: its budget is the call's (``seconds``,
``iterations``), else the spec's own, else the bot's default, and is refused
beyond :data:`MAX_SEARCH_SECONDS` and :data:`MAX_SEARCH_ITERATIONS`; an
iteration budget also stops at :data:`MAX_SEARCH_SECONDS` of wall time. At
most :data:`SEARCHES` ``.limit`` searches run at once in one process; one
more is refused at once with :data:`SERVER_BUSY`, so a crowd of searches can
neither queue without end nor starve the other requests of threads. Both
take ``locale``, the language of their refusal of a finished game (their
answers have no words).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from ..bots.spec import BotSpec
from ..errors import ErrorCode, IllegalMoveError, StawvsError
from ..host.game import StawvsGame
from ..host.messages import GAME_OVER
from ..i18n import catalogue
from .hints import hint_rows
from .jsonrpc import INVALID_REQUEST, RpcError
from .methods import (
    INT,
    LOCALE,
    SEED,
    STATE,
    TEXT,
    Kind,
    Params,
    Result,
    _game,
    _method,
    _played,
)

__all__ = [
    "MAX_SEARCH_ITERATIONS",
    "MAX_SEARCH_SECONDS",
    "MAX_TOP",
    "SEARCHES",
    "SERVER_BUSY",
    "SearchSlots",
    "search_budget",
]

#: The longest search the service runs, in seconds of wall time.
MAX_SEARCH_SECONDS: Final = 5.0
#: The most iterations a search over the service may be given.
MAX_SEARCH_ITERATIONS: Final = 20_000
#: The most candidates ``hint`` lists.
MAX_TOP: Final = 20
#: ``error.code`` of a search refused because every search slot is taken
#: (a JSON-RPC server error; ``error.data.limit`` is the number of slots).
SERVER_BUSY: Final = -32000
#: The seconds a search gets when neither the call nor the spec gives a budget.
DEFAULT_SECONDS: Final = 1.0


def _is_seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


SECONDS: Final = Kind(_is_seconds, "a positive number of seconds")


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
    if seconds is None and iterations is None:
        # The spec's own budget, its values already checked against their declarations.
        options = dict(spec.options)
        seconds, iterations = options.get("seconds"), options.get("iterations")  # type: ignore[assignment]
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
    if seconds is not None and not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a search over the service takes at most {MAX_SEARCH_SECONDS:g} seconds",
        )
    if iterations is not None and not 1 <= iterations <= MAX_SEARCH_ITERATIONS:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a search over the service takes 1 to {MAX_SEARCH_ITERATIONS} iterations",
        )
    return (MAX_SEARCH_SECONDS if seconds is None else float(seconds)), iterations


_SEARCH: Final = {"seconds": SECONDS, "iterations": INT, "seed": SEED, "locale": LOCALE}


def _to_move(params: Params) -> StawvsGame:
    """The game of ``params``, refused as a move on it is when it is over (in its language)."""
    game = _game(params)
    if game.gameover:
        raise IllegalMoveError(ErrorCode.GAMEOVER, catalogue(game.locale).say(GAME_OVER))
    return game


@_method("bot_move", {"state": STATE, "bot": TEXT}, _SEARCH)
def _bot_move(params: Params) -> Result:
    spec = BotSpec.parse(params["bot"])
    seconds, iterations = search_budget(spec, params.get("seconds"), params.get("iterations"))
    game = _to_move(params)
    bot = spec.make(params.get("seed"))
    with SEARCHES.held():
        move = bot.choose(game, seconds=seconds, iterations=iterations)
    game.move(move)
    return {"move": str(move), **_played(game)}


@_method("hint", {"state": STATE}, {"bot": TEXT, "top": INT, **_SEARCH})
def _hint(params: Params) -> Result:
    spec = BotSpec.parse(params.get("bot", "mcts"))
    top = params.get("top", 5)
    if not 1 <= top <= MAX_TOP:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"top must be 1 to {MAX_TOP}")
    seconds, iterations = search_budget(spec, params.get("seconds"), params.get("iterations"))
    game = _to_move(params)
    bot = spec.make(params.get("seed"))
    with SEARCHES.held():
        candidates = bot.analyse(game, seconds=seconds, iterations=iterations, top=top)
    words = catalogue(game.locale)
    # "value" is "share" under its first name, kept for the hosts that read it.
    rows = [
        row.to_dict(words) | {"value": round(row.share, 4)} for row in hint_rows(game, candidates)
    ]
    return {"player": game.currplayer, "best": str(candidates[0].move), "candidates": rows}
