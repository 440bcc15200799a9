"""Stawvs (Looney Pyramids) rules engine with the Abstract Play host contract.

A game is a :class:`StawvsGame`; the same seed and variants give the same board:

>>> from stawvs_ap import StawvsGame
>>> game = StawvsGame.new(2, variants=["hole"], seed=7)
>>> game.mode, game.currplayer, len(game.moves())
('place', 1, 60)
>>> game.move("b2").lastmove  # validated, then played
'b2'
>>> game.push("c2")  # the same with a Move or a string, python-chess style
>>> game.pop()
Move.parse('c2')

Moves, squares and pyramids are values, and a :class:`Position` is the
immutable board behind the game:

>>> from stawvs_ap import Move, Pyramid, Square
>>> Move.parse("C3 - F6, F2"), Square.parse("c3").row, Pyramid.parse("BL3").size
(Move.parse('c3-f6,f2'), 5, <Size.LARGE: 3>)
>>> game.position.cap_at(Square.parse("b2"))
1

Every error the package raises on purpose is a :class:`StawvsError` with a
stable :class:`ErrorCode`:

>>> from stawvs_ap import IllegalMoveError
>>> try:
...     game.move("b2")
... except IllegalMoveError as error:
...     print(error.code)
BAD_PLACEMENT
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.events import Event
from .core.moves import Move
from .core.position import Position
from .core.pyramids import Colour, Pyramid, Size
from .core.squares import Square
from .core.variants import Rules
from .errors import (
    ErrorCode,
    IllegalMoveError,
    InvalidRecordError,
    InvalidStateError,
    StawvsError,
)
from .host.clicks import ClickResult
from .host.game import StawvsGame
from .host.verdicts import ValidationResult
from .records import from_record
from .state.entry import ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "ClickResult",
    "Colour",
    "ErrorCode",
    "Event",
    "IllegalMoveError",
    "InvalidRecordError",
    "InvalidStateError",
    "Move",
    "Position",
    "Pyramid",
    "Rules",
    "Size",
    "Solution",
    "Square",
    "StawvsError",
    "StawvsGame",
    "ValidationResult",
    "__version__",
    "from_record",
    "solve",
]

__version__ = "0.2.0.dev0"

if TYPE_CHECKING:
    from .bots.solver import Solution, solve


def __getattr__(name: str) -> Any:
    # The solver is the bots' floor: imported when first asked for, so that a
    # host that only plays games does not load the bots.
    if name in ("Solution", "solve"):
        from .bots import solver

        return getattr(solver, name)
    raise AttributeError(f"module 'stawvs_ap' has no attribute {name!r}")
