"""Random playouts for bots: legal moves counted and picked by index, no move strings.

:func:`count_moves` and :func:`move_at` number the legal moves of a position in
the order :meth:`Position.legal_move_strings` lists them, so
``str(move_at(position, i)) == position.legal_move_strings()[i]``; but they only
count squares (with bitmasks) and build the one :class:`Move` that is asked for.
:func:`random_playout` plays uniformly random legal moves to the end of the game.
"""

from __future__ import annotations

import random

from .board import LINES, RAYS, iter_squares, reach
from .notation import Move
from .position import Position

__all__ = ["count_moves", "move_at", "random_move", "random_playout"]

_PASS = Move(is_pass=True)


def _slides(position: Position) -> list[tuple[int, int, int]]:
    """``(source, dest, claim_bound)`` for every slide of the player to move, in move order.

    ``claim_bound`` is at least the number of squares that slide may claim (the
    claimable squares on dest's lines, reachable or not): cheap to count, and
    exact with ``hey``, where the only claim is the square left.
    """
    free = position.occupied & ~position.capped
    hey = position.rules.hey
    out = []
    for source in position.cap_squares(position.currplayer):
        claimable = free | (1 << source)
        for ray in RAYS[source]:
            for dest in ray:
                if not free >> dest & 1:
                    break
                out.append((source, dest, 1 if hey else (LINES[dest] & claimable).bit_count()))
    return out


def _claims(position: Position, source: int, dest: int) -> int:
    """Bitmask of the squares claimable after sliding from ``source`` to ``dest``."""
    if position.rules.hey:
        return 1 << source
    return reach(dest, position.occupied & ~position.capped | 1 << source)


def _only_pass(position: Position) -> bool:
    return position.mode == "collect" and position.currplayer in position.eliminated


def count_moves(position: Position) -> int:
    """``len(position.legal_move_strings())``, without building the strings."""
    if position.is_over:
        return 0
    if position.mode == "place":
        return position.free.bit_count()
    if _only_pass(position):
        return 1
    slides = _slides(position)
    return sum(_claims(position, s, d).bit_count() for s, d, _ in slides) or 1


def move_at(position: Position, index: int) -> Move:
    """The legal move number ``index`` (0-based) in :meth:`legal_move_strings` order.

    Raises ``IndexError`` when there is no such move.
    """
    if not 0 <= index < count_moves(position):
        raise IndexError(f"there is no legal move number {index}")
    if position.mode == "place":
        return Move(iter_squares(position.free)[index])
    if _only_pass(position):
        return _PASS
    slides = _slides(position)
    if not slides:
        return _PASS
    return _pick(position, slides, index)


def _pick(position: Position, slides: list[tuple[int, int, int]], index: int) -> Move:
    for source, dest, _ in slides:
        claims = _claims(position, source, dest)
        count = claims.bit_count()
        if index >= count:
            index -= count
            continue
        return _nth_claim(source, dest, claims, index)
    raise AssertionError("move index out of range")  # count_moves ruled this out


def _nth_claim(source: int, dest: int, claims: int, index: int) -> Move:
    """The ``index``-th claim of a slide, listed as legal_move_strings lists them:
    ray by ray outward from ``dest``."""
    if claims == 1 << source:  # the only claim (always so with hey): no walk needed
        return Move(source, dest, source)
    for ray in RAYS[dest]:
        for target in ray:
            if not claims >> target & 1:
                break
            if index == 0:
                return Move(source, dest, target)
            index -= 1
    raise AssertionError("claim index out of range")


def random_move(position: Position, rng: random.Random) -> Move:
    """A legal move chosen uniformly at random. Raises ``IndexError`` once the game is over.

    Counting every slide's claims exactly costs a line walk per slide, so this
    samples by rejection instead: it draws a (slide, claim number) pair uniformly
    among ``claim_bound`` slots per slide and keeps it when that claim exists.
    Every legal move owns exactly one slot, so each is equally likely.
    """
    if position.is_over:
        raise IndexError("the game is over: there is no move to choose")
    if position.mode == "place":
        return Move(rng.choice(iter_squares(position.free)))
    if _only_pass(position):
        return _PASS
    slides = _slides(position)
    if not slides:
        return _PASS
    slots = sum(bound for _, _, bound in slides)
    while True:
        source, dest, slot = _slot(slides, rng.randrange(slots))
        claims = _claims(position, source, dest)
        if slot < claims.bit_count():
            return _nth_claim(source, dest, claims, slot)


def _slot(slides: list[tuple[int, int, int]], slot: int) -> tuple[int, int, int]:
    """The slide owning slot number ``slot``, and the slot's number within it."""
    for source, dest, bound in slides:
        if slot < bound:
            return source, dest, slot
        slot -= bound
    raise AssertionError("slot out of range")


def random_playout(position: Position, rng: random.Random) -> Position:
    """The final position after uniformly random legal moves from ``position``.

    ``position`` is left unchanged. The result is the position ``play`` would
    give for the same moves (final captures included); its ``lastmove`` is the
    last move played.
    """
    current = position._copy()
    while not current.is_over:
        move = random_move(current, rng)
        current._apply(move)
    return current
