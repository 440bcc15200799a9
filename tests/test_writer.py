"""``serialize()`` is the compact JSON of ``state()``.

Whatever the game went through, the text must be exactly what
``json.dumps(separators=(",", ":"), ensure_ascii=False)`` writes of ``state()``,
and what the writer writes of the whole stack anew (a game keeps the text of
the entries it wrote or loaded and writes only the new ones).
"""

from __future__ import annotations

import json
import random
from itertools import pairwise
from typing import Any

import pytest
from hostile import random_games, scaled, thinned
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_data import games as reference_games

from stawvs_ap import StawvsGame
from stawvs_ap.state.writer import board_cells, cells_after, state_dict, to_json


def plain_json(game: StawvsGame) -> str:
    return json.dumps(game.state(), separators=(",", ":"), ensure_ascii=False)


def written_anew(game: StawvsGame) -> str:
    """The plain way: every entry of the stack written, nothing kept."""
    return to_json(state_dict(game.numplayers, game.variants, game._stack))


@pytest.mark.slow
@settings(max_examples=scaled(150))
@given(random_games(), st.data())
def test_serialize_is_the_compact_json_of_the_state(
    drawn: tuple[StawvsGame, random.Random], data: st.DataObject
) -> None:
    game, _ = drawn
    assert game.serialize() == plain_json(game)
    ending = data.draw(st.sampled_from(["none", "resign", "timeout", "draw", "abandoned"]))
    if not game.gameover and ending != "none":
        if ending in ("resign", "timeout"):
            getattr(game, ending)(1)
        else:
            getattr(game, ending)()
        assert game.serialize() == plain_json(game)


def test_serialize_after_undo_and_load_is_the_compact_json_of_the_state() -> None:
    game = StawvsGame(3, seed=11)
    rng = random.Random(11)
    for _ in range(30):
        game.move(rng.choice(game.moves()))
    game.serialize()
    game.undo().undo()
    assert game.serialize() == plain_json(game)
    game.load(10).move(rng.choice(game.moves()))
    assert game.serialize() == plain_json(game)


@settings(max_examples=scaled(40), deadline=None)
@given(random_games())
def test_cells_patched_from_the_entry_before_are_the_cells_of_the_board(
    drawn: tuple[StawvsGame, random.Random],
) -> None:
    """The writer makes each entry's board cells by patching the entry before's;
    they must be exactly the board's cells, final captures and endings included."""
    game, rng = drawn
    while not game.gameover and rng.random() < 0.9:
        game.move(rng.choice(game.moves()))
    if not game.gameover and rng.random() < 0.5:
        game.resign(1)
    stack = game._stack
    for before, after in pairwise(stack):
        cells = board_cells(before.position)
        assert cells_after(before.position, after, cells) == board_cells(after.position)


OPERATIONS = ("move", "move", "move", "undo", "earlier", "clone", "reload", "end")


@settings(max_examples=scaled(120), deadline=None)
@given(
    random_games(max_plies=80),
    st.lists(st.tuples(st.sampled_from(OPERATIONS), st.booleans()), max_size=25),
)
def test_a_game_written_after_changes_is_written_as_if_anew(
    drawn: tuple[StawvsGame, random.Random], operations: list[tuple[str, bool]]
) -> None:
    """Moves, undos, moves from an earlier entry, clones, reloads of the
    game's own text and endings, some followed by a write (an undo and a
    move unwritten between two writes leave a stack as long as the last)."""
    game, rng = drawn
    assert game.serialize() == written_anew(game)
    for operation, write in operations:
        if operation == "undo" and len(game._stack) > 1:
            game.undo()
        elif operation == "earlier":
            game.load(rng.randrange(len(game._stack)))
            if not game.gameover:
                game.move(rng.choice(game.moves()))
        elif operation == "clone":
            game = game.clone()
        elif operation == "reload":
            game = StawvsGame(game.serialize())
        elif operation == "end" and not game.gameover:
            game.resign(game.currplayer)
        elif operation == "move" and not game.gameover:
            game.move(rng.choice(game.moves()))
        if write:
            assert game.serialize() == written_anew(game), operation
    assert game.serialize() == written_anew(game)


def test_a_clone_moved_apart_leaves_the_text_of_the_original() -> None:
    game = StawvsGame(2, seed=5)
    for _ in range(12):
        game.move(game.moves()[0])
    original = game.serialize()
    other = game.clone()
    other.move(other.moves()[-1])
    game.move(game.moves()[0])
    assert other.serialize() == written_anew(other)
    assert game.serialize() == written_anew(game)
    assert game.clone().undo().serialize() == original
    game.undo().move(game.moves()[-1])  # as long as the stack last written
    assert game.serialize() == written_anew(game)


def abstract_play_text(final: str, entries: int) -> str:
    """The reference engine's state cut to its first ``entries`` entries: its
    first entry's keys in its own order, the later ones as we write them."""
    state = json.loads(final)
    state["stack"] = state["stack"][:entries]
    state["gameover"], state["winner"] = False, []
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize(
    "reference",
    thinned(reference_games(), 4, ids=lambda reference: f"game-{reference['id']}"),
)
@pytest.mark.slow
def test_a_loaded_state_moved_and_written_is_written_as_if_anew(reference: dict[str, Any]) -> None:
    """The loader keeps the text it read, except the first entry, which the
    reference engine writes with its keys in another order."""
    plies = [ply["move"] for ply in reference["plies"]]
    for entries in (2, len(plies) // 2, len(plies)):
        loaded = StawvsGame(abstract_play_text(reference["final"], entries))
        assert loaded.serialize() == written_anew(loaded)
        again = StawvsGame(abstract_play_text(reference["final"], entries))
        again.move(plies[entries - 1])
        assert again.serialize() == written_anew(again)
        ours = StawvsGame(again.serialize())
        assert ours.undo().serialize() == written_anew(ours)
