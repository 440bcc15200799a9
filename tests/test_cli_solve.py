"""``stawvs-ap solve FILE``: the solver's verdict on a state or a record, in the
player's language or as JSON, and its budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_inprocess import run
from records_support import golden_in_progress
from test_service_solve import endgame_state

from stawvs_ap import StawvsGame, from_record, solve
from stawvs_ap.cli.cli import main
from stawvs_ap.cli.solvecli import verdict

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"


@pytest.fixture(scope="module")
def endgame(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("solve") / "endgame.json"
    path.write_text(endgame_state(6), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def early(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A position 40 plies before the end: too large to prove within a short budget."""
    path = tmp_path_factory.mktemp("solve") / "early.json"
    path.write_text(endgame_state(40), encoding="utf-8")
    return path


def solve_command(capsys: pytest.CaptureFixture[str], *args: str | Path) -> str:
    assert main(["solve", *map(str, args)]) == 0
    return capsys.readouterr().out


def timeless(answer: dict[str, object]) -> dict[str, object]:
    """A JSON answer without the time it took, the one field that varies."""
    return {k: v for k, v in answer.items() if k != "seconds"}


def test_the_verdict_names_the_player_the_margin_and_the_line(
    endgame: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = StawvsGame(endgame.read_text(encoding="utf-8"))
    solution = solve(game)
    assert solution.margin is not None and solution.margin < 0
    line = " ".join(map(str, solution.line))
    expected = f"Player {game.currplayer} loses by {-solution.margin} points with best play: {line}"
    assert solve_command(capsys, endgame, "--lang", "en") == expected + "\n"


def test_the_verdict_is_in_the_players_language(
    endgame: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = solve_command(capsys, endgame, "--lang", "de")
    assert said.startswith("Spieler 2 verliert bei bestem Spiel mit 9 Punkten Rückstand: ")


def test_the_json_gives_every_field_of_the_solution(
    endgame: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(solve_command(capsys, endgame, "--json"))
    expected = solve(StawvsGame(endgame.read_text(encoding="utf-8"))).to_dict()
    assert set(data) == {"player", *expected}
    assert timeless({k: data[k] for k in expected}) == timeless(expected)


def test_a_record_is_replayed_and_its_players_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A finished 3-player game: the verdict is its final margin for the player
    # to move, named as the record names them, against the others together.
    path = GOLDEN / "3p-default-seed-1.json"
    game = from_record(json.loads(path.read_text(encoding="utf-8"))["record"])
    margin = solve(game).margin
    assert margin is not None
    said = solve_command(capsys, path, "--lang", "en")
    assert said.endswith(", the others playing together\n")
    assert said.startswith("Carol ")


def test_the_record_of_a_game_in_progress_is_solved_for_its_player_to_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # About 5,000 positions prove it: a node budget keeps it proven on a busy machine.
    record = golden_in_progress("2p-default-seed-1.json", 23)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    game = from_record(record, allow_unfinished=True)
    assert not game.gameover
    budget = ("--nodes", "100000")
    found = json.loads(solve_command(capsys, path, "--json", *budget))
    assert found["player"] == game.currplayer and found["proven"]
    assert timeless(found) == timeless({"player": game.currplayer, **solve(game).to_dict()})
    said = solve_command(capsys, path, "--lang", "en", *budget)
    assert said.startswith(("Alice wins ", "Bob wins "))
    record["header"]["players"][game.currplayer - 1]["name"] = "Eve\x1b[2J"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert solve_command(capsys, path, "--lang", "en", *budget).startswith("Eve\ufffd[2J wins ")


def test_an_unproven_position_says_so_within_its_budget(
    capsys: pytest.CaptureFixture[str], early: Path
) -> None:
    said = solve_command(capsys, early, "--seconds", "0.2", "--lang", "en")
    assert said.startswith("Not proven within 0.2 s (")


def test_what_an_unproven_search_learned_is_said_with_its_move() -> None:
    # 37 positions prove a first move of this endgame, not all of them.
    game = StawvsGame(endgame_state(8, seed=5))
    partial = solve(game, nodes=37)
    assert partial.bound is not None and not partial.proven
    said = verdict(partial, game, seconds=2, locale="en")
    assert said == (
        f"Not proven within 2 s (37 positions searched); Player {game.currplayer} is sure of "
        f"a margin of at least {partial.bound:+d} by playing {partial.line[0]}."
    )


@pytest.mark.parametrize(
    "args",
    [["--seconds", "0"], ["--seconds", "601"], ["--nodes", "0"], ["--nodes", "x"]],
)
def test_a_budget_out_of_range_is_refused(
    endgame: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(endgame), *args]) == 2
    assert "stawvs-ap: error: argument --" in capsys.readouterr().err


def test_a_file_that_is_not_json_is_one_line_of_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("not json", encoding="utf-8")
    result = run("solve", path)
    assert result.returncode == 2
    assert result.stderr.startswith("stawvs-ap: error: ") and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "text",
    [
        "1" * 5000,
        '{"game": "stawvs", "x": ' + "1" * 5000 + "}",
        '{"header": {}, "x": 1' + "0" * 5000 + "}",
    ],
    ids=["bare", "state", "record"],
)
def test_a_number_too_long_for_python_is_one_line_of_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "long.json"
    path.write_text(text, encoding="utf-8")
    result = run("solve", path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("stawvs-ap: error: ") and len(result.stderr.splitlines()) == 1


def test_a_state_written_with_a_byte_order_mark_is_read_as_other_commands_read_it(
    endgame: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marked = tmp_path / "bom.json"
    marked.write_text("\ufeff" + endgame.read_text(encoding="utf-8"), encoding="utf-8")

    def answer(path: Path) -> dict[str, object]:
        return timeless(json.loads(solve_command(capsys, path, "--json")))

    assert answer(marked) == answer(endgame)


@pytest.mark.slow
def test_a_node_budget_alone_is_said_as_positions_and_repeats(
    capsys: pytest.CaptureFixture[str], early: Path
) -> None:
    said = solve_command(capsys, early, "--nodes", "3000", "--lang", "en")
    assert said == "Not proven within 3000 positions searched.\n"
    first = json.loads(solve_command(capsys, early, "--nodes", "3000", "--json"))
    again = json.loads(solve_command(capsys, early, "--nodes", "3000", "--json"))
    assert first["nodes"] == again["nodes"] == 3000
    assert timeless(first) == timeless(again)


def test_what_a_search_stopped_by_its_node_budget_learned_names_that_budget() -> None:
    game = StawvsGame(endgame_state(8, seed=5))
    partial = solve(game, nodes=37)
    assert partial.bound is not None and not partial.proven
    said = verdict(partial, game, seconds=2, nodes=37, locale="en")
    assert said == (
        f"Not proven within 37 positions searched; Player {game.currplayer} is sure of "
        f"a margin of at least {partial.bound:+d} by playing {partial.line[0]}."
    )
