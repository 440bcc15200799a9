"""Stawvs (Looney Pyramids) rules engine with the Abstract Play host contract.

>>> from stawvs_ap import StawvsGame
>>> game = StawvsGame.new(2, seed=1)
>>> game.mode
'place'
"""

from __future__ import annotations

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
    "Square",
    "StawvsError",
    "StawvsGame",
    "ValidationResult",
    "__version__",
    "from_record",
]

__version__ = "0.2.0.dev0"
