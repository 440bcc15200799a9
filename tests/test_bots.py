"""The bots' guarantees, over random positions of every variant and player count.

Legal moves only, ``pass`` when it is the only move, the game left unchanged,
the same answers for the same seed and iteration budget, time budgets kept,
and the shape of analyses. How strong the bots are is measured in the arena
(docs/strength.md), never here.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from stawvs_ap import Move, Position, StawvsGame
from stawvs_ap.bots import BOTS, Bot, Candidate, GreedyBot, MCTSBot, RandomBot, UCTBot, knowledge
from stawvs_ap.bots.knowledge import (
    TEMPO,
    cap_sources,
    collection_counts,
    evaluate,
    held_counts,
    kind_values,
    move_estimates,
    move_priors,
    player_values,
    potential,
    prior_estimate,
    prior_move,
    territory,
)
from stawvs_ap.bots.simulate import estimate_rewards, policy_move, policy_playout, rewards
from stawvs_ap.core.moves import PASS
from stawvs_ap.core.playout import random_move
from stawvs_ap.core.scoring import score
from stawvs_ap.errors import IllegalMoveError
from tests.hostile import game_before_end

VARIANT_SETS = [
    (),
    ("hole",),
    ("random",),
    ("hey",),
    ("finalfree",),
    ("pieces-2",),
    ("hole", "hey", "pieces-2"),
]
PLAYERS = [2, 3, 4]
#: Small budgets: the guarantees hold for any budget, and tests must stay quick.
ITERATIONS = 25


def _bots(seed: int = 7) -> list[Bot]:
    return [RandomBot(seed=seed), GreedyBot(seed=seed), MCTSBot(seed=seed), UCTBot(seed=seed)]


def _positions() -> Iterator[tuple[str, StawvsGame]]:
    for variants in VARIANT_SETS:
        for players in PLAYERS:
            for depth in (0, 9, 40):
                label = f"{players}p-{'+'.join(variants) or 'default'}-{depth}"
                seed = zlib.crc32(label.encode())
                yield label, game_before_end(players, variants, seed, depth)


POSITIONS = list(_positions())


def _pass_only_game(players: int, variants: tuple[str, ...]) -> StawvsGame:
    """A game in which the player to move can only pass, found by random play."""
    rng = random.Random(players * 31 + len(variants))
    for attempt in range(200):
        game = StawvsGame.new(players, variants, seed=attempt)
        while not game.gameover:
            if game.position.must_pass():
                return game
            game.move(random_move(game.position, rng))
    raise AssertionError("no pass-only position found")


@pytest.mark.slow
@pytest.mark.parametrize(("label", "game"), POSITIONS, ids=[label for label, _ in POSITIONS])
def test_every_bot_plays_a_legal_move_and_leaves_the_game_alone(
    label: str, game: StawvsGame
) -> None:
    before = game.serialize()
    for bot in _bots():
        move = bot.choose(game, iterations=ITERATIONS)
        assert isinstance(move, Move)
        assert game.is_legal(move), (bot, label, str(move))
        assert game.serialize() == before


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variants", [(), ("hey",), ("pieces-2", "finalfree")])
def test_pass_only_positions_get_pass(players: int, variants: tuple[str, ...]) -> None:
    game = _pass_only_game(players, variants)
    assert game.moves() == ["pass"]
    for bot in _bots():
        assert bot.choose(game, seconds=5) == PASS
        assert [c.move for c in bot.analyse(game, iterations=ITERATIONS)] == [PASS]


@pytest.mark.slow
def test_bots_play_whole_games_of_every_player_count() -> None:
    for players in PLAYERS:
        game = StawvsGame.new(players, ["pieces-2"], seed=players)
        bots = [MCTSBot(seed=1), GreedyBot(seed=2), UCTBot(seed=3), RandomBot(seed=4)]
        while not game.gameover:
            bot = bots[game.currplayer - 1]
            game.move(bot.choose(game, iterations=10))
        assert game.winner


@pytest.mark.slow
@pytest.mark.parametrize("make", [RandomBot, GreedyBot, MCTSBot, UCTBot])
def test_same_seed_and_iterations_give_the_same_answers(make: type[Bot]) -> None:
    for _, game in POSITIONS[1::9]:
        first = make(seed=11).analyse(game, iterations=40)
        again = make(seed=11).analyse(game, iterations=40)
        assert first == again
        assert make(seed=11).choose(game, iterations=40) == make(seed=11).choose(
            game, iterations=40
        )


@pytest.mark.slow
def test_a_sequence_of_moves_with_tree_reuse_is_reproducible() -> None:
    def play(seed: int) -> list[str]:
        game = StawvsGame.new(2, seed=3)
        bots = [MCTSBot(seed=seed), MCTSBot(seed=seed + 1)]
        moves = []
        for _ in range(14):
            move = bots[game.currplayer - 1].choose(game, iterations=60)
            game.move(move)
            moves.append(str(move))
        return moves

    assert play(5) == play(5)


def _tree(bot: MCTSBot) -> Iterator[Any]:
    stack = [bot._root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYERS)
def test_mcts_backs_up_the_best_childs_values_for_the_player_to_move(players: int) -> None:
    # Implicit minimax (max-n): a node with children is worth what its best child
    # is worth, "best" as the player to move at the node sees it (the first such
    # child on a tie). The search keeps this up to date incrementally; this is the
    # plain way. A second search reuses the first one's tree.
    game = game_before_end(players, (), seed=players, plies=4 * players + 3)
    bot = MCTSBot(seed=1)
    for _ in range(2):
        bot.choose(game, iterations=600)
        inner = [node for node in _tree(bot) if node.children]
        assert len(inner) > 10
        for node in inner:
            me = node.position.currplayer - 1
            assert node.values is max((c.values for c in node.children), key=lambda v: v[me])
        game.move(bot.choose(game, iterations=50))


def test_mcts_tries_every_nodes_moves_best_estimated_first() -> None:
    # Progressive widening by move_estimates: a node's children are its best
    # estimated moves, in order, and every move still untried is estimated no better.
    game = game_before_end(2, (), seed=5, plies=12)
    bot = MCTSBot(seed=1)
    bot.choose(game, iterations=300)
    inner = [node for node in _tree(bot) if len(node.children) > 1 and node.untried]
    assert len(inner) > 3
    for node in inner:
        estimates = {prior_move(e): prior_estimate(e) for e in move_estimates(node.position)}
        tried = [estimates[child.move] for child in node.children]
        assert tried == sorted(tried, reverse=True)
        assert max(prior_estimate(e) for e in node.untried) <= tried[-1]


def test_the_player_to_move_is_credited_with_the_tempo() -> None:
    _, game = POSITIONS[1]
    position = game.position
    assert position.mode == "collect" and position.currplayer == 2
    other = position.replace(currplayer=1)
    assert player_values(position)[1] - player_values(other)[1] == pytest.approx(TEMPO)
    assert player_values(other)[0] - player_values(position)[0] == pytest.approx(TEMPO)


def test_with_hey_a_move_is_credited_with_the_pyramid_it_lands_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With hey a cap claims the pyramid it leaves, so landing on one is half a claim.
    game = dict(POSITIONS)["2p-hey-9"]
    position = game.position
    assert position.mode == "collect"
    credited = {prior_move(e): prior_estimate(e) for e in move_priors(position)}
    weight = knowledge.LANDING_WEIGHT
    monkeypatch.setattr(knowledge, "LANDING_WEIGHT", 0.0)
    plain = {prior_move(e): prior_estimate(e) for e in move_priors(position)}
    mine = kind_values(tuple(held_counts(position, position.currplayer)))
    assert credited.keys() == plain.keys()
    for move, estimate in credited.items():
        assert move.dest is not None
        landing = weight * mine[position.board[move.dest]]
        assert estimate - plain[move] == pytest.approx(landing, abs=2 / 256)


def test_mcts_reuses_the_subtree_of_the_position_reached() -> None:
    game = StawvsGame.new(2, seed=8)
    for move in ["b7", "c7", "d7", "e7", "f7", "g7"]:
        game.move(move)
    bot = MCTSBot(seed=1)
    mine = bot.choose(game, iterations=400)
    game.move(mine)
    game.move(GreedyBot(seed=1).choose(game))
    kept = bot._reused_root(game.position)  # what the next search starts from
    assert kept.position == game.position
    bot._root = kept
    assert game.is_legal(bot.choose(game, iterations=20))
    assert MCTSBot(seed=1, reuse=False)._reused_root(game.position).visits == 0


@pytest.mark.slow  # searches timed on the wall clock
@pytest.mark.parametrize("make", [MCTSBot, UCTBot, GreedyBot])
def test_time_budgets_are_kept(make: type[Bot]) -> None:
    # 10% and a few milliseconds is the promise; the machine running the tests
    # may be shared, so allow some more, but far less than the budget itself.
    # A bot that overruns does so every time; one stall of a shared machine (the
    # process descheduled, a collection after the search) does not repeat, so
    # an overrun is measured once more before it counts.
    budget = 0.15
    for _, game in POSITIONS[4::8]:
        for _attempt in range(2):
            started = time.perf_counter()
            move = make(seed=1).choose(game, seconds=budget)
            took = time.perf_counter() - started
            assert game.is_legal(move)
            if took <= budget * 1.1 + 0.04:
                break
        assert took <= budget * 1.1 + 0.04, (make, took)


def test_analyse_lists_candidates_best_first() -> None:
    _, game = POSITIONS[2]
    for bot in (MCTSBot(seed=3), UCTBot(seed=3)):
        found = bot.analyse(game, iterations=200)
        assert all(isinstance(c, Candidate) for c in found)
        assert len({c.move for c in found}) == len(found)
        assert all(game.is_legal(c.move) and 0 <= c.value <= 1 for c in found)
        assert [c.visits for c in found] == sorted((c.visits for c in found), reverse=True)
        assert sum(c.visits for c in found) <= 200
        assert found[0].move == type(bot)(seed=3).choose(game, iterations=200)
        assert len(bot.analyse(game, iterations=50, top=3)) <= 3
        assert found[0].to_dict()["move"] == str(found[0].move)
    greedy = GreedyBot(seed=3).analyse(game)
    assert len(greedy) == len(game.moves())
    assert [c.value for c in greedy] == sorted((c.value for c in greedy), reverse=True)
    assert {c.move for c in RandomBot(seed=1).analyse(game)} == set(game.legal_moves)


def test_a_finished_game_has_no_move() -> None:
    game = game_before_end(2, (), 1, 0)
    while not game.gameover:
        game.move(random_move(game.position, random.Random(1)))
    for bot in _bots():
        with pytest.raises(IllegalMoveError):
            bot.choose(game)


def test_bots_accept_positions_and_names_are_registered() -> None:
    position = Position.initial(3, ["hole"], seed=2)
    assert position.is_legal(MCTSBot(seed=1).choose(position, iterations=5))
    assert set(BOTS) == {"random", "greedy", "mcts", "uct"}


# -- the knowledge the bots use ------------------------------------------------------


def test_kind_values_are_potential_gains_and_potential_is_at_least_the_score() -> None:
    rng = random.Random(5)
    for _ in range(300):
        collection = [rng.randrange(12) for _ in range(rng.randrange(30))]
        counts = collection_counts(collection)
        values = kind_values(tuple(counts))
        for kind in range(12):
            grown = counts.copy()
            grown[kind] += 1
            assert values[kind] == pytest.approx(potential(grown) - potential(counts))
        assert potential(counts) >= score(collection)


def test_kind_values_kept_by_the_cache_equal_those_computed_afresh() -> None:
    # kind_values keeps its answers (lru_cache): over every player's counts in
    # positions of whole random games, of every variant set and player count,
    # the answer the cache gives, the first time and again, must be the one the
    # plain function computes.
    rng = random.Random(11)
    plain = kind_values.__wrapped__
    seen = 0
    for _, game in POSITIONS:
        position = game.position
        while True:
            for player in range(1, position.rules.numplayers + 1):
                counts = tuple(held_counts(position, player))
                expected = plain(counts)
                assert kind_values(counts) == expected, counts
                assert kind_values(counts) == expected, counts  # from the cache
                seen += 1
            if position.is_over:
                break
            position = position.play(random_move(position, rng))[0]
    assert seen > 1000


@pytest.mark.parametrize(("label", "game"), POSITIONS[::3], ids=[lb for lb, _ in POSITIONS[::3]])
def test_move_priors_rank_exactly_the_legal_moves(label: str, game: StawvsGame) -> None:
    ranked = [prior_move(entry) for entry in move_priors(game.position)]
    assert sorted(map(str, ranked)) == sorted(game.moves())


@pytest.mark.parametrize(("label", "game"), POSITIONS[1::3], ids=[lb for lb, _ in POSITIONS[1::3]])
def test_move_estimates_are_the_evaluation_after_each_move_but_for_cut_off_regions(
    label: str, game: StawvsGame
) -> None:
    # The territory is worked out once per landing square, with the claimed
    # pyramid still there; the estimate only takes the claimed square out of its
    # owner's territory. Where the claim changes nothing else, it is exact.
    position = game.position
    estimates = {prior_move(e): prior_estimate(e) for e in move_estimates(position)}
    assert sorted(map(str, estimates)) == sorted(game.moves())
    exact = 0
    for move, estimate in estimates.items():
        after = position.play(move)[0]
        if move.target is not None and move.dest is not None:
            sources = cap_sources(after)
            unclaimed = territory(after.free | 1 << move.target, sources)
            claimed = territory(after.free, sources)
            if claimed != [region & ~(1 << move.target) for region in unclaimed]:
                continue
        exact += 1
        assert estimate == pytest.approx(evaluate(after, position.currplayer), abs=1 / 256)
    assert exact > len(estimates) / 2


@pytest.mark.parametrize("variants", VARIANT_SETS)
@pytest.mark.parametrize("players", PLAYERS)
def test_policy_moves_are_legal_and_playouts_reach_the_end(
    players: int, variants: tuple[str, ...]
) -> None:
    rng = random.Random(players)
    for start_plies in (0, 20):
        game = game_before_end(players, variants, players * 7 + start_plies, start_plies)
        position = game.position
        while not position.is_over:
            move = PASS if position.must_pass() else policy_move(position, rng, samples=3)
            assert position.is_legal(move), (move, position.notation())
            position, _ = position.play(move)
        assert policy_playout(game.position, random.Random(5)).is_over


def test_the_policy_claims_the_most_valuable_pyramid_of_its_slides() -> None:
    # Without exploration the policy claims, on the lines of the slide it keeps,
    # the pyramid worth most to the mover.
    _, game = POSITIONS[1]
    position = game.position
    assert position.mode == "collect"
    mine = kind_values(tuple(held_counts(position, position.currplayer)))
    for seed in range(20):
        move = policy_move(position, random.Random(seed), epsilon=0.0, samples=2)
        assert move.source is not None and move.dest is not None and move.target is not None
        best = max(mine[position.board[sq]] for sq in position.claims(move.source, move.dest))
        assert mine[position.board[move.target]] == best


def test_a_truncated_playout_stops_after_its_plies() -> None:
    _, game = POSITIONS[1]
    start = game.position
    assert policy_playout(start, random.Random(1), max_plies=0) == start
    rng = random.Random(1)
    expected = start
    for _ in range(3):
        expected, _ = expected.play(policy_move(expected, rng))
    assert policy_playout(start, random.Random(1), max_plies=3) == expected
    assert not expected.is_over


def test_rewards_are_shares() -> None:
    _, game = POSITIONS[1]
    assert rewards([40, 40, 30]) == [0.5, 0.5, 0.0]
    assert rewards([50, 40], 0.2)[0] > 0.8 > rewards([50, 40], 0.2)[1]
    shares = estimate_rewards([10.0, 0.0], 4.0)
    assert shares[0] == pytest.approx(1 - shares[1]) and shares[0] > 0.9
    assert evaluate(game.position, 1) == pytest.approx(-evaluate(game.position, 2))
