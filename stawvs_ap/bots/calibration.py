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

one line per number of players and :func:`group` of the position: while
caps are placed, one per seat (what the search says then is mostly who has
placed more, so the seat's own record speaks louder than the value);
collecting; and collecting with at most :data:`END_FREE` free pyramids. The
slopes are never negative, so the map never turns round which of two moves
rates higher. A proven value is exact and is never mapped.
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
    "group",
    "groups",
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

#: (players, group) -> (intercept, slope), fitted by ``benchmarks/calibration.py fit``.
CALIBRATION: Final[dict[tuple[int, str], tuple[float, float]]] = {
    (2, "place1"): (0.078, 0.000),  # 306 games
    (2, "place2"): (-0.078, 0.000),  # 306 games
    (2, "collect"): (-0.244, 0.964),  # 824 positions
    (2, "end"): (-0.708, 2.793),  # 110 positions
    (3, "place1"): (-0.575, 0.000),  # 304 games
    (3, "place2"): (-0.766, 0.000),  # 304 games
    (3, "place3"): (-0.743, 0.000),  # 304 games
    (3, "collect"): (-0.518, 0.996),  # 714 positions
    (3, "end"): (-0.371, 2.898),  # 163 positions
    (4, "place1"): (-0.867, 0.000),  # 191 games
    (4, "place2"): (-1.211, 0.000),  # 191 games
    (4, "place3"): (-1.241, 0.000),  # 191 games
    (4, "place4"): (-1.096, 0.000),  # 191 games
    (4, "collect"): (-0.800, 0.402),  # 670 positions
    (4, "end"): (-0.534, 2.360),  # 177 positions
}


def phase(position: Position) -> Phase:
    """The phase of ``position``: caps being placed, collecting, or collecting
    with at most :data:`END_FREE` free pyramids left."""
    if position.mode == "place":
        return "place"
    return "end" if position.free.bit_count() <= END_FREE else "collect"


def group(position: Position) -> str:
    """The line of the map for ``position``: its :func:`phase`, and while caps are
    placed the mover's seat (``place1`` … ``place4``).

    >>> from stawvs_ap.core.position import Position
    >>> group(Position.initial(3, seed=1))
    'place1'
    """
    when = phase(position)
    return f"place{position.currplayer}" if when == "place" else when


def groups(players: int) -> tuple[str, ...]:
    """Every group of a game of ``players``, in the order of a game.

    >>> groups(2)
    ('place1', 'place2', 'collect', 'end')
    """
    return (*(f"place{seat}" for seat in range(1, players + 1)), "collect", "end")


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
    return calibrated_in(value, position.rules.numplayers, group(position))


def calibrated_in(value: float, players: int, line: str) -> float:
    """:func:`calibrated` for a game of ``players``, on the map's ``line`` (see
    :func:`group`)."""
    intercept, slope = CALIBRATION[players, line]
    return squash(intercept + slope * logit(value))
