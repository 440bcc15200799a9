"""What :func:`board_svg` draws for a page, only when asked: click squares
(``data-square``), colour letters, the squares of a move being built, and
labelled hints. Left at their defaults, these options change nothing."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hostile import play_random

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.core.pyramids import PYRAMIDS
from stawvs_ap.core.squares import SQUARE_NAMES
from stawvs_ap.pictures.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"
ADDED_GROUPS = ('<g class="squares">', '<g class="highlights">', '<g class="hint')


def played(players: int, seed: int, plies: int, variants: list[str] | None = None) -> StawvsGame:
    game = StawvsGame(players, variants=variants or [], seed=seed)
    return play_random(game, random.Random(seed), plies)


def without_page_additions(svg: str) -> str:
    """``svg`` less every element the page's options add."""
    kept, depth = [], 0
    for line in svg.split("\n"):
        if depth == 0 and line.startswith(ADDED_GROUPS):
            depth = 1
            continue
        if depth:
            depth += line.count("<g ") - line.count("</g>")
            continue
        if 'class="colour-mark"' not in line:
            kept.append(line)
    return "\n".join(kept)


@pytest.mark.parametrize(("players", "seed", "plies"), [(2, 1, 0), (3, 5, 30), (4, 9, 400)])
def test_the_page_options_only_add_elements_to_the_plain_picture(
    players: int, seed: int, plies: int
) -> None:
    game = played(players, seed, plies)
    plain = board_svg(game)
    moves = game.moves()[:2]
    page = board_svg(
        game,
        squares=True,
        marks=True,
        hints=[(m, "0.5") for m in moves],
        highlights={"selected": ["c3"], "destinations": [1, 2], "targets": ["h1"]},
    )
    assert without_page_additions(page) == plain
    assert board_svg(game, hints=(), highlights={}, marks=False, squares=False) == plain


def test_each_square_has_a_click_element_over_it_named_after_it() -> None:
    root = ET.fromstring(board_svg(played(2, 3, 10), squares=True))
    squares = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "square"]
    clicks = [e for e in root.iter(f"{SVG}rect") if e.get("data-square")]
    assert [e.get("data-square") for e in clicks] == list(SQUARE_NAMES)
    for square, click in zip(squares, clicks, strict=True):
        assert {k: square.get(k) for k in ["x", "y", "width", "height"]} == {
            k: click.get(k) for k in ["x", "y", "width", "height"]
        }
    assert list(root)[-1].get("class") == "collections"  # the click squares lie over the board


def test_every_coloured_pyramid_carries_its_colours_letter() -> None:
    game = played(3, 5, 10**6)  # over: ghosts under the caps, every collection full
    root = ET.fromstring(board_svg(game, marks=True))
    letters = sorted(
        e.text or "" for e in root.iter(f"{SVG}text") if e.get("class") == "colour-mark"
    )
    coloured = [p for p in game.position.board if p < len(PYRAMIDS) and not PYRAMIDS[p].is_ghost]
    collected = [p for c in game.position.captured for p in c]
    assert letters == sorted(PYRAMIDS[p].code[0] for p in coloured + collected)
    assert set(letters) <= set("PBGO")


def test_colour_is_never_the_only_signal_of_a_cap_or_a_highlight() -> None:
    """Caps are told apart by their player's number, and the squares of a move
    being built by the shapes of their marks, not only by colour."""
    game = played(3, 5, 20)
    root = ET.fromstring(
        board_svg(game, highlights={"selected": ["c3"], "destinations": ["d4"], "targets": ["e5"]})
    )
    drawn = list(root.iter())
    for index, cap in enumerate(drawn):
        if cap.get("class") == "cap":
            number = next(e for e in drawn[index:] if e.tag == f"{SVG}text")
            assert number.text == cap.get("data-player")
    assert sum(e.get("class") == "cap" for e in drawn) >= sum(map(bool, game.position.caps))
    shapes = {e.get("class"): (e.tag, e.get("fill"), e.get("stroke-dasharray")) for e in drawn}
    marks = [shapes["selected"], shapes["destination"], shapes["target"]]
    assert len(set(marks)) == 3 and marks[0][0] == f"{SVG}rect"  # a frame, a dot, a dashed ring
    assert marks[1][1] != "none" and marks[2][1] == "none" and marks[2][2]


def test_highlights_and_arrows_take_squares_by_number_or_name() -> None:
    game = played(2, 3, 10)
    assert board_svg(game, arrows=[("a8", "C6")]) == board_svg(game, arrows=[(0, 18)])
    by_name = board_svg(game, highlights={"destinations": ["a8", "b8"]})
    assert by_name == board_svg(game, highlights={"destinations": [0, 1]})
    assert by_name.count('class="destination"') == 2


@pytest.mark.parametrize(
    "options",
    [
        {"highlights": {"glowing": ["c3"]}},
        {"highlights": {"targets": ["z9"]}},
        {"highlights": {"targets": [64]}},
        {"highlights": {"targets": [True]}},
        {"arrows": [("c3", "i9")]},
    ],
)
def test_unknown_highlights_and_squares_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(StawvsError) as refused:
        board_svg(StawvsGame(2, seed=1), **options)  # type: ignore[arg-type]
    assert refused.value.code == "BAD_ARGUMENT"


def test_a_hint_is_an_arrow_with_its_label_or_a_ring_for_a_placement() -> None:
    game = played(2, 3, 12)
    move = game.moves()[0]
    root = ET.fromstring(board_svg(game, hints=[(move, "0.61"), ("b2", "0.4"), ("pass", "x")]))
    hints = [g for g in root.iter(f"{SVG}g") if g.get("class") == "hint"]
    assert [g.get("data-move") for g in hints] == [move, "b2"]  # a pass has nothing to draw
    assert [len(list(g.iter(f"{SVG}line"))) for g in hints] == [1, 0]
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "hint-labels")
    assert [t.text for t in labels.iter(f"{SVG}text")] == ["0.61", "0.4"]
    assert list(root).index(labels) > max(list(root).index(g) for g in hints)  # over the arrows


def test_labels_of_candidates_ending_on_one_square_never_overlap_nor_cover_a_pyramid() -> None:
    game = played(2, 3, 12)
    first = game.legal_moves[0]
    alike = [m for m in game.legal_moves if (m.source, m.dest) == (first.source, first.dest)]
    labels_given = ["49%", "100%", "7%", "0.75"]
    svg = board_svg(game, hints=list(zip(alike[:4], labels_given, strict=False)), squares=True)
    root = ET.fromstring(svg)
    labels = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "hint-labels")
    boxes = [
        tuple(float(r.get(k) or 0) for k in ("x", "y", "width", "height"))
        for r in labels.iter(f"{SVG}rect")
    ]
    assert len(boxes) == min(4, len(alike)) >= 2
    for n, (x, y, w, h) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[n + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y  # apart
    # Each stays in a corner beside the middle third, where the largest
    # pyramid and a cap stand, above the depth at which the pyramid widens.
    end = first.dest
    assert end is not None
    cells = {c.get("data-square"): c for c in root.iter() if c.get("data-square")}
    cell = cells[str(end)]
    cx, cy, size = (float(cell.get(k) or 0) for k in ("x", "y", "width"))
    for x, y, w, h in boxes:
        assert x + w <= cx + size / 3 or x >= cx + 2 * size / 3
        assert y + h <= cy + size * 0.4
