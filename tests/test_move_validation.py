"""Move strings and their verdicts (CONTRACT §2–§3): notation, partial moves,
the order in which rejections are reported, and that a rejection changes nothing.
"""

from __future__ import annotations

import pickle

import pytest
from positions import board_diagram, position_from_diagram

from stawvs_ap import StawvsError, StawvsGame

# Player 1: caps on a1 (can move) and c3 (boxed in). Player 2: a cap on h1.
POSITION = """
8 . . . . . . . .
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


def finished_game() -> StawvsGame:
    over = position_from_diagram(POSITION.replace("PI2", "."), eliminated=[2])
    over.move("pass")
    assert over.gameover
    return over


def placement_game() -> StawvsGame:
    return StawvsGame(2, seed=11)


def code(g: StawvsGame, move: object) -> str | None:
    return g.validate_move(move).code


# -- notation ------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["A1-B1,C1", " a1 - b1 , c1 ", "a1-B1,\tc1", "A1 -b1,C1\n"])
def test_upper_case_and_spaces_are_the_same_move(spelling: str) -> None:
    g = game()
    assert g.validate_move(spelling).complete == 1
    assert g.same_move(spelling, "a1-b1,c1")
    g.move(spelling)
    assert g.lastmove == "a1-b1,c1"


def test_pass_in_any_case_is_pass() -> None:
    g = game(eliminated=[1])
    g.move(" PaSs ")
    assert g.lastmove == "pass"


@pytest.mark.parametrize(
    "text",
    [
        "a1-b1,c1,d1",
        "a1-b1,",
        "a1-b1-c1",
        "a1-",
        "a1x",
        "a1-b1,c1 x",
        "passs",
        "z9",
        "a0",
        "hello",
        ";",
    ],
)
def test_trailing_or_foreign_text_is_malformed(text: str) -> None:
    assert code(game(), text) == "MALFORMED"


@pytest.mark.parametrize("value", [None, 42, ["a1"], "a" * 101])
def test_non_text_and_overlong_inputs_are_malformed(value: object) -> None:
    assert code(game(), value) == "MALFORMED"


def test_same_move_compares_moves_not_spellings() -> None:
    g = game()
    assert g.same_move("PASS", "pass")
    assert g.same_move("c3 - f6 , f2", "C3-F6,F2")
    assert not g.same_move("c3-f6,f2", "c3-f6,f3")
    assert not g.same_move("c3-f6", "c3-f6,f2")


# -- partial moves -------------------------------------------------------------


def test_the_empty_string_is_valid_and_incomplete_with_instructions() -> None:
    for g in (game(), placement_game(), game(eliminated=[1])):
        verdict = g.validate_move("")
        assert (verdict.valid, verdict.complete, verdict.canrender) == (True, -1, None)
        assert verdict.message


def test_from_on_own_cap_is_incomplete_even_if_it_cannot_move() -> None:
    verdict = game().validate_move("c3")
    assert (verdict.valid, verdict.complete, verdict.canrender) == (True, -1, True)


def test_from_to_is_incomplete() -> None:
    verdict = game().validate_move("a1-b1")
    assert (verdict.valid, verdict.complete, verdict.canrender) == (True, -1, True)


def test_complete_moves_and_placements_can_render() -> None:
    assert game().validate_move("a1-b1,c1").to_dict() == {
        "valid": True,
        "complete": 1,
        "canrender": True,
        "message": game().validate_move("a1-b1,c1").message,
    }
    assert placement_game().validate_move("b2").canrender is True


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("a1-b1,c1", "Slide from a1 to b1 and claim a large pink pyramid on c1."),
        ("A1 - B1 , A1", "Slide from a1 to b1 and claim a small pink pyramid on a1."),
        ("a1-b1", "Now choose the pyramid to claim from b1."),
        ("a1", "Now choose where your cap on a1 slides to."),
    ],
)
def test_an_accepted_move_says_what_it_does(move: str, message: str) -> None:
    assert game().validate_move(move).message == message


def test_a_placement_and_a_simple_capture_say_what_they_do() -> None:
    assert placement_game().validate_move("b2").message == "Place your cap on b2."
    hey = game(variants=["hey"]).validate_move("a1-b1").message
    assert hey == "With simpler captures you claim the pyramid you leave: add ,a1."


@pytest.mark.parametrize("partial", ["", "a1", "a1-b1"])
def test_move_refuses_an_incomplete_move(partial: str) -> None:
    g = game()
    before = g.serialize()
    with pytest.raises(StawvsError) as caught:
        g.move(partial)
    assert caught.value.code == "INCOMPLETE"
    assert g.serialize() == before


@pytest.mark.parametrize("partial", ["a1", "a1-b1", "a1-b1,c1"])
def test_partial_previews_change_nothing_but_the_view(partial: str) -> None:
    g = game()
    before = (g.serialize(), g.currplayer, g.lastmove, len(g.stack))
    g.move(partial, partial=True)
    assert (g.serialize(), g.currplayer, g.lastmove, len(g.stack)) == before
    assert g.results[0]["from"] == "a1"


def test_a_from_to_preview_shows_the_cap_moved() -> None:
    g = game()
    g.move("a1-b1", partial=True)
    assert board_diagram(g).splitlines()[7].startswith("PI1 PI2@1 PI3")
    assert g.results == [{"type": "move", "from": "a1", "to": "b1"}]


def test_a_refused_preview_is_an_error_too() -> None:
    with pytest.raises(StawvsError) as caught:
        game().move("h1", partial=True)
    assert caught.value.code == "BAD_START"


# -- the order of rejections (CONTRACT §3) -----------------------------------------


@pytest.mark.parametrize("text", ["", "pass", "zzz", "a1-b1,c1", "a1"])
def test_game_over_comes_before_everything(text: str) -> None:
    assert code(finished_game(), text) == "GAMEOVER"


def test_the_empty_string_comes_before_pass_rules() -> None:
    assert game(eliminated=[1]).validate_move("").complete == -1
    assert placement_game().validate_move("").valid


def test_pass_is_judged_before_syntax_and_placement() -> None:
    assert code(placement_game(), " PASS ") == "NOPASS"
    assert code(game(), "Pass") == "NOPASS"


def test_malformed_comes_before_placement() -> None:
    assert code(placement_game(), "a1-") == "MALFORMED"
    assert code(placement_game(), "a1-b1,c1,d1") == "MALFORMED"


@pytest.mark.parametrize("text", ["a2-b2", "a2-b2,c2", "h8"])
def test_placement_refuses_anything_but_a_free_pyramid(text: str) -> None:
    assert code(placement_game(), text) == "BAD_PLACEMENT"


def test_placement_refuses_a_square_with_a_cap() -> None:
    g = placement_game().move("b2")
    assert code(g, "b2") == "BAD_PLACEMENT"


def test_must_pass_comes_before_the_piece_checks() -> None:
    g = game(eliminated=[1])
    assert code(g, "a1-b1,c1") == "MUST_PASS"
    assert code(g, "h1-g1,h1") == "MUST_PASS"  # not one's cap: still MUST_PASS
    assert code(g, "e5-e6,e7") == "MUST_PASS"


@pytest.mark.parametrize("text", ["h1", "h1-g1", "h1-g1,h1", "b1-c1,b1", "e5"])
def test_bad_start_when_from_is_not_ones_own_cap(text: str) -> None:
    assert code(game(), text) == "BAD_START"


@pytest.mark.parametrize("text", ["a1-e1,a1", "a1-c2,a1", "a1-a1,b1", "c3-c2,c3", "a1-h1,a1"])
def test_bad_move_when_to_is_not_reachable(text: str) -> None:
    assert code(game(), text) == "BAD_MOVE"


def test_bad_move_comes_before_the_claim_checks() -> None:
    assert code(game(), "a1-e1,e1") == "BAD_MOVE"
    assert code(game(variants=["hey"]), "a1-e1,c1") == "BAD_MOVE"


def test_bad_claim_when_the_target_is_not_allowed() -> None:
    g = game()
    assert code(g, "a1-b1,b1") == "BAD_CLAIM"
    assert code(g, "a1-b1,g1") == "BAD_CLAIM"
    assert code(g, "a1-b1,b2") == "BAD_CLAIM"
    assert code(game(variants=["hey"]), "a1-b1,c1") == "BAD_CLAIM_HEY"


BAD_INPUTS = [
    "pass",
    "zzz",
    "a1-b1,c1,d1",
    "h1-g1,h1",
    "a1-e1,a1",
    "a1-b1,b1",
    "",
    "a1",
    "a1-b1",
    None,
]


@pytest.mark.parametrize("text", BAD_INPUTS)
def test_every_rejection_leaves_the_game_unchanged(text: str | None) -> None:
    g = game()
    g.move("a1", partial=True)
    before = (g.serialize(), g.render(), g.currplayer, g.moves())
    with pytest.raises(StawvsError) as caught:
        g.move(text)
    assert caught.value.code and caught.value.message
    assert (g.serialize(), g.render(), g.currplayer, g.moves()) == before


@pytest.mark.parametrize("text", ["a1-b1,c1", "pass", "b2"])
def test_a_finished_game_refuses_every_move(text: str) -> None:
    g = finished_game()
    before = g.serialize()
    with pytest.raises(StawvsError) as caught:
        g.move(text)
    assert caught.value.code == "GAMEOVER"
    assert g.serialize() == before


def test_every_listed_move_is_valid_and_complete() -> None:
    for g in (game(), game(variants=["hey"]), placement_game(), game(eliminated=[1])):
        for move in g.moves():
            verdict = g.validate_move(move)
            assert (verdict.valid, verdict.complete) == (True, 1), move


def test_a_verdict_reads_like_a_named_tuple_and_its_message_is_worded_when_read() -> None:
    g = game()
    verdict = g.validate_move("a1-b1")
    valid, message, complete, canrender, errcode = verdict
    assert (valid, complete, canrender, errcode) == (True, -1, True, None)
    assert message == verdict.message == verdict[1]
    assert verdict == tuple(verdict) == g.validate_move("a1-b1")
    assert hash(verdict) == hash(tuple(verdict))
    assert verdict._replace(message="x") == (True, "x", -1, True, None)
    assert verdict._asdict()["message"] == message
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    with pytest.raises(AttributeError):
        verdict.valid = False  # type: ignore[misc]
    # Worded by the game's language when it was judged, whatever the game says later.
    g.locale = "de"
    assert verdict.message == message != g.validate_move("a1-b1").message
