"""Same-move checks, history (move/results history, load, undo) and endings
(resign, timeout, draw, abandoned) against the Abstract Play engine
(fixtures/reference/extras.jsonl.gz). Renders of these are compared in
test_reference_render.py."""

from __future__ import annotations

import json

import pytest

from stawvs_ap import StawvsError, StawvsGame

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref

SAMEMOVE = ref.extras("samemove")
HISTORY = ref.extras("history")
ENDING = ref.extras("ending")


def test_extras_are_all_there():
    assert len(ref.extras()) == 168
    assert {line["kind"] for line in ref.extras()} == {"preview", "ending", "history", "samemove"}
    assert SAMEMOVE and HISTORY and ENDING


# --------------------------------------------------------------------------
# same_move


@pytest.mark.parametrize("line", SAMEMOVE, ids=ref.extra_id)
def test_same_move_matches_reference(line):
    g = StawvsGame(line["state"])
    for check in line["checks"]:
        assert g.same_move(line["m1"], check["m2"]) is check["result"], (
            f"{check['kind']}: same_move({line['m1']!r}, {check['m2']!r})"
        )
        # and it is symmetric
        assert g.same_move(check["m2"], line["m1"]) is check["result"]
    assert g.same_move(line["m1"], line["m1"]) is True


# --------------------------------------------------------------------------
# History: move_history, results_history, load, undo


@pytest.mark.parametrize("line", HISTORY, ids=ref.extra_id)
def test_histories_match_reference(line):
    g = StawvsGame(line["state"])
    assert ref.as_json(g.move_history()) == line["moveHistory"]
    assert ref.as_json(g.results_history()) == line["resultsHistory"]


@pytest.mark.parametrize("line", HISTORY, ids=ref.extra_id)
def test_load_matches_reference(line):
    stack = json.loads(line["state"])["stack"]
    for rec in line["loads"]:
        g = StawvsGame(line["state"])
        if "error" in rec:  # out of range
            with pytest.raises(StawvsError):
                g.load(rec["i"])
            continue
        g.load(rec["i"])
        where = f"load({rec['i']})"
        assert g.currplayer == rec["currplayer"], where
        assert g.mode == rec["mode"], where
        assert g.lastmove == rec["lastmove"], where
        entry = stack[rec["i"]]
        assert list(g.eliminated) == entry["eliminated"], where
        # The board is right in the reference's render (its annotations are not,
        # see README point 5 and test_reference_render.py).
        assert ref.as_json(g.render())["pieces"] == rec["render"]["pieces"], where


@pytest.mark.slow
@pytest.mark.parametrize("line", HISTORY, ids=ref.extra_id)
def test_undo_matches_reference(line):
    g = StawvsGame(line["state"])
    g.undo()
    want = json.loads(line["after_undo"])
    got = json.loads(g.serialize())
    assert len(got["stack"]) == line["stack_length"] - 1
    assert ref.strip_timestamps(got)["stack"] == ref.strip_timestamps(want)["stack"]
    # Our undo shows the previous entry completely (the reference's live object
    # keeps describing the removed one, README point 5).
    top = want["stack"][-1]
    assert g.currplayer == top["currplayer"]
    assert g.mode == top["mode"]
    assert g.lastmove == top.get("lastmove")
    assert list(g.eliminated) == top["eliminated"]
    assert g.gameover is False and list(g.winner) == []
    assert got["gameover"] is False and got["winner"] == []
    assert ref.as_json(g.move_history()) == _rounds(
        [e["lastmove"] for e in want["stack"][1:]], line["numplayers"]
    )


def _rounds(moves, n):
    return [moves[i : i + n] for i in range(0, len(moves), n)]


# --------------------------------------------------------------------------
# Endings


@pytest.mark.parametrize(
    "line", [x for x in ENDING if x["selected"] != "finished"], ids=ref.extra_id
)
def test_ending_matches_reference(line):
    g = StawvsGame(line["state_before"])
    _end(g, line)
    assert g.gameover is True
    assert list(g.winner) == line["winner"]
    assert ref.as_json(g.results) == line["results"]
    assert g.lastmove == line["lastmove"]
    assert g.currplayer == line["currplayer"]
    assert ref.as_json(g.move_history()) == line["moveHistory"]
    assert ref.as_json(g.sidebar_scores()) == line["sidebarScores"]
    assert ref.canonical_state(g.serialize()) == ref.canonical_state(line["serialize"])
    assert g.moves() == []


@pytest.mark.parametrize(
    "line", [x for x in ENDING if x["selected"] == "finished"], ids=ref.extra_id
)
def test_we_refuse_to_end_a_finished_game(line):
    """README point 5: the reference accepts resign/timeout/draw/abandoned on a
    finished game; we refuse them (GAMEOVER) and change nothing."""
    g = StawvsGame(line["state_before"])
    assert g.gameover is True
    before = g.serialize()
    with pytest.raises(StawvsError) as info:
        _end(g, line)
    assert info.value.code == "GAMEOVER"
    assert g.serialize() == before


def _end(g: StawvsGame, line) -> None:
    which = line["which"]
    if which == "resign":
        g.resign(line["player"])
    elif which == "timeout":
        g.timeout(line["player"])
    elif which == "draw":
        g.draw()
    elif which == "abandoned":
        g.abandoned()
    else:  # pragma: no cover
        raise AssertionError(which)
