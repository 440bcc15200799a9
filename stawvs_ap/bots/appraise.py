"""What a review asks about each position of a game: :func:`appraise`.

A review (:mod:`stawvs_ap.bots.review`) cuts a game into one
:class:`Appraisal` task per position. Each task carries everything its answer
depends on (the position, the move played from it, the bot's spec, its seed
and budget), so that a runner (:mod:`stawvs_ap.bots.runners`, or the Dask
cluster of :mod:`stawvs_ap.bots.cluster`) may answer the tasks in any
process, in any order, and the review stays the same: with an iteration
budget, the same seed gives the same answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.moves import Move
from ..core.position import Position
from .base import only_move
from .knowledge import player_values
from .simulate import TEMPERATURE, estimate_rewards, rewards
from .spec import BotSpec

__all__ = ["Appraisal", "Appraised", "appraise", "final_shares", "task_seed"]


def task_seed(seed: int | str, index: int) -> str:
    """The seed of the bot that appraises position ``index`` of a review seeded
    with ``seed``: its own, so that the tasks need not run in order.

    >>> task_seed(7, 12)
    'review:7:12'
    """
    return f"review:{seed}:{index}"


def final_shares(position: Position) -> list[float]:
    """Every player's share of the win in a finished game: 1 for a sole winner,
    1/k for each of k tied winners, 0 for the others.

    >>> from stawvs_ap.core.position import Position
    >>> start = Position.initial(2, seed=1)
    >>> final_shares(start._replace(captured=((), ())))  # nothing collected: a shared win
    [0.5, 0.5]
    """
    return rewards(position.scores())


@dataclass(frozen=True)
class Appraisal:
    """One position of a review to appraise: ``index`` (0 is the game's start),
    the ``played`` move from it (None at the game's last position), the ``bot``
    spec, the review's ``seed``, and the budget of one search."""

    index: int
    position: Position
    played: Move | None
    bot: BotSpec
    seed: int | str
    seconds: float | None
    iterations: int | None


@dataclass(frozen=True)
class Appraised:
    """What :func:`appraise` found about a position.

    ``best`` and ``value`` are the best move and the mover's share of the win
    with it (None when the game is over there or the move is forced);
    ``played_value`` is the mover's share after the played move when the search
    weighed it, else ``estimate`` is the mover's share of the position after it
    by the static evaluation (3–4 players only; with two players the review
    reads it from the next position's search). ``forced`` is true for a lone
    legal move, ``over`` for a finished game, whose ``shares`` are exact.
    """

    index: int
    best: Move | None = None
    value: float | None = None
    played_value: float | None = None
    estimate: float | None = None
    forced: bool = False
    over: bool = False
    shares: tuple[float, ...] = ()
    iterations: int = 0


def appraise(task: Appraisal, should_stop: Callable[[], bool] | None = None) -> Appraised:
    """Appraise ``task``'s position with a new bot of its spec, seeded by
    :func:`task_seed`: no search for a finished game or a forced move.

    >>> from stawvs_ap.bots.spec import BotSpec
    >>> from stawvs_ap.core.position import Position
    >>> start = Position.initial(2, seed=1)
    >>> task = Appraisal(0, start, None, BotSpec("mcts"), 1, None, 50)
    >>> found = appraise(task)
    >>> found == appraise(task), 0 <= found.value <= 1, start.is_legal(found.best)
    (True, True, True)
    """
    position = task.position
    if position.is_over:
        return Appraised(task.index, over=True, shares=tuple(final_shares(position)))
    if only_move(position) is not None:
        return Appraised(task.index, forced=True)
    with task.bot.make(task_seed(task.seed, task.index)) as bot:
        candidates = bot.analyse(position, seconds=task.seconds, iterations=task.iterations)
        iterations = getattr(bot, "last_iterations", 0)
    best = candidates[0]
    played_value = next((c.value for c in candidates if c.move == task.played), None)
    estimate = None
    if played_value is None and task.played is not None and position.rules.numplayers > 2:
        after, _ = position.play(task.played)
        shares = (
            final_shares(after)
            if after.is_over
            else estimate_rewards(player_values(after), TEMPERATURE)
        )
        estimate = shares[position.currplayer - 1]
    return Appraised(
        task.index,
        best=best.move,
        value=best.value,
        played_value=played_value,
        estimate=estimate,
        iterations=iterations,
    )
