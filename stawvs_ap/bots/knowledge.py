"""Cheap knowledge of Stawvs for bots: what a pyramid is worth to a collection,
who controls which pyramids, and a static evaluation of a position.

Points come from trees completed later, and from pyramids still to be
claimed, so the immediate score is a poor guide. Three estimates stand in:

* the *potential* of a collection: its score plus credit for partial trees
  (:func:`potential`), and from it what one more pyramid of each kind is worth
  to it (:func:`kind_values`);
* *territory*: the free pyramids a player's caps reach before anyone else's,
  counted in king steps over free squares (:func:`territory`), which also
  says how mobile the caps are (a trapped cap reaches nothing);
* :func:`evaluate`, which adds them up for every player.

Two orderings of a position's moves serve the bots: :func:`move_priors`, a
cheap guess (what the claimed pyramid is worth, room around the landing
square), and :func:`move_estimates`, which estimates :func:`evaluate` after
each move at a fifth of the cost of evaluating them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from heapq import heapify
from typing import Final

from ..core.moves import PASS, Move
from ..core.position import Position
from ..core.squares import SQUARES, iter_squares, next_to

__all__ = [
    "KINDS",
    "POINTS_PER_SQUARE",
    "TEMPO",
    "cap_sources",
    "collection_counts",
    "evaluate",
    "kind_values",
    "lead",
    "move_estimates",
    "move_priors",
    "potential",
    "prior_estimate",
    "prior_move",
    "rank_entry",
    "territory",
    "trap_penalty",
]

KINDS: Final = 12
#: Credit for a partial tree, as a share of a tree's bonus per piece held towards it.
PARTIAL_CREDIT: Final = 0.6
#: What an uncontested free pyramid in one's territory is worth, in points: a
#: collection of n pyramids scores about 1.7 n in real games.
POINTS_PER_SQUARE: Final = 1.5
#: What having the move is worth in the collection phase, in points. An estimate
#: made just after a player's move overrates them by about this much against one
#: made after the next player's; searches compare both kinds.
TEMPO: Final = 2.0
#: King-step neighbourhood of every square.
NEIGHBOURS: Final[tuple[int, ...]] = tuple(next_to(1 << sq) for sq in range(64))


def collection_counts(collection: Sequence[int]) -> list[int]:
    """How many pyramids of each of the 12 kinds (``colour * 3 + size - 1``) a collection holds."""
    counts = [0] * KINDS
    for pyramid in collection:
        counts[pyramid] += 1
    return counts


def _progress(a: int, b: int, c: int) -> float:
    """Trees made from sizes counted ``a``, ``b``, ``c``, plus credit for the next one."""
    low = min(a, b, c)
    return low + PARTIAL_CREDIT * ((a > low) + (b > low) + (c > low)) / 3


def potential(counts: Sequence[int]) -> float:
    """A collection's score plus credit for the trees it has started (monochrome and mixed)."""
    value = sum(counts) + 2 * _progress(
        counts[0] + counts[3] + counts[6] + counts[9],
        counts[1] + counts[4] + counts[7] + counts[10],
        counts[2] + counts[5] + counts[8] + counts[11],
    )
    for c in range(0, KINDS, 3):
        value += 2 * _progress(counts[c], counts[c + 1], counts[c + 2])
    return value


def _gains(a: int, b: int, c: int) -> tuple[float, float, float]:
    """How much :func:`_progress` grows when ``a``, ``b`` or ``c`` grows by one."""
    base = _progress(a, b, c)
    return (
        _progress(a + 1, b, c) - base,
        _progress(a, b + 1, c) - base,
        _progress(a, b, c + 1) - base,
    )


# _progress shifts with its arguments and only compares them with their minimum,
# so its gains depend on each count's excess over the minimum, capped at 2.
_GAINS: Final[dict[tuple[int, int, int], tuple[float, float, float]]] = {
    (a, b, c): _gains(a, b, c)
    for a in range(3)
    for b in range(3)
    for c in range(3)
    if min(a, b, c) == 0
}


def _gains_of(a: int, b: int, c: int) -> tuple[float, float, float]:
    low = min(a, b, c)
    return _GAINS[min(a - low, 2), min(b - low, 2), min(c - low, 2)]


@lru_cache(maxsize=1 << 16)
def kind_values(counts: tuple[int, ...]) -> tuple[float, ...]:
    """What one more pyramid of each kind adds to the :func:`potential` of a
    collection with these kind counts (between about 1 and 5)."""
    by_size = _gains_of(
        counts[0] + counts[3] + counts[6] + counts[9],
        counts[1] + counts[4] + counts[7] + counts[10],
        counts[2] + counts[5] + counts[8] + counts[11],
    )
    out: list[float] = []
    for c in range(0, KINDS, 3):
        by_colour = _gains_of(counts[c], counts[c + 1], counts[c + 2])
        out.extend(1.0 + 2.0 * (by_size[s] + by_colour[s]) for s in range(3))
    return tuple(out)


def territory(free: int, sources: Sequence[int]) -> list[int]:
    """For each player, the bitmask of free squares their caps reach before any other
    player's, growing every player's reach one king step at a time over ``free``
    squares from their caps' squares (``sources``, bitmasks). Squares reached by
    two players in the same step belong to neither, and block neither."""
    owned = [0] * len(sources)
    fronts = list(sources)
    unclaimed = free
    while True:
        union = 0
        contested = 0
        grown = []
        for front in fronts:
            # next_to inlined would be faster but less clear; this runs ~10 times.
            step = next_to(front) & unclaimed
            contested |= union & step
            union |= step
            grown.append(step)
        if not union:
            return owned
        for i, step in enumerate(grown):
            owned[i] |= step & ~contested
        unclaimed &= ~union
        fronts = grown


def held_counts(position: Position, player: int) -> list[int]:
    """``player``'s collection counts plus the pyramids under their caps, which the
    final captures will add (unless the ``finalfree`` variant is on)."""
    counts = collection_counts(position.captured[player - 1])
    if not position.rules.finalfree:
        board = position.board
        for square in position.cap_squares(player):
            kind = board[square]
            if 0 <= kind < KINDS:
                counts[kind] += 1
    return counts


def cap_sources(position: Position) -> list[int]:
    """For each player, the bitmask of their caps' squares; none for players who
    have passed (their caps take no territory)."""
    caps = position.caps
    sources = [0] * position.rules.numplayers
    capped = position.capped
    while capped:
        low = capped & -capped
        sources[caps[low.bit_length() - 1] - 1] |= low
        capped ^= low
    for player in position.eliminated:
        sources[player - 1] = 0
    return sources


def player_values(position: Position) -> list[float]:
    """Each player's estimated final total: potential of what they hold (collection
    and pyramids under caps) plus :data:`POINTS_PER_SQUARE` per square of territory.
    The player to move in the collection phase gets :data:`TEMPO` more. Players
    who have passed have no territory; a finished game gives the scores."""
    if position.is_over:
        return [float(s) for s in position.scores()]
    owned = territory(position.free, cap_sources(position))
    values = [
        potential(held_counts(position, p + 1)) + POINTS_PER_SQUARE * owned[p].bit_count()
        for p in range(position.rules.numplayers)
    ]
    if position.mode != "place" and position.currplayer not in position.eliminated:
        values[position.currplayer - 1] += TEMPO
    return values


def lead(position: Position, player: int) -> float:
    """``player``'s lead in points: their estimated total (see :func:`player_values`;
    the score once the game is over) minus the best opponent's."""
    values = player_values(position)
    return values[player - 1] - max(v for p, v in enumerate(values, start=1) if p != player)


def evaluate(position: Position, player: int) -> float:
    """How good ``position`` is for ``player``, in points: their :func:`lead`. A
    finished game adds a large bonus for a win (shared wins less) so that no
    estimate outweighs it."""
    ahead = lead(position, player)
    if position.is_over:
        winners = position.winners()
        return ahead + (100.0 / len(winners) if player in winners else -100.0)
    return ahead


#: Weights of the move ordering: a free square next to the landing square (up to
#: four count), a landing square with at most one (the cap is nearly trapped,
#: see :func:`trap_penalty`), and a pyramid an opponent wants (taking it denies it).
MOBILITY_WEIGHT: Final = 0.4
TRAP_PENALTY: Final = 2.0
DENIAL_WEIGHT: Final = 0.3
#: With ``hey``, the share of the landing square's pyramid's value counted now: the
#: cap claims it when it moves on.
LANDING_WEIGHT: Final = 0.8


def trap_penalty(room: int) -> float:
    """What landing costs, in points, with ``room`` free squares left next to the
    landing square once the move is made: :data:`TRAP_PENALTY` with at most
    one (the cap is nearly trapped), else nothing. The one trap penalty of the
    move orderings and the playout policy."""
    return TRAP_PENALTY if room <= 1 else 0.0


# A ranked move is one int, so that a node's thousand untried moves are one list of
# ints, which the garbage collector never walks, instead of a thousand tuples:
# (OFFSET - estimate in 1/256 points) << 20 | kind << 18 | source << 12 | dest << 6 | target.
_OFFSET: Final = 1 << 40
_SLIDE, _PLACE, _PASS = 0, 1, 2
#: The bits of an entry of :func:`move_priors` that say which move it is.
MOVE_BITS: Final = (1 << 20) - 1


def rank_entry(estimate: float, kind: int, source: int = 0, dest: int = 0, target: int = 0) -> int:
    """The heap entry of a move worth ``estimate``: smaller entries are better moves."""
    return (_OFFSET - round(estimate * 256)) << 20 | kind << 18 | source << 12 | dest << 6 | target


def move_priors(position: Position) -> list[int]:
    """Every legal move of ``position`` (not over) with a cheap estimate of its
    worth to the player to move, as a heap (:mod:`heapq`) of entries made by
    :func:`rank_entry`: ``heappop`` gives the best move first, and
    :func:`prior_move` turns an entry into its move (ties: the last in the
    order of :meth:`Position.legal_moves` first).

    The estimate is the value of the claimed pyramid to the mover's collection,
    a little for denying it to the opponent who wants it most, and the room
    left around the landing square; a placement is judged by the room around
    the square and the pyramid under it.
    """
    player = position.currplayer
    free = position.free
    board = position.board
    mine = kind_values(tuple(held_counts(position, player)))
    heap: list[int] = []
    if position.mode == "place":
        for square in iter_squares(free):
            room = (NEIGHBOURS[square] & free).bit_count()
            lines = len(position.destinations(square))
            value = 0.0 if position.rules.finalfree else 0.5 * mine[board[square]]
            estimate = MOBILITY_WEIGHT * min(room, 4) + 0.1 * lines + value
            heap.append(rank_entry(estimate, _PLACE, square))
    elif position.must_pass():
        return [rank_entry(0.0, _PASS)]
    else:
        rivals = [
            kind_values(tuple(held_counts(position, p)))
            for p in range(1, position.rules.numplayers + 1)
            if p != player and p not in position.eliminated
        ]
        # Entries in 1/256 points, so that the inner loop only adds ints.
        worth = [
            round(256 * (mine[k] + DENIAL_WEIGHT * max((r[k] for r in rivals), default=0.0)))
            for k in range(KINDS)
        ]
        hey = position.rules.hey
        append = heap.append
        for source in position.cap_squares(player):
            from_source = free | 1 << source
            for dest in position.destinations(source):
                after = from_source & ~(1 << dest)
                around = NEIGHBOURS[dest] & after
                room = around.bit_count()
                # Claiming a neighbour of the landing square takes away some of its room.
                far = MOBILITY_WEIGHT * min(room, 4) - trap_penalty(room)
                near = MOBILITY_WEIGHT * min(room - 1, 4) - trap_penalty(room - 1)
                if hey:
                    # The pyramid landed on is the one this cap claims when it leaves.
                    landing = LANDING_WEIGHT * mine[board[dest]]
                    far += landing
                    near += landing
                far_key = (_OFFSET - round(256 * far)) << 20 | source << 12 | dest << 6
                near_key = (_OFFSET - round(256 * near)) << 20 | source << 12 | dest << 6
                for target in position.claims(source, dest):
                    key = near_key if around >> target & 1 else far_key
                    append(key - (worth[board[target]] << 20) | target)
    heapify(heap)
    return heap


def move_estimates(position: Position) -> list[int]:
    """Every legal move of ``position`` (not over) with an estimate of
    :func:`evaluate` of the position after it for the player to move, as a heap
    of :func:`rank_entry` entries like :func:`move_priors`'s.

    Slower than :func:`move_priors` and far better: the territory is worked out
    once per landing square rather than once per move, so the only thing
    estimated is what the claim does to it. The claimed square leaves its
    owner's territory; that it may also cut a region off is not seen.
    Placements and passes are evaluated in full.
    """
    player = position.currplayer
    if position.mode == "place" or position.must_pass():
        return [
            entry & MOVE_BITS | rank_entry(evaluate(position.play(prior_move(entry))[0], player), 0)
            for entry in move_priors(position)
        ]
    rules = position.rules
    n = rules.numplayers
    me = player - 1
    free = position.free
    board = position.board
    sources = cap_sources(position)
    held = [held_counts(position, p) for p in range(1, n + 1)]
    others = [p for p in range(n) if p != me]
    base = [potential(counts) for counts in held]
    following = player % n + 1
    tempo = [0.0] * n
    if following not in position.eliminated:
        tempo[following - 1] = TEMPO
    heap: list[int] = []
    for source in position.cap_squares(player):
        from_source = free | 1 << source
        mine_left = sources[me] & ~(1 << source)
        counts = list(held[me])
        if not rules.finalfree:
            counts[board[source]] -= 1
        for dest in position.destinations(source):
            after = from_source & ~(1 << dest)
            sources[me] = mine_left | 1 << dest
            owned = territory(after, sources)
            if not rules.finalfree:
                counts[board[dest]] += 1
            gains = kind_values(tuple(counts))
            totals = [
                base[p] + POINTS_PER_SQUARE * owned[p].bit_count() + tempo[p] for p in range(n)
            ]
            totals[me] = potential(counts) + POINTS_PER_SQUARE * owned[me].bit_count() + tempo[me]
            if not rules.finalfree:
                counts[board[dest]] -= 1
            best_other = max(totals[p] for p in others)
            slide = source << 12 | dest << 6
            for target in position.claims(source, dest):
                value = totals[me] + gains[board[target]]
                rival = best_other
                bit = 1 << target
                if owned[me] & bit:
                    value -= POINTS_PER_SQUARE
                else:
                    for p in others:
                        if owned[p] & bit:
                            totals[p] -= POINTS_PER_SQUARE
                            rival = max(totals[q] for q in others)
                            totals[p] += POINTS_PER_SQUARE
                            break
                heap.append((_OFFSET - round(256 * (value - rival))) << 20 | slide | target)
        sources[me] = mine_left | 1 << source
    heapify(heap)
    return heap


def prior_move(entry: int) -> Move:
    """The move of an entry of :func:`move_priors`."""
    kind = entry >> 18 & 3
    if kind == _PASS:
        return PASS
    source = SQUARES[entry >> 12 & 63]
    if kind == _PLACE:
        return Move.place(source)
    return Move.slide(source, SQUARES[entry >> 6 & 63], SQUARES[entry & 63])


def prior_estimate(entry: int) -> float:
    """The estimate an entry of :func:`move_priors` was made with."""
    return (_OFFSET - (entry >> 20)) / 256
