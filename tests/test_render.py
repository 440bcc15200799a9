"""The render JSON (CONTRACT §6): upstream schema, stash grouping, annotations.

Agreement with the recorded renders is in ``test_reference_render.py``; here
are the rules themselves, on hand-made collections and fresh games.
"""

from __future__ import annotations

import pytest

from stawvs_ap import Pyramid, Square, StawvsGame
from stawvs_ap.core.position import EMPTY, Position, Rules
from stawvs_ap.host.render import render

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
    from upstream_schemas import errors
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref
    from tests.upstream_schemas import errors


def _pyramid(code: str) -> int:
    return Pyramid.parse(code)


def _stash(*captures: str) -> list[list[str]]:
    """The stash the render shows for player 1 having captured ``captures`` in order."""
    collection = [_pyramid(code) for code in captures]
    position = Position.build(Rules(2), [EMPTY] * 64, [0] * 64, captured=[collection, []])
    out = render(position, [], numplayers=2)
    (area,) = out["areas"]
    assert area["type"] == "localStash"
    return area["stash"]  # type: ignore[no-any-return]


def _rc(square: str) -> dict[str, int]:
    return ref.square_to_rc(square)


def _collecting_game(seed: int = 5, variants: list[str] | None = None) -> StawvsGame:
    """A two-player game just after the placement phase."""
    game = StawvsGame(2, variants=variants or [], seed=seed)
    while game.mode == "place":
        game.move(game.moves()[0])
    return game


def _piece_move(game: StawvsGame) -> tuple[str, str, str]:
    move = next(m for m in game.moves() if m != "pass")
    source, rest = move.split("-")
    dest, target = rest.split(",")
    return source, dest, target


# --------------------------------------------------------------------------
# Upstream renderer schema


def _sampled_plies(game: dict) -> list[int]:
    """Every tenth ply, the first collection move, the first pass and the last ply."""
    plies = game["plies"]
    chosen = set(range(0, len(plies), 10)) | {len(plies) - 1}
    chosen.add(next(i for i, p in enumerate(plies) if "-" in p["move"]))
    chosen.add(next(i for i, p in enumerate(plies) if p["move"] == "pass"))
    return sorted(chosen)


@pytest.mark.parametrize("game", ref.games(), ids=ref.game_id)
def test_renders_during_a_reference_game_satisfy_the_upstream_schema(game):
    g = StawvsGame(game["initial"])
    assert errors("renderer", g.render()) == []
    sampled = set(_sampled_plies(game))
    for i, ply in enumerate(game["plies"]):
        g.move(ply["move"])
        if i in sampled:
            assert errors("renderer", g.render()) == [], f"ply {i}"
    assert errors("renderer", StawvsGame(game["final"]).render()) == []


@pytest.mark.parametrize("line", ref.extras("preview")[::4], ids=ref.extra_id)
def test_preview_renders_satisfy_the_upstream_schema(line):
    for key in ("preview_from", "preview_to", "preview_full"):
        if line.get(key):
            g = StawvsGame(line["state"]).move(line[key]["move"], partial=True)
            assert errors("renderer", g.render()) == [], key


def test_render_of_an_ended_game_satisfies_the_upstream_schema():
    g = _collecting_game().resign(1)
    assert errors("renderer", g.render()) == []


# --------------------------------------------------------------------------
# Stash grouping


def test_stash_categories_come_in_order_mono_trees_mixed_trees_mono_pairs_mixed_pairs_singles():
    stash = _stash("BL3", "GR2", "OR3", "OR2", "OR1", "PI2", "PI1", "GR2", "BL1", "PI1", "OR1")
    assert stash == [
        ["OR3c", "OR2c", "OR1c"],
        ["BL3c", "GR2c", "PI1c"],
        ["PI2c", "PI1c"],
        ["GR2c", "BL1c"],
        ["OR1c"],
    ]


def test_each_stack_runs_large_medium_small_whatever_the_capture_order():
    assert _stash("PI1", "PI2", "PI3") == [["PI3c", "PI2c", "PI1c"]]


def test_larges_are_taken_from_the_most_recent_backwards():
    # Both larges lack a medium of their colour; the most recent (BL3) is
    # served first and gets the only medium.
    assert _stash("PI3", "BL3", "GR2") == [["BL3c", "GR2c"], ["PI3c"]]


def test_a_large_takes_the_earliest_medium_of_its_colour_first():
    assert _stash("GR2", "PI2", "PI3") == [["PI3c", "PI2c"], ["GR2c"]]


def test_a_large_without_a_medium_of_its_colour_does_not_take_its_small_first():
    # PI3 finds no pink medium, so it takes the blue one and then the
    # earliest small of any colour, which is the green one.
    assert _stash("GR1", "PI3", "BL2", "PI1") == [["PI3c", "BL2c", "GR1c"], ["PI1c"]]


def test_a_lone_large_takes_the_earliest_medium_of_any_colour():
    assert _stash("GR2", "BL2", "PI3") == [["PI3c", "GR2c"], ["BL2c"]]


def test_a_large_and_medium_take_the_earliest_small_of_any_colour():
    assert _stash("OR1", "PI3", "PI2", "BL1") == [["PI3c", "PI2c", "OR1c"], ["BL1c"]]


def test_a_monochrome_tree_is_completed_before_other_larges_take_smalls():
    # BL3 (most recent) builds a blue tree with BL2 and BL1; PI3 then has no
    # pink medium and takes GR2 and the remaining small.
    stash = _stash("PI3", "BL1", "GR2", "BL2", "OR1", "BL3")
    assert stash == [["BL3c", "BL2c", "BL1c"], ["PI3c", "GR2c", "OR1c"]]


def test_mediums_are_taken_from_the_most_recent_backwards_with_a_small_of_their_colour():
    # PI2 is the most recent medium, so its stack starts (and is shown) first.
    assert _stash("GR2", "PI2", "PI1", "GR1") == [["PI2c", "PI1c"], ["GR2c", "GR1c"]]


def test_a_lone_medium_takes_the_earliest_small_of_any_colour():
    assert _stash("BL2", "OR1", "GR1") == [["BL2c", "OR1c"], ["GR1c"]]


def test_smalls_left_over_stand_alone_in_capture_order():
    assert _stash("GR1", "PI1", "GR1") == [["GR1c"], ["PI1c"], ["GR1c"]]


def test_no_areas_key_while_nobody_has_a_collection():
    assert "areas" not in StawvsGame(3, seed=1).render()


def test_only_players_with_a_collection_get_a_stash():
    position = Position.build(
        Rules(3), [EMPTY] * 64, [0] * 64, captured=[[], [_pyramid("PI1")], []]
    )
    areas = render(position, [], numplayers=3)["areas"]
    assert [a["stash"] for a in areas] == [[["PI1c"]]]
    assert "2" in areas[0]["label"] or "Player 2" in areas[0]["label"]


# --------------------------------------------------------------------------
# Annotations and the exit mark


def test_no_annotations_key_on_a_new_game():
    assert "annotations" not in StawvsGame(2, seed=1).render()


def test_a_placement_is_marked_as_entering_its_square():
    g = StawvsGame(2, seed=1)
    square = g.moves()[0]
    assert g.move(square).render()["annotations"] == [{"type": "enter", "targets": [_rc(square)]}]


def test_exit_mark_right_after_a_move_in_memory():
    g = _collecting_game()
    source, dest, target = _piece_move(g)
    notes = g.move(f"{source}-{dest},{target}").render()["annotations"]
    assert notes == [
        {"type": "exit", "targets": [_rc(source)]},
        {"type": "move", "targets": [_rc(source), _rc(dest)]},
        {"type": "glyph", "glyph": "note", "targets": [_rc(target)]},
        {"type": "move", "style": "dashed", "targets": [_rc(dest), _rc(target)]},
    ]


def _after_one_piece_move() -> StawvsGame:
    g = _collecting_game()
    source, dest, target = _piece_move(g)
    return g.move(f"{source}-{dest},{target}")


def test_no_exit_mark_after_load():
    notes = _after_one_piece_move().load(-1).render()["annotations"]
    assert [n["type"] for n in notes] == ["move", "glyph", "move"]


def test_no_exit_mark_after_undo():
    g = _after_one_piece_move()
    source, dest, target = _piece_move(g)
    g.move(f"{source}-{dest},{target}").undo()
    assert [n["type"] for n in g.render()["annotations"]] == ["move", "glyph", "move"]


def test_no_exit_mark_in_a_game_recreated_from_its_state():
    g = StawvsGame(_after_one_piece_move().serialize())
    assert [n["type"] for n in g.render()["annotations"]] == ["move", "glyph", "move"]


def test_no_annotations_key_after_a_resignation():
    assert "annotations" not in _collecting_game().resign(2).render()


# --------------------------------------------------------------------------
# Partial previews


def test_preview_of_from_shows_only_the_exit_mark_and_leaves_the_board():
    g = _collecting_game()
    before = g.render()
    source, _, _ = _piece_move(g)
    shown = g.move(source, partial=True).render()
    assert shown["pieces"] == before["pieces"]
    assert shown["annotations"] == [{"type": "exit", "targets": [_rc(source)]}]


def test_preview_of_from_to_draws_the_cap_moved_with_exit_and_move_marks():
    g = _collecting_game()
    source, dest, _ = _piece_move(g)
    cap = f"P{g.currplayer}"
    shown = g.move(f"{source}-{dest}", partial=True).render()
    src, dst = _rc(source), _rc(dest)
    assert cap not in shown["pieces"][src["row"]][src["col"]]
    assert shown["pieces"][dst["row"]][dst["col"]][-1] == cap
    assert shown["annotations"] == [
        {"type": "exit", "targets": [src]},
        {"type": "move", "targets": [src, dst]},
    ]


def test_preview_of_a_whole_move_shows_the_claim_and_changes_nothing():
    g = _collecting_game()
    source, dest, target = _piece_move(g)
    state = g.serialize()
    shown = g.move(f"{source}-{dest},{target}", partial=True).render()
    t = _rc(target)
    assert shown["pieces"][t["row"]][t["col"]] == []
    assert [n["type"] for n in shown["annotations"]] == ["exit", "move", "glyph", "move"]
    assert len(shown["areas"]) == 1
    assert g.serialize() == state


# --------------------------------------------------------------------------
# Final captures


def _finished(variants: list[str]) -> StawvsGame:
    game = next(x for x in ref.games() if x["variants"] == variants)
    return StawvsGame(game["final"])


def test_ghosts_stand_under_the_caps_after_final_captures():
    g = _finished([])
    cells = [cell for row in g.render()["pieces"] for cell in row]
    ghosts = [cell for cell in cells if cell and cell[0].startswith("GH")]
    caps = [cell for cell in cells if len(cell) == 2]
    assert ghosts and ghosts == caps
    assert all(cell[1] in {"P1", "P2"} for cell in ghosts)


def test_no_ghosts_with_finalfree():
    cells = [cell for row in _finished(["finalfree"]).render()["pieces"] for cell in row]
    assert not any(cell and cell[0].startswith("GH") for cell in cells)
    assert any(len(cell) == 2 for cell in cells)


def test_ghost_glyphs_are_grey_and_faint():
    legend = StawvsGame(2, seed=1).render()["legend"]
    for size in (1, 2, 3):
        assert legend[f"GH{size}"]["colour"] == "#aaa"
        assert legend[f"GH{size}"]["opacity"] == 0.25


def test_pieces_are_eight_rows_of_eight_squares_row_zero_rank_eight():
    g = StawvsGame(2, seed=1)
    pieces = g.render()["pieces"]
    assert len(pieces) == 8 and all(len(row) == 8 for row in pieces)
    assert pieces[0][0] == [] and pieces[7][7] == []  # a8 and h1 start empty
    assert Square.parse("a8") == 0
