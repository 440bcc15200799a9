"""A hint reads the same whatever the bot: every candidate's share of the win
(0–1, the bot's estimate) with the lead in points beside it (one evaluation for
all), best share first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stawvs_ap import StawvsGame
from stawvs_ap.bots import GreedyBot, RandomBot
from stawvs_ap.bots.knowledge import evaluate, lead
from stawvs_ap.bots.simulate import lead_share, rewards

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def collecting(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = StawvsGame.new(3, seed=11)
    while game.mode == "place":
        game.move(game.moves()[len(game.moves()) // 2])
    path = tmp_path_factory.mktemp("hint") / "game.json"
    path.write_text(game.serialize())
    return path


@pytest.mark.parametrize("spec", ["mcts:iterations=300", "uct:iterations=300", "greedy", "random"])
def test_every_bot_hints_shares_with_points_beside_them_best_share_first(
    collecting: Path, spec: str
) -> None:
    game = StawvsGame(collecting.read_text())
    done = subprocess.run(
        [sys.executable, "-m", "stawvs_ap", "hint", str(collecting), "--bot", spec, "--json"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    rows = doc["candidates"]
    assert doc["sorted_by"] == "share" and len(rows) == 5
    shares = [row["share"] for row in rows]
    assert shares == sorted(shares, reverse=True) and all(0 <= s <= 1 for s in shares)
    for row in rows:
        moved, _ = game.position.play(next(m for m in game.legal_moves if str(m) == row["move"]))
        assert row["points"] == round(lead(moved, game.currplayer), 2)


def test_greedy_values_are_the_shares_its_evaluation_makes() -> None:
    game = StawvsGame.new(2, seed=5)
    while game.mode == "place":
        game.move(game.moves()[0])
    position = game.position
    for candidate in GreedyBot(seed=1).analyse(game, top=10):
        after, _ = position.play(candidate.move)
        expected = (
            rewards(after.scores())[0]
            if after.is_over
            else lead_share(evaluate(after, position.currplayer))
        )
        assert candidate.value == pytest.approx(expected)


def test_a_random_bot_knows_nothing_so_every_move_gets_an_even_share() -> None:
    game = StawvsGame.new(4, seed=2)
    assert {c.value for c in RandomBot(seed=1).analyse(game)} == {0.25}


def test_the_text_hint_says_how_it_is_sorted(collecting: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "stawvs_ap", "hint", str(collecting), "--bot", "greedy"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=120,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert lines[1] == "the bot's 5 best moves, by their share of the win:"
    shares = [float(line.split()[1].rstrip("%")) for line in lines[3:]]
    assert shares == sorted(shares, reverse=True)
