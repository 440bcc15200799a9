"""Any ply of a record or a state's history: ``--ply N`` of ``solve``, ``hint``,
``svg`` (and ``analyse``), and ``"ply": N`` of the service's ``hint`` and
``solve``: the position after N moves (0 the start, negative back from the end,
-1 the position before the last move), ``BAD_ARGUMENT`` naming the range else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_inprocess import run
from records_support import golden_in_progress, without_board

from stawvs_ap import StawvsGame, from_record, solve
from stawvs_ap.errors import ErrorCode, StawvsError
from stawvs_ap.pictures.svg import board_svg
from stawvs_ap.records.plies import at_ply
from stawvs_ap.service import call
from stawvs_ap.service.jsonrpc import RpcError

#: A record of a game still being played: 23 rounds of two moves.
RECORD = golden_in_progress("2p-default-seed-1.json", 23)


def replayed_from_the_start(game: StawvsGame, moves: int) -> StawvsGame:
    """The plain way to the position after ``moves`` moves: the first moves
    played again on a new game of the same start."""
    again = StawvsGame.from_position(game.clone().load(0).position)
    history = [entry["lastmove"] for entry in game.stack[1:]]
    for move in history[:moves]:
        again.move(move)
    return again


@pytest.fixture(scope="module")
def game() -> StawvsGame:
    return from_record(RECORD, allow_unfinished=True)


@pytest.mark.slow
def test_every_ply_in_range_is_the_position_after_that_many_moves(game: StawvsGame) -> None:
    count = len(game.stack) - 1
    assert count == 46
    for ply in (0, 1, 2, 23, count - 1, count):
        assert at_ply(game, ply).position == replayed_from_the_start(game, ply).position
    for back in range(1, count + 1):
        assert at_ply(game, -back).position == replayed_from_the_start(game, count - back).position


def test_ply_minus_one_is_the_position_before_the_last_move(game: StawvsGame) -> None:
    before = at_ply(game, -1)
    before.move(game.lastmove)
    assert before.position == game.position


def test_a_ply_is_refused_naming_the_range_just_outside_it(game: StawvsGame) -> None:
    for ply in (47, -47, 1000):
        with pytest.raises(StawvsError) as refused:
            at_ply(game, ply)
        assert refused.value.code == ErrorCode.BAD_ARGUMENT
        assert "-46 to 46" in refused.value.message


def test_the_game_asked_about_is_never_changed(game: StawvsGame) -> None:
    state = game.serialize()
    at_ply(game, 3)
    assert game.serialize() == state
    assert at_ply(game, None) is game


def test_a_new_game_has_only_ply_zero() -> None:
    new = StawvsGame.new(2, seed=4)
    assert at_ply(new, 0).position == new.position
    with pytest.raises(StawvsError, match="the game has 0 moves, so a ply is 0 to 0"):
        at_ply(new, -1)


# -- the command line ---------------------------------------------------------------


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plies") / "record.json"
    path.write_text(json.dumps(RECORD), encoding="utf-8")
    return path


def test_solve_takes_a_ply_of_a_record_in_progress(record_file: Path, game: StawvsGame) -> None:
    done = run("solve", record_file, "--ply", "-2", "--json", "--nodes", "100000")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    earlier = at_ply(game, 44)
    assert found["player"] == earlier.currplayer
    assert found["margin"] == solve(earlier, nodes=100000).margin


def test_hint_takes_a_ply_and_answers_for_its_player(record_file: Path, game: StawvsGame) -> None:
    done = run("hint", record_file, "--ply", "1", "--json", "--iterations", "30", "--seed", "1")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["player"] == 2  # one cap placed: the second player's turn
    assert answer["best"] in at_ply(game, 1).moves()


def test_svg_draws_a_ply_of_a_record(record_file: Path, game: StawvsGame) -> None:
    done = run("svg", record_file, "--ply", "5")
    assert done.returncode == 0, done.stderr
    names = [player["name"] for player in RECORD["header"]["players"]]
    assert done.stdout == board_svg(at_ply(game, 5), 560, names=names, locale="en")


def test_svg_of_a_record_draws_its_last_position(record_file: Path, game: StawvsGame) -> None:
    done = run("svg", record_file, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "no 'game' key" not in done.stderr
    names = [player["name"] for player in RECORD["header"]["players"]]
    assert done.stdout == board_svg(game, 560, names=names, locale="en")


def test_an_abstract_play_record_takes_a_ply_with_its_initial_board(
    tmp_path: Path, game: StawvsGame
) -> None:
    bare, initial = without_board(RECORD)
    (tmp_path / "bare.json").write_text(json.dumps(bare), encoding="utf-8")
    (tmp_path / "initial.json").write_text(initial, encoding="utf-8")
    args = ("--initial", tmp_path / "initial.json", "--ply", "-1", "--json", "--nodes", "100000")
    done = run("solve", tmp_path / "bare.json", *args)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["player"] == at_ply(game, -1).currplayer
    drawn = run("svg", tmp_path / "bare.json", "--initial", tmp_path / "initial.json", "--ply", "0")
    assert drawn.returncode == 0, drawn.stderr
    assert 'data-square="' in drawn.stdout or "<svg" in drawn.stdout


@pytest.mark.parametrize("command", ["solve", "hint", "svg"])
def test_every_command_refuses_a_ply_out_of_range_naming_it(
    record_file: Path, command: str
) -> None:
    done = run(command, record_file, "--ply", "47")
    assert done.returncode == 2
    assert "ply 47 is out of range" in done.stderr and "-46 to 46" in done.stderr


# -- the service ----------------------------------------------------------------------


def test_the_service_solves_and_hints_at_a_ply(game: StawvsGame) -> None:
    state = game.serialize()
    found = call("solve", {"state": state, "ply": -2, "nodes": 100000})
    assert found["margin"] == solve(at_ply(game, 44), nodes=100000).margin
    hinted = call("hint", {"state": state, "ply": 0, "iterations": 20, "seed": 1})
    assert hinted["player"] == 1 and hinted["best"] in at_ply(game, 0).moves()


@pytest.mark.parametrize("method", ["solve", "hint"])
def test_the_service_refuses_a_ply_out_of_range(game: StawvsGame, method: str) -> None:
    with pytest.raises(RpcError) as refused:
        call(method, {"state": game.serialize(), "ply": -47})
    assert refused.value.data == {"code": "BAD_ARGUMENT"}
    assert "-46 to 46" in str(refused.value)
