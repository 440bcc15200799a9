"""Grouping a collection into trees, and scoring it.

A tree is one small, one medium and one large pyramid: 7 points when all three
share a colour, 5 otherwise; every pyramid outside a tree scores 1. The grouping
below (docs/CONTRACT.md §6) is also the one the render shows, and it always reaches the
best possible score: it makes ``min(larges, mediums, smalls)`` trees, and as
many monochrome ones as any grouping can.

>>> from stawvs_ap import Pyramid
>>> def pyramids(codes):
...     return [Pyramid.parse(code) for code in codes.split()]
>>> score(pyramids("PI1 PI2 PI3")), score(pyramids("PI1 BL2 GR3")), score(pyramids("OR1"))
(7, 5, 1)
>>> collection = pyramids("PI1 BL1 PI2 GR2 PI3 OR3 OR1")
>>> [[Pyramid(p).code for p in group] for group in group_collection(collection)]
[['PI3', 'PI2', 'PI1'], ['OR3', 'GR2', 'BL1'], ['OR1']]
>>> score(collection)  # a monochrome tree, a mixed one, a loose pyramid
13
"""

from __future__ import annotations

from collections.abc import Sequence

from .pyramids import COLOURED

__all__ = ["MIXED_TREE", "MONO_TREE", "group_collection", "score", "tree_points"]

MONO_TREE = 7
MIXED_TREE = 5
LOOSE = 1


# A pyramid number is colour * 3 + size - 1 (see pyramids.py): colour p // 3,
# size p % 3 + 1. Written out below, since renders group every collection.


def _take_onto(pool: list[int], colour: int | None, onto: list[int]) -> bool:
    """Move the earliest pyramid of ``colour`` (any colour if None) from ``pool``
    onto the stack ``onto``; False when there is none."""
    if colour is None:
        if not pool:
            return False
        onto.append(pool.pop(0))
        return True
    for i, pyramid in enumerate(pool):
        if pyramid // 3 == colour:
            onto.append(pool.pop(i))
            return True
    return False


def _stack_category(stack: Sequence[int]) -> int:
    monochrome = all(p // 3 == stack[0] // 3 for p in stack)
    if len(stack) == 3:
        return 0 if monochrome else 1
    if len(stack) == 2:
        return 2 if monochrome else 3
    return 4


def group_collection(collection: Sequence[int]) -> list[list[int]]:
    """Split a collection (in capture order) into stacks, large → medium → small.

    The stacks come sorted as the render shows them: monochrome trees, mixed
    trees, monochrome pairs, mixed pairs, then lone pyramids; within each
    category in the order the stacks were started.
    """
    larges = [p for p in collection if p % 3 == 2]
    mediums = [p for p in collection if p % 3 == 1]
    smalls = [p for p in collection if p % 3 == 0]

    large_stacks = [[large] for large in reversed(larges)]
    for stack in large_stacks:
        if _take_onto(mediums, stack[0] // 3, stack):
            _take_onto(smalls, stack[0] // 3, stack)
    for size, pool in ((1, mediums), (2, smalls)):
        for stack in large_stacks:
            if len(stack) == size:
                _take_onto(pool, None, stack)

    medium_stacks = [[medium] for medium in reversed(mediums)]
    for stack in medium_stacks:
        _take_onto(smalls, stack[0] // 3, stack)
    for stack in medium_stacks:
        if len(stack) == 1:
            _take_onto(smalls, None, stack)

    stacks = large_stacks + medium_stacks + [[small] for small in smalls]
    return sorted(stacks, key=_stack_category)  # stable: keeps start order


def tree_points(tree: Sequence[int]) -> int:
    """The points of a tree (three pyramids, one of each size): :data:`MONO_TREE`
    when they share a colour, else :data:`MIXED_TREE`."""
    return MONO_TREE if len({p // 3 for p in tree}) == 1 else MIXED_TREE


def score(collection: Sequence[int]) -> int:
    """Points of a collection: 7 per monochrome tree, 5 per mixed tree, 1 per other pyramid.

    Counted rather than grouped: the best grouping, the one
    :func:`group_collection` makes, has ``min(larges, mediums, smalls)`` trees,
    and in each colour as many monochrome trees as it has pyramids of its
    scarcest size.
    """
    counts = [0] * len(COLOURED)  # by pyramid, colour * 3 + size - 1
    for pyramid in collection:
        counts[pyramid] += 1
    trees = min(sum(counts[0::3]), sum(counts[1::3]), sum(counts[2::3]))  # smalls, mediums, larges
    monochrome = sum([min(counts[c : c + 3]) for c in range(0, len(COLOURED), 3)])
    loose = len(collection) - 3 * trees
    return MONO_TREE * monochrome + MIXED_TREE * (trees - monochrome) + LOOSE * loose
