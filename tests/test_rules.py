"""The rules of Stawvs (CONTRACT §1), one test per rule or edge case.

Each test sets up a small hand-made position (see ``positions.py`` for the
diagram format) in which the rule decides the outcome, so breaking the rule
breaks the test.
"""

from __future__ import annotations

import pytest
from positions import board_diagram, diagram, position_from_diagram

from stawvs_ap import StawvsGame
from stawvs_ap.core.moves import normalise

EMPTY_BOARD_BUT = """
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 {} {} {} {} {} {} {} {}
"""


def bottom_rank(*squares: str, **options: object) -> StawvsGame:
    """A game whose only pyramids stand on rank 1 (a1 first); other ranks are empty."""
    padded = [*squares, *["."] * (8 - len(squares))]
    return position_from_diagram(EMPTY_BOARD_BUT.format(*padded), **options)


def code(game: StawvsGame, move: str) -> str | None:
    """The rejection code of ``move`` (None when valid). The move generator must
    agree with the judge: a complete move is listed by ``moves()`` exactly when
    it is accepted, so every rule here holds for both."""
    verdict = game.validate_move(move)
    listed = normalise(move) in game.moves()
    assert listed == (verdict.valid and verdict.complete == 1), (move, verdict, game.moves())
    return verdict.code


def destinations(game: StawvsGame, source: str) -> set[str]:
    return {m.split(",")[0].split("-")[1] for m in game.moves() if m.startswith(source + "-")}


# -- sliding -------------------------------------------------------------------


def test_slide_through_a_cap_is_refused() -> None:
    game = bottom_rank("PI1@1", "PI2@2", "PI3", "BL1")
    assert code(game, "a1-c1,a1") == "BAD_MOVE"
    assert code(game, "a1-c1") == "BAD_MOVE"


def test_slide_over_an_empty_square_is_refused() -> None:
    game = bottom_rank("PI1@1", ".", "PI3", "BL1")
    assert code(game, "a1-c1,a1") == "BAD_MOVE"
    assert game.moves() == ["pass"]


def test_landing_on_an_empty_square_is_refused() -> None:
    game = bottom_rank("PI1@1", "PI2", ".", "BL1")
    assert code(game, "a1-c1,a1") == "BAD_MOVE"
    assert destinations(game, "a1") == {"b1"}


def test_landing_on_a_cap_is_refused() -> None:
    game = bottom_rank("PI1@1", "PI2@2", "PI3@1")
    assert code(game, "a1-b1,a1") == "BAD_MOVE"
    assert code(game, "c1-b1,c1") == "BAD_MOVE"


def test_slides_go_in_all_eight_directions_any_distance() -> None:
    corners = {"a8", "h8", "a1", "h1"}
    full = "\n".join(
        " ".join("." if f"{file}{rank}" in corners else "*" for file in "abcdefgh")
        for rank in range(8, 0, -1)
    )
    game = position_from_diagram(full, caps={"d4": 1, "g7": 2})
    expected = set()
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    for step_file, step_rank in steps:
        file, rank = 3 + step_file, 4 + step_rank
        while 0 <= file < 8 and 1 <= rank <= 8:
            name = f"{'abcdefgh'[file]}{rank}"
            if name in corners or name == "g7":
                break
            expected.add(name)
            file, rank = file + step_file, rank + step_rank
    assert destinations(game, "d4") == expected
    assert {"d8", "d1", "a4", "h4", "b2", "a7", "g1", "f6"} <= expected
    assert "g7" not in expected and "h8" not in expected


def test_a_cap_slides_at_least_one_square() -> None:
    game = bottom_rank("PI1@1", "PI2")
    assert code(game, "a1-a1,b1") == "BAD_MOVE"


# -- claiming ------------------------------------------------------------------


def test_a_claim_may_take_the_vacated_square() -> None:
    game = bottom_rank("PI1@1", "PI2")
    game.move("a1-b1,a1")
    assert game.state()["stack"][-1]["captured"][0] == [["PI", 1]]
    assert board_diagram(game).splitlines()[7] == ". PI2@1 . . . . . ."


def test_a_claim_may_pass_over_the_vacated_square() -> None:
    game = bottom_rank("PI1", "PI2@1", "PI3")
    assert game.validate_move("b1-c1,a1").complete == 1
    game.move("b1-c1,a1")
    assert game.state()["stack"][-1]["captured"][0] == [["PI", 1]]


def test_the_landing_square_cannot_be_claimed() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3")
    assert code(game, "a1-b1,b1") == "BAD_CLAIM"
    landings_claimed = [m for m in game.moves() if m.split(",")[0].split("-")[1] == m.split(",")[1]]
    assert landings_claimed == []


def test_claims_are_blocked_by_caps() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", "BL1@2", "BL2")
    assert code(game, "a1-b1,c1") is None
    assert code(game, "a1-b1,d1") == "BAD_CLAIM"  # capped
    assert code(game, "a1-b1,e1") == "BAD_CLAIM"  # behind the cap


def test_claims_are_blocked_by_empty_squares() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", ".", "BL2")
    assert code(game, "a1-b1,c1") is None
    assert code(game, "a1-b1,e1") == "BAD_CLAIM"


def test_claims_go_in_any_straight_line_any_distance() -> None:
    game = position_from_diagram("""
        8 . . . . . . . .
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . OR3 . . .
        4 . . . BL2 . . . .
        3 . . GR1 . . . . .
        2 . PI2 . PI3 . . . .
        1 PI1@1 . . . . . . .
    """)
    assert code(game, "a1-b2,e5") is None  # diagonal, three squares away
    assert code(game, "a1-b2,d2") == "BAD_CLAIM"  # c2 is empty
    assert sorted(m for m in game.moves() if m.startswith("a1-b2,")) == [
        "a1-b2,a1",
        "a1-b2,c3",
        "a1-b2,d4",
        "a1-b2,e5",
    ]


def test_hey_forces_the_vacated_square() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", variants=["hey"])
    assert code(game, "a1-b1,c1") == "BAD_CLAIM_HEY"
    assert code(game, "a1-b1,a1") is None
    assert sorted(game.moves()) == ["a1-b1,a1", "a1-c1,a1"]


def test_hey_from_to_is_still_incomplete() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", variants=["hey"])
    verdict = game.validate_move("a1-b1")
    assert (verdict.valid, verdict.complete) == (True, -1)


def test_a_claimed_square_stays_empty() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", "BL1@2", "BL2", "BL3")
    game.move("a1-b1,c1").move("d1-e1,d1")
    assert code(game, "b1-c1,a1") == "BAD_MOVE"
    assert destinations(game, "b1") == {"a1"}


# -- passing and elimination ---------------------------------------------------

BOXED_IN = """
8 PI3@1 . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . GR2@1 . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . BL1@1 . . . OR1@2 OR2
"""


def test_pass_is_refused_while_a_move_exists() -> None:
    game = bottom_rank("PI1@1", "PI2")
    assert code(game, "pass") == "NOPASS"


def test_pass_is_refused_in_placement() -> None:
    game = StawvsGame(2, seed=1)
    assert code(game, "pass") == "NOPASS"


def test_a_player_with_no_move_must_pass() -> None:
    game = position_from_diagram(BOXED_IN)
    assert game.moves() == ["pass"]
    assert game.validate_move("pass").complete == 1


def test_the_first_pass_eliminates_and_announces_the_pyramids_under_the_caps() -> None:
    game = position_from_diagram(BOXED_IN)
    game.move("pass")
    assert game.eliminated == [1]
    assert game.results == [
        {
            "type": "announce",
            "payload": [  # reading order: a8, e5, c1
                "a large pink pyramid",
                "a medium green pyramid",
                "a small blue pyramid",
            ],
        }
    ]


def test_later_passes_are_plain_passes() -> None:
    game = position_from_diagram(BOXED_IN, eliminated=[1])
    game.move("pass")
    assert game.results == [{"type": "pass"}]
    assert game.eliminated == [1]


def test_after_the_first_pass_only_pass_is_accepted() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", eliminated=[1])
    assert game.moves() == ["pass"]
    assert code(game, "a1-b1,a1") == "MUST_PASS"
    assert code(game, "pass") is None


def test_after_the_first_pass_partials_are_judged_normally() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3", "BL1@2", eliminated=[1])
    assert game.validate_move("a1").complete == -1
    assert game.validate_move("a1-b1").complete == -1
    assert code(game, "d1") == "BAD_START"
    assert code(game, "a1-d1") == "BAD_MOVE"


def test_eliminated_players_keep_their_turns() -> None:
    game = bottom_rank("PI1@1", "PI2", "PI3@3", "BL1", numplayers=3, eliminated=[2])
    game.move("a1-b1,a1")
    assert game.currplayer == 2
    assert game.moves() == ["pass"]
    game.move("pass")
    assert game.results == [{"type": "pass"}]
    assert game.currplayer == 3


def test_the_game_ends_exactly_when_the_last_player_is_eliminated() -> None:
    game = position_from_diagram(BOXED_IN)
    game.move("pass")  # player 1 out
    game.move("g1-h1,g1")
    game.move("pass")  # player 1 again: still one player in
    assert not game.gameover
    assert game.moves() == ["pass"]  # player 2 is now boxed in
    game.move("pass")
    assert game.gameover
    assert game.moves() == []
    assert [r["type"] for r in game.results] == ["announce", "eog", "winners"]


def test_the_game_goes_on_while_one_player_can_still_move() -> None:
    game = bottom_rank("PI1@1", "PI2", ".", ".", ".", "BL1@2", numplayers=2)
    game.move("a1-b1,a1")
    game.move("pass")  # player 2 is boxed in
    assert not game.gameover
    assert game.currplayer == 1 and game.moves() == ["pass"]


# -- the end of the game -------------------------------------------------------

FINAL = """
8 PI3@2 . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . GR2@1 . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . BL1@1 . . . OR1@2 .
"""


def finish(game: StawvsGame) -> StawvsGame:
    while not game.gameover:
        game.move("pass")
    return game


def test_final_captures_take_the_capped_pyramids_in_reading_order() -> None:
    game = finish(position_from_diagram(FINAL, captured={1: ["OR3"]}))
    assert game.state()["stack"][-1]["captured"] == [
        [["OR", 3], ["GR", 2], ["BL", 1]],
        [["PI", 3], ["OR", 1]],
    ]


def test_final_captures_leave_ghosts_under_the_caps() -> None:
    game = finish(position_from_diagram(FINAL))
    assert board_diagram(game) == diagram(
        FINAL.replace("PI3@2", "GH3@2")
        .replace("GR2@1", "GH2@1")
        .replace("BL1@1", "GH1@1")
        .replace("OR1@2", "GH1@2")
    )
    cells = dict(map(tuple, game.state()["stack"][-1]["board"]["value"]))
    assert cells["a8"] == [["GH", 3], 2]


def test_finalfree_leaves_the_caps_on_their_pyramids() -> None:
    game = finish(position_from_diagram(FINAL, variants=["finalfree"], captured={1: ["OR3"]}))
    assert board_diagram(game) == diagram(FINAL)
    assert game.state()["stack"][-1]["captured"] == [[["OR", 3]], []]


@pytest.mark.parametrize(
    ("collection", "points"),
    [
        (["PI1", "PI2", "PI3"], 7),
        (["PI1", "BL2", "GR3"], 5),
        (["OR1", "OR1", "GR3"], 3),
        (["PI3", "BL3", "PI2", "PI1", "BL1"], 9),
        ([], 0),
    ],
)
def test_scoring_seven_per_monochrome_tree_five_per_mixed_tree_one_per_other(
    collection: list[str], points: int
) -> None:
    game = bottom_rank("PI1@1", captured={1: collection})
    assert game.get_player_score(1) == points


def test_ties_share_the_win() -> None:
    game = finish(
        position_from_diagram(FINAL, variants=["finalfree"], captured={1: ["OR1"], 2: ["BL2"]})
    )
    assert game.winner == [1, 2]


def test_winners_are_listed_in_ascending_order() -> None:
    game = position_from_diagram(
        FINAL,
        numplayers=3,
        variants=["finalfree"],
        to_move=3,
        captured={1: ["PI1", "PI2", "PI3"], 2: ["BL1"], 3: ["OR1", "OR2", "OR3"]},
    )
    finish(game)
    assert game.winner == [1, 3]
    assert game.results[-1] == {"type": "winners", "players": [1, 3]}


def test_the_highest_score_wins() -> None:
    game = finish(position_from_diagram(FINAL, variants=["finalfree"], captured={2: ["BL2"]}))
    assert game.winner == [2]
