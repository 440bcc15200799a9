"""What a host calls besides moves (CONTRACT §3, §8): clicks, history, endings,
scores, copies and serialization.
"""

from __future__ import annotations

import json

import pytest
from positions import board_diagram, position_from_diagram

from stawvs_ap import StawvsError, StawvsGame

# Player 1: caps on a1 and c3 (c3 boxed in). Player 2: caps on h1 and h8.
POSITION = """
8 . . . . . . BL3 OR1@2
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . GR1@1 . . . . .
2 . . . . . . . .
1 PI1@1 PI2 PI3 BL1 . . BL2 OR3@2
"""


def game(**options: object) -> StawvsGame:
    return position_from_diagram(POSITION, **options)


def played() -> StawvsGame:
    """Four moves from POSITION (stack entries 0–4)."""
    g = game()
    for move in ["a1-b1,a1", "h1-g1,h1", "b1-c1,d1", "h8-g8,h8"]:
        g.move(move)
    return g


def finished() -> StawvsGame:
    g = played()
    while not g.gameover:
        g.move(g.moves()[0])
    return g


# -- clicks --------------------------------------------------------------------


def test_click_row_zero_is_rank_eight_and_col_zero_is_file_a() -> None:
    g = StawvsGame(2, seed=3)
    assert g.handle_click("", 0, 1).move == "b8"
    assert g.handle_click("", 7, 6).move == "g1"
    assert g.handle_click("", 2, 4).move == "e6"


def test_clicks_build_a_move_from_to_target() -> None:
    g = game()
    first = g.handle_click("", 7, 0)
    assert (first.move, first.valid, first.complete, first.canrender) == ("a1", True, -1, True)
    second = g.handle_click("a1", 7, 1)
    assert (second.move, second.complete) == ("a1-b1", -1)
    third = g.handle_click("a1-b1", 7, 2)
    assert (third.move, third.valid, third.complete, third.canrender) == ("a1-b1,c1", True, 1, True)


def test_a_click_after_a_complete_move_is_refused_and_keeps_the_move() -> None:
    result = game().handle_click("a1-b1,c1", 7, 3)
    assert (result.move, result.valid, result.code) == ("a1-b1,c1", False, "EXTRA_CLAIMS")


def test_a_click_after_a_complete_move_returns_it_exactly_as_given() -> None:
    result = game().handle_click("A1-B1, C1", 7, 3)
    assert (result.move, result.code) == ("A1-B1, C1", "EXTRA_CLAIMS")


@pytest.mark.parametrize("row, col", [(True, 0), (0, False), (8, 0), (0, -1), (1.0, 0)])
def test_a_click_off_the_board_is_refused(row: object, col: object) -> None:
    result = game().handle_click("", row, col)  # type: ignore[arg-type]
    assert (result.move, result.valid) == ("", False)


def test_text_that_is_no_move_is_the_same_move_as_nothing() -> None:
    g = game()
    assert not g.same_move("zz9", "ZZ9")
    assert not g.same_move("zz9", "a1-b1,c1")
    assert g.same_move(" A1-B1,C1", "a1-b1, c1")


def test_clicking_another_own_cap_after_from_is_a_to() -> None:
    result = game().handle_click("a1", 5, 2)  # c3, player 1's other cap
    assert (result.move, result.valid, result.code) == ("a1", False, "BAD_MOVE")


def test_an_invalid_click_returns_the_last_valid_prefix() -> None:
    result = game().handle_click("a1-b1", 7, 6)  # g1 is behind an empty square
    assert (result.move, result.valid, result.code) == ("a1-b1", False, "BAD_CLAIM")
    assert result.message
    start = game().handle_click("", 7, 7)  # h1 is not player 1's cap
    assert (start.move, start.valid, start.code) == ("", False, "BAD_START")


def test_an_invalid_click_in_placement_returns_the_empty_string() -> None:
    g = StawvsGame(2, seed=3).move("b2")
    result = g.handle_click("", 6, 1)  # b2 now has a cap
    assert (result.move, result.valid, result.code) == ("", False, "BAD_PLACEMENT")
    assert g.handle_click("c2", 0, 0).move == ""  # a8 is a gap


def test_a_click_in_placement_starts_a_new_move() -> None:
    g = StawvsGame(2, seed=3)
    result = g.handle_click("b2", 6, 2)
    assert (result.move, result.valid, result.complete) == ("c2", True, 1)


def test_a_hey_click_after_from_claims_from() -> None:
    result = game(variants=["hey"]).handle_click("a1", 7, 2)
    assert (result.move, result.valid, result.complete) == ("a1-c1,a1", True, 1)


def test_clicks_change_nothing() -> None:
    g = game()
    before = g.serialize()
    g.handle_click("a1", 7, 1)
    g.handle_click("a1", 9, 9)
    assert g.serialize() == before


# -- load and undo -------------------------------------------------------------


def test_load_shows_an_earlier_entry_completely() -> None:
    g = played()
    g.load(1)
    assert (g.currplayer, g.mode, g.lastmove) == (2, "collect", "a1-b1,a1")
    assert board_diagram(g).splitlines()[7] == ". PI2@1 PI3 BL1 . . BL2 OR3@2"
    assert g.state()["stack"][1]["captured"][0] == [["PI", 1]]
    g.load(0)
    assert (g.currplayer, g.lastmove) == (1, None)
    assert g.moves() == game().moves()


def test_load_counts_negative_indices_from_the_end() -> None:
    g = played()
    assert g.load(-1).lastmove == "h8-g8,h8"
    assert g.load(-5).lastmove is None


@pytest.mark.parametrize("index", [5, -6, 100])
def test_loading_an_entry_that_does_not_exist_is_an_error(index: int) -> None:
    g = played()
    with pytest.raises(StawvsError):
        g.load(index)


def test_a_move_after_load_drops_the_later_entries() -> None:
    g = played()
    g.load(1)
    g.move("h8-g8,h8")
    assert len(g.stack) == 3
    assert g.move_history() == [["a1-b1,a1", "h8-g8,h8"]]


def test_undo_drops_the_last_entry_and_shows_the_one_before() -> None:
    g = played()
    g.undo()
    assert len(g.stack) == 4
    assert (g.currplayer, g.lastmove) == (2, "b1-c1,d1")
    assert "h8-g8,h8" in g.moves()


def test_undoing_the_last_move_of_a_finished_game_reopens_it() -> None:
    g = finished()
    g.undo()
    assert not g.gameover
    assert g.winner == []
    assert g.moves() == ["pass"]
    assert json.loads(g.serialize())["gameover"] is False


def test_undo_at_the_start_is_an_error() -> None:
    with pytest.raises(StawvsError):
        game().undo()


# -- endings outside the rules ---------------------------------------------------


@pytest.mark.parametrize(
    ("call", "lastmove", "first_result", "winners"),
    [
        ("resign", "resign", {"type": "resigned", "player": 1}, [2, 3]),
        ("timeout", "timeout", {"type": "timeout", "player": 1}, [2, 3]),
        ("draw", "draw", {"type": "drawagreed"}, [1, 2, 3]),
        ("abandoned", "abandoned", {"type": "gameabandoned"}, []),
    ],
)
def test_endings_stop_the_game_and_change_nothing_else(
    call: str, lastmove: str, first_result: dict[str, object], winners: list[int]
) -> None:
    g = game(numplayers=3, to_move=2, captured={1: ["PI1"]})
    before = g.state()["stack"][-1]
    args = (1,) if call in ("resign", "timeout") else ()
    getattr(g, call)(*args)
    after = g.state()["stack"][-1]
    assert g.gameover and g.winner == winners
    assert g.results == [first_result, {"type": "eog"}, {"type": "winners", "players": winners}]
    assert (g.lastmove, g.currplayer) == (lastmove, 2)
    assert after["board"] == before["board"] and after["captured"] == before["captured"]
    assert g.sidebar_scores() == [{"name": "Scores", "scores": [1, 0, 0]}]
    assert "annotations" not in g.render()
    with pytest.raises(StawvsError) as caught:
        getattr(g, call)(*args)
    assert caught.value.code == "GAMEOVER"


def test_endings_are_refused_on_a_game_finished_by_play() -> None:
    g = finished()
    before = g.serialize()
    for call, args in [("resign", (1,)), ("timeout", (2,)), ("draw", ()), ("abandoned", ())]:
        with pytest.raises(StawvsError) as caught:
            getattr(g, call)(*args)
        assert caught.value.code == "GAMEOVER"
    assert g.serialize() == before


def test_resigning_for_a_player_who_does_not_exist_is_an_error() -> None:
    with pytest.raises(StawvsError):
        game().resign(3)


# -- history, scores, copies -----------------------------------------------------


def test_move_history_groups_moves_in_rounds() -> None:
    g = played().move("c1-b1,c1")
    assert g.move_history() == [
        ["a1-b1,a1", "h1-g1,h1"],
        ["b1-c1,d1", "h8-g8,h8"],
        ["c1-b1,c1"],
    ]
    assert game().move_history() == []


def test_results_history_lists_the_non_empty_results_in_order() -> None:
    history = played().results_history()
    assert [r[0]["how"] for r in history] == ["a1", "h1", "d1", "h8"]


def test_sidebar_scores_score_each_collection() -> None:
    g = game(numplayers=3, captured={1: ["PI1", "PI2", "PI3"], 3: ["BL1", "OR2"]})
    assert g.sidebar_scores() == [{"name": "Scores", "scores": [7, 0, 2]}]
    assert [g.get_player_score(p) for p in (1, 2, 3)] == [7, 0, 2]


def test_a_clone_is_independent() -> None:
    g = game()
    copy = g.clone()
    copy.move("a1-b1,a1")
    assert g.lastmove is None and len(g.stack) == 1
    g.move("a1-b1,c1")
    assert copy.lastmove == "a1-b1,a1" and len(copy.stack) == 2


def test_strip_and_player_change_nothing_in_the_serialized_state() -> None:
    g = played()
    assert g.serialize(strip=True, player=2) == g.serialize()
    assert g.state(strip=True, player=1) == g.state()
    assert json.loads(g.serialize()) == g.state()


def test_after_the_last_move_currplayer_has_moved_on() -> None:
    g = finished()
    assert g.state()["stack"][-1]["currplayer"] == g.state()["stack"][-2]["currplayer"] % 2 + 1
