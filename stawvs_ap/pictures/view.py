"""What a picture shows: a position, with the last move and the winners a game knows.

The pictures sit below the command line so that a game and a position can
draw themselves (``print(game)``, notebooks); so they cannot import the game,
which imports them, and know it by what it shows (:class:`GameView`).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol, runtime_checkable

from ..core.position import Position
from ..errors import ErrorCode, StawvsError

__all__ = ["GameView", "View", "view_of"]


@runtime_checkable
class GameView(Protocol):
    """What a picture reads of a game (:class:`~stawvs_ap.host.game.StawvsGame` has it)."""

    @property
    def position(self) -> Position: ...

    @property
    def lastmove(self) -> str | None: ...

    @property
    def gameover(self) -> bool: ...

    @property
    def winner(self) -> list[int]: ...

    @property
    def locale(self) -> str: ...


class View(NamedTuple):
    """The position to draw, the move that led to it (text), the winners once over,
    and the language of the words (None: English, a position's)."""

    position: Position
    lastmove: str | None
    winners: list[int] | None
    locale: str | None = None


def view_of(shown: GameView | Position) -> View:
    """What to draw of a game or a position; ``BAD_ARGUMENT`` for anything else."""
    if isinstance(shown, Position):
        return View(shown, None, shown.winners() if shown.is_over else None)
    if isinstance(shown, GameView):
        winners = list(shown.winner) if shown.gameover else None
        return View(shown.position, shown.lastmove, winners, shown.locale)
    raise StawvsError(ErrorCode.BAD_ARGUMENT, f"cannot draw {type(shown).__name__}")
