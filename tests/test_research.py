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
    pytest.importorskip("pyspiel", reason="needs the rl extra (pip install -e '.[rl]')")
    pytest.importorskip("pettingzoo", reason="needs the rl extra (pip install -e '.[rl]')")

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
from stawvs_ap.errors import excerpt
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


@pytest.mark.slow
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


@pytest.mark.slow
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


# -- bad input through every entry point -----------------------------------------

#: Values that are no action number: out of range, or not a whole number at all.
NOT_ACTIONS = [-1, NUM_ACTIONS, 1.0, "5", None, True, np.bool_(True), np.float64(3), 10**5000]
NOT_ACTION_IDS = [excerpt(action) for action in NOT_ACTIONS]


@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
@pytest.mark.parametrize("action", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_pettingzoo_refuses_what_is_no_action_with_bad_argument(
    make: object, action: object
) -> None:
    environment = make()  # type: ignore[operator]
    environment.reset(seed=1)
    before = environment.position
    with pytest.raises(StawvsError) as refused:
        environment.step(action)
    assert refused.value.code == "BAD_ARGUMENT"
    assert "\n" not in refused.value.message and len(refused.value.message) < 120
    assert environment.position == before and environment.agent_selection == "player_1"


def test_pettingzoo_takes_numpy_whole_numbers_as_seeds_and_actions() -> None:
    environment = env()
    environment.reset(seed=np.int64(7))
    assert environment.position == Position.initial(2, seed=7)
    environment.reset(seed=np.uint8(7))
    assert environment.position == Position.initial(2, seed=7)
    action = np.flatnonzero(environment.observe("player_1")["action_mask"])[0]
    environment.step(np.int32(action))
    assert environment.agent_selection == "player_2"


@pytest.mark.parametrize("seed", [True, np.bool_(False), "7", 7.0, -1, 2**63])
def test_pettingzoo_refuses_a_seed_that_is_none_and_changes_nothing(seed: object) -> None:
    environment = env()
    environment.reset(seed=3)
    with pytest.raises(StawvsError) as refused:
        environment.reset(seed=seed)  # type: ignore[arg-type]
    assert refused.value.code == "BAD_ARGUMENT"
    assert environment.position == Position.initial(2, seed=3)


def test_pettingzoo_reads_state_bytes_as_a_states_json_and_says_what_they_are_not() -> None:
    environment = env()
    environment.reset(seed=3)
    with pytest.raises(StawvsError, match="no 'game' key") as empty:
        environment.reset(options={"state": b"{}"})
    with pytest.raises(StawvsError, match="not valid JSON") as not_json:
        environment.reset(options={"state": b"d5"})  # a position is text, never bytes
    with pytest.raises(StawvsError, match="not UTF-8") as not_text:
        environment.reset(options={"state": b"\xff{}"})
    with pytest.raises(StawvsError, match="not 5") as not_state:
        environment.reset(options={"state": 5})
    assert [e.value.code for e in (empty, not_json, not_text, not_state)] == [
        "BAD_STATE",
        "BAD_STATE",
        "BAD_STATE",
        "BAD_ARGUMENT",
    ]
    assert environment.position == Position.initial(2, seed=3)
    record = reference_data.games()[0]
    environment.reset(options={"state": str(record["initial"]).encode()})
    assert environment.position == StawvsGame.from_state(str(record["initial"])).position


def test_pettingzoo_calls_out_of_order_are_refused_with_the_packages_errors() -> None:
    environment = env()
    for call in (lambda: environment.step(0), environment.last, environment.render):
        with pytest.raises(StawvsError, match=r"reset\(\) the environment before") as early:
            call()
        assert early.value.code == "BAD_ARGUMENT"
    record = reference_data.games()[0]
    environment.reset(options={"state": record["final"]})
    with pytest.raises(StawvsError, match="is done") as alive:
        environment.step(0)
    assert alive.value.code == "BAD_ARGUMENT"
    while environment.agents:
        environment.step(None)
    with pytest.raises(StawvsError) as over:
        environment.step(None)
    assert over.value.code == "GAMEOVER"


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_openspiel_refuses_what_is_no_action_with_bad_argument(action: object) -> None:
    for spec in ("python_stawvs(seed=7)", "python_stawvs"):  # a move, then a deal
        state = pyspiel.load_game(spec).new_initial_state()
        for call in (state.apply_action, state.child, state.action_to_string):
            with pytest.raises(StawvsError) as refused:
                call(action)
            assert refused.value.code == "BAD_ARGUMENT"
        assert state.history() == []


def test_openspiel_takes_numpy_whole_numbers_as_actions_and_parameters() -> None:
    game = spiel_stawvs.StawvsGame({"players": np.int64(3), "seed": np.int64(7)})
    assert game.num_players() == 3 and game.get_parameters()["seed"] == 7
    state = game.new_initial_state()
    first = state.legal_actions()[0]
    assert state.action_to_string(np.int64(first)) == str(decode(first))
    assert state.child(np.int32(first)).history() == [first]
    state.apply_action(np.uint16(first))
    assert state.history() == [first]
    dealing = pyspiel.load_game("python_stawvs").new_initial_state()
    dealing.apply_action(np.int64(dealing.chance_outcomes()[0][0]))
    assert len(dealing.history()) == 1


@pytest.mark.parametrize(
    "params",
    [
        {"players": "3"},
        {"players": True},
        {"players": 2.5},
        {"seed": "7"},
        {"seed": -5},
        {"seed": 2**63},
        {"variants": 5},
        {"playres": 3},
        ["players", 3],
    ],
    ids=repr,
)
def test_openspiel_refuses_parameters_of_the_wrong_kind(params: object) -> None:
    with pytest.raises(StawvsError) as refused:
        spiel_stawvs.StawvsGame(params)  # type: ignore[arg-type]
    assert refused.value.code in ("BAD_ARGUMENT", "BAD_VARIANT")
    assert "\n" not in refused.value.message
