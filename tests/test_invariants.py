"""Invariants of every game: property tests over random games of every player
count and variant set, with random legal and illegal moves at random points.

Budgets come from ``hostile.scaled`` (profile ``ci`` by default, ``nightly``
for long runs: ``HYPOTHESIS_PROFILE=nightly``).
"""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import Pyramid, StawvsGame
from stawvs_ap.core.squares import SQUARE_NAMES
from stawvs_ap.errors import StawvsError

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import hostile as h
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import hostile as h

KINDS = {(colour, size) for colour in ("PI", "BL", "GR", "OR") for size in (1, 2, 3)}
ENDINGS = ("resign", "timeout", "draw", "abandoned")


def _end_outside_rules(game: StawvsGame, how: str, rng: random.Random) -> None:
    player = rng.randint(1, game.numplayers)
    {
        "resign": lambda: game.resign(player),
        "timeout": lambda: game.timeout(player),
        "draw": game.draw,
        "abandoned": game.abandoned,
    }[how]()


def _caps_each(game: StawvsGame) -> int:
    return 2 if "pieces-2" in game.variants else 3


# -- nothing is lost ---------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=h.scaled(500))
@given(h.random_games())
def test_the_60_pyramids_are_conserved_at_every_ply(case):
    game, _ = case
    state = json.loads(game.serialize())
    for ply, entry in enumerate(state["stack"]):
        census: dict[tuple[str, int], int] = {}
        ghosts = 0
        for _square, cell in entry["board"]["value"]:
            colour, size = cell[0]
            if colour == "GH":
                ghosts += 1
                assert len(cell) == 2, f"ply {ply}: a ghost without a cap"
                continue
            census[(colour, size)] = census.get((colour, size), 0) + 1
        for collection in entry["captured"]:
            for colour, size in collection:
                census[(colour, size)] = census.get((colour, size), 0) + 1
        assert census == dict.fromkeys(KINDS, 5), f"ply {ply}"
        final = ply == len(state["stack"]) - 1 and state["gameover"]
        if ghosts:
            assert final and "finalfree" not in game.variants
            assert ghosts == game.numplayers * _caps_each(game)


@pytest.mark.slow
@settings(max_examples=h.scaled(200))
@given(h.random_games())
def test_a_finished_game_keeps_the_caps_pyramids_on_the_board_only_with_finalfree(case):
    game, rng = case
    h.play_random(game, rng, 1000)
    assert game.gameover
    census, ghosts = h.pyramid_census(game.serialize())
    assert sum(census.values()) == 60
    if "finalfree" in game.variants:
        assert ghosts == 0
    else:
        assert ghosts == game.numplayers * _caps_each(game)


# -- moves() and validate_move() agree ----------------------------------------


def _own_caps(game: StawvsGame) -> list[str]:
    top = game.state()["stack"][-1]
    return [name for name, cell in top["board"]["value"] if cell[1:] == [game.currplayer]]


@pytest.mark.slow
@settings(max_examples=h.scaled(80))
@given(h.random_games(max_plies=90))
def test_moves_are_exactly_the_complete_moves_validate_move_accepts(case):
    game, _ = case
    legal = set(game.moves())
    if game.gameover:
        assert legal == set()
        return
    for move in legal:
        verdict = game.validate_move(move)
        assert verdict.valid and verdict.complete == 1, (move, verdict)
    if game.mode == "place":
        accepted = {sq for sq in SQUARE_NAMES if game.validate_move(sq).complete == 1}
        assert accepted == legal
        assert not game.validate_move("pass").valid
        return
    accepted = set()
    for source in _own_caps(game):
        for dest in SQUARE_NAMES:
            for target in SQUARE_NAMES:
                move = f"{source}-{dest},{target}"
                verdict = game.validate_move(move)
                if verdict.valid:
                    assert verdict.complete == 1 and verdict.canrender
                    accepted.add(move)
    passing = game.validate_move("pass")
    if passing.valid:
        accepted.add("pass")
    assert accepted == legal


@settings(max_examples=h.scaled(100))
@given(h.random_games(max_plies=90))
def test_a_partial_move_is_valid_exactly_when_a_legal_move_extends_it(case):
    game, _ = case
    if game.gameover or game.mode == "place":
        return
    if game.currplayer in game.eliminated:
        return  # their partials are judged as for anyone, but moves() is only "pass"
    legal = [m for m in game.moves() if m != "pass"]
    starts = {m.split(",")[0] for m in legal}
    own = set(_own_caps(game))
    for source in SQUARE_NAMES:
        assert game.validate_move(source).valid == (source in own), source
        for dest in SQUARE_NAMES:
            partial = f"{source}-{dest}"
            verdict = game.validate_move(partial)
            assert verdict.valid == (partial in starts), partial
            if verdict.valid:
                assert verdict.complete == -1 and verdict.canrender


# -- bad input changes nothing -------------------------------------------------


@st.composite
def hostile_moves(draw: st.DrawFn, game: StawvsGame) -> str:
    """A legal move bent out of shape, a random combination of squares, or any text."""
    legal = game.moves() or ["a1-b2,c3"]
    kind = draw(st.sampled_from(["near", "squares", "text", "legal"]))
    if kind == "legal":
        return draw(st.sampled_from(legal))
    if kind == "squares":
        parts = draw(st.lists(st.sampled_from(SQUARE_NAMES), min_size=1, max_size=4))
        seps = draw(st.lists(st.sampled_from(["-", ",", "", " ", "x"]), min_size=3, max_size=3))
        return "".join(p + s for p, s in zip(parts, seps, strict=False))
    if kind == "text":
        return draw(st.text(max_size=20))
    base = draw(st.sampled_from(legal))
    i = draw(st.integers(0, len(base)))
    ch = draw(st.sampled_from("abcdefghij0123456789-, pPsS"))
    edit = draw(st.sampled_from(["replace", "insert", "delete"]))
    if edit == "insert":
        return base[:i] + ch + base[i:]
    if edit == "delete":
        return base[:i] + base[i + 1 :]
    return base[:i] + ch + base[i + 1 :]


@pytest.mark.slow
@settings(max_examples=h.scaled(300))
@given(h.random_games(), st.data())
def test_a_refused_move_leaves_the_state_byte_identical(case, data):
    game, _ = case
    for _ in range(3):
        move = data.draw(hostile_moves(game))
        before = game.serialize()
        verdict = game.validate_move(move)
        if verdict.valid and verdict.complete == 1:
            game.move(move)
            continue
        with pytest.raises(StawvsError) as refused:
            game.move(move)
        assert refused.value.code == (verdict.code or "INCOMPLETE")
        assert game.serialize() == before


@settings(max_examples=h.scaled(300))
@given(h.random_games(), st.data())
def test_a_partial_move_never_changes_the_stack(case, data):
    game, _ = case
    move = data.draw(hostile_moves(game))
    before, moves_before = game.serialize(), game.moves()
    with contextlib.suppress(StawvsError):
        game.move(move, partial=True)
    game.render()
    assert game.serialize() == before
    assert game.moves() == moves_before


# -- states survive the round trip, undo and load --------------------------------


@pytest.mark.slow
@settings(max_examples=h.scaled(150))
@given(h.random_games(), st.sampled_from((None, *ENDINGS)))
def test_a_state_reloads_to_the_same_bytes(case, ending):
    game, rng = case
    if ending and not game.gameover:
        _end_outside_rules(game, ending, rng)
    serialized = game.serialize()
    assert StawvsGame(serialized).serialize() == serialized
    assert StawvsGame(serialized.encode()).serialize() == serialized


@pytest.mark.slow
@settings(max_examples=h.scaled(800))
@given(h.random_games(), st.sampled_from((None, *ENDINGS)))
def test_undo_after_a_move_restores_the_state_exactly(case, ending):
    game, rng = case
    if game.gameover:
        return
    before, moves_before = game.serialize(), game.moves()
    if ending:
        _end_outside_rules(game, ending, rng)
    else:
        game.move(rng.choice(moves_before))
    game.undo()
    assert game.serialize() == before
    assert game.moves() == moves_before
    assert not game.gameover


@pytest.mark.slow
@settings(max_examples=h.scaled(300))
@given(h.random_games(), st.integers(0, 10_000), st.integers(0, 30))
def test_load_then_continuing_equals_replaying_the_first_moves(case, pick, more):
    game, rng = case
    state = json.loads(game.serialize())
    history = [e["lastmove"] for e in state["stack"][1:]]
    i = pick % (len(history) + 1)
    game.load(i)
    continued = []
    for _ in range(more):
        if game.gameover or not game.moves():
            break
        move = rng.choice(game.moves())
        game.move(move)
        continued.append(move)
    initial = {**state, "gameover": False, "winner": [], "stack": state["stack"][:1]}
    replay = StawvsGame(initial, clock=h.fixed_clock)
    for move in history[:i] + continued:
        replay.move(move)
    assert game.moves() == replay.moves()
    assert game.render() == {**replay.render(), **_exit_marks(game.render())}
    if not continued:  # nothing dropped yet: the later entries are still kept
        return
    assert h.without_timestamps(game.serialize()) == h.without_timestamps(replay.serialize())


def _exit_marks(rendered: dict) -> dict:
    """Only a game that just moved marks the exit square: keep the comparison fair."""
    return {"annotations": rendered["annotations"]} if "annotations" in rendered else {}


# -- scores ------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=h.scaled(250))
@given(h.random_games())
def test_the_score_is_the_best_grouping_into_trees(case):
    game, rng = case
    if rng.random() < 0.5:
        h.play_random(game, rng, 1000)
    top = json.loads(game.serialize())["stack"][-1]
    scores = game.sidebar_scores()[0]["scores"]
    for player, collection in enumerate(top["captured"], start=1):
        if len(collection) > 16:  # the brute force grows fast; smaller ones cover the logic
            continue
        expected = h.brute_force_score([(c, s) for c, s in collection])
        assert scores[player - 1] == expected == game.get_player_score(player)


_PYRAMID = st.tuples(st.sampled_from(("PI", "BL", "GR", "OR")), st.integers(1, 3))


@pytest.mark.slow
@settings(max_examples=h.scaled(2000))
@given(st.lists(_PYRAMID, max_size=18))
def test_the_scoring_of_any_collection_is_the_best_grouping(collection):
    from stawvs_ap.core.scoring import score

    codes = [Pyramid.parse(f"{colour}{size}") for colour, size in collection]
    assert score(codes) == h.brute_force_score(collection)


@pytest.mark.slow
@settings(max_examples=h.scaled(1000))
@given(st.lists(_PYRAMID, max_size=60))
def test_the_grouping_shown_scores_what_the_score_says(collection):
    from stawvs_ap.core.scoring import group_collection, score

    codes = [Pyramid.parse(f"{colour}{size}") for colour, size in collection]
    shown = 0
    for stack in group_collection(codes):
        colours = {Pyramid(p).colour for p in stack}
        shown += (7 if len(colours) == 1 else 5) if len(stack) == 3 else len(stack)
    assert shown == score(codes)


# -- every game ends -------------------------------------------------------------


@pytest.mark.parametrize("caps_each", [2, 3])
@pytest.mark.parametrize("numplayers", [2, 3, 4])
def test_the_ply_bound_is_what_the_pyramids_allow(numplayers, caps_each):
    placements = numplayers * caps_each
    assert h.ply_bound(numplayers, caps_each) == placements + numplayers * (61 - placements)


@pytest.mark.slow
@settings(max_examples=h.scaled(500))
@given(h.random_games(max_plies=0))
def test_every_game_ends_within_the_ply_bound(case):
    game, rng = case
    bound = h.ply_bound(game.numplayers, _caps_each(game))
    plies = 0
    while game.moves():
        game.move(rng.choice(game.moves()))
        plies += 1
        assert plies <= bound
    assert game.gameover
    assert game.validate_move("pass").code == "GAMEOVER"
    assert game.winner
