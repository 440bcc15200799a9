"""What happened: the typed events a move (or an ending) produces.

:meth:`~stawvs_ap.core.position.Position.play` returns them beside the new
position (immutable named tuples). The host layer turns them into Abstract Play's result objects and
into sentences; the rules core only says what happened.
"""

from __future__ import annotations

from typing import NamedTuple

from .pyramids import Pyramid
from .squares import Square

__all__ = [
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
