"""What happened: the typed events a move (or an ending) produces.

:meth:`~stawvs_ap.core.position.Position.play` returns them beside the new
position (immutable named tuples). The host layer turns them into Abstract Play's result objects and
into sentences; the rules core only says what happened.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..errors import ErrorCode, StawvsError, excerpt
from .pyramids import Pyramid
from .squares import Square

__all__ = [
    "ENDINGS",
    "Abandoned",
    "DrawAgreed",
    "Event",
    "FinalCapture",
    "GameEnded",
    "Moved",
    "Passed",
    "Placed",
    "Resigned",
    "TimedOut",
    "ending_events",
]


class Placed(NamedTuple):
    """``player`` put a cap on ``square``, which holds ``pyramid``."""

    player: int
    square: Square
    pyramid: Pyramid


class Moved(NamedTuple):
    """``player`` slid a cap from ``source`` to ``dest`` and claimed ``claimed`` on ``target``."""

    player: int
    source: Square
    dest: Square
    target: Square
    claimed: Pyramid


class Passed(NamedTuple):
    """``player`` passed. ``first`` when this pass eliminated them; ``under_caps``
    then lists the pyramids under their caps, in reading order."""

    player: int
    first: bool
    under_caps: tuple[Pyramid, ...] = ()


class FinalCapture(NamedTuple):
    """At the end, ``player`` collected ``pyramid`` from under their cap on ``square``
    (a ghost of its size stays under the cap)."""

    player: int
    square: Square
    pyramid: Pyramid


class Resigned(NamedTuple):
    player: int


class TimedOut(NamedTuple):
    player: int


class DrawAgreed(NamedTuple):
    """The players agreed to end the game; everyone wins."""


class Abandoned(NamedTuple):
    """The game was called off; nobody wins."""


class GameEnded(NamedTuple):
    """The game is over; ``winners`` in ascending order (empty: nobody won)."""

    winners: tuple[int, ...]


Event = (
    Placed
    | Moved
    | Passed
    | FinalCapture
    | Resigned
    | TimedOut
    | DrawAgreed
    | Abandoned
    | GameEnded
)

#: The endings outside the rules, by the name a stack entry's ``lastmove`` gives them.
ENDINGS: Final[tuple[str, ...]] = ("resign", "timeout", "draw", "abandoned")


def ending_events(how: str, player: int | None, numplayers: int) -> tuple[Event, ...]:
    """The events of a game ended outside the rules: ``resign``/``timeout`` by
    ``player`` (every other player wins), ``draw`` (all win), ``abandoned`` (none).
    ``BAD_ARGUMENT`` for anything else, or a resignation or timeout of nobody."""
    everyone = tuple(range(1, numplayers + 1))
    if how == "resign" and player is not None:
        return Resigned(player), GameEnded(tuple(p for p in everyone if p != player))
    if how == "timeout" and player is not None:
        return TimedOut(player), GameEnded(tuple(p for p in everyone if p != player))
    if how == "draw":
        return DrawAgreed(), GameEnded(everyone)
    if how == "abandoned":
        return Abandoned(), GameEnded(())
    raise StawvsError(ErrorCode.BAD_ARGUMENT, f"{excerpt(how)} is not an ending")
