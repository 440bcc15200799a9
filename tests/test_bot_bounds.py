"""The bots stay bounded whatever their options: legal answers under any option
values the declarations allow, search trees that stop growing at their memory
cap and count exactly what they hold, old trees freed a slice at a time, and
deadlines that reach inside playouts.

How long a search takes is measured by ``benchmarks/bots.py``, never here:
these tests check the mechanisms with iteration budgets and past deadlines,
so that no result depends on the speed of the machine.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame
from stawvs_ap.bots import BOTS, MCTSBot, UCTBot, base, uct
from stawvs_ap.bots.simulate import policy_move, policy_playout
from stawvs_ap.bots.solver import TABLE_ENTRY_BYTES
from stawvs_ap.bots.tree import NODE_BYTES, Compost, Node, node_bytes, subtree_bytes
from stawvs_ap.core.moves import PASS
from stawvs_ap.core.playout import random_move, random_playout
from tests.hostile import VARIANT_SETS, new_game, play_random, scaled


def _game(players: int, variants: tuple[str, ...], seed: int, plies: int) -> StawvsGame:
    """A seeded game ``plies`` random moves in (fewer if it ends)."""
    return play_random(new_game(players, variants, seed), random.Random(seed), plies)


def _early_collection() -> StawvsGame:
    """Two players, caps placed: about 800 moves, the widest part of the game."""
    game = _game(2, (), 18, 6)
    assert game.mode == "collect" and len(game.moves()) > 500
    return game


def _nodes(root: Any) -> int:
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


# -- any options -------------------------------------------------------------------


@st.composite
def option_values(draw: st.DrawFn, bot: type) -> dict[str, object]:
    values: dict[str, object] = {}
    for option in bot.options:
        if option.name in ("seconds", "iterations") or draw(st.booleans()):
            continue
        if option.kind is bool:
            values[option.name] = draw(st.booleans())
        elif option.kind is int:
            high = min(int(option.high), 6) if option.name == "plies" else int(option.high)
            values[option.name] = draw(st.integers(int(option.low), high))
        else:
            values[option.name] = draw(
                st.floats(option.low, option.high, exclude_min=option.above, allow_nan=False)
            )
    return values


@st.composite
def bot_cases(draw: st.DrawFn) -> tuple[str, dict[str, object], StawvsGame]:
    name = draw(st.sampled_from(sorted(BOTS)))
    options = draw(option_values(BOTS[name]))
    game = _game(
        draw(st.integers(2, 4)),
        draw(st.sampled_from(VARIANT_SETS)),
        draw(st.integers(0, 10**6)),
        draw(st.sampled_from([0, 5, 12, 30, 60])),
    )
    return name, options, game


@pytest.mark.slow
@settings(max_examples=scaled(300))
@given(bot_cases())
def test_under_any_declared_option_values_every_bot_plays_legally(
    case: tuple[str, dict[str, object], StawvsGame],
) -> None:
    name, options, game = case
    if game.gameover:
        return
    before = game.serialize()
    bot = BOTS[name](seed=3, **options)  # type: ignore[arg-type]
    move = bot.choose(game, iterations=12)
    assert game.is_legal(move), (name, options, game.position.notation())
    found = bot.analyse(game, iterations=6, top=3)
    assert 1 <= len(found) <= 3 and all(game.is_legal(c.move) for c in found)
    assert all(math.isfinite(c.value) for c in found)
    assert game.serialize() == before


# -- the memory cap -----------------------------------------------------------------


@pytest.mark.slow
def test_an_mcts_tree_stops_growing_at_its_cap_and_the_search_goes_on() -> None:
    game = _early_collection()
    capped = MCTSBot(seed=1, memory=1)
    found = capped.analyse(game, iterations=1500)
    cap = 1 << 20
    # One iteration adds at most a node and one node's heap of untried moves.
    one_step = NODE_BYTES + 48 * len(game.moves())
    assert cap <= capped.tree_bytes() <= cap + one_step
    nodes = _nodes(capped._root)
    assert nodes < 1500 / 3  # an uncapped search adds a node nearly every iteration
    # The search went on long after the tree stopped growing (till its answer was sure).
    assert sum(c.visits for c in found) == capped.last_iterations > 2 * nodes
    # Still a search: the root's visits keep growing, the answer is legal and
    # among what a search of the same length without a cap rates best.
    free = [c.move for c in MCTSBot(seed=1).analyse(game, iterations=1500)[:5]]
    assert found[0].move in free
    capped.analyse(game, iterations=300)  # the same position: the tree is kept, not grown
    assert _nodes(capped._root) == nodes


def test_the_root_solvers_table_counts_against_the_cap_and_holds_half_of_it_at_most() -> None:
    game = new_game(2, (), 5)
    rng = random.Random(5)
    while game.position.free.bit_count() > 16 or game.mode != "collect":
        game.move(random_move(game.position, rng))
    assert not game.gameover
    bot = MCTSBot(seed=1, memory=1)
    bot.choose(game, iterations=600)  # the solver may visit 3,000 positions
    table = bot._solver.table_bytes()
    assert table == len(bot._solver._table) * TABLE_ENTRY_BYTES > 0
    assert table <= (1 << 20) // 2
    assert bot.tree_bytes() == bot._tree_bytes + bot._compost.bytes + table  # counted with the tree


@pytest.mark.slow
def test_a_uct_tree_stops_growing_at_its_cap() -> None:
    game = _early_collection()
    bot = UCTBot(seed=1, memory=1)
    root = bot._search(game.position, base.Budget(iterations=200))
    counted = sum(
        uct.NODE_BYTES + uct.MOVE_BYTES * (len(n.untried) + len(n.children)) for n in _walk(root)
    )
    biggest = uct.NODE_BYTES + uct.MOVE_BYTES * len(game.moves())
    assert (1 << 20) <= counted <= (1 << 20) + biggest
    assert root.visits == 200
    assert game.is_legal(bot.choose(game, iterations=50))


def _walk(root: Any) -> list[Any]:
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


@pytest.mark.slow
def test_the_count_of_a_kept_tree_is_exact_across_moves_reuse_and_forgetting() -> None:
    # The cap is only as good as the count: after every search the kept tree's
    # count is what its nodes hold, and the compost's what it still holds.
    game = _game(3, ("hey",), 4, 10)
    bots = {p: MCTSBot(seed=p) for p in (1, 2, 3)}
    for _ in range(9):
        bot = bots[game.currplayer]
        game.move(bot.choose(game, iterations=150))
        assert bot._root is not None
        assert bot._tree_bytes == subtree_bytes(bot._root)
        assert bot._compost.bytes == sum(
            node_bytes(n) for r in bot._compost._nodes for n in _walk(r)
        )
    bot = bots[1]
    held = bot.tree_bytes()
    bot.forget()
    assert bot._root is None and bot.tree_bytes() == held  # not freed yet: counted
    bot.choose(game, iterations=20)
    assert bot._compost.bytes == 0 and not bot._compost._nodes


def test_the_compost_frees_a_slice_at_a_time() -> None:
    game = _early_collection()
    bot = MCTSBot(seed=1)
    bot.analyse(game, iterations=400)
    root, size = bot._root, bot.tree_bytes()
    assert root is not None and _nodes(root) > 300
    compost = Compost()
    compost.add(root, size)
    compost.clear(until=-math.inf)  # a deadline already past: one slice of 64 nodes
    assert 0 < compost.bytes < size
    assert sum(node_bytes(n) for r in compost._nodes for n in _walk(r)) == compost.bytes
    assert not root.children  # taken apart, so that freeing it frees it alone
    compost.clear(until=math.inf)
    assert compost.bytes == 0 and not compost._nodes


def test_a_tree_too_large_to_search_in_time_is_not_reused() -> None:
    # Reuse looks for the position reached within the deadline, and starts
    # afresh rather than overrun it.
    game = _game(2, (), 5, 12)
    bot = MCTSBot(seed=1)
    game.move(bot.choose(game, iterations=300))
    game.move(random_move(game.position, random.Random(1)))
    assert bot._reused_root(game.position, deadline=-math.inf).visits == 0
    assert bot._compost.bytes > 0


def test_subtree_bytes_gives_up_at_the_deadline() -> None:
    bot = MCTSBot(seed=1)
    bot.analyse(_early_collection(), iterations=400)
    assert bot._root is not None
    assert subtree_bytes(bot._root, deadline=-math.inf) is None
    assert subtree_bytes(bot._root) == bot._tree_bytes
    assert node_bytes(Node(bot._root.position, None, 0)) == NODE_BYTES


# -- deadlines inside iterations ------------------------------------------------------


def test_playouts_stop_at_the_deadline() -> None:
    start = _game(4, (), 2, 13).position
    assert random_playout(start, random.Random(1), deadline=-math.inf) == start
    assert policy_playout(start, random.Random(1), deadline=-math.inf) == start
    assert random_playout(start, random.Random(1)).is_over
    assert policy_playout(start, random.Random(1), samples=100, max_plies=None).is_over


def test_a_policy_move_past_its_deadline_looks_at_no_more_than_eight_samples() -> None:
    position = _early_collection().position

    class Counting(random.Random):
        calls = 0

        def random(self) -> float:
            return super().random()

        def randrange(self, *args: Any, **kwargs: Any) -> int:
            Counting.calls += 1
            return super().randrange(*args, **kwargs)

    rng = Counting(1)
    policy_move(position, rng, epsilon=0.0, samples=100, deadline=-math.inf)
    late = Counting.calls
    Counting.calls = 0
    policy_move(position, Counting(1), epsilon=0.0, samples=100)
    assert late < Counting.calls / 5
    move = policy_move(position, Counting(1), epsilon=0.0, samples=100, deadline=-math.inf)
    assert position.is_legal(move)


def test_an_iteration_budget_stops_at_the_longest_think(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "MAX_SECONDS", 0.05)
    game = _early_collection()
    for bot in (MCTSBot(seed=1), UCTBot(seed=1)):
        found = bot.analyse(game, iterations=1_000_000)
        assert 0 < sum(c.visits for c in found) < 1_000_000


def test_a_forced_pass_is_answered_without_a_search() -> None:
    game = _game(2, (), 3, 0)
    rng = random.Random(3)
    while not game.position.must_pass():
        if game.gameover:
            game = _game(2, (), rng.randrange(10**6), 0)
            continue
        game.move(random_move(game.position, rng))
    bot = MCTSBot(seed=1)
    bot.choose(_early_collection(), iterations=200)
    held = bot.tree_bytes()
    bot.last_iterations = -1
    assert bot.choose(game) == PASS
    assert bot.last_iterations == -1  # no search ran
    assert bot._root is None and bot.tree_bytes() == held  # the tree waits in the compost
