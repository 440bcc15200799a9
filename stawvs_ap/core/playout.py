"""Random moves and random playouts, for bots: the move generator, sampled.

:func:`random_move` draws a legal move uniformly at random from
:meth:`Position.slides <stawvs_ap.core.position.Position.slides>` and
:meth:`~stawvs_ap.core.position.Position.claims`, the generator that
:meth:`~stawvs_ap.core.position.Position.legal_moves` expands, without listing
every move; :func:`random_playout` plays such moves to the end of the game.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from itertools import accumulate

from ..errors import ErrorCode, IllegalMoveError
from .moves import PASS, Move
from .position import Position
from .squares import LINES, SQUARES, iter_squares

__all__ = ["random_move", "random_playout"]

#: Draws before :func:`random_move` lists the moves instead (see there).
_MOST_DRAWS = 1000


def random_move(position: Position, rng: random.Random) -> Move:
    """A legal move of ``position`` chosen uniformly at random.

    Raises :class:`~stawvs_ap.errors.IllegalMoveError` (``GAMEOVER``) once every
    player has passed. Listing every claim of every slide costs a line walk per
    slide, so this samples by rejection: each slide gets as many slots as there
    are free pyramids on its landing square's lines (at least its number of
    claims; exactly one with ``hey``), a slot is drawn uniformly, and it is kept
    when that slide has a claim of that number. Every legal move owns exactly
    one slot, so each is equally likely.
    """
    if position.is_over:
        raise IllegalMoveError(
            ErrorCode.GAMEOVER,
            "every player has passed: the game is over, there is no move to choose",
        )
    if position.mode == "place":
        return Move(SQUARES[rng.choice(iter_squares(position.free))])
    if position.currplayer in position.eliminated:
        return PASS
    slides = list(position.slides())
    if not slides:
        return PASS
    if position.rules.hey:
        source, dest = rng.choice(slides)
        return Move(SQUARES[source], SQUARES[dest], SQUARES[source])
    free = position.free
    ends = list(accumulate([(LINES[d] & (free | 1 << s)).bit_count() for s, d in slides]))
    for _ in range(_MOST_DRAWS):
        slot = rng.randrange(ends[-1])
        index = bisect_right(ends, slot)
        source, dest = slides[index]
        claims = position.claims(source, dest)
        slot -= ends[index - 1] if index else 0
        if slot < len(claims):
            return Move(SQUARES[source], SQUARES[dest], SQUARES[claims[slot]])
    # Every slide may claim the square it left and has at most 27 slots (the
    # lines of a centre square), so a draw is a move at least once in 27 times
    # and this is never reached (the chance is below 1e-16); the loop is
    # bounded all the same, and the whole list is as uniform.
    return rng.choice(list(position.legal_moves()))


def random_playout(position: Position, rng: random.Random, deadline: float = math.inf) -> Position:
    """The final position after uniformly random legal moves from ``position``
    (final captures included), or the position reached when the clock
    (:func:`time.perf_counter`) reaches ``deadline``."""
    while not position.is_over and time.perf_counter() < deadline:
        position, _ = position.play(random_move(position, rng))
    return position
