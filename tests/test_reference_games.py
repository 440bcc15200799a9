"""Replay the 27 reference games and agree with the Abstract Play engine move
for move: legal moves, results, scores, collections, eliminations, winners and
the final serialized state (fixtures/reference/games.jsonl.gz)."""

from __future__ import annotations

import json

import pytest
from hostile import thinned

from stawvs_ap import StawvsGame

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref

GAMES = ref.games()


def _top_captured(serialized: str) -> object:
    """The top stack entry's ``captured``, read from the serialized text.

    The value of ``json.loads(serialized)["stack"][-1]["captured"]`` without
    parsing the whole stack at every ply, which made the replay below
    quadratic: the stack is the state's last member and every entry has a
    ``captured``, so the last one in the text is the top entry's (the replay
    checks both agree at its end).
    """
    key = '"captured":'
    value, _end = json.JSONDecoder().raw_decode(serialized, serialized.rindex(key) + len(key))
    return value


def test_there_are_27_reference_games():
    assert len(GAMES) == 27


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_replay_agrees_with_reference_at_every_ply(game):
    g = StawvsGame(game["initial"])
    assert g.numplayers == game["numplayers"]
    assert list(g.variants) == game["variants"]
    assert g.gameover is False
    assert list(g.winner) == []

    for i, ply in enumerate(game["plies"]):
        where = f"ply {i} (player {ply['player']} plays {ply['move']!r})"
        assert g.currplayer == ply["player"], where
        assert sorted(g.moves()) == ply["moves"], f"{where}: legal moves differ"

        g.move(ply["move"])

        assert g.lastmove == ply["move"], where
        assert g.currplayer == ply["currplayer"], f"{where}: currplayer"
        assert g.mode == ply["mode"], f"{where}: mode"
        assert list(g.eliminated) == ply["eliminated"], f"{where}: eliminated"
        assert g.gameover == ply["gameover"], f"{where}: gameover"
        assert list(g.winner) == ply["winner"], f"{where}: winner"
        assert ref.as_json(g.results) == ply["results"], f"{where}: results"
        assert g.sidebar_scores()[0]["scores"] == ply["scores"], f"{where}: scores"
        captured = _top_captured(g.serialize())
        assert captured == ply["captured"], f"{where}: captured"

    assert g.gameover is True
    assert g.moves() == []
    assert _top_captured(g.serialize()) == json.loads(g.serialize())["stack"][-1]["captured"]


@pytest.mark.slow
@pytest.mark.parametrize("game", thinned(GAMES, 3, ref.game_id))
def test_final_state_matches_reference(game):
    g = StawvsGame(game["initial"])
    for ply in game["plies"]:
        g.move(ply["move"])
    assert ref.canonical_state(g.serialize()) == ref.canonical_state(game["final"])


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_move_history_matches_reference(game):
    g = StawvsGame(game["initial"])
    for ply in game["plies"]:
        g.move(ply["move"])
    assert ref.as_json(g.move_history()) == game["moveHistory"]


@pytest.mark.slow
@pytest.mark.parametrize("game", thinned(GAMES, 3, ref.game_id))
def test_final_state_round_trips(game):
    g = StawvsGame(game["final"])
    assert ref.canonical_state(g.serialize()) == ref.canonical_state(game["final"])
    last = game["plies"][-1]
    assert g.gameover is True
    assert list(g.winner) == last["winner"]
    assert g.currplayer == last["currplayer"]
    assert list(g.eliminated) == last["eliminated"]
    assert g.sidebar_scores()[0]["scores"] == last["scores"]
    assert ref.as_json(g.move_history()) == game["moveHistory"]
    # Also from the parsed JSON, and the serialized form is itself re-readable.
    assert ref.canonical_state(StawvsGame(json.loads(game["final"])).serialize()) == (
        ref.canonical_state(game["final"])
    )
    again = StawvsGame(g.serialize())
    assert again.serialize() == g.serialize()


@pytest.mark.parametrize("game", GAMES, ids=ref.game_id)
def test_initial_state_round_trips(game):
    g = StawvsGame(game["initial"])
    assert ref.canonical_state(g.serialize()) == ref.canonical_state(game["initial"])
