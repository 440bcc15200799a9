"""Hostile move strings and clicks: the engine answers each with a verdict or
its own error, and never changes the game for one it refuses."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame
from stawvs_ap.core import moves as notation
from stawvs_ap.core.moves import MAX_MOVE_LENGTH
from stawvs_ap.errors import StawvsError

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import hostile as h
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import hostile as h

MOVES_CORPUS = h.CORPUS / "moves.txt"


def _corpus_moves() -> list[str]:
    """The kept cases: one JSON string per line (so any character can be stored)."""
    lines = MOVES_CORPUS.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def _sample_games() -> list[StawvsGame]:
    """A few positions of each phase: placement, collection, hey, eliminated, over."""
    import random

    out = []
    for seed, (n, variants, plies) in enumerate(
        [
            (2, (), 0),
            (3, ("hole",), 4),
            (2, (), 20),
            (4, ("hey", "pieces-2"), 30),
            (3, ("random", "finalfree"), 60),
            (2, (), 1000),
        ]
    ):
        out.append(h.play_random(h.new_game(n, variants, seed), random.Random(seed), plies))
    # A player who has passed but whose partners still move: find one.
    rng = random.Random(99)
    game = h.new_game(3, (), 99)
    while not game.gameover and not (
        game.eliminated and game.currplayer in game.eliminated and len(game.eliminated) < 3
    ):
        game.move(rng.choice(game.moves()))
    out.append(game)
    return out


SAMPLES = _sample_games()
ANY_TEXT = st.text(st.characters(codec=None), max_size=120)


def _check_move_door(game: StawvsGame, text: object) -> None:
    """validate_move never raises; move() raises only StawvsError and then changes nothing."""
    verdict = game.validate_move(text)
    assert isinstance(verdict.valid, bool) and verdict.message
    if not verdict.valid:
        assert verdict.code
    before = game.serialize()
    try:
        game.move(text)  # type: ignore[arg-type]
    except StawvsError as refused:
        assert refused.code and refused.message
        assert game.serialize() == before
    else:
        assert verdict.valid and verdict.complete == 1
        game.undo()
        assert game.serialize() == before
    with contextlib.suppress(StawvsError):
        game.move(text, partial=True)  # type: ignore[arg-type]
    assert game.serialize() == before


@pytest.mark.slow
@settings(max_examples=h.scaled(1500))
@given(st.sampled_from(range(len(SAMPLES))), ANY_TEXT)
@example(0, "\x00")
@example(2, "\u202e d5")
@example(2, "ａ１")
@example(1, "PASS\n")
def test_any_text_gets_a_verdict_and_changes_nothing(which, text):
    _check_move_door(SAMPLES[which].clone(), text)


@st.composite
def near_misses(draw: st.DrawFn) -> tuple[int, str]:
    """A legal move of a sample position with one character changed, inserted or deleted."""
    which = draw(st.sampled_from([i for i, g in enumerate(SAMPLES) if g.moves()]))
    base = draw(st.sampled_from(SAMPLES[which].moves()))
    i = draw(st.integers(0, len(base)))
    ch = draw(st.one_of(st.sampled_from("abcdefghi012345678-,. \t"), st.characters()))
    edit = draw(st.sampled_from(["replace", "insert", "delete"]))
    if edit == "insert":
        return which, base[:i] + ch + base[i:]
    if edit == "delete":
        return which, base[:i] + base[i + 1 :]
    return which, base[:i] + ch + base[i + 1 :]


@pytest.mark.slow
@settings(max_examples=h.scaled(1500))
@given(near_misses())
def test_a_near_miss_of_a_legal_move_gets_a_verdict_and_changes_nothing(case):
    which, text = case
    _check_move_door(SAMPLES[which].clone(), text)


@pytest.mark.parametrize("text", [None, 5, 5.0, True, b"d5", ["d5"], {"move": "d5"}, object()])
def test_a_move_that_is_not_text_is_malformed(text):
    game = SAMPLES[0].clone()
    assert game.validate_move(text).code == "MALFORMED"
    with pytest.raises(StawvsError) as refused:
        game.move(text)
    assert refused.value.code == "MALFORMED"


def test_a_one_megabyte_move_is_refused_before_parsing(monkeypatch):
    def no_parsing(text: str) -> str:
        raise AssertionError("a move over the length limit reached the parser")

    monkeypatch.setattr(notation, "normalise", no_parsing)
    game = SAMPLES[2].clone()
    huge = "d5" + " " * 1_000_000
    verdict = game.validate_move(huge)
    assert verdict.code == "MALFORMED" and str(MAX_MOVE_LENGTH) in verdict.message
    with pytest.raises(StawvsError) as refused:
        game.move(huge)
    assert refused.value.code == "MALFORMED"


def test_a_move_one_character_over_the_limit_is_malformed_but_at_the_limit_it_is_read():
    game = SAMPLES[0].clone()
    assert game.validate_move("d5".ljust(MAX_MOVE_LENGTH)).valid
    assert game.validate_move("d5".ljust(MAX_MOVE_LENGTH + 1)).code == "MALFORMED"


@pytest.mark.parametrize("text", _corpus_moves())
def test_the_kept_hostile_moves_still_get_a_verdict(text):
    for game in SAMPLES:
        _check_move_door(game.clone(), text)


# -- clicks ------------------------------------------------------------------

COORDINATE = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-2, 9),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
)


@settings(max_examples=h.scaled(1000))
@given(
    st.sampled_from(range(len(SAMPLES))),
    st.one_of(ANY_TEXT, near_misses().map(lambda c: c[1])),
    COORDINATE,
    COORDINATE,
)
@pytest.mark.slow
def test_a_hostile_click_never_raises_and_changes_nothing(which, move, row, col):
    game = SAMPLES[which].clone()
    before = game.serialize()
    answer = game.handle_click(move, row, col)
    assert isinstance(answer.move, str) and answer.message
    assert isinstance(answer.valid, bool)
    if answer.valid:
        assert game.validate_move(answer.move).valid
    assert game.serialize() == before


@settings(max_examples=h.scaled(500))
@given(h.random_games(), st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=4))
def test_clicking_builds_only_valid_moves(case, clicks):
    game, _ = case
    move = ""
    for row, col in clicks:
        answer = game.handle_click(move, row, col)
        if answer.valid:
            assert game.validate_move(answer.move).valid
        move = answer.move
