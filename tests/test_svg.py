"""The SVG picture (stawvs_ap.pictures.svg.board_svg): a well-formed, deterministic drawing
of exactly what the position holds."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hostile import play_random

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.core.position import EMPTY
from stawvs_ap.pictures.svg import board_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def played(numplayers: int, seed: int, plies: int | None = None, **options: object) -> StawvsGame:
    """A seeded game after ``plies`` random moves (to the end when None)."""
    game = StawvsGame(numplayers, seed=seed, **options)  # type: ignore[arg-type]
    return play_random(game, random.Random(seed), 10**6 if plies is None else plies)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def elements(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{{{NS['svg']}}}{tag}") if e.get("class") == cls]


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{{{NS['svg']}}}text")]


def test_picture_is_a_standalone_svg_document_of_the_given_width() -> None:
    root = parse(board_svg(StawvsGame(2, seed=1), size=400))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == "400"
    assert root.get("viewBox", "").startswith("0 0 400 ")


def test_board_has_64_squares_and_coordinates() -> None:
    root = parse(board_svg(StawvsGame(2, seed=1)))
    assert len(elements(root, "rect", "square")) == 64
    labels = set(texts(root))
    assert set("abcdefgh") <= labels
    assert set("12345678") <= labels


def test_every_pyramid_on_the_board_is_drawn_with_its_code() -> None:
    game = StawvsGame(3, seed=5)
    root = parse(board_svg(game))
    board_group = next(g for g in root if g.get("class") == "pieces")
    drawn = sorted(p.get("data-code") or "" for p in board_group.iter(f"{{{NS['svg']}}}polygon"))
    on_board = sorted(
        game.render()["pieces"][r][c][0]
        for r in range(8)
        for c in range(8)
        if game.render()["pieces"][r][c]
    )
    assert len(drawn) == 60
    assert drawn == on_board


def test_caps_are_drawn_in_the_owners_colours() -> None:
    game = played(3, seed=7, plies=9)  # every cap placed
    root = parse(board_svg(game))
    board_group = next(g for g in root if g.get("class") == "pieces")
    owners = sorted(c.get("data-player") or "" for c in elements(board_group, "circle", "cap"))
    assert owners == ["1", "1", "1", "2", "2", "2", "3", "3", "3"]


def test_new_game_shows_no_last_move() -> None:
    root = parse(board_svg(StawvsGame(2, seed=2)))
    assert not elements(root, "line", "move-arrow")
    assert not elements(root, "rect", "placement")


def test_placement_is_marked_with_a_ring_and_no_arrow() -> None:
    game = StawvsGame(2, seed=2).move("b7")
    root = parse(board_svg(game))
    assert len(elements(root, "rect", "placement")) == 1
    assert not elements(root, "line", "move-arrow")


def test_collection_move_draws_arrow_claim_mark_and_dashed_line() -> None:
    game = played(2, seed=3, plies=6)
    move = game.moves()[0]
    game.move(move)
    root = parse(board_svg(game))
    assert len(elements(root, "line", "move-arrow")) == 1
    claim = elements(root, "line", "claim-line")
    assert len(claim) == 1 and claim[0].get("stroke-dasharray")
    assert len(elements(root, "circle", "claimed")) == 1
    assert "\u2718" in texts(root)


def test_arrow_runs_from_from_square_towards_to_square() -> None:
    game = played(2, seed=3, plies=6)
    move = game.moves()[0]  # e.g. "a7-b6,a7": FROM-TO,TARGET
    game.move(move)
    root = parse(board_svg(game, size=560))
    arrow = elements(root, "line", "move-arrow")[0]
    claimed = elements(root, "circle", "claimed")[0]
    source, rest = move.split("-")
    target = rest.split(",")[1]

    def centre(name: str) -> tuple[float, float]:
        col, row = "abcdefgh".index(name[0]), 8 - int(name[1])
        size = 560 - 2 * 560 * 0.06
        return 560 * 0.06 + (col + 0.5) * size / 8, 560 * 0.09 + (row + 0.5) * size / 8

    assert (float(arrow.get("x1") or 0), float(arrow.get("y1") or 0)) == pytest.approx(
        centre(source), abs=0.1
    )
    assert (float(claimed.get("cx") or 0), float(claimed.get("cy") or 0)) == pytest.approx(
        centre(target), abs=0.1
    )


def test_ghosts_appear_only_after_final_captures() -> None:
    game = played(2, seed=11)
    assert game.gameover
    ghosts = [
        p
        for p in parse(board_svg(game)).iter(f"{{{NS['svg']}}}polygon")
        if (p.get("data-code") or "").startswith("GH")
    ]
    assert len(ghosts) == 6
    game.load(-2)
    before = [
        p
        for p in parse(board_svg(game)).iter(f"{{{NS['svg']}}}polygon")
        if (p.get("data-code") or "").startswith("GH")
    ]
    assert before == []


def test_finalfree_game_over_keeps_coloured_pyramids_under_caps() -> None:
    game = played(2, seed=11, variants=["finalfree"])
    assert game.gameover
    codes = [
        p.get("data-code") or "" for p in parse(board_svg(game)).iter(f"{{{NS['svg']}}}polygon")
    ]
    assert not any(code.startswith("GH") for code in codes)


def test_collections_show_every_captured_pyramid_and_the_scores() -> None:
    game = played(2, seed=3, plies=40)
    root = parse(board_svg(game))
    collections = next(g for g in root if g.get("class") == "collections")
    drawn = len(list(collections.iter(f"{{{NS['svg']}}}polygon")))
    assert drawn == sum(len(c) for c in game.position.captured) > 0
    labels = " ".join(texts(root))
    for player, points in enumerate(game.position.scores(), start=1):
        assert f"Player {player}: {points} point" in labels


def test_game_over_names_the_winners() -> None:
    game = played(2, seed=11)
    title = parse(board_svg(game)).find("svg:title", NS)
    assert title is not None and title.text is not None
    winners = ", ".join(f"Player {p}" for p in game.winner)
    assert f"Game over. Winner{'s' if len(game.winner) > 1 else ''}: {winners}" in title.text


def test_player_names_are_escaped() -> None:
    name = '<script>alert("x")</script> & Co'
    svg = board_svg(played(2, seed=3, plies=30), names=[name, "B"])
    assert "<script>" not in svg
    assert any(text.startswith(name) for text in texts(parse(svg)))


def test_control_characters_in_a_name_are_not_drawn_and_the_svg_stays_readable() -> None:
    # XML refuses most control characters: one in a record's name made an SVG
    # that no browser would open.
    svg = board_svg(played(2, seed=3, plies=30), names=["A\x00n\x1b[31mn\u202e", "B"])
    assert any(text.startswith("A\ufffdn\ufffd[31mn\ufffd") for text in texts(parse(svg)))


def test_picture_is_deterministic_and_ignores_timestamps() -> None:
    first = played(3, seed=7, plies=25)
    second = played(3, seed=7, plies=25)  # other clock readings, same position
    assert board_svg(first) == board_svg(second)
    assert board_svg(first) == board_svg(StawvsGame(first.serialize()))


def test_picture_shows_the_loaded_ply() -> None:
    game = played(2, seed=3, plies=20)
    shown_at_10 = board_svg(played(2, seed=3, plies=10))
    assert board_svg(game.load(10)) == shown_at_10


def test_empty_squares_have_no_pyramid() -> None:
    game = StawvsGame(2, seed=4)
    root = parse(board_svg(game))
    assert sum(1 for sq in game.position.board if sq != EMPTY) == len(
        [p for p in root.iter(f"{{{NS['svg']}}}polygon")]
    )


@pytest.mark.parametrize("size", [0, 100, 10_000, True])
def test_unreasonable_sizes_are_refused(size: int) -> None:
    with pytest.raises(StawvsError) as info:
        board_svg(StawvsGame(2, seed=1), size=size)
    assert info.value.code == "BAD_ARGUMENT"


def test_arrows_take_square_names_as_well_as_squares() -> None:
    from stawvs_ap import Square

    game = StawvsGame(2, seed=1)
    by_name = board_svg(game, arrows=[("b8", "D6")])
    assert by_name == board_svg(game, arrows=[(Square.parse("b8"), Square.parse("d6"))])
    assert by_name == board_svg(game, arrows=[(1, 19)])
    assert len(elements(parse(by_name), "line", "arrow")) == 1


@pytest.mark.parametrize("bad", [("b9", "d6"), ("b8", 64), (True, "d6"), ("b8", None)])
def test_arrows_that_are_no_squares_are_refused(bad: tuple[object, object]) -> None:
    with pytest.raises(StawvsError, match="is not a square") as refused:
        board_svg(StawvsGame(2, seed=1), arrows=[bad])  # type: ignore[list-item]
    assert refused.value.code == "BAD_ARGUMENT"


def test_games_and_positions_draw_themselves_in_notebooks() -> None:
    game = played(3, seed=4, plies=20)
    assert game._repr_svg_() == board_svg(game)
    assert game.position._repr_svg_() == board_svg(game.position)
    assert parse(game.position._repr_svg_() or "").tag == f"{{{NS['svg']}}}svg"
