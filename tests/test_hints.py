"""A hint reads the same whatever the bot and wherever it is shown (the command
line, the terminal game, the service, the page): the bot's choice first, then
the others by their share of the win (0–1, the bot's estimate, said in per
cent), with the lead in points (one evaluation for all) only once collecting
has begun."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_inprocess import run

from stawvs_ap import StawvsGame
from stawvs_ap.bots import GreedyBot, RandomBot
from stawvs_ap.bots.knowledge import evaluate, lead
from stawvs_ap.bots.simulate import lead_share, rewards
from stawvs_ap.i18n import catalogue
from stawvs_ap.service import methods
from stawvs_ap.service.hints import HintRow, choice_note, hint_rows

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def collecting(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = StawvsGame.new(3, seed=11)
    while game.mode == "place":
        game.move(game.moves()[len(game.moves()) // 2])
    path = tmp_path_factory.mktemp("hint") / "game.json"
    path.write_text(game.serialize())
    return path


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["mcts:iterations=300", "uct:iterations=300", "greedy", "random"])
def test_every_bot_hints_its_choice_first_then_shares_with_the_lead_beside_them(
    collecting: Path, spec: str
) -> None:
    game = StawvsGame(collecting.read_text())
    done = run("hint", collecting, "--bot", spec, "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    rows = doc["candidates"]
    assert doc["sorted_by"] == "choice, then share" and len(rows) == 5
    assert rows[0]["move"] == doc["best"]
    shares = [row["share"] for row in rows[1:]]
    assert shares == sorted(shares, reverse=True) and all(0 <= s <= 1 for s in shares)
    for row in rows:
        moved, _ = game.position.play(next(m for m in game.legal_moves if str(m) == row["move"]))
        assert row["lead"] == round(lead(moved, game.currplayer), 2)
        assert row["words"] == (
            f"{row['move']}: {100 * row['share']:.0f}% win share, lead {row['lead']:+.1f} points"
        )


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


def test_a_hint_while_caps_are_placed_gives_no_lead() -> None:
    game = StawvsGame.new(2, seed=3)
    rows = hint_rows(game, GreedyBot(seed=1).analyse(game, top=3))
    assert all(row.lead is None for row in rows)
    assert rows[0].words(catalogue("en")) == f"{rows[0].move}: {rows[0].percent}% win share"


def test_the_choice_comes_first_even_when_another_move_has_a_larger_share() -> None:
    game = StawvsGame.new(2, seed=3)
    candidates = GreedyBot(seed=1).analyse(game, top=3)
    low_first = [candidates[-1], *candidates[:-1]]
    assert hint_rows(game, low_first)[0].move == str(candidates[-1].move)


def test_the_service_hint_words_the_candidates_in_the_callers_language() -> None:
    state = StawvsGame.new(2, seed=3).serialize()
    answer = methods.call("hint", {"state": state, "bot": "greedy", "top": 2, "locale": "de"})
    first = answer["candidates"][0]
    assert first["move"] == answer["best"] and first["lead"] is None
    assert first["value"] == first["share"]
    row = HintRow(first["move"], first["share"], None, first["visits"])
    assert first["words"] == row.words(catalogue("de")) != row.words(catalogue("en"))


def test_the_text_hint_names_the_choice_first(collecting: Path) -> None:
    done = run("hint", collecting, "--bot", "greedy")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Hint: ") and "% win share, lead " in lines[0]
    shares = [int(line.split(": ")[1].split("%")[0]) for line in lines[1:]]
    assert len(lines) == 5 and shares == sorted(shares, reverse=True)


def test_a_choice_listed_above_a_higher_share_on_fewer_visits_says_so_in_words() -> None:
    rows = [HintRow("e5", 0.55, None, 900), HintRow("d4", 0.58, None, 80)]
    note = choice_note(rows)
    assert note is not None
    assert catalogue("en").say(note) == "chosen: e5, most searched; d4 rated higher on fewer visits"
    assert catalogue("de").say(note) != catalogue("en").say(note)


def test_no_note_when_the_choice_shows_the_highest_share_or_more_visits_back_the_other() -> None:
    chosen = HintRow("e5", 0.55, None, 900)
    assert choice_note([chosen, HintRow("d4", 0.50, None, 80)]) is None
    assert choice_note([chosen, HintRow("d4", 0.554, None, 80)]) is None  # both show 55%
    assert choice_note([chosen, HintRow("d4", 0.60, None, 900)]) is None  # not fewer visits
    assert choice_note([chosen]) is None


def test_an_mcts_hint_notes_exactly_the_moves_rated_higher_than_its_choice(
    collecting: Path,
) -> None:
    done = run("hint", collecting, "--bot", "mcts:iterations=300", "--top", "8", "--json")
    doc = json.loads(done.stdout)
    first, *rest = doc["candidates"]
    higher = [
        row
        for row in rest
        if round(100 * row["share"]) > round(100 * first["share"])
        and row["visits"] < first["visits"]
    ]
    if higher:
        assert doc["note"] == (
            f"chosen: {first['move']}, most searched; {higher[0]['move']} rated higher on "
            "fewer visits"
        )
    else:
        assert doc["note"] is None
