"""Bots that do not search: :class:`RandomBot` and :class:`GreedyBot`."""

from __future__ import annotations

from dataclasses import replace

from ..core.moves import Move
from ..core.playout import random_move
from ..core.position import Position
from .base import Bot, Budget, Candidate, now
from .knowledge import evaluate, move_priors, prior_move
from .options import ITERATIONS, SECONDS
from .simulate import lead_share, rewards

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot(Bot):
    """Plays a legal move drawn uniformly at random (seeded)."""

    name = "random"
    options = (
        replace(SECONDS, help="accepted and ignored: a random move takes no time"),
        replace(ITERATIONS, help="accepted and ignored"),
    )

    def _choose(self, position: Position, budget: Budget) -> Move:
        return random_move(position, self.rng)

    def _analyse(self, position: Position, budget: Budget) -> list[Candidate]:
        """Every legal move once, in a seeded random order, none visited, each worth
        an even share of the win (it knows nothing better)."""
        moves = list(position.legal_moves())
        self.rng.shuffle(moves)
        even = 1.0 / position.rules.numplayers
        return [Candidate(move, 0, even) for move in moves]


class GreedyBot(Bot):
    """Plays the move after which :func:`~stawvs_ap.bots.knowledge.evaluate` rates
    the position best for it: its estimated total (collection with credit for
    partial trees, pyramids under its caps, free pyramids it reaches first)
    minus the best opponent's. Ties are broken by the seeded generator.

    Without a budget every legal move is evaluated; a budget of seconds or
    iterations (moves evaluated) stops early, having evaluated the moves in
    order of a cheap estimate (:func:`~stawvs_ap.bots.knowledge.move_priors`),
    likeliest first. Each candidate of :meth:`analyse` has one visit and, as
    its value, the share of the win its evaluation makes
    (:func:`~stawvs_ap.bots.simulate.lead_share`; the result, when the move ends
    the game).
    """

    name = "greedy"
    options = (
        replace(SECONDS, help="time to evaluate moves in (without a budget: every move)"),
        replace(ITERATIONS, help="moves evaluated, likeliest first (without a budget: every move)"),
    )

    def _choose(self, position: Position, budget: Budget) -> Move:
        return self._analyse(position, budget)[0].move

    def _analyse(self, position: Position, budget: Budget) -> list[Candidate]:
        start = now()
        deadline = budget.deadline(start)
        limit = budget.limit()
        player = position.currplayer
        # Likeliest first, so that a short budget still sees them.
        ranked = sorted(move_priors(position))
        scored: list[tuple[float, float, Move, float]] = []
        for move_number, entry in enumerate(ranked):
            move = prior_move(entry)
            after, _ = position.play(move)
            value = evaluate(after, player)
            # The share of the win it makes: the result when the move ends the game.
            share = rewards(after.scores())[player - 1] if after.is_over else lead_share(value)
            scored.append((value, self.rng.random(), move, share))
            if move_number + 1 >= limit or now() >= deadline:
                break
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [Candidate(move, 1, share) for _, _, move, share in scored]
