"""Stack entries: a position, the move that made it, what happened, and when."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from ..core.events import ENDINGS, Event, GameEnded, ending_events
from ..core.moves import Move
from ..core.position import Position
from .results import results_of

__all__ = ["ENDINGS", "ENGINE_VERSION", "GAME_UID", "Entry"]

ENGINE_VERSION: Final = "20251113"
GAME_UID: Final = "stawvs"


def ends_game(events: tuple[Event, ...]) -> bool:
    """Whether an entry with these ``events`` ends the game (see :attr:`Entry.ended`)."""
    return bool(events) and type(events[-1]) is GameEnded


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

    def after(self, move: Move, timestamp: str) -> Entry:
        """The entry the legal complete ``move`` makes of this one, stamped
        ``timestamp``: the one place a move is played and written down. The
        caller guarantees legality, as :meth:`Position.play
        <stawvs_ap.core.position.Position.play>` asks."""
        position, events = self.position.play(move)
        # Not Entry(...): its generated __new__ costs as much again (one entry a move).
        return tuple.__new__(Entry, (position, str(move), events, timestamp))

    def ended_by(self, how: str, player: int | None, timestamp: str) -> Entry:
        """The entry that ends the game here outside the rules (see
        :func:`~stawvs_ap.core.events.ending_events`; ``BAD_ARGUMENT`` for no
        ending, or a resignation or timeout of nobody)."""
        events = ending_events(how, player, self.position.rules.numplayers)
        return Entry(self.position, how, events, timestamp)

    @property
    def results(self) -> list[dict[str, Any]]:
        """The move's result objects (docs/CONTRACT.md §5), made anew on each call."""
        return results_of(self.events)

    @property
    def ended(self) -> bool:
        """Whether this entry ends the game."""
        return ends_game(self.events)

    @property
    def winners(self) -> list[int]:
        last = self.events[-1] if self.events else None
        return list(last.winners) if type(last) is GameEnded else []
