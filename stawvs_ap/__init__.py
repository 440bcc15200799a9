"""Stawvs (Looney Pyramids) rules engine with the Abstract Play host contract.

>>> from stawvs_ap import StawvsGame
>>> game = StawvsGame(2, seed=1)
>>> game.mode
'place'
"""

from __future__ import annotations

from .errors import IllegalMoveError, InvalidRecordError, InvalidStateError, StawvsError
from .game import StawvsGame
from .notation import Move, parse_move
from .position import Position, Rules
from .state_io import ENGINE_VERSION
from .validation import ClickResult, ValidationResult

__all__ = [
    "ENGINE_VERSION",
    "ClickResult",
    "IllegalMoveError",
    "InvalidRecordError",
    "InvalidStateError",
    "Move",
    "Position",
    "Rules",
    "StawvsError",
    "StawvsGame",
    "ValidationResult",
    "parse_move",
]

__version__ = "0.1.0"
