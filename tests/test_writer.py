"""``serialize()`` is the compact JSON of ``state()``.

Whatever the game went through, the text must be exactly what
``json.dumps(separators=(",", ":"), ensure_ascii=False)`` writes of ``state()``.
"""

from __future__ import annotations

import json
import random
from itertools import pairwise

from hostile import random_games, scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame
from stawvs_ap.state.writer import board_cells, cells_after


def plain_json(game: StawvsGame) -> str:
    return json.dumps(game.state(), separators=(",", ":"), ensure_ascii=False)


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
