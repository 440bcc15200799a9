"""Playouts with a cheap policy, for the search bots, and the rewards they give.

:func:`policy_move` is a move of :func:`~stawvs_ap.core.playout.random_move`,
the rules' own generator sampled, made a little less blind:

* a placement is the best of a few random free squares by the room around it;
* a collection move is the best of a few random slides by the pyramid it
  claims (the most valuable on the slide's lines to the mover's collection,
  see :func:`~stawvs_ap.bots.knowledge.kind_values`), less the
  :func:`~stawvs_ap.bots.knowledge.trap_penalty` of landing squares left
  with at most one free neighbour;
* with probability ``epsilon`` the move is uniformly random instead, so that
  playouts keep exploring lines the policy would not play.

:func:`policy_playout` plays such moves with :meth:`Position.play
<stawvs_ap.core.position.Position.play>`, so a playout follows the rules by
construction.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from ..core.moves import PASS, Move
from ..core.playout import random_move
from ..core.position import Position
from ..core.squares import SQUARES
from .base import now
from .knowledge import NEIGHBOURS, held_counts, kind_values, trap_penalty

__all__ = [
    "TEMPERATURE",
    "estimate_rewards",
    "lead_share",
    "policy_move",
    "policy_playout",
    "rewards",
]

#: How many points of lead make the difference between a 50% and a 73% share of
#: the win in :func:`lead_share` (MCTSBot's ``temperature`` by default).
TEMPERATURE: Final = 4.0


def policy_move(
    position: Position,
    rng: random.Random,
    *,
    epsilon: float = 0.1,
    samples: int = 2,
    deadline: float = math.inf,
) -> Move:
    """A legal move of ``position`` (not over) by the policy described above,
    looking at ``samples`` random moves, or at those it has looked at when the
    clock (:func:`~stawvs_ap.bots.base.now`) reaches ``deadline``."""
    move = random_move(position, rng)
    if move.source is None or samples <= 1 or rng.random() < epsilon:
        return move
    free = position.free
    board = position.board
    values = kind_values(tuple(held_counts(position, position.currplayer)))
    best, best_value = move, -math.inf
    for sample in range(samples):
        if sample:
            if sample & 7 == 0 and now() >= deadline:
                break
            move = random_move(position, rng)
        source, dest = move.source, move.dest
        if source is None:
            continue
        if dest is None:  # a placement: the more room around the cap, the better
            value = float((NEIGHBOURS[source] & free).bit_count())
            target = None
        else:
            after = (free | 1 << source) & ~(1 << dest)
            target = max(position.claims(source, dest), key=lambda sq: values[board[sq]])
            room = (NEIGHBOURS[dest] & after & ~(1 << target)).bit_count()
            value = values[board[target]] - trap_penalty(room)
        if value > best_value:
            best_value = value
            best = move if target is None else Move(source, dest, SQUARES[target])
    return best


def policy_playout(
    position: Position,
    rng: random.Random,
    *,
    epsilon: float = 0.1,
    samples: int = 2,
    max_plies: int | None = None,
    deadline: float = math.inf,
) -> Position:
    """The position after playing :func:`policy_move` from ``position`` to the end
    of the game, or for at most ``max_plies`` moves (passes of players already
    out not counted), or until the clock reaches ``deadline``."""
    plies = 0
    while not position.is_over and (max_plies is None or plies < max_plies):
        if position.currplayer in position.eliminated:
            position, _ = position.play(PASS)
            continue
        if now() >= deadline:
            break
        move = policy_move(position, rng, epsilon=epsilon, samples=samples, deadline=deadline)
        position, _ = position.play(move)
        plies += 1
    return position


def rewards(scores: Sequence[float], margin_weight: float = 0.0) -> list[float]:
    """Each player's reward in [0, 1] for final ``scores``: 1 for the sole winner,
    1/k to each of k tied winners, 0 for the others; with ``margin_weight`` w,
    a share w of it comes instead from the lead over (or gap to) the best other
    player, squashed so that 10 points make most of the difference."""
    best = max(scores)
    share = 1.0 / sum(1 for s in scores if s == best)
    out = []
    for p, mine in enumerate(scores):
        win = share if mine == best else 0.0
        if margin_weight:
            other = max(s for q, s in enumerate(scores) if q != p)
            lead = 0.5 + 0.5 * math.tanh((mine - other) / 10.0)
            win = (1.0 - margin_weight) * win + margin_weight * lead
        out.append(win)
    return out


def lead_share(lead: float, temperature: float = TEMPERATURE) -> float:
    """The expected share of the win, in [0, 1], of a player ``lead`` points ahead
    of the best other player (behind when negative): a logistic function,
    ``temperature`` points making the difference between 50% and 73%.

    >>> lead_share(0.0), round(lead_share(4.0), 2), round(lead_share(-4.0), 2)
    (0.5, 0.73, 0.27)
    """
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, lead / temperature))))


def estimate_rewards(values: Sequence[float], temperature: float) -> list[float]:
    """Each player's reward in [0, 1] from estimated totals ``values``: the
    :func:`lead_share` of their lead over the best other player."""
    return [
        lead_share(mine - max(v for q, v in enumerate(values) if q != p), temperature)
        for p, mine in enumerate(values)
    ]
