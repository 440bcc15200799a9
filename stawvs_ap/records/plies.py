"""Any ply of a game's history: what ``--ply N`` (command line) and ``"ply": N``
(service) mean for the commands that think about a position (``solve``,
``hint``, ``analyse``, ``svg``).

Ply N is the position after the first N moves of the history: 0 the start,
the number of moves the end; a negative N counts back from the end, -1 being
the position before the last move. A game of M moves has the plies -M to M.

>>> from stawvs_ap import StawvsGame
>>> game = StawvsGame.new(2, seed=3).move("b7").move("c7").move("d7")
>>> at_ply(game, 1).lastmove, at_ply(game, -1).lastmove, at_ply(game, 0).lastmove
('b7', 'c7', None)
>>> at_ply(game, 4)
Traceback (most recent call last):
...
stawvs_ap.errors.StawvsError: ply 4 is out of range: the game has 3 moves, so a ply is -3 to 3
"""

from __future__ import annotations

from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import StawvsGame

__all__ = ["at_ply", "moves_played"]


def moves_played(game: StawvsGame) -> int:
    """The number of moves in ``game``'s history (its stack less the start)."""
    return len(game.stack) - 1


def at_ply(game: StawvsGame, ply: int | None) -> StawvsGame:
    """A copy of ``game`` cut back to the position after ``ply`` moves (see the
    module's description), the later moves dropped as an undo drops them, so
    that what is asked of it is asked of that position; ``game`` itself when
    ``ply`` is None. ``BAD_ARGUMENT`` naming the range when there is no such
    ply; ``game`` is never changed."""
    if ply is None:
        return game
    count = moves_played(game)
    if isinstance(ply, bool) or not isinstance(ply, int) or not -count <= ply <= count:
        moves = "1 move" if count == 1 else f"{count} moves"
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"ply {excerpt(ply)} is out of range: the game has {moves}, "
            f"so a ply is {-count} to {count}",
        )
    kept = ply if ply >= 0 else count + ply
    game = game.clone()
    for _ in range(count - kept):
        game.undo()
    return game
