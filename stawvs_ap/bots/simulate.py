"""Fast playouts with a cheap policy, for the search bots.

:func:`heuristic_playout` plays a position to the end on plain bitmasks and
kind counts instead of :class:`~stawvs_ap.core.position.Position` values (no
tuples of 64 squares per move, no events), with a policy better than uniform:

* a placement looks at a few free squares and takes the one with the most
  free neighbours;
* a collection move looks at a few random slides, keeps the one whose line of
  claims holds the pyramid kind most valuable to the mover's collection (see
  :func:`~stawvs_ap.bots.knowledge.kind_tiers`), avoiding landing squares
  with no free neighbour, and claims a pyramid of that kind;
* with probability ``epsilon`` a move is random instead, so that playouts keep
  exploring lines the policy would not play.

The rules are those of :meth:`Position.play
<stawvs_ap.core.position.Position.play>`: a player who cannot move passes and
is out; when everyone is out, each cap's pyramid goes to its owner unless
``finalfree`` is on. ``tests/test_bots.py`` checks that the final scores are
what the position values reach when playing the same moves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..core.position import Position
from ..core.squares import iter_squares, reach
from .knowledge import (
    KINDS,
    NEIGHBOURS,
    POINTS_PER_SQUARE,
    collection_counts,
    count_score,
    kind_tiers,
    potential,
    territory,
)

__all__ = ["estimate_rewards", "heuristic_playout", "rewards"]


def heuristic_playout(
    position: Position,
    rng: random.Random,
    *,
    epsilon: float = 0.1,
    samples: int = 2,
    trace: list[tuple[int, ...]] | None = None,
    max_plies: int | None = None,
) -> tuple[list[float], bool]:
    """The players' final scores after playing ``position`` to the end with the
    policy described above (``samples`` slides looked at per move). With
    ``max_plies``, play stops after that many moves (passes of players already
    out not counted) and, unless the game ended, the result is each player's
    estimate of :func:`~stawvs_ap.bots.knowledge.player_values` instead.

    With a ``trace`` list, the moves played are appended to it: ``(square,)`` for
    a placement, ``(source, dest, target)`` for a collection move, ``()`` for
    a pass (a player left without a move); players already out are skipped.
    """
    rules = position.rules
    n = rules.numplayers
    board = position.board
    free = position.free
    if position.is_over:
        return [float(s) for s in position.scores()], True
    caps: list[list[int]] = [[] for _ in range(n)]
    for square in iter_squares(position.capped):
        caps[position.caps[square] - 1].append(square)
    counts = [collection_counts(c) for c in position.captured]
    alive = [p + 1 not in position.eliminated for p in range(n)]
    left = sum(alive)
    to_place = rules.total_caps - position.capped.bit_count()
    kind_squares = [0] * KINDS
    for square in iter_squares(position.occupied):
        kind = board[square]
        if kind < KINDS:
            kind_squares[kind] |= 1 << square
    tiers: list[list[int] | None] = [None] * n
    hey = rules.hey
    player = position.currplayer - 1
    choice = rng.choice
    chance = rng.random
    neighbours = NEIGHBOURS
    budget = -1 if max_plies is None else max_plies

    while to_place and budget:
        budget -= 1
        options = iter_squares(free)
        best = choice(options)
        room = (neighbours[best] & free).bit_count()
        for _ in range(samples - 1):
            other = choice(options)
            other_room = (neighbours[other] & free).bit_count()
            if other_room > room:
                best, room = other, other_room
        caps[player].append(best)
        free &= ~(1 << best)
        if trace is not None:
            trace.append((best,))
        to_place -= 1
        player = (player + 1) % n

    while left and budget:
        if not alive[player]:
            player = (player + 1) % n
            continue
        mine = caps[player]
        movable = [i for i, sq in enumerate(mine) if neighbours[sq] & free]
        if not movable:
            alive[player] = False
            left -= 1
            if trace is not None:
                trace.append(())
            player = (player + 1) % n
            continue
        if chance() < epsilon:
            index = choice(movable)
            source = mine[index]
            dest = choice(iter_squares(reach(source, free)))
            claimable = (1 << source) if hey else reach(dest, free | 1 << source)
            target = choice(iter_squares(claimable))
        else:
            masks = tiers[player]
            if masks is None:
                masks = [
                    sum(kind_squares[k] for k in tier) for tier in kind_tiers(tuple(counts[player]))
                ]
                tiers[player] = masks
            best_rank = 99
            index = source = dest = 0
            wanted = 0
            for _ in range(samples):
                i = choice(movable)
                src = mine[i]
                dst = choice(iter_squares(reach(src, free)))
                claimable = (1 << src) if hey else reach(dst, free | 1 << src)
                rank = 0
                for mask in masks:
                    hit = claimable & mask
                    if hit:
                        break
                    rank += 1
                else:
                    hit = claimable
                # A landing square with no free neighbour left traps the cap.
                if not neighbours[dst] & (free | 1 << src) & ~(1 << dst):
                    rank += 3
                if rank < best_rank:
                    best_rank, index, source, dest, wanted = rank, i, src, dst, hit
            target = choice(iter_squares(wanted))
        mine[index] = dest
        free = (free | 1 << source) & ~(1 << dest) & ~(1 << target)
        counts[player][board[target]] += 1
        tiers[player] = None
        if trace is not None:
            trace.append((source, dest, target))
        player = (player + 1) % n
        budget -= 1

    if left or to_place:
        return _estimates(board, free, caps, counts, alive, rules.finalfree), False

    if not rules.finalfree:
        for p in range(n):
            for square in caps[p]:
                kind = board[square]
                if kind < KINDS:
                    counts[p][kind] += 1
    return [float(count_score(c)) for c in counts], True


def _estimates(
    board: Sequence[int],
    free: int,
    caps: list[list[int]],
    counts: list[list[int]],
    alive: list[bool],
    finalfree: bool,
) -> list[float]:
    """:func:`~stawvs_ap.bots.knowledge.player_values` of an unfinished playout."""
    sources = []
    for p, squares in enumerate(caps):
        mask = 0
        if alive[p]:
            for square in squares:
                mask |= 1 << square
        sources.append(mask)
        if not finalfree:
            for square in squares:
                counts[p][board[square]] += 1
    owned = territory(free, sources)
    return [potential(c) + POINTS_PER_SQUARE * owned[p].bit_count() for p, c in enumerate(counts)]


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


def estimate_rewards(values: Sequence[float], temperature: float) -> list[float]:
    """Each player's reward in [0, 1] from estimated totals ``values``: a logistic
    function of their lead over the best other player, ``temperature`` points
    making the difference between 50% and 73%."""
    out = []
    for p, mine in enumerate(values):
        other = max(v for q, v in enumerate(values) if q != p)
        lead = max(-50.0, min(50.0, (mine - other) / temperature))
        out.append(1.0 / (1.0 + math.exp(-lead)))
    return out
