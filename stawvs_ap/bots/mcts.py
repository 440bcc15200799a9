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
* **Proven values** (MCTS-Solver: Winands, Björnsson and Saito, 2008; Nijssen
  and Winands for more players). A node whose game is over is proven, with
  its result; so is a node all of whose moves are proven (worth the best of
  them for the player to move) and a node with a proven move that wins alone
  for the player to move. A proven child is never sampled again, a proven
  root ends the search, and the move chosen is never one that throws away a
  proven win or shared win (see :meth:`MCTSBot._ranked`).
* **Calibrated values shown**: the values an analysis reports are shares of
  the win: a proven move's exact share, else its mean reward mapped by
  :func:`~stawvs_ap.bots.calibration.calibrated` (lines fitted to self-play
  outcomes; ``calibrate=false`` reports the mean itself). The search and the
  move it plays use the mean rewards alone.
* **The exact solver at the root** (:mod:`stawvs_ap.bots.solver`): once at
  most ``solve_below`` free pyramids are left, the solver gets a share
  (``solver``) of the budget first; when it proves the position (for three or
  four players: proves it not lost), the bot plays the first of its ``best``
  moves. Its transposition table is kept between moves. ``solve=false``
  turns both off: the search is then the one before the solver.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from heapq import heappop
from typing import Any

from ..core.moves import Move
from ..core.position import Position
from .base import Bot, Budget, Candidate, now
from .calibration import calibrated
from .knowledge import move_estimates, player_values, prior_move
from .options import (
    ITERATIONS,
    MEMORY,
    SEARCH_SECONDS,
    Settings,
    options_of,
    setting,
    shared_setting,
    with_changes,
)
from .simulate import estimate_rewards, policy_playout, rewards
from .solver import TABLE_ENTRY_BYTES, Solution, Solver
from .tree import ENTRY_BYTES, NODE_BYTES, Compost, Node, Proof, back_up, find, subtree_bytes

__all__ = [
    "MIN_SOLVER_SECONDS",
    "SOLVER_NODES_PER_ITERATION",
    "SOLVER_TABLE",
    "MCTSBot",
    "MCTSSettings",
]

#: Positions the root solver may visit per iteration of an iteration budget (a
#: solver position costs about a tenth of an iteration), so that a bot given
#: iterations answers the same every time.
SOLVER_NODES_PER_ITERATION = 10
#: The shortest time share the root solver is asked to use: less proves nothing.
MIN_SOLVER_SECONDS = 1e-4
#: Entries of the bot's solver table at most (about 90 MB), and never more than
#: half of its ``memory``: the table counts against the cap with the tree.
SOLVER_TABLE = 1 << 17


@dataclass(frozen=True, slots=True)
class MCTSSettings(Settings):
    """The options of :class:`MCTSBot` (its documentation says what each does),
    each declared once here: its type, default, help and range."""

    exploration: float = setting(0.25, "the UCB constant", low=0, high=100)
    widening: float = setting(
        2.0,
        "progressive widening: a node visited n times has about 1 + widening·√n children",
        low=0,
        high=100,
    )
    expand_after: int = setting(1, "visits before a leaf's moves are ranked", low=0, high=1000)
    epsilon: float = setting(0.1, "share of uniformly random playout moves", low=0, high=1)
    samples: int = setting(2, "random moves each playout move is the best of", low=1, high=100)
    margin: float = setting(0.1, "share of a finished game's reward from the margin", low=0, high=1)
    plies: int = setting(
        0, "playout moves before a leaf is evaluated (-1: to the end of the game)", low=-1, high=500
    )
    temperature: float = setting(
        4.0,
        "points of lead that make a leaf worth 73% rather than 50%",
        low=0,
        high=1000,
        above=True,
    )
    minimax: float = setting(0.4, "weight of the best line's value in selection", low=0, high=1)
    reuse: bool = setting(True, "keep the subtree of the position reached between moves")
    memory: int = shared_setting(MEMORY)
    solve: bool = setting(True, "prove values in the tree and solve small endgames exactly")
    solver: float = setting(0.5, "share of the budget the root solver may take", low=0, high=1)
    solve_below: int = setting(
        16, "free pyramids at most for the root solver to try", low=0, high=64
    )
    calibrate: bool = setting(
        True, "show values as win shares fitted to self-play outcomes (docs/calibration.md)"
    )


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
    options = (SEARCH_SECONDS, ITERATIONS, *options_of(MCTSSettings))

    def __init__(
        self,
        *,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        settings: MCTSSettings | None = None,
        **changes: Any,
    ) -> None:
        """``settings`` (default: the defaults), with ``changes`` made: options by
        name, as in ``MCTSBot(seconds=0.5, exploration=0.3)``."""
        if seconds is None and iterations is None:
            seconds = 1.0
        super().__init__(seed=seed, seconds=seconds, iterations=iterations)
        self.settings = with_changes(settings or MCTSSettings(), changes, self.name)
        half = (self.settings.memory << 20) // 2 // TABLE_ENTRY_BYTES
        self._solver = Solver(max(1, min(SOLVER_TABLE, half)))
        #: The root solver's answer of the last question, when it ran.
        self.last_solution: Solution | None = None
        self._root: Node | None = None
        #: What the tree of ``_root`` takes, as :mod:`stawvs_ap.bots.tree` counts it.
        self._tree_bytes = 0
        self._compost = Compost()
        self._deadline = math.inf
        #: Iterations run by the last search (reused visits not counted).
        self.last_iterations = 0
        #: Whether the first candidate of the last analysis has a proven value.
        self.last_exact = False

    def forget(self) -> None:
        """Drop the tree kept from earlier questions. It is taken apart a slice at a
        time by later searches (see :class:`~stawvs_ap.bots.tree.Compost`), so that
        forgetting a large tree never delays an answer."""
        if self._root is not None:
            self._compost.add(self._root, self._tree_bytes)
        self._root, self._tree_bytes = None, 0

    def tree_bytes(self) -> int:
        """The memory the search takes, counted as the cap counts it: the kept
        tree, the old trees not yet freed and the root solver's table."""
        return self._tree_bytes + self._compost.bytes + self._solver.table_bytes()

    # -- the search ------------------------------------------------------------

    def _reused_root(self, position: Position, deadline: float = math.inf) -> Node:
        """The node of ``position`` in the previous tree, within one round of moves of
        its root, if it is found before ``deadline``; a new node otherwise. The rest
        of the previous tree goes to the compost."""
        old, self._root = self._root, None
        old_bytes, self._tree_bytes = self._tree_bytes, NODE_BYTES
        found = None
        if self.settings.reuse and old is not None and old.position.rules == position.rules:
            found = find(old, position, position.rules.numplayers + 1, deadline)
        if found is None:
            if old is not None:
                self._compost.add(old, old_bytes)
            return Node(position, None, 0)
        node, parent = found
        assert old is not None
        if parent is not None:
            parent.children.remove(node)  # the rest of the old tree goes, this stays
            kept = subtree_bytes(node, deadline)
            if kept is None:  # too large to measure in the time left: start afresh
                self._compost.add(old, old_bytes)
                self._compost.add(node, 0)
                return Node(position, None, 0)
            self._compost.add(old, old_bytes - kept)
            old_bytes = kept
        node.move, node.mover = None, 0
        self._tree_bytes = old_bytes
        return node

    def _search(self, position: Position, budget: Budget) -> Node:
        start = now()
        deadline = self._deadline = budget.deadline(start)
        limit = budget.limit()
        root = self._reused_root(position, deadline)
        # Old trees are freed here, in at most half of a time budget; what is left
        # waits for the next search (and counts against the memory cap meanwhile).
        self._compost.clear(deadline if budget.seconds is None else start + budget.seconds / 2)
        if root.untried is None and not root.children:
            root.untried = move_estimates(position)
            self._tree_bytes += ENTRY_BYTES * len(root.untried)
        done = 0
        while done < limit:
            self._iterate(root)
            done += 1
            clock = now()
            if clock >= deadline or root.proven is not None:
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
    def _decided(root: Node, left: int) -> bool:
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

    def _iterate(self, root: Node) -> None:
        """One iteration: descend, add a node (unless the tree is full), play out,
        back up the rewards (and, with ``solve``, the proofs)."""
        node = root
        path = [root]
        grows = self.tree_bytes() < self.settings.memory << 20
        solve = self.settings.solve
        while True:
            position = node.position
            if position.is_over:
                shares = rewards(position.scores(), self.settings.margin)
                node.values = shares
                if solve:
                    node.proven = Proof(shares, tuple(position.winners()))
                break
            if node.untried is None:
                if (node.visits < self.settings.expand_after and node is not root) or not grows:
                    shares = self._playout(position)
                    break
                node.untried = move_estimates(position)
                self._tree_bytes += ENTRY_BYTES * len(node.untried)
            if (
                node.untried
                and (
                    len(node.children) < 1 + self.settings.widening * math.sqrt(node.visits)
                    # every child proven: only a new one can be sampled
                    or (solve and all(c.proven is not None for c in node.children))
                )
                and (grows or not root.children)  # the root always gets a first child
            ):
                move = prior_move(heappop(node.untried))
                after, _ = position.play(move)
                node = Node(after, move, position.currplayer, len(path[-1].children))
                path[-1].children.append(node)
                path.append(node)
                self._tree_bytes += NODE_BYTES - ENTRY_BYTES
                node.values = self._estimate(after)
                if solve and after.is_over:
                    node.proven = Proof(node.values, tuple(after.winners()))
                shares = self._playout(after) if self.settings.plies else node.values
                break
            chosen = self._select(node)
            if chosen is None:  # every child proven, and no room for another
                shares = self._playout(position)
                break
            node = chosen
            path.append(node)
        below: Node | None = None
        for visited in reversed(path):
            visited.visits += 1
            if visited.mover:
                visited.total += shares[visited.mover - 1]
            if below is not None:
                back_up(visited, below)
                if solve and visited.proven is None:
                    self._prove(visited)
            below = visited

    @staticmethod
    def _prove(node: Node) -> None:
        """Mark ``node`` proven when its children prove it (see :class:`Proof`)."""
        mover = node.position.currplayer
        me = mover - 1
        best: Proof | None = None
        every = not node.untried
        for child in node.children:
            proof = child.proven
            if proof is None:
                every = False
                continue
            if proof.winners == (mover,):
                node.proven = proof
                node.values = proof.rewards
                return
            if best is None or proof.rewards[me] > best.rewards[me]:
                best = proof
        if every and best is not None:
            node.proven = best
            node.values = best.rewards

    def _playout(self, position: Position) -> list[float]:
        """Every player's reward from a playout of ``position`` (none with ``plies=0``)."""
        if self.settings.plies:
            position = policy_playout(
                position,
                self.rng,
                epsilon=self.settings.epsilon,
                samples=self.settings.samples,
                max_plies=None if self.settings.plies < 0 else self.settings.plies,
                deadline=self._deadline,
            )
        return self._estimate(position)

    def _estimate(self, position: Position) -> list[float]:
        """Every player's reward as the evaluation of ``position`` says."""
        if position.is_over:
            return rewards(position.scores(), self.settings.margin)
        return estimate_rewards(player_values(position), self.settings.temperature)

    def _select(self, node: Node) -> Node | None:
        """The child with the best UCB1 score for the player to move at ``node``, its
        mean reward mixed with its implicit minimax value (weight ``minimax``);
        with ``solve``, never a proven child (None when every child is)."""
        scale = self.settings.exploration * math.sqrt(math.log(node.visits))
        weight = self.settings.minimax
        player = node.position.currplayer - 1
        skip_proven = self.settings.solve
        best = None
        best_score = -1.0
        for child in node.children:
            if skip_proven and child.proven is not None:
                continue
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
        solved, budget = self._root_solution(position, budget)
        self.last_exact = bool(solved)
        if solved:
            return solved
        root = self._search(position, budget)
        ranked = [c for c in self._ranked(root) if c.move is not None]
        self.last_exact = bool(ranked) and ranked[0].proven is not None
        return [
            Candidate(c.move, c.visits, self._shown(c, position))
            for c in ranked
            if c.move is not None
        ]

    def _shown(self, child: Node, position: Position) -> float:
        """The share of the win a child stands for, for the player to move at
        ``position``: exact when proven (1 for a win alone, 1/k for a win shared by
        k, 0 for a loss), else its mean reward, mapped by
        :func:`~stawvs_ap.bots.calibration.calibrated` with ``calibrate``."""
        mover = position.currplayer
        if child.proven is not None:
            winners = child.proven.winners
            return 1.0 / len(winners) if mover in winners else 0.0
        mean = child.total / child.visits
        return calibrated(mean, position) if self.settings.calibrate else mean

    def _choose(self, position: Position, budget: Budget) -> Move:
        return self._analyse(position, budget)[0].move

    @staticmethod
    def _worth(child: Node, mover: int) -> float:
        """A child's value for ``mover``: its proven reward, else its mean reward."""
        if child.proven is not None:
            return child.proven.rewards[mover - 1]
        return child.total / child.visits

    def _ranked(self, root: Node) -> list[Node]:
        """The root's tried moves, best first: by visits, then mean reward. With
        ``solve``, proofs come first where they decide: the proven root's best
        move (a move worth the root's proof); else a move proven to win alone;
        a move proven to share the win before any unproven move whose mean is
        lower; moves proven lost last."""
        tried = [c for c in root.children if c.visits]
        ranked = sorted(tried, key=lambda c: (c.visits, c.total / c.visits), reverse=True)
        if not self.settings.solve:
            return ranked
        mover = root.position.currplayer
        me = mover - 1
        if root.proven is not None:
            exact = root.proven
            first = [c for c in root.children if c.proven is not None and c.proven == exact][:1]
            return first + [c for c in ranked if c not in first]
        wins: list[Node] = []
        shared: list[tuple[float, Node]] = []
        open_: list[Node] = []
        lost: list[Node] = []
        for child in ranked:
            proof = child.proven
            if proof is None:
                open_.append(child)
            elif proof.winners == (mover,):
                wins.append(child)
            elif mover in proof.winners:
                shared.append((proof.rewards[me], child))
            else:
                lost.append(child)
        shared.sort(key=lambda pair: pair[0], reverse=True)
        middle = open_ + [child for _, child in shared]
        if shared and (not open_ or shared[0][0] >= self._worth(open_[0], mover)):
            middle = [shared[0][1], *open_, *(child for _, child in shared[1:])]
        return wins + middle + lost

    def _root_solution(self, position: Position, budget: Budget) -> tuple[list[Candidate], Budget]:
        """The exact solver's answer at the root, as candidates, when it proves
        the position (for three or four players, proves it not lost) within its
        share of ``budget``; else no candidates and the budget left."""
        self.last_solution = None
        if (
            not self.settings.solve
            or not self.settings.solver
            or position.mode != "collect"
            or position.free.bit_count() > self.settings.solve_below
        ):
            return [], budget
        seconds = None if budget.seconds is None else budget.seconds * self.settings.solver
        if seconds is not None and seconds < MIN_SOLVER_SECONDS:
            return [], budget  # too short a share to prove anything (and 1e-300 · 0.5 is 0)
        nodes = None
        if budget.iterations is not None:
            share = budget.iterations * SOLVER_NODES_PER_ITERATION * self.settings.solver
            nodes = max(1, int(share))
        elif seconds is None:
            seconds = self.settings.solver
        solution = self._solver.solve(position, seconds=seconds, nodes=nodes)
        self.last_solution = solution
        decisive = solution.proven and (
            position.rules.numplayers == 2 or solution.outcome != "loss"
        )
        if decisive and solution.best:
            worth = {"win": 1.0, "shared": 0.5, "loss": 0.0}[solution.outcome or "loss"]
            self.forget()  # the solver's table stays: its entries are proofs
            self.last_iterations = 0
            return [Candidate(move, 0, worth) for move in solution.best], budget
        if budget.seconds is not None:
            left = budget.seconds - solution.seconds
            budget = Budget(max(left, budget.seconds * 0.05), budget.iterations)
        return [], budget

    def searched_tree(self) -> Node | None:
        """The root of the last search's tree (None when the root solver answered,
        or before any search), for reading only: what an analysis shows of it
        (:mod:`stawvs_ap.bots.analysis`)."""
        return self._root
