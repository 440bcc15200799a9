"""Learn from one's mistakes: :func:`retry` judges a move tried again in the
position before a judged move of a review.

The tried move's loss is measured as a review measures the played move's
(:mod:`stawvs_ap.bots.appraise`): the best move's share of the win less the
tried move's, both by the same search of the position (the tried move's share
from that search when it weighed the move; else, with two players, one less
the opponent's share after it by a search of that position; with three or
four, the evaluation of the position after it). A loss under
:data:`~stawvs_ap.bots.review.INACCURACY` (0.10) is a move *found*; anything
else shows its loss, and the best move and its share to try again or to see.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.moves import Move
from ..core.position import Position
from ..errors import ErrorCode, StawvsError
from .appraise import Appraisal, appraise, final_shares
from .base import GameLike, only_move, position_of
from .review import INACCURACY, SOLVER_NODES
from .spec import BotSpec

__all__ = ["RetryVerdict", "retry"]


@dataclass(frozen=True, slots=True)
class RetryVerdict:
    """The judgement of a ``tried`` move: its ``loss`` of the mover's share of the
    win (0 when it is as good as the best, or better), whether it is ``found``
    (a loss under the inaccuracy threshold), the ``best`` move and its share
    ``best_share``, and the tried move's ``share``."""

    tried: Move
    share: float
    best: Move
    best_share: float
    loss: float

    @property
    def found(self) -> bool:
        """Whether the tried move loses less than an inaccuracy does."""
        return self.loss < INACCURACY

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form: tried, share, best, best_share, loss, found."""
        return {
            "tried": str(self.tried),
            "share": round(self.share, 4),
            "best": str(self.best),
            "best_share": round(self.best_share, 4),
            "loss": round(self.loss, 4),
            "found": self.found,
        }


def retry(
    game: GameLike,
    move: Move | str,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
) -> RetryVerdict:
    """The judgement of ``move`` tried for the player to move in ``game`` (see the
    module's description), by searches of ``seconds`` and/or ``iterations``
    seeded by ``seed`` (the same seed and iterations, the same verdict).
    ``ILLEGAL_MOVE``-family refusal for a move that is not legal there,
    ``GAMEOVER`` when the game is over.

    >>> from stawvs_ap import StawvsGame
    >>> verdict = retry(StawvsGame.new(2, seed=1), "d5", iterations=80)
    >>> verdict.loss >= 0, verdict.found == (verdict.loss < 0.10)
    (True, True)
    """
    position = position_of(game)
    tried = Move.parse(move) if isinstance(move, str) else move
    problem = position.problem(tried)
    if problem is not None or not position.is_complete(tried):
        raise StawvsError(
            problem or ErrorCode.BAD_ARGUMENT, f"{tried} is not a move the player can make here"
        )
    if seconds is None and iterations is None:
        seconds = 1.0
    bot = BotSpec("mcts")
    here = appraise(Appraisal(0, position, tried, bot, seed, seconds, iterations, SOLVER_NODES))
    if here.forced:  # the only legal move: nothing to find
        return RetryVerdict(tried, 1.0, tried, 1.0, 0.0)
    assert here.best is not None and here.value is not None
    share = here.played_value if here.played_value is not None else here.estimate
    if share is None:  # two players, a move the search did not weigh: the reply's search
        share = _share_after(
            position.play(tried)[0], position.currplayer, bot, seed, seconds, iterations
        )
    if tried == here.best:
        share = here.value
    return RetryVerdict(tried, share, here.best, here.value, max(0.0, here.value - share))


def _share_after(
    after: Position,
    mover: int,
    bot: BotSpec,
    seed: int,
    seconds: float | None,
    iterations: int | None,
) -> float:
    """``mover``'s share of the win in the two-player position ``after``: final
    when it is over, else by a search of the first position from there where
    the player to move has a choice (forced moves, such as a pass, played)."""
    while not after.is_over:
        forced = only_move(after)
        if forced is None:
            there = appraise(
                Appraisal(1, after, None, bot, seed, seconds, iterations, SOLVER_NODES)
            )
            assert there.value is not None
            return there.value if after.currplayer == mover else 1.0 - there.value
        after, _ = after.play(forced)
    return final_shares(after)[mover - 1]
