"""The games of the last state texts the service read or wrote, and the two
steps every method on a game shares: :func:`game_of` (the game a request
sends) and :func:`played` (what a method that changed it answers)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Final

from ..host.game import StawvsGame
from .protocol import Params, Result

__all__ = ["RECENT", "RecentGames", "game_of", "played"]


class RecentGames:
    """The games of the last few state texts the server read or wrote, by their
    exact text, handed out as copies.

    A host sends back the state a ``move`` answered, and asks several things of
    one state (moves, a verdict, a render); loading a 61-ply state is about
    1.3 ms of a 2.3 ms request (benchmarks/service.py). Bounded to the
    ``size`` most recent texts; tests/test_service_hostile.py checks that answers are
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


#: The recent games of this process.
RECENT: Final = RecentGames()


def game_of(params: Params) -> StawvsGame:
    """The game of the request's ``state``, a copy of its own, speaking the
    request's ``locale`` (English without one)."""
    game = RECENT.game(params["state"])
    # The call's language, never that of the call that made the game RECENT keeps.
    game.locale = params.get("locale")
    return game


def played(game: StawvsGame) -> Result:
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
