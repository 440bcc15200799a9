"""Stack entries: a position, the move that made it, what happened, and when."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from ..core.events import Event, GameEnded
from ..core.position import Position
from .results import results_of

__all__ = ["ENDINGS", "ENGINE_VERSION", "GAME_UID", "Entry"]

ENGINE_VERSION: Final = "20251113"
GAME_UID: Final = "stawvs"
#: ``lastmove`` values of the entries that end a game outside the rules.
ENDINGS: Final[tuple[str, ...]] = ("resign", "timeout", "draw", "abandoned")


class Entry(NamedTuple):
    """One entry of a game's stack (docs/CONTRACT.md §4).

    ``lastmove`` is the normalised move string that led here (an ending such
    as ``"resign"``, or None for the starting position); ``events`` what that
    move caused, from which the Abstract Play ``results`` are made.
    """

    position: Position
    lastmove: str | None
    events: tuple[Event, ...]
    timestamp: str

    @property
    def results(self) -> list[dict[str, Any]]:
        """The move's result objects (docs/CONTRACT.md §5), made anew on each call."""
        return results_of(self.events)

    @property
    def ended(self) -> bool:
        """Whether this entry ends the game."""
        events = self.events
        return bool(events) and type(events[-1]) is GameEnded

    @property
    def winners(self) -> list[int]:
        last = self.events[-1] if self.events else None
        return list(last.winners) if type(last) is GameEnded else []
