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

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..core.moves import Move
from ..core.position import Position
from ..errors import ErrorCode, StawvsError
from .base import only_move
from .calibration import calibrated
from .knowledge import player_values
from .mcts import SOLVER_NODES_PER_ITERATION
from .simulate import TEMPERATURE, estimate_rewards, rewards
from .solver import MAX_NODES, solve
from .spec import BotSpec

__all__ = [
    "PROVE_BELOW",
    "Appraisal",
    "Appraised",
    "appraise",
    "final_shares",
    "solver_budget",
    "task_seed",
]

#: Free pyramids at most for the solver to get a move's whole budget in a review.
PROVE_BELOW: Final = 16


def task_seed(seed: int | str, index: int) -> int:
    """The seed of the bot that appraises position ``index`` of a review seeded
    with ``seed``: its own (a whole number, as every seed), so that the tasks
    need not run in order.

    >>> task_seed(7, 12) == task_seed(7, 12) != task_seed(7, 13)
    True
    """
    return random.Random(f"review:{seed}:{index}").getrandbits(63)


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
    solver_nodes: int = 0


@dataclass(frozen=True)
class Appraised:
    """What :func:`appraise` found about a position.

    ``best`` and ``value`` are the best move and the mover's share of the win
    with it (None when the game is over there or the move is forced), ``exact``
    when the solver proved it;
    ``played_value`` is the mover's share after the played move when the search
    weighed it, else ``estimate`` is the mover's share of the position after it
    by the static evaluation, mapped to a share as the search's values are
    (:func:`~stawvs_ap.bots.calibration.calibrated`; 3–4 players only; with two players the review
    reads it from the next position's search); ``played_exact`` when the
    played move is one of those the solver proved best. ``forced`` is true for a lone
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
    exact: bool = False
    played_exact: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form, which :meth:`from_dict` reads back (a page that reviews
        a game a few positions a request sends it back with the next request)."""
        return {
            "index": self.index,
            "best": None if self.best is None else str(self.best),
            "value": self.value,
            "played_value": self.played_value,
            "estimate": self.estimate,
            "forced": self.forced,
            "over": self.over,
            "shares": list(self.shares),
            "exact": self.exact,
            "played_exact": self.played_exact,
        }

    @classmethod
    def from_dict(cls, data: object) -> Appraised:
        """The appraisal :meth:`to_dict` wrote; ``BAD_ARGUMENT`` naming what is wrong."""
        if not isinstance(data, dict) or set(data) != _KEYS:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"an appraisal is an object with exactly {', '.join(sorted(_KEYS))}",
            )
        index, best = data["index"], data["best"]
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "an appraisal's index is a whole number")
        if best is not None and not isinstance(best, str):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "an appraisal's best move is text or null")
        shares = data["shares"]
        if not isinstance(shares, list) or len(shares) > 4 or not all(map(_is_share, shares)):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "an appraisal's shares are 0 to 1")
        for key in ("value", "played_value", "estimate"):
            if data[key] is not None and not _is_share(data[key]):
                raise StawvsError(ErrorCode.BAD_ARGUMENT, f"an appraisal's {key} is 0 to 1 or null")
        for key in ("forced", "over", "exact", "played_exact"):
            if not isinstance(data[key], bool):
                raise StawvsError(ErrorCode.BAD_ARGUMENT, f"an appraisal's {key} is true or false")
        return cls(
            index,
            best=None if best is None else Move.parse(best),
            value=data["value"],
            played_value=data["played_value"],
            estimate=data["estimate"],
            forced=data["forced"],
            over=data["over"],
            shares=tuple(float(s) for s in shares),
            exact=data["exact"],
            played_exact=data["played_exact"],
        )


_KEYS: Final = frozenset(
    (
        "index",
        "best",
        "value",
        "played_value",
        "estimate",
        "forced",
        "over",
        "shares",
        "exact",
        "played_exact",
    )
)


def _is_share(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


#: A proven outcome's share of the win for the mover of a two-player game.
_OUTCOME_SHARES: Final = {"win": 1.0, "shared": 0.5, "loss": 0.0}


def solver_budget(task: Appraisal) -> tuple[float | None, int | None]:
    """The seconds and positions the exact solver may spend on ``task``'s position:
    ``task.solver_nodes`` positions, and, once at most :data:`PROVE_BELOW` free
    pyramids are left (where proofs come within reach), the move's whole
    budget as well: its seconds, and :data:`SOLVER_NODES_PER_ITERATION`
    positions per iteration of an iteration budget (so that the same seed gives
    the same review). Nothing (0 positions) when ``solver_nodes`` is 0.

    >>> from stawvs_ap.bots.spec import BotSpec
    >>> from stawvs_ap.core.position import Position
    >>> start = Position.initial(2, seed=1)
    >>> solver_budget(Appraisal(0, start, None, BotSpec("mcts"), 1, 0.5, None, 2000))
    (None, 2000)
    """
    nodes = task.solver_nodes
    position = task.position
    if nodes <= 0 or position.mode != "collect" or position.free.bit_count() > PROVE_BELOW:
        return None, nodes
    if task.iterations is not None:
        share = task.iterations * SOLVER_NODES_PER_ITERATION
        return task.seconds, min(MAX_NODES, max(nodes, share))
    return task.seconds, None if task.seconds is not None else nodes


def _proven(task: Appraisal) -> Appraised | None:
    """The appraisal the exact solver proves within :func:`solver_budget`:
    with two players, every proven outcome; with three or four, whose proven
    value is what the mover can guarantee against all the others, only a
    guaranteed win, and only when the played move keeps it (a move that does
    not is searched for its value). None otherwise."""
    seconds, nodes = solver_budget(task)
    if nodes == 0:
        return None
    solution = solve(task.position, seconds=seconds, nodes=nodes)
    if not solution.proven or not solution.best or solution.outcome is None:
        return None
    keeps = task.played is not None and task.played in solution.best
    if task.position.rules.numplayers > 2 and not (solution.outcome == "win" and keeps):
        return None
    value = _OUTCOME_SHARES[solution.outcome]
    return Appraised(
        task.index,
        best=task.played if keeps else solution.best[0],
        value=value,
        played_value=value if keeps else None,
        exact=True,
        played_exact=keeps,
    )


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
    proven = _proven(task)
    if proven is not None:
        return proven
    with task.bot.make(task_seed(task.seed, task.index)) as bot:
        candidates = bot.analyse(position, seconds=task.seconds, iterations=task.iterations)
        iterations = getattr(bot, "last_iterations", 0)
    best = candidates[0]
    played_value = next((c.value for c in candidates if c.move == task.played), None)
    estimate = None
    if played_value is None and task.played is not None and position.rules.numplayers > 2:
        after, _ = position.play(task.played)
        me = position.currplayer - 1
        if after.is_over:
            estimate = final_shares(after)[me]
        else:  # the search's leaf value, as a share by the same map as the search's values
            estimate = calibrated(estimate_rewards(player_values(after), TEMPERATURE)[me], position)
    return Appraised(
        task.index,
        best=best.move,
        value=best.value,
        played_value=played_value,
        estimate=estimate,
        iterations=iterations,
    )
