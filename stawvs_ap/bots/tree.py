"""The tree of :class:`~stawvs_ap.bots.mcts.MCTSBot`: its nodes, their implicit
minimax backups, and the memory they take.

Memory is counted, not measured: a node costs :data:`NODE_BYTES` and each entry
of its heap of untried moves :data:`ENTRY_BYTES` (both measured with
``tracemalloc`` by ``benchmarks/bots.py``, which fails when the count falls
short of what a tree really takes). The search keeps the count as it grows
the tree, so that it can stop growing at its cap.

Freeing a large tree takes time (about 4 µs a node, a tenth of a second for
a full default tree), and a tree dropped whole is freed at once, inside
whatever call dropped it. So old trees go to a :class:`Compost` instead, which
frees them a slice at a time at the start of later searches, within their
budgets; until then they count against the cap.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Final, NamedTuple

from ..core.moves import Move
from ..core.position import Position
from .base import now

__all__ = [
    "ENTRY_BYTES",
    "NODE_BYTES",
    "Compost",
    "Node",
    "Proof",
    "back_up",
    "best_child",
    "find",
    "subtree_bytes",
]

#: What a node takes, its position, values and children list included.
NODE_BYTES: Final = 1100
#: What an entry of a node's heap of untried moves takes (a large int and its slot).
ENTRY_BYTES: Final = 48


class Node:
    """A position in the tree. ``mover`` moved into it (0 for a fresh root);
    ``total`` sums that player's rewards over the node's ``visits``."""

    __slots__ = (
        "best",
        "children",
        "index",
        "move",
        "mover",
        "position",
        "proven",
        "total",
        "untried",
        "values",
        "visits",
    )

    def __init__(self, position: Position, move: Move | None, mover: int, index: int = 0) -> None:
        self.position = position
        self.move = move
        self.mover = mover
        #: The node's place among its parent's children.
        self.index = index
        self.children: list[Node] = []
        #: The child whose ``values`` the node's are (see ``values``).
        self.best: Node | None = None
        # Moves not yet made children, a heap of move_estimates entries; None until needed.
        self.untried: list[int] | None = None
        self.visits = 0
        self.total = 0.0
        # Every player's reward by the implicit minimax backup: the estimate of the
        # node's own position until it has children, then its best child's for
        # the player to move here.
        self.values: list[float] | None = None
        #: The node's exact result once proven (see :class:`Proof`), else None.
        self.proven: Proof | None = None


class Proof(NamedTuple):
    """What a proven node is worth: every player's ``rewards`` at the end of a line
    of best play (max-n) from it, and the ``winners`` there. A node is proven
    when its game is over, when every move from it is proven (its value is
    then the best of them for the player to move), or when one of them is a
    win of that player alone (the win is then proven, though another winning
    move may win by more)."""

    rewards: list[float]
    winners: tuple[int, ...]


def best_child(node: Node) -> Node:
    """The first of ``node``'s children whose ``values`` are best for the player to move there."""
    me = node.position.currplayer - 1
    return max(node.children, key=lambda child: child.values[me] if child.values else -math.inf)


def back_up(node: Node, child: Node) -> None:
    """Update ``node``'s implicit minimax values after an iteration through ``child``
    (new, or with new ``values``): what :func:`best_child` would give, without a
    look at every child unless ``child`` was the best and fell."""
    values = child.values
    assert values is not None
    me = node.position.currplayer - 1
    best = node.best
    if best is None:
        best = child
    elif child is best:
        if node.values is not None and values[me] < node.values[me]:
            best = best_child(node)
    else:
        assert best.values is not None
        ahead = values[me] - best.values[me]
        if ahead > 0 or (ahead == 0 and child.index < best.index):
            best = child
    node.best = best
    node.values = best.values


def find(
    root: Node, position: Position, depth_left: int, deadline: float
) -> tuple[Node, Node | None] | None:
    """The node of ``position`` within ``depth_left`` moves of ``root``, breadth
    first, and its parent; None when there is none or ``deadline`` passes first."""
    queue: deque[tuple[Node, int, Node | None]] = deque([(root, 0, None)])
    looked = 0
    while queue:
        node, depth, parent = queue.popleft()
        if node.position == position:
            return node, parent
        if depth < depth_left:
            queue.extend((child, depth + 1, node) for child in node.children)
        looked += 1
        if looked & 255 == 0 and now() >= deadline:
            return None
    return None


def node_bytes(node: Node) -> int:
    """What ``node`` takes, as the search counts it."""
    untried = node.untried
    return NODE_BYTES + (ENTRY_BYTES * len(untried) if untried else 0)


def subtree_bytes(root: Node, deadline: float = math.inf) -> int | None:
    """What ``root`` and every node below it take, as the search counts it; None
    when ``deadline`` passes before they are all counted."""
    total = 0
    stack = [root]
    counted = 0
    while stack:
        node = stack.pop()
        total += node_bytes(node)
        stack.extend(node.children)
        counted += 1
        if counted & 255 == 0 and now() >= deadline:
            return None
    return total


class Compost:
    """Old trees waiting to be freed, and what they take (:attr:`bytes`)."""

    def __init__(self) -> None:
        self._nodes: list[Node] = []
        self.bytes = 0

    def add(self, root: Node, size: int) -> None:
        """Take the tree under ``root``, which takes ``size`` bytes as counted."""
        self._nodes.append(root)
        self.bytes += size

    def clear(self, until: float) -> None:
        """Free nodes until none is left or ``until`` (a :func:`~stawvs_ap.bots.base.now`
        reading) has passed. Each node is freed alone: its children are taken
        from it first, so that freeing it cannot set off freeing a whole subtree."""
        nodes = self._nodes
        freed = 0
        while nodes:
            node = nodes.pop()
            nodes.extend(node.children)
            node.children = []
            self.bytes -= node_bytes(node)
            del node
            freed += 1
            if freed & 63 == 0 and now() >= until:
                break
        if not nodes:
            self.bytes = 0
