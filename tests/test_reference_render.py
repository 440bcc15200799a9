"""Renders and partial-move previews against the Abstract Play engine.

Stash area labels are display text (ours may differ), so they are dropped
before comparing; everything else in a render must be equal.
"""

from __future__ import annotations

import json

import pytest

from stawvs_ap import StawvsGame

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref

GAMES = ref.games()
POSITIONS = ref.probes()
PREVIEWS = ref.extras("preview")
HISTORY = ref.extras("history")
ENDING = [x for x in ref.extras("ending") if x["selected"] != "finished"]


def _render(g: StawvsGame) -> dict:
    return ref.drop_labels(g.render())


# --------------------------------------------------------------------------
# Games, loaded games, probe positions


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_render_after_every_ply_matches_reference(game):
    g = StawvsGame(game["initial"])
    for i, ply in enumerate(game["plies"]):
        g.move(ply["move"])
        assert _render(g) == ref.drop_labels(ply["render"]), f"ply {i} ({ply['move']!r})"


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_render_of_loaded_final_state_matches_reference(game):
    got = _render(StawvsGame(game["final"]))
    assert got == ref.drop_labels(game["render_loaded"])


@pytest.mark.parametrize("pos", POSITIONS, ids=ref.probe_id)
def test_render_of_probe_position_matches_reference(pos):
    assert _render(StawvsGame(pos["state"])) == ref.drop_labels(pos["render"])


# --------------------------------------------------------------------------
# Partial-move previews


def _previews(line):
    for key in ("preview_from", "preview_to", "preview_full"):
        if line.get(key):
            yield key, line[key]


@pytest.mark.parametrize("line", PREVIEWS, ids=ref.extra_id)
def test_previews_match_reference(line):
    for key, preview in _previews(line):
        g = StawvsGame(line["state"])
        before = g.serialize()
        currplayer, lastmove = g.currplayer, g.lastmove
        g.move(preview["move"], partial=True)
        where = f"{key} {preview['move']!r}"
        assert ref.as_json(g.results) == preview["results"], where
        assert _render(g) == ref.drop_labels(preview["render"]), where
        # A preview changes neither the turn, nor the last move, nor the stack.
        assert g.currplayer == currplayer, where
        assert g.lastmove == lastmove, where
        assert g.serialize() == before, where


# --------------------------------------------------------------------------
# Load, undo, endings


@pytest.mark.parametrize("line", HISTORY, ids=ref.extra_id)
def test_render_after_load_shows_that_entry(line):
    """The reference's board and collections after load(i) are right; its
    annotations are those of the latest entry (README point 5). Ours are entry
    i's, as a re-created game draws them (no exit)."""
    stack = json.loads(line["state"])["stack"]
    for rec in line["loads"]:
        if "error" in rec:
            continue
        g = StawvsGame(line["state"])
        g.load(rec["i"])
        got = _render(g)
        want = ref.drop_labels(rec["render"])
        where = f"load({rec['i']})"
        assert got["pieces"] == want["pieces"], where
        assert got.get("areas") == want.get("areas"), where
        assert got.get("annotations") == ref.expected_annotations(stack[rec["i"]]["_results"]), (
            where
        )
        assert {k: v for k, v in got.items() if k not in ("pieces", "areas", "annotations")} == {
            k: v for k, v in want.items() if k not in ("pieces", "areas", "annotations")
        }, where


@pytest.mark.parametrize("line", HISTORY, ids=ref.extra_id)
def test_render_after_undo_shows_the_previous_entry(line):
    """After undo() the render is that of the new last entry, as a game
    re-created from the shortened state draws it."""
    g = StawvsGame(line["state"])
    g.undo()
    want = _render(StawvsGame(line["after_undo"]))
    assert _render(g) == want
    top = json.loads(line["after_undo"])["stack"][-1]
    assert want["pieces"] == ref.board_pieces(top)
    assert want.get("annotations") == ref.expected_annotations(top["_results"])


@pytest.mark.parametrize("line", ENDING, ids=ref.extra_id)
def test_render_after_ending_matches_reference(line):
    g = StawvsGame(line["state_before"])
    which = line["which"]
    if which in ("resign", "timeout"):
        getattr(g, which)(line["player"])
    else:
        getattr(g, which)()
    assert _render(g) == ref.drop_labels(line["render"])
