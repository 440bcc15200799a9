"""Monte Carlo tree search for 2–4 players: :class:`MCTSBot`.

What it adds to plain UCT (:mod:`stawvs_ap.bots.uct`):

* **Max-n values.** Every node keeps the mean reward of the player who moved
  into it, so each player picks, at their own turns, the move best for
  themselves; with 3–4 players nobody assumes the others gang up on them.
* **Ranked progressive widening.** A node's moves are tried best first, and
  a node visited n times may have about ``widening · √n`` children. Every
  node's moves are ranked by
  :func:`~stawvs_ap.bots.knowledge.move_estimates`, which estimates
  :func:`~stawvs_ap.bots.knowledge.evaluate` of the position each leads to
  (what :class:`~stawvs_ap.bots.simple.GreedyBot` plays by) at a fraction of
  its cost, so that the replies the search looks at first include the
  opponent's best. With hundreds of moves in the middle game, plain UCT
  spreads a quarter second's playouts over moves it tries once; this search
  spends its iterations on the few dozen that matter.
* **Evaluated leaves.** A new leaf is valued by the evaluation of
  :func:`~stawvs_ap.bots.knowledge.player_values` (a logistic function of
  each player's lead, ``temperature`` points wide) rather than by a random
  playout: in this game of territory and sets, a playout to the end is slow
  and mostly noise. ``plies`` > 0 plays that many moves of
  :func:`~stawvs_ap.bots.simulate.policy_playout` first, and ``plies=-1``
  plays to the end; a finished game is valued by its result, mostly the win
  (a shared win split) and partly the score margin (``margin``).
* **Implicit minimax backups** (Lanctot, Winands, Pepels and Sturtevant,
  2014). Beside its mean reward, every node keeps the evaluation of its best
  line in the tree: its own leaf evaluation until it has children, then that
  of its child best for the player to move there (max-n). Selection mixes the
  two (weight ``minimax``): a mean over the opponent's replies is blind to
  the one reply that refutes a move, the backed-up evaluation is not.
* **Tree reuse**: the subtree of the position the game reached is kept from
  the previous search when it is there (a bot plays one game at a time).
* **Early stop**: when no other move can catch up with the most visited one
  in the iterations left, searching on cannot change the answer.
"""

from __future__ import annotations

import math
from collections import deque
from heapq import heappop

from ..collector import collector_paused
from ..core.moves import Move
from ..core.position import Position
from .base import Bot, Budget, Candidate, now
from .knowledge import move_estimates, player_values, prior_move
from .simulate import estimate_rewards, policy_playout, rewards

__all__ = ["MCTSBot"]


class _Node:
    """A position in the tree. ``mover`` moved into it (0 for a fresh root);
    ``total`` sums that player's rewards over the node's ``visits``."""

    __slots__ = (
        "best",
        "children",
        "index",
        "move",
        "mover",
        "position",
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
        self.children: list[_Node] = []
        #: The child whose ``values`` the node's are (see ``values``).
        self.best: _Node | None = None
        # Moves not yet made children, a heap of move_estimates entries; None until needed.
        self.untried: list[int] | None = None
        self.visits = 0
        self.total = 0.0
        # Every player's reward by the implicit minimax backup: the estimate of the
        # node's own position until it has children, then its best child's for
        # the player to move here.
        self.values: list[float] | None = None


def _best_child(node: _Node) -> _Node:
    """The first of ``node``'s children whose ``values`` are best for the player to move there."""
    me = node.position.currplayer - 1
    return max(node.children, key=lambda child: child.values[me] if child.values else -math.inf)


def _back_up(node: _Node, child: _Node) -> None:
    """Update ``node``'s implicit minimax values after an iteration through ``child``
    (new, or with new ``values``): what :func:`_best_child` would give, without a
    look at every child unless ``child`` was the best and fell."""
    values = child.values
    assert values is not None
    me = node.position.currplayer - 1
    best = node.best
    if best is None:
        best = child
    elif child is best:
        if node.values is not None and values[me] < node.values[me]:
            best = _best_child(node)
    else:
        assert best.values is not None
        ahead = values[me] - best.values[me]
        if ahead > 0 or (ahead == 0 and child.index < best.index):
            best = child
    node.best = best
    node.values = best.values


class MCTSBot(Bot):
    """Monte Carlo tree search (see the module's description). Without a budget it
    thinks for one second.

    ``exploration`` is the UCB constant (rewards lie in [0, 1]), ``widening``
    the factor of progressive widening, ``expand_after`` the visits a leaf
    gets before its moves are ranked, ``minimax`` the weight of
    the implicit minimax value in selection, ``plies``, ``temperature``, ``epsilon``
    and ``samples`` tune how leaves are valued (see the module's description
    and :func:`~stawvs_ap.bots.simulate.policy_move`), ``margin`` the
    share of a finished game's reward that comes from the score margin,
    ``reuse`` whether to keep the subtree between moves. The defaults were
    chosen in the arena against :class:`~stawvs_ap.bots.simple.GreedyBot`;
    ``exploration`` and ``widening`` were screened again for the current move
    ordering with ``benchmarks/decisions.py`` (docs/strength.md): a
    narrower, greedier search agrees with a 16,000-iteration search about as
    often at 0.25 s as the old settings (0.5 and 4) did at 1 s.
    """

    name = "mcts"

    def __init__(
        self,
        *,
        seed: int | str | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        exploration: float = 0.25,
        widening: float = 2.0,
        expand_after: int = 1,
        epsilon: float = 0.1,
        samples: int = 2,
        margin: float = 0.1,
        plies: int = 0,
        temperature: float = 4.0,
        minimax: float = 0.4,
        reuse: bool = True,
    ) -> None:
        if seconds is None and iterations is None:
            seconds = 1.0
        super().__init__(seed=seed, seconds=seconds, iterations=iterations)
        self.exploration = exploration
        self.widening = widening
        self.expand_after = expand_after
        self.epsilon = epsilon
        self.samples = samples
        self.margin = margin
        self.plies = plies
        self.temperature = temperature
        self.minimax = minimax
        self.reuse = reuse
        self._root: _Node | None = None
        #: Iterations run by the last search (reused visits not counted).
        self.last_iterations = 0

    def forget(self) -> None:
        self._root = None

    # -- the search ------------------------------------------------------------

    def _reused_root(self, position: Position) -> _Node:
        """The node of ``position`` in the previous tree, within one round of moves of
        its root; a new node when there is none."""
        old, self._root = self._root, None
        if self.reuse and old is not None and old.position.rules == position.rules:
            depth_left = position.rules.numplayers + 1
            queue = deque([(old, 0)])
            while queue:
                node, depth = queue.popleft()
                if node.position == position:
                    node.move, node.mover = None, 0
                    return node
                if depth < depth_left:
                    queue.extend((child, depth + 1) for child in node.children)
        return _Node(position, None, 0)

    def _search(self, position: Position, budget: Budget) -> _Node:
        start = now()
        deadline = budget.deadline(start)
        limit = budget.limit()
        root = self._reused_root(position)
        if root.untried is None and not root.children:
            root.untried = move_estimates(position)
        done = 0
        with collector_paused():
            while done < limit:
                self._iterate(root)
                done += 1
                clock = now()
                if clock >= deadline:
                    break
                if done & 15 == 0:
                    left = limit - done
                    if budget.seconds is not None and clock > start:
                        # The iterations the time left allows, at the rate so far.
                        left = min(left, int((deadline - clock) * done / (clock - start)) + 1)
                    if self._decided(root, left):
                        break
        self.last_iterations = done
        self._root = root
        return root

    @staticmethod
    def _decided(root: _Node, left: int) -> bool:
        """Whether the most visited child stays so whatever the next ``left`` iterations do."""
        if len(root.children) < 2:
            return False
        first = second = 0
        for child in root.children:
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > left

    def _iterate(self, root: _Node) -> None:
        """One iteration: descend, add a node, play out, back up the rewards."""
        node = root
        path = [root]
        while True:
            position = node.position
            if position.is_over:
                shares = rewards(position.scores(), self.margin)
                node.values = shares
                break
            if node.untried is None:
                if node.visits < self.expand_after and node is not root:
                    shares = self._playout(position)
                    break
                node.untried = move_estimates(position)
            if node.untried and len(node.children) < 1 + self.widening * math.sqrt(node.visits):
                move = prior_move(heappop(node.untried))
                after, _ = position.play(move)
                node = _Node(after, move, position.currplayer, len(path[-1].children))
                path[-1].children.append(node)
                path.append(node)
                node.values = self._estimate(after)
                shares = self._playout(after) if self.plies else node.values
                break
            node = self._select(node)
            path.append(node)
        below: _Node | None = None
        for visited in reversed(path):
            visited.visits += 1
            if visited.mover:
                visited.total += shares[visited.mover - 1]
            if below is not None:
                _back_up(visited, below)
            below = visited

    def _playout(self, position: Position) -> list[float]:
        """Every player's reward from a playout of ``position`` (none with ``plies=0``)."""
        if self.plies:
            position = policy_playout(
                position,
                self.rng,
                epsilon=self.epsilon,
                samples=self.samples,
                max_plies=None if self.plies < 0 else self.plies,
            )
        return self._estimate(position)

    def _estimate(self, position: Position) -> list[float]:
        """Every player's reward as the evaluation of ``position`` says."""
        if position.is_over:
            return rewards(position.scores(), self.margin)
        return estimate_rewards(player_values(position), self.temperature)

    def _select(self, node: _Node) -> _Node:
        """The child with the best UCB1 score for the player to move at ``node``, its
        mean reward mixed with its implicit minimax value (weight ``minimax``)."""
        scale = self.exploration * math.sqrt(math.log(node.visits))
        weight = self.minimax
        player = node.position.currplayer - 1
        best = node.children[0]
        best_score = -1.0
        for child in node.children:
            visits = child.visits
            mean = child.total / visits
            if child.values is not None:
                mean += weight * (child.values[player] - mean)
            score = mean + scale / math.sqrt(visits)
            if score > best_score:
                best, best_score = child, score
        return best

    # -- answers ---------------------------------------------------------------

    def _analyse(self, position: Position, budget: Budget) -> list[Candidate]:
        root = self._search(position, budget)
        ranked = sorted(
            (c for c in root.children if c.visits),
            key=lambda c: (c.visits, c.total / c.visits),
            reverse=True,
        )
        return [
            Candidate(c.move, c.visits, c.total / c.visits) for c in ranked if c.move is not None
        ]

    def _choose(self, position: Position, budget: Budget) -> Move:
        return self._analyse(position, budget)[0].move
