"""The mcts bot's proofs (MCTS-Solver) and its switch to the exact solver: a
proven root agrees with the solver, a proven child is never sampled again, a
proven win is never thrown away, and solve=false searches as before."""

from __future__ import annotations

import random

import pytest
from test_solver import small_endgame

from stawvs_ap import Position, solve
from stawvs_ap.bots import MCTSBot
from stawvs_ap.bots.tree import Node, Proof


def endgames(count: int, players: int = 2, seed: int = 11) -> list[Position]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = small_endgame(rng, players, (), pyramids=6)
        if len(list(position.legal_moves())) > 1:
            found.append(position)
    return found


def nodes(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


@pytest.mark.parametrize("position", endgames(6), ids=lambda p: p.notation()[-20:])
def test_a_proven_root_agrees_with_the_exact_solver(position: Position) -> None:
    bot = MCTSBot(seed=1, iterations=4000, solver=0)  # the tree's proofs alone
    bot.analyse(position)
    root = bot._root
    assert root is not None and root.proven is not None
    margin = solve(position).margin
    assert margin is not None
    mover = position.currplayer
    expected = (mover,) if margin > 0 else None
    if expected is not None:
        assert root.proven.winners == expected
    else:
        assert root.proven.winners != (mover,)
        assert (mover in root.proven.winners) == (margin == 0)


def test_a_search_stops_once_its_root_is_proven() -> None:
    position = endgames(1)[0]
    bot = MCTSBot(seed=1, iterations=100_000, solver=0)
    bot.analyse(position)
    assert bot._root is not None and bot._root.proven is not None
    assert bot.last_iterations < 100_000


def test_a_proven_child_is_never_sampled_again() -> None:
    # Visits only grow along an iteration's path: a proven node's visits, once
    # proven, are those of its proof. A search that goes on cannot add to them.
    position = endgames(1, seed=12)[0]
    bot = MCTSBot(seed=1, iterations=60, solver=0, reuse=True)
    bot.analyse(position)
    assert bot._root is not None
    before = {
        id(n): n.visits for n in nodes(bot._root) if n.proven is not None and n is not bot._root
    }
    assert before
    bot.analyse(position, iterations=200)
    after = {id(n): n.visits for n in nodes(bot._root) if id(n) in before}
    assert after == {k: v for k, v in before.items() if k in after}


@pytest.mark.parametrize("position", endgames(6, seed=13), ids=lambda p: p.notation()[-20:])
def test_a_proven_win_is_never_thrown_away(position: Position) -> None:
    solution = solve(position)
    assert solution.margin is not None
    mover = position.currplayer
    move = MCTSBot(seed=2, iterations=300, solver=0).choose(position)
    after = position.play(move)[0]
    reached = solve(after).margin
    assert reached is not None
    # The value after the move, from the mover's side (the next player's margin
    # turned round, two players): a win stays a win, a shared win stays shared.
    kept = reached if after.is_over or after.currplayer == mover else -reached
    if solution.margin > 0:
        assert kept > 0
    elif solution.margin == 0:
        assert kept >= 0


def test_the_root_solver_plays_a_best_move_of_a_small_endgame() -> None:
    position = endgames(1, seed=14)[0]
    bot = MCTSBot(seed=1, iterations=200)
    move = bot.choose(position)
    assert bot.last_solution is not None and bot.last_solution.proven
    assert move in (bot.last_solution.best or ())
    assert move in (solve(position).best or ())


def test_the_root_solver_waits_for_a_small_endgame() -> None:
    position = endgames(1, seed=14)[0]
    bot = MCTSBot(seed=1, iterations=50, solve_below=2)
    bot.choose(position)
    assert bot.last_solution is None


@pytest.mark.parametrize(("seconds", "share"), [(1e-300, 0.5), (0.01, 1e-30)])
def test_a_share_of_time_too_short_to_prove_anything_skips_the_root_solver(
    seconds: float, share: float
) -> None:
    # Each value is in range; their product would be 0 s, which the solver refuses.
    position = endgames(1, seed=14)[0]
    bot = MCTSBot(seed=1, seconds=seconds, solver=share)
    assert position.is_legal(bot.choose(position))
    assert bot.last_solution is None


def test_without_solve_nothing_is_proven_and_the_solver_never_runs() -> None:
    position = endgames(1, seed=15)[0]
    bot = MCTSBot(seed=1, iterations=2000, solve=False)
    bot.analyse(position)
    assert bot.last_solution is None
    assert bot._root is not None
    assert all(node.proven is None for node in nodes(bot._root))


def test_the_same_iterations_give_the_same_answer_with_the_solver() -> None:
    position = endgames(1, seed=16)[0]
    first = MCTSBot(seed=3, iterations=100).analyse(position)
    second = MCTSBot(seed=3, iterations=100).analyse(position)
    assert first == second


def root_with(children: list[tuple[int, float, tuple[int, ...] | None, float]]) -> Node:
    """A root of a 2-player endgame whose children have (visits, mean reward of
    player 1, proven winners or None, proven reward of player 1)."""
    position = endgames(1, seed=17)[0].replace(currplayer=1)
    root = Node(position, None, 0)
    for index, (move, (visits, mean, winners, reward)) in enumerate(
        zip(position.legal_moves(), children, strict=False)
    ):
        child = Node(position.play(move)[0], move, 1, index)
        child.visits, child.total = visits, mean * visits
        if winners is not None:
            child.proven = Proof([reward, 1 - reward], winners)
        root.children.append(child)
        root.visits += visits
    assert len(root.children) == len(children)
    return root


def test_a_move_proven_to_win_comes_before_any_more_visited_move() -> None:
    root = root_with([(100, 0.8, None, 0), (40, 0.9, (2,), 0.05), (3, 0.0, (1,), 0.97)])
    ranked = MCTSBot(seed=1)._ranked(root)
    assert ranked[0] is root.children[2]
    assert ranked[-1] is root.children[1]  # proven lost: last


def test_a_proven_shared_win_is_kept_unless_an_open_move_promises_more() -> None:
    shared = (5, 0.5, (1, 2), 0.5)
    worse = root_with([(100, 0.3, None, 0), shared])
    assert MCTSBot(seed=1)._ranked(worse)[0] is worse.children[1]
    better = root_with([(100, 0.7, None, 0), shared])
    assert MCTSBot(seed=1)._ranked(better)[0] is better.children[0]


def test_without_solve_the_ranking_is_by_visits_alone() -> None:
    root = root_with([(100, 0.8, None, 0), (3, 0.0, (1,), 0.97)])
    assert MCTSBot(seed=1, solve=False)._ranked(root)[0] is root.children[0]
