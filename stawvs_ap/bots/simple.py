"""Bots that do not search: :class:`RandomBot` and :class:`GreedyBot`."""

from __future__ import annotations

from dataclasses import replace

from ..core.moves import Move
from ..core.playout import random_move
from ..core.position import Position
from .base import Bot, Budget, Candidate, now
from .knowledge import evaluate, move_priors, prior_move
from .options import ITERATIONS, SECONDS

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
        """Every legal move once, in a seeded random order, none visited, all worth 0."""
        moves = list(position.legal_moves())
        self.rng.shuffle(moves)
        return [Candidate(move, 0, 0.0) for move in moves]


class GreedyBot(Bot):
    """Plays the move after which :func:`~stawvs_ap.bots.knowledge.evaluate` rates
    the position best for it: its estimated total (collection with credit for
    partial trees, pyramids under its caps, free pyramids it reaches first)
    minus the best opponent's. Ties are broken by the seeded generator.

    Without a budget every legal move is evaluated; a budget of seconds or
    iterations (moves evaluated) stops early, having evaluated the moves in
    order of a cheap estimate (:func:`~stawvs_ap.bots.knowledge.move_priors`),
    likeliest first. Each candidate of :meth:`analyse` has one visit and its
    evaluation in points as value.
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
        scored: list[tuple[float, float, Move]] = []
        for move_number, entry in enumerate(ranked):
            move = prior_move(entry)
            after, _ = position.play(move)
            scored.append((evaluate(after, player), self.rng.random(), move))
            if move_number + 1 >= limit or now() >= deadline:
                break
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        return [Candidate(move, 1, value) for value, _, move in scored]
