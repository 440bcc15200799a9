"""The arena (seat rotation, reproducibility, table and JSON) and the bot subcommands
``hint``, ``arena`` and ``play``, run as a person would run them."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest
from cli_inprocess import run as run_cli

from stawvs_ap import StawvsGame
from stawvs_ap.bots import RandomBot
from stawvs_ap.bots.arena import (
    BotSpec,
    derived_seed,
    format_table,
    match_report,
    play_match,
    seat_order,
    summarise,
    wilson,
)
from stawvs_ap.cli.botargs import seat_seed
from stawvs_ap.cli.botcli import progress_bar
from stawvs_ap.errors import StawvsError

ROOT = Path(__file__).resolve().parent.parent
FAST = [
    BotSpec.parse("mcts:iterations=8"),
    BotSpec.parse("greedy:iterations=20"),
    BotSpec.parse("random"),
]


def test_specs_parse_and_refuse_what_no_bot_takes() -> None:
    spec = BotSpec.parse("mcts:seconds=0.25,exploration=0.7,reuse=false")
    assert spec.options == (("seconds", 0.25), ("exploration", 0.7), ("reuse", False))
    assert str(BotSpec.parse("uct:iterations=50")) == "uct:iterations=50"
    for bad in [
        "alphazero",
        "mcts:depth=3",
        "mcts:seconds",
        "mcts:seconds=-1",
        "uct:iterations=fast",
        "greedy:seconds=nan",
    ]:
        with pytest.raises(StawvsError):
            BotSpec.parse(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_rotate_so_every_entry_sits_everywhere_equally(players: int) -> None:
    games = 3 * players
    seats = Counter(
        (entry, seat)
        for index in range(games)
        for seat, entry in enumerate(seat_order(index, players))
    )
    assert set(seats.values()) == {3}
    assert len(seats) == players * players


@pytest.mark.slow
def test_a_match_is_reproducible_and_its_results_add_up() -> None:
    lineup = FAST
    results = play_match(lineup, 6, variants=["pieces-2"], seed=4)
    assert [r.index for r in results] == list(range(6))
    for result in results:
        assert sorted(result.seats) == [1, 2, 3]
        assert result.winners and sum(result.moves) <= result.plies
        assert sorted(result.scores) == sorted(result.seat_scores)
    # The same seed gives the same games, whether played in one process or two.
    again = play_match(lineup, 6, variants=["pieces-2"], seed=4, jobs=2)
    assert [(r.scores, r.winners, r.plies) for r in again] == [
        (r.scores, r.winners, r.plies) for r in results
    ]
    # Consecutive rounds of seats share a board; the next round has another.
    boards = [
        StawvsGame.new(3, ["pieces-2"], seed=derived_seed(4, "board", i // 3)).position
        for i in range(6)
    ]
    assert boards[0] == boards[2] != boards[3]
    stats = summarise(lineup, results)
    assert sum(s.wins for s in stats) == pytest.approx(6)
    assert all(s.low <= s.rate <= s.high for s in stats)
    table = format_table(stats)
    assert table.splitlines()[0].split("|")[1].strip() == "bot"
    assert len(table.splitlines()) == 2 + len(lineup)
    report = match_report(lineup, results, variants=["pieces-2"], seed=4)
    assert report["games"] == 6 and len(report["results"]) == 6
    assert {b["bot"] for b in report["bots"]} == {str(s) for s in lineup}
    json.dumps(report)


def test_wilson_intervals() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0 and wilson(10, 10)[1] == 1
    assert wilson(0, 0) == (0.0, 1.0)


# -- the command line -----------------------------------------------------------------


@pytest.fixture(scope="module")
def state_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = StawvsGame.new(2, seed=9)
    for move in ["b7", "c7", "d7", "e7", "f7", "g7"]:
        game.move(move)
    path = tmp_path_factory.mktemp("bots") / "game.json"
    path.write_text(game.serialize())
    return path


def test_hint_prints_the_best_move_and_candidates(state_file: Path) -> None:
    game = StawvsGame(state_file.read_text())
    done = run_cli("hint", str(state_file), "--iterations", "60", "--seed", "1", "--top", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    best = lines[0].removeprefix("Hint: ").split(":")[0]
    assert game.is_legal(best) and len(lines) == 3
    assert all(line.startswith("  ") and "% win share" in line for line in lines[1:])
    as_json = run_cli("hint", str(state_file), "--iterations", "60", "--seed", "1", "--json")
    doc = json.loads(as_json.stdout)
    assert doc["best"] == best and doc["player"] == 1 and doc["sorted_by"] == "choice, then share"
    keys = {"move", "share", "lead", "visits", "words"}
    assert all(set(c) == keys for c in doc["candidates"])


@pytest.mark.slow
def test_arena_prints_a_table_and_a_json_report() -> None:
    done = run_cli(
        "arena",
        "--bot",
        "greedy:iterations=30",
        "--bot",
        "random",
        "--games",
        "2",
        "--variant",
        "hey",
        "--seed",
        "3",
    )
    assert done.returncode == 0, done.stderr
    assert "games" not in done.stderr  # no progress bar off a terminal (a log file)
    assert "| greedy:iterations=30 | 2" in done.stdout
    report = json.loads(
        run_cli(
            "arena",
            "--bot",
            "mcts:iterations=5",
            "--bot",
            "random",
            "--players",
            "3",
            "--games",
            "3",
            "--json",
            "--quiet",
        ).stdout
    )
    assert report["players"] == 3 and report["games"] == 3
    assert [b["bot"] for b in report["bots"]] == ["mcts:iterations=5", "random", "random #2"]
    assert all(
        sorted(r["seats"]) == sorted(["mcts:iterations=5", "random", "random #2"])
        for r in report["results"]
    )


@pytest.mark.parametrize(
    "args",
    [
        ["arena", "--bot", "deepblue"],
        ["arena", "--bot", "mcts", "--bot", "uct", "--bot", "greedy", "--players", "2"],
        ["arena", "--games", "0"],
        ["arena", "--variant", "nope"],
        ["play", "--players", "5"],
        ["hint", "no-such-file.json"],
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str]) -> None:
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.startswith("stawvs-ap: error: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_play_in_the_terminal() -> None:
    typed = "help\nmoves\nc3-f6,f2\nzz\nd5\nundo\nundo\ne4\nquit\n"
    done = run_cli(
        "play",
        "--bot",
        "mcts:iterations=20",
        "--players",
        "3",
        "--variant",
        "hey",
        "--seed",
        "2",
        stdin=typed,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "you are player 1" in out and "moves         your caps and where" in out
    assert "You can place a cap on 60 squares:" in out
    assert "While placing caps, a move is a single square" in out  # a slide while placing
    assert "That is not a move ('zz' is not a move)" in out
    assert "[MALFORMED]" not in out  # codes only with --verbose
    assert "Taken back." in out and "There is no move of yours to take back." in out
    # The two bots are told apart; each answered d5, and again e4.
    assert out.count("mcts:iterations=20 (@2) plays") == 2
    assert out.count("mcts:iterations=20 #2 (@3) plays") == 2
    assert out.rstrip().endswith("Bye.")


def test_play_a_whole_game_typed_on_standard_input() -> None:
    # The person plays the first legal move each turn (pass when that is all);
    # the seeded bot's answers are known, so the whole dialogue can be typed ahead.
    game = StawvsGame.new(2, ["pieces-2"], seed=6)
    bot = RandomBot(seed=seat_seed(6, 1))
    typed = []
    while not game.gameover:
        if game.currplayer == 1:
            game.move(bot.choose(game))
        else:
            if game.moves() != ["pass"]:
                typed.append(game.moves()[0])
            game.move(game.moves()[0])
    done = run_cli(
        "play",
        "--bot",
        "random",
        "--variant",
        "pieces-2",
        "--seat",
        "2",
        "--seed",
        "6",
        stdin="\n".join(typed) + "\n",
    )
    assert done.returncode == 0, done.stderr
    assert "random (@1) plays" in done.stdout
    assert "Your move: pass" not in done.stdout  # passes are made for the person
    assert f"Game over. Winner{'s' if len(game.winner) > 1 else ''}:" in done.stdout
    won = "You share the win." if len(game.winner) > 1 else "You win!"
    assert done.stdout.rstrip().endswith(won if 2 in game.winner else "You lose.")


def test_counts_in_messages_agree_with_their_nouns() -> None:
    done = run_cli("play", "--bot", "mcts", "--bot", "uct", "--players", "2")
    assert done.stderr == "stawvs-ap: error: 2 bots given for 1 seat\n"
    done = run_cli("arena", "--bot", "mcts", "--bot", "uct", "--bot", "greedy", "--players", "2")
    assert done.stderr == "stawvs-ap: error: 3 bots given for 2 seats\n"
    with pytest.raises(StawvsError, match=r"there is no stack entry 3 \(1 entry\)"):
        StawvsGame(2, seed=1).load(3)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_a_terminal_only() -> None:
    terminal = _Terminal()
    bar = progress_bar(terminal, width=4)
    assert bar is not None
    bar(1, 2)
    bar(2, 2, retries=1)
    assert terminal.getvalue().startswith("\r[##..] 1/2 games")
    assert terminal.getvalue().endswith(", 1 retried\n")
    assert progress_bar(io.StringIO()) is None  # a file, a pipe: no frames
