"""The research adapters (the rl extra): OpenSpiel's and PettingZoo's own checks
accept the game, the actions are the engine's legal moves, and the returns
are the engine's result. Skipped without the extra, except in CI
(STAWVS_REQUIRE_RL=1)."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

if not os.environ.get("STAWVS_REQUIRE_RL"):
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")

import numpy as np
import pyspiel
import reference_data
from open_spiel.python.algorithms import evaluate_bots, mcts
from pettingzoo.test import api_test, seed_test

import stawvs_ap.openspiel as spiel_stawvs
from stawvs_ap import Move, Position, StawvsError, StawvsGame
from stawvs_ap.bots import GreedyBot
from stawvs_ap.encoding import (
    FIRST_SLIDE,
    NUM_ACTIONS,
    PASS_ACTION,
    decode,
    encode,
    legal_actions,
)
from stawvs_ap.pettingzoo import env, raw_env

ROOT = Path(__file__).resolve().parent.parent
#: Every reference game; the first three in the default run, the rest in the long battery.
REFERENCE_GAMES = [
    pytest.param(record, id=str(record["id"]), marks=() if n < 3 else pytest.mark.slow)
    for n, record in enumerate(reference_data.games())
]

# -- the encoding ------------------------------------------------------------------


def test_every_action_number_stands_for_one_move_and_back() -> None:
    assert [encode(decode(a)) for a in range(NUM_ACTIONS)] == list(range(NUM_ACTIONS))
    assert decode(PASS_ACTION).is_pass and str(decode(FIRST_SLIDE)) == "a8-b8,a8"


def test_a_move_off_the_lines_has_no_number() -> None:
    with pytest.raises(StawvsError) as off:
        encode(Move.parse("a8-b6,a8"))
    assert off.value.code == "BAD_ARGUMENT"
    with pytest.raises(StawvsError) as out:
        decode(NUM_ACTIONS)
    assert out.value.code == "BAD_ARGUMENT"


def _reference_positions(limit: int | None = None) -> list[tuple[Position, list[str]]]:
    found = []
    for record in reference_data.games()[:limit]:
        game = StawvsGame.from_state(record["initial"])
        for ply in record["plies"]:
            found.append((game.position, ply["moves"]))
            if not game.gameover and ply.get("move"):
                game.move(ply["move"])
    return found


def test_the_actions_are_the_engines_legal_moves_on_a_reference_game() -> None:
    for position, _ in _reference_positions(limit=1):
        assert [str(decode(a)) for a in legal_actions(position)] == sorted(
            position.legal_move_strings(), key=lambda m: encode(Move.parse(m))
        )


@pytest.mark.slow
def test_the_actions_are_the_recorded_legal_moves_on_every_reference_game() -> None:
    for position, recorded in _reference_positions():
        assert sorted(str(decode(a)) for a in legal_actions(position)) == sorted(recorded)


# -- OpenSpiel ---------------------------------------------------------------------


def _sim(spec: str) -> None:
    # OpenSpiel's own suite imports SciPy: a second and a half, paid by the
    # tests that use it rather than by every collection.
    from open_spiel.python.tests import games_sim_test

    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    checks = games_sim_test.GamesSimTest("test_pig")
    checks.sim_game(game)


def test_openspiel_checks_accept_a_two_player_game_with_its_deal() -> None:
    _sim("python_stawvs(players=2,variants=pieces-2+hey,seed=3)")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", ["", "hole", "random+hey", "finalfree+pieces-2"])
@pytest.mark.parametrize("seed", [-1, 11])
def test_openspiel_checks_accept_every_player_count_and_variant_set(
    players: int, variants: str, seed: int
) -> None:
    _sim(f"python_stawvs(players={players},variants={variants},seed={seed})")


def test_the_game_type_is_truthful() -> None:
    game = pyspiel.load_game("python_stawvs(players=3)")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.utility_sum() == 1.0 and game.num_distinct_actions() == NUM_ACTIONS
    seeded = pyspiel.load_game("python_stawvs(players=3,seed=1)")
    assert seeded.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert seeded.new_initial_state().is_chance_node() is False


def test_a_seeded_game_starts_from_the_engines_deal() -> None:
    state = pyspiel.load_game("python_stawvs(players=2,variants=random,seed=5)").new_initial_state()
    assert state.position == Position.initial(2, ["random"], seed=5)
    assert str(state) == str(Position.initial(2, ["random"], seed=5))


def test_the_deal_names_what_it_deals_with_its_true_chances() -> None:
    state = pyspiel.load_game("python_stawvs(variants=random)").new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 64 and outcomes[0] == (0, 1 / 64)
    for gap in (27, 0, 63, 5):
        state.apply_action(gap)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 8) == "b8=GR3"
    assert state.chance_outcomes() == [(kind, 5 / 60) for kind in range(12)]
    state.apply_action(8)
    assert dict(state.chance_outcomes())[8] == 4 / 59


def _deal_into(state: pyspiel.State, start: Position) -> None:
    """Play the chance outcomes that deal ``start``'s board."""
    gaps = [sq for sq in range(64) if start.board[sq] == 255]
    while state.is_chance_node() and len(state._gaps) < 4:
        state.apply_action(gaps[len(state._gaps)])
    for sq in range(64):
        if start.board[sq] != 255:
            state.apply_action(start.board[sq])


@pytest.mark.parametrize("record", REFERENCE_GAMES)
def test_openspiel_returns_are_the_engines_result(record: dict[str, object]) -> None:
    initial = StawvsGame.from_state(str(record["initial"]))
    start = initial.position
    variants = "+".join(initial.variants)
    game = pyspiel.load_game(f"python_stawvs(players={record['numplayers']},variants={variants})")
    state = game.new_initial_state()
    _deal_into(state, start)
    assert state.position == start
    final = StawvsGame.from_state(str(record["final"]))
    for entry in final.move_history():
        for move in entry:
            state.apply_action(encode(Move.parse(move)))
    assert state.is_terminal()
    assert state.returns() == spiel_stawvs.returns_of(final.winner, final.numplayers)


def test_returns_share_the_win_among_tied_winners() -> None:
    assert spiel_stawvs.returns_of([1, 3], 3) == [0.5, 0.0, 0.5]
    assert spiel_stawvs.returns_of([2], 4) == [0.0, 1.0, 0.0, 0.0]


@pytest.mark.slow
def test_openspiels_mcts_plays_whole_games_against_our_bot() -> None:
    game = pyspiel.load_game("python_stawvs(players=2,variants=hey+pieces-2,seed=2)")
    rng = np.random.RandomState(1)
    searcher = mcts.MCTSBot(game, 2, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    ours = spiel_stawvs.EngineBot(GreedyBot(seed=1))
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [searcher, ours], rng)
    assert sum(returns) == pytest.approx(1.0)


# -- PettingZoo -------------------------------------------------------------------


def test_pettingzoo_api_test_accepts_the_environment() -> None:
    api_test(env(players=3, variants=("hey",)), num_cycles=100)


def test_pettingzoo_seed_test_accepts_the_environment() -> None:
    seed_test(lambda: env(players=2, variants=("random",)), num_cycles=60)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_checks_accept_every_player_count(players: int) -> None:
    api_test(env(players=players), num_cycles=1000)
    seed_test(lambda: env(players=players, variants=("random", "finalfree")), num_cycles=300)


def test_reset_with_a_seed_deals_the_engines_board() -> None:
    environment = raw_env(players=4, variants=("hole",))
    environment.reset(seed=9)
    assert environment.position == Position.initial(4, ["hole"], seed=9)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    environment = raw_env()
    environment.reset(seed=1)
    before = environment.position
    with pytest.raises(Exception, match="not a legal move"):
        environment.step(PASS_ACTION)
    assert environment.position == before


@pytest.mark.parametrize("record", REFERENCE_GAMES)
def test_a_recorded_game_replays_through_the_environment(record: dict[str, object]) -> None:
    final = StawvsGame.from_state(str(record["final"]))
    environment = raw_env(players=final.numplayers)
    environment.reset(options={"state": str(record["initial"])})
    for entry in final.move_history():
        for move in entry:
            mask = environment.observe(environment.agent_selection)["action_mask"]
            assert mask[encode(Move.parse(move))] == 1
            environment.step(encode(Move.parse(move)))
    expected = spiel_stawvs.returns_of(final.winner, final.numplayers)
    assert list(environment._cumulative_rewards.values()) == expected
    assert all(environment.terminations.values())


def test_a_finished_state_loads_as_a_finished_game() -> None:
    record = reference_data.games()[0]
    environment = raw_env(players=int(record["numplayers"]))
    environment.reset(options={"state": record["final"]})
    assert all(environment.terminations.values())


def test_the_render_modes_draw_the_board() -> None:
    environment = raw_env(render_mode="ansi")
    environment.reset(seed=1)
    assert environment.render() == str(Position.initial(2, seed=1))
    environment = raw_env(render_mode="rgb_array")
    environment.reset(seed=1)
    picture = environment.render()
    assert picture.shape == (128, 128, 3) and picture.dtype == np.uint8


def test_a_random_game_through_the_environment_ends_with_the_win_shared() -> None:
    environment = env(players=3)
    environment.reset(seed=4)
    rng = random.Random(4)
    for _agent in environment.agent_iter(max_iter=2000):
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    assert not environment.agents


def test_the_action_numbers_from_the_generators_squares_are_those_of_its_moves() -> None:
    rng = random.Random(3)
    for players, variants in ((2, ()), (3, ("hey",)), (4, ("pieces-2", "random"))):
        position = Position.initial(players, variants, seed=players)
        while not position.is_over:
            moves = list(position.legal_moves())
            assert legal_actions(position) == sorted(encode(m) for m in moves)
            position, _ = position.play(rng.choice(moves))


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


@pytest.mark.parametrize("index", [0, 1])
def test_the_examples_of_research_md_run(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _python_blocks((ROOT / "docs" / "research.md").read_text(encoding="utf-8"))
    assert len(blocks) == 2
    exec(compile(blocks[index], f"research.md example {index + 1}", "exec"), {})
    assert capsys.readouterr().out


def test_a_broken_state_or_another_player_count_is_refused_and_nothing_changes() -> None:
    environment = raw_env(players=3)
    environment.reset(seed=2)
    before = environment.position
    with pytest.raises(StawvsError) as broken:
        environment.reset(options={"state": '{"game": "stawvs"'})
    assert broken.value.code in ("BAD_STATE", "BAD_POSITION")
    two_players = str(reference_data.games()[0]["initial"])
    with pytest.raises(StawvsError, match="players"):
        environment.reset(options={"state": two_players})
    assert environment.position == before


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ("python_stawvs(players=5)", "BAD_ARGUMENT"),
        ("python_stawvs(variants=hole+random)", "BAD_VARIANT"),
        ("python_stawvs(variants=nonsense)", "BAD_VARIANT"),
    ],
)
def test_openspiel_refuses_parameters_that_make_no_game(spec: str, code: str) -> None:
    with pytest.raises(Exception, match=r"2 to 4 players|variant"):
        pyspiel.load_game(spec)
    with pytest.raises(StawvsError) as refused:
        spiel_stawvs.StawvsGame(dict(part.split("=") for part in spec[14:-1].split(",")))
    assert refused.value.code == code
