"""The text diagram (stawvs_ap.pictures.textboard.board_text) for terminals."""

from __future__ import annotations

import random

from hostile import play_random
from positions import position_from_diagram

from stawvs_ap import Pyramid, StawvsGame
from stawvs_ap.pictures.textboard import board_text


def played(numplayers: int, seed: int, plies: int | None = None) -> StawvsGame:
    """A seeded game after ``plies`` random moves (to the end when None)."""
    game = StawvsGame(numplayers, seed=seed)
    return play_random(game, random.Random(seed), 10**6 if plies is None else plies)


def board_lines(game: StawvsGame) -> str:
    """The board part of the diagram: eight ranks and the file letters."""
    return "\n".join(board_text(game).splitlines()[:9])


BOARD = """
8  .     PI1   .     .     .     .     .     .
7  .     .     BL3@1 .     .     .     .     .
6  .     .     .     .     .     .     .     .
5  .     .     .     GR2@2 .     .     .     .
4  .     .     .     .     .     .     .     .
3  .     .     .     .     .     .     .     .
2  .     .     .     .     .     .     .     OR1
1  .     .     .     .     .     .     .     .
   a     b     c     d     e     f     g     h
"""


def test_board_lists_ranks_8_to_1_with_file_letters_below() -> None:
    lines = board_text(StawvsGame(2, seed=1)).splitlines()
    assert [line[0] for line in lines[:8]] == list("87654321")
    assert lines[8].split() == list("abcdefgh")


def test_squares_show_pyramid_codes_caps_and_empty_squares() -> None:
    game = position_from_diagram(BOARD, captured={1: ["PI3", "PI2"], 2: []})
    assert board_lines(game) == BOARD.strip("\n")


def test_printed_board_is_a_diagram_the_tests_can_read_back() -> None:
    game = played(3, seed=7, plies=30)
    printed = board_lines(game)
    collections = [[Pyramid(p).code for p in c] for c in game.position.captured]
    again = position_from_diagram(printed, numplayers=3, captured=collections)
    assert board_lines(again) == printed


def test_ghosts_are_shown_after_final_captures() -> None:
    game = played(2, seed=11)
    text = board_text(game)
    assert text.count("GH") == 6
    assert "Game over. Winner" in text


def test_collections_are_grouped_in_trees_with_their_points() -> None:
    game = position_from_diagram(
        BOARD, captured={1: ["PI1", "PI3", "PI2", "BL1"], 2: ["GR3", "OR2", "BL1"]}
    )
    text = board_text(game)
    assert "Player 1 (@1): 8 points  [PI3 PI2 PI1]=7  BL1" in text
    assert "Player 2 (@2): 5 points  [GR3 OR2 BL1]=5" in text


def test_empty_collection_is_a_dash() -> None:
    assert "Player 2 (@2): 0 points  -" in board_text(StawvsGame(2, seed=1))


def test_status_names_the_player_to_move_and_the_phase() -> None:
    assert board_text(StawvsGame(3, seed=1)).endswith("Player 1 to move (placement phase).\n")
    game = position_from_diagram(BOARD, to_move=2, eliminated=[1])
    text = board_text(game)
    assert "Player 1 (@1) (passed)" in text
    assert text.endswith("Player 2 to move (collection phase).\n")


def test_last_move_is_shown() -> None:
    game = StawvsGame(2, seed=1).move("b7")
    assert "Last move: b7" in board_text(game)


def test_a_name_cannot_send_a_terminal_control_sequence() -> None:
    # ESC starts a sequence that recolours or clears a terminal; BEL rings;
    # U+202E turns the rest of the line around.
    text = board_text(StawvsGame(2, seed=1), names=["Ann\x1b[2J\x07\u202e", "Bob"])
    assert "Ann\ufffd[2J\ufffd\ufffd" in text
    assert not any(c in text for c in "\x1b\x07\u202e")


def test_names_replace_the_default_labels() -> None:
    text = board_text(StawvsGame(2, seed=1), names=["Ann", "Bob"])
    assert "Ann (@1): 0 points" in text and text.endswith("Ann to move (placement phase).\n")


def test_printing_a_game_shows_its_text_board() -> None:
    game = played(2, seed=3, plies=15)
    assert str(game) + "\n" == board_text(game)


def test_printing_a_position_shows_its_board_and_the_other_fields() -> None:
    game = played(3, seed=3, plies=15)
    position = game.position
    lines = str(position).splitlines()
    assert lines[:9] == board_text(game).splitlines()[:9]
    assert lines[9:] == ["", position.notation().split(" ", 1)[1]]


def test_a_bare_position_draws_as_the_text_board_without_a_last_move() -> None:
    game = played(2, seed=3, plies=15)
    text = board_text(game.position)
    assert "Last move" not in text
    assert text == board_text(game).replace(f"Last move: {game.lastmove}\n", "")


def test_one_point_is_a_point() -> None:
    game = played(2, seed=3, plies=7)  # six caps placed, then one pyramid claimed
    assert game.position.scores() == [1, 0]
    assert "(@1): 1 point  " in board_text(game)
    assert "(@2): 0 points  -" in board_text(game)
    labels = [area["label"] for area in game.render()["areas"] if "label" in area]
    assert labels == ["Player 1's pyramids (1 point)"]  # an empty stash has no area
