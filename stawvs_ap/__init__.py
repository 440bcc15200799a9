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
from .version import __version__

if TYPE_CHECKING:
    from .bots.analysis import Analysis, analyse
    from .bots.review import Review, review
    from .bots.solver import Solution, solve

#: The names a host rarely needs, and where they live: the solver and the
#: review bring the bots' floor with them, so ``import stawvs_ap`` (which a game
#: host does to get :class:`StawvsGame`) loads the engine alone, and these are
#: loaded when first used (PEP 562).
_LAZY = {
    "Analysis": "stawvs_ap.bots.analysis",
    "analyse": "stawvs_ap.bots.analysis",
    "Review": "stawvs_ap.bots.review",
    "review": "stawvs_ap.bots.review",
    "Solution": "stawvs_ap.bots.solver",
    "solve": "stawvs_ap.bots.solver",
}


def __getattr__(name: str) -> Any:
    """Load ``solve``, ``Solution``, ``review``, ``Review``, ``analyse`` and
    ``Analysis`` when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'stawvs_ap' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "ENGINE_VERSION",
    "Analysis",
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
    "Review",
    "Rules",
    "Size",
    "Solution",
    "Square",
    "StawvsError",
    "StawvsGame",
    "ValidationResult",
    "__version__",
    "analyse",
    "from_record",
    "review",
    "solve",
]
