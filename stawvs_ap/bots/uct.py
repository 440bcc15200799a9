"""Plain UCT: the baseline the strength targets are measured against.

Nothing but the textbook: uniform random playouts
(:func:`stawvs_ap.core.playout.random_playout`), UCB1 with c = √2 on win
rates, one node added per iteration with its untried moves in random order,
max-n values (each node's wins counted for the player who moved into it), no
tree kept between moves, and the most visited move played. The tree stops
growing at ``memory`` megabytes (each node holds its untried moves, about
70 KB a node early in the collection phase); the search goes on below it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.moves import Move
from ..core.playout import random_playout
from ..core.position import Position
from .base import Bot, Budget, Candidate, now
from .options import (
    ITERATIONS,
    MEMORY,
    SEARCH_SECONDS,
    Settings,
    options_of,
    shared_setting,
    with_changes,
)

__all__ = ["UCTBot", "UCTSettings"]

EXPLORATION = math.sqrt(2)
#: What a node takes, as the memory cap counts it, and each of its untried moves
#: (measured with tracemalloc by benchmarks/bots.py, which fails when they fall short).
NODE_BYTES = 1300
MOVE_BYTES = 96


class _Node:
    __slots__ = ("children", "move", "mover", "position", "untried", "visits", "wins")

    def __init__(self, position: Position, move: Move | None, mover: int, untried: list[Move]):
        self.position = position
        self.move = move
        self.mover = mover
        self.untried = untried
        self.children: list[_Node] = []
        self.visits = 0
        self.wins = 0.0


@dataclass(frozen=True, slots=True)
class UCTSettings(Settings):
    """The options of :class:`UCTBot`, each declared once here."""

    memory: int = shared_setting(MEMORY)


class UCTBot(Bot):
    """Plain UCT for 2–4 players (see the module's description). Without a budget
    it thinks for one second."""

    name = "uct"
    options = (SEARCH_SECONDS, ITERATIONS, *options_of(UCTSettings))

    def __init__(
        self,
        *,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        settings: UCTSettings | None = None,
        **changes: Any,
    ) -> None:
        """``settings`` (default: the defaults), with ``changes`` made: options by
        name, as in ``UCTBot(iterations=300, memory=50)``."""
        if seconds is None and iterations is None:
            seconds = 1.0
        super().__init__(seed=seed, seconds=seconds, iterations=iterations)
        self.settings = with_changes(settings or UCTSettings(), changes, self.name)

    def _new_node(self, position: Position, move: Move | None, mover: int) -> _Node:
        untried = list(position.legal_moves())
        self.rng.shuffle(untried)
        return _Node(position, move, mover, untried)

    def _search(self, position: Position, budget: Budget) -> _Node:
        start = now()
        deadline = budget.deadline(start)
        limit = budget.limit()
        rng = self.rng
        root = self._new_node(position, None, 0)
        # What the tree takes, counted: a node, and a move for each of its untried
        # moves (which later become its children's moves).
        cap = self.settings.memory << 20
        size = NODE_BYTES + MOVE_BYTES * len(root.untried)
        for _ in range(limit):
            node = root
            path = [node]
            while not node.untried and node.children:
                log_n = math.log(node.visits)
                node = max(
                    node.children,
                    key=lambda c: c.wins / c.visits + EXPLORATION * math.sqrt(log_n / c.visits),
                )
                path.append(node)
            if node.untried and (size < cap or not root.children):  # the root gets a child
                move = node.untried.pop()
                after, _ = node.position.play(move)
                child = self._new_node(after, move, node.position.currplayer)
                size += NODE_BYTES + MOVE_BYTES * len(child.untried)
                node.children.append(child)
                path.append(child)
                node = child
            # Cut short at the deadline, the last playout counts the leader as winner.
            final = random_playout(node.position, rng, deadline)
            winners = final.winners()
            share = 1.0 / len(winners)
            for visited in path:
                visited.visits += 1
                if visited.mover in winners:
                    visited.wins += share
            if now() >= deadline:
                break
        return root

    def _analyse(self, position: Position, budget: Budget) -> list[Candidate]:
        root = self._search(position, budget)
        ranked = sorted(root.children, key=lambda c: (c.visits, c.wins / c.visits), reverse=True)
        return [
            Candidate(c.move, c.visits, c.wins / c.visits) for c in ranked if c.move is not None
        ]

    def _choose(self, position: Position, budget: Budget) -> Move:
        return self._analyse(position, budget)[0].move
