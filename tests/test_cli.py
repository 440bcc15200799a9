"""The ``stawvs-ap`` command line: what each command says and writes.

The commands run inside the test's process (``cli_inprocess.run``), which
answers what ``python -m stawvs_ap ...`` would; one test starts the module as a
user does, and the tests of what only a process shows are in
``test_cli_output_*``, ``test_cli_locking`` and ``test_cli_bounded_input``."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import cli_process
import pytest
from cli_inprocess import run
from records_support import golden_in_progress, without_board
from reference_data import games

from stawvs_ap import StawvsGame, __version__, from_record
from stawvs_ap.pictures.textboard import board_text

ROOT = Path(__file__).resolve().parent.parent


def ok(*args: str | Path, stdin: str | None = None) -> str:
    """Run a command that must succeed; return its standard output."""
    done = run(*args, stdin=stdin)
    assert done.returncode == 0, done.stderr
    # Nothing but the one line that confirms the files written with -o.
    assert done.stderr == "" or (
        done.stderr.startswith("stawvs-ap: wrote ") and done.stderr.count("\n") == 1
    ), done.stderr
    return done.stdout


def finished_game(seed: int = 7) -> StawvsGame:
    game = StawvsGame(3, seed=seed)
    rng = random.Random(seed)
    while game.moves():
        game.move(rng.choice(game.moves()))
    return game


@pytest.fixture
def started(tmp_path: Path) -> Path:
    """A new two-player game's state file."""
    path = tmp_path / "game.json"
    path.write_text(StawvsGame(2, seed=3).serialize(), encoding="utf-8")
    return path


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    path = tmp_path / "finished.json"
    path.write_text(finished_game().serialize(), encoding="utf-8")
    return path


# -- each subcommand ----------------------------------------------------------------


def test_new_prints_a_state_and_the_same_seed_gives_the_same_board(tmp_path: Path) -> None:
    printed = ok("new", "--players", "3", "--variant", "hole", "hey", "--seed", "7")
    out = tmp_path / "new.json"
    ok("new", "--players", "3", "--variant", "hole", "--variant", "hey", "--seed", "7", "-o", out)
    first, second = StawvsGame(printed), StawvsGame(out.read_text(encoding="utf-8"))
    assert first.numplayers == 3 and first.variants == ["hole", "hey"]
    assert first.position.board == second.position.board
    assert first.position.board == StawvsGame(3, ["hole", "hey"], seed=7).position.board


def test_moves_lists_one_legal_move_per_line_or_json(started: Path) -> None:
    expected = StawvsGame(started.read_text(encoding="utf-8")).moves()
    assert ok("moves", started).splitlines() == expected
    assert json.loads(ok("moves", started, "--json")) == expected


def test_move_applies_moves_in_order_and_prints_the_new_state(started: Path) -> None:
    state = ok("move", started, "b7", "C6")
    game = StawvsGame(state)
    assert game.lastmove == "c6" and game.currplayer == 1
    assert game.move_history() == [["b7", "c6"]]


def test_move_reads_stdin_and_can_rewrite_its_input_file(started: Path) -> None:
    text = started.read_text(encoding="utf-8")
    ok("move", "-", "b7", "-o", started, stdin=text)
    assert StawvsGame(started.read_text(encoding="utf-8")).lastmove == "b7"


def test_validate_prints_the_verdict_as_json(started: Path) -> None:
    verdict = json.loads(ok("validate", started, "b7"))
    assert verdict == {
        "valid": True,
        "message": verdict["message"],
        "complete": 1,
        "canrender": True,
    }
    refused = json.loads(ok("validate", started, "z9"))
    assert refused["valid"] is False and refused["code"] == "MALFORMED"


def test_render_prints_the_render_of_the_state(finished: Path) -> None:
    game = StawvsGame(finished.read_text(encoding="utf-8"))
    assert json.loads(ok("render", finished, "--ply", "10")) == game.load(10).render()


def test_svg_writes_a_picture(finished: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert ok("svg", finished, "-o", out, "--size", "400") == ""
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.get("width") == "400"


def test_show_prints_the_text_diagram_from_stdin(finished: Path) -> None:
    shown = ok(
        "show", "-", "--names", "Ann", "Bob", "Cy", stdin=finished.read_text(encoding="utf-8")
    )
    assert shown.splitlines()[0].startswith("8  ")
    assert "Ann (@1) (passed):" in shown and "Game over. Winner" in shown


def test_info_prints_the_metadata() -> None:
    info = json.loads(ok("info"))
    assert info["name"] == "Stawvs" and info["uid"] == "stawvs"


def test_a_bare_command_prints_the_usage() -> None:
    assert ok().startswith("usage: stawvs-ap")


def test_a_write_with_o_is_confirmed_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    done = run("new", "--players", "2", "-o", out)
    assert done.returncode == 0 and not done.stdout
    assert done.stderr == f"stawvs-ap: wrote {out}\n"
    assert run("--lang", "de", "new", "--players", "2", "-o", out).stderr.startswith("stawvs-ap: ")


def test_help_exits_0() -> None:
    assert "replay" in ok("--help")


def test_version_prints_the_package_version() -> None:
    assert ok("--version") == f"stawvs-ap {__version__}\n"


@pytest.mark.slow
def test_python_m_stawvs_ap_runs_the_command_line_in_a_process_of_its_own() -> None:
    done = cli_process.run("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"stawvs-ap {__version__}\n", "")
    refused = cli_process.run("new", "--players", "5")
    assert refused.returncode == 2 and not refused.stdout
    assert refused.stderr.startswith("stawvs-ap: error: ") and refused.stderr.count("\n") == 1


NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record, written by ``stawvs-ap record``, of :func:`finished_game`."""
    folder = tmp_path_factory.mktemp("record")
    state, out = folder / "finished.json", folder / "record.json"
    state.write_text(finished_game().serialize(), encoding="utf-8")
    ok("record", state, "--names", *NAMES, "-o", out)
    return out


def test_record_names_the_players(record: Path) -> None:
    header = json.loads(record.read_text(encoding="utf-8"))["header"]
    assert [p["name"] for p in header["players"]] == NAMES
    assert [p["userid"] for p in header["players"]] == ["p1", "p2", "p3"]


def test_replay_shows_the_end_with_scores_and_winners(record: Path) -> None:
    assert ok("replay", record) == board_text(finished_game(), names=NAMES)


def test_replay_to_a_ply_writes_picture_and_render(record: Path, tmp_path: Path) -> None:
    svg, render = tmp_path / "ply.svg", tmp_path / "ply.json"
    shown = ok("replay", record, "--ply", "12", "--svg", svg, "--render", render)
    game = finished_game().load(12)
    assert shown == board_text(game, names=NAMES)
    assert json.loads(render.read_text(encoding="utf-8")) == game.render()
    assert ET.fromstring(svg.read_text(encoding="utf-8")).get("width") == "560"


def test_replay_reads_a_golden_fixture_file() -> None:
    path = ROOT / "fixtures" / "golden" / "2p-default-seed-1.json"
    record = json.loads(path.read_text(encoding="utf-8"))["record"]
    game = from_record(record)
    names = [p["name"] for p in record["header"]["players"]]
    assert ok("replay", path) == board_text(game, names=names)


def test_replay_of_a_reference_record_takes_the_initial_state(tmp_path: Path) -> None:
    reference = games()[0]
    record, initial = tmp_path / "record.json", tmp_path / "initial.json"
    record.write_text(json.dumps(reference["record"]), encoding="utf-8")
    initial.write_text(reference["initial"], encoding="utf-8")
    shown = ok("replay", record, "--initial", initial)
    final = StawvsGame(reference["final"])
    names = [p["name"] for p in reference["record"]["header"]["players"]]
    assert shown == board_text(final, names=names)


# -- bad input: one line on stderr, exit 2, no output file ------------------------------------


def refused(*args: str | Path, stdin: str | None = None) -> str:
    """Run a command that must be refused; return its one-line error message."""
    done = run(*args, stdin=stdin)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("stawvs-ap: error: ")
    return lines[0]


def test_unreadable_state_file_is_refused(tmp_path: Path) -> None:
    assert "cannot read state" in refused("show", tmp_path / "missing.json")


def test_broken_state_is_refused_without_writing_output(started: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    broken = started.read_text(encoding="utf-8").replace('"stawvs"', '"chess"')
    assert "chess" in refused("move", "-", "b7", "-o", out, stdin=broken)
    assert "empty" in refused("render", "-", "-o", out, stdin="")
    assert not out.exists()


def test_illegal_move_is_refused_without_writing_output(started: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    message = refused("move", started, "b7", "b7", "-o", out)
    assert "illegal move 2 'b7'" in message and "BAD_PLACEMENT" in message
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [started]  # no temporary file left either


def test_partial_move_is_refused_as_incomplete() -> None:
    game = StawvsGame(2, seed=3)
    for square in ("b7", "c6", "d6", "e6", "f6", "g6"):
        game.move(square)
    assert game.mode == "collect"  # so "b7" only selects player 1's cap
    assert "INCOMPLETE" in refused("move", "-", "b7", stdin=game.serialize())


def test_unknown_variant_is_refused() -> None:
    assert "unknown variant 'nope'" in refused("new", "--players", "2", "--variant", "nope")


def test_bad_arguments_are_refused_in_one_line(started: Path) -> None:
    assert "five" in refused("new", "--players", "five")
    assert "2 to 4 players" in refused("new", "--players", "5")
    assert "size" in refused("svg", started, "--size", "10")
    assert "no stack entry" in refused("show", started, "--ply", "99")


def test_record_of_an_unfinished_game_is_refused(started: Path, tmp_path: Path) -> None:
    out = tmp_path / "record.json"
    refused("record", started, "-o", out)
    assert not out.exists()


def test_the_record_of_a_game_in_progress_is_replayed_only_when_asked_for(
    tmp_path: Path,
) -> None:
    record = tmp_path / "record.json"
    record.write_text(json.dumps(golden_in_progress("2p-default-seed-1.json", 10)))
    assert "--unfinished" in refused("replay", record)
    shown = ok("replay", record, "--unfinished")
    moves = json.loads(record.read_text())["moves"]
    game = from_record(json.loads(record.read_text()), allow_unfinished=True)
    assert not game.gameover and game.move_history() == moves
    assert shown == board_text(game, names=["Alice", "Bob"])


def test_unwritable_output_is_refused(started: Path, tmp_path: Path) -> None:
    refused("svg", started, "-o", tmp_path / "no-such-dir" / "board.svg")


def test_broken_record_is_refused(tmp_path: Path) -> None:
    svg = tmp_path / "out.svg"
    refused("replay", "-", "--svg", svg, stdin="[1, 2")
    refused("replay", "-", "--svg", svg, stdin='{"header": {}, "moves": []}')
    assert not svg.exists()


# -- bots finish a game, and the service's help -------------------------------------


@pytest.mark.slow
def test_selfplay_finishes_the_game_of_a_state_file_in_place(started: Path) -> None:
    game = StawvsGame(started.read_text())
    game.move(game.moves()[5])
    started.write_text(game.serialize())
    ok("selfplay", started, "--bot", "greedy", "--bot", "random", "--seed", "4", "-o", started)
    over = StawvsGame(started.read_text())
    assert over.gameover and over.move_history()[0][0] == game.move_history()[0][0]
    again = run("selfplay", started)
    assert again.returncode == 2 and "the game is over already" in again.stderr


@pytest.mark.slow  # two whole self-played games in processes
def test_selfplay_plays_a_new_game_the_same_way_for_the_same_seed() -> None:
    args = ("selfplay", "--players", "3", "--variant", "hey", "--bot", "greedy", "--seed", "9")
    first = StawvsGame(ok(*args))
    assert first.gameover and first.numplayers == 3 and first.variants == ["hey"]
    assert ok(*args).count("\n") == 1
    assert first.move_history() == StawvsGame(ok(*args)).move_history()


def test_bots_play_on_from_the_record_of_a_game_in_progress(tmp_path: Path) -> None:
    record = golden_in_progress("2p-default-seed-1.json", 10)
    path, over = tmp_path / "record.json", tmp_path / "over.json"
    path.write_text(json.dumps(record))
    hint = ok("hint", path, "--bot", "greedy", "--lang", "en")
    assert hint.strip()
    ok("selfplay", path, "--bot", "greedy", "--seed", "4", "-o", over)
    game = StawvsGame(over.read_text())
    assert game.gameover and game.move_history()[:10] == record["moves"]


@pytest.mark.slow
def test_a_record_without_its_board_is_read_with_initial_by_every_command(
    tmp_path: Path,
) -> None:
    # Abstract Play's records have no starting board: --initial gives it.
    bare, initial = without_board(golden_in_progress("2p-default-seed-1.json", 23))
    record, start = tmp_path / "record.json", tmp_path / "initial.json"
    record.write_text(json.dumps(bare))
    start.write_text(initial)
    assert "--initial" in refused("solve", record)
    solved = json.loads(ok("solve", record, "--initial", start, "--json", "--nodes", "100000"))
    assert solved["proven"] and solved["outcome"] == "win"
    assert ok("hint", record, "--initial", start, "--bot", "greedy").strip()
    assert "Alice" in ok("review", record, "--initial", start, "--bot", "mcts:iterations=5")
    over = tmp_path / "over.json"
    ok("selfplay", record, "--initial", start, "--bot", "greedy", "-o", over)
    assert StawvsGame(over.read_text()).gameover
    assert "--initial goes with a record" in refused("hint", start, "--initial", start)


def test_a_broken_state_given_to_the_bots_says_where_it_breaks(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"game": "stawvs",\n "x": }')
    for command in ("hint", "selfplay", "solve"):
        assert "not valid JSON (Expecting value: line 2 column 7" in refused(command, path)
    assert "standard input is empty" in refused("hint", "-", stdin="")


def test_selfplay_refuses_a_new_games_options_with_a_state(started: Path) -> None:
    done = run("selfplay", started, "--players", "3")
    assert done.returncode == 2 and "give them or a state" in done.stderr


def test_serve_help_lists_every_method_with_its_parameters() -> None:
    from stawvs_ap.service import METHODS

    text = ok("serve", "--help")
    listed = text.split("methods (parameters by name; ? marks an optional one):\n", 1)[1]
    names = [line.split()[0] for line in listed.splitlines() if line.strip()]
    assert names == list(METHODS)
    assert "  new           players, variants?, seed?\n" in listed


def test_the_variants_help_names_every_variant_of_the_core() -> None:
    from stawvs_ap.cli.botargs import VARIANT_HELP
    from stawvs_ap.core.variants import VARIANTS

    assert "variants: " + ", ".join(VARIANTS) == VARIANT_HELP


@pytest.mark.parametrize("command", ["moves", "replay", "hint", "review"])
def test_a_file_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path, command: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b'{"game": "stawvs\xff"}')
    assert refused(command, path).endswith(f"{str(path)!r}: it is not UTF-8 text")
