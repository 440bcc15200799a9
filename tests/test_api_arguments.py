"""Arguments of the Python API that are not what the contract says are the
package's errors with the right codes, never ``TypeError``, ``AttributeError``
or ``UnicodeError``, and nothing given is silently dropped."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame
from stawvs_ap.bots import BOTS, GreedyBot, RandomBot
from stawvs_ap.errors import ErrorCode, StawvsError
from tests.hostile import scaled

GAME = StawvsGame.new(2, seed=1).move("b7")
NOTATION = GAME.position.notation()


def _code(call: Callable[[], object]) -> ErrorCode:
    with pytest.raises(StawvsError) as caught:
        call()
    return caught.value.code


@pytest.mark.parametrize(
    "variants",
    [None, 5, "hole", {"hole"}, (v for v in ["hole"]), [1], [["hole"]], b"hole"],
    ids=["None", "5", "text", "set", "generator", "[1]", "nested", "bytes"],
)
def test_variants_that_are_no_list_of_ids_are_bad_variant(variants: object) -> None:
    assert _code(lambda: StawvsGame.new(2, variants)) == ErrorCode.BAD_VARIANT  # type: ignore[arg-type]
    assert (
        _code(lambda: StawvsGame.from_position(NOTATION, variants))  # type: ignore[arg-type]
        == ErrorCode.BAD_VARIANT
    )
    if variants is not None:  # None means no variants to the constructor itself
        assert _code(lambda: StawvsGame(2, variants)) == ErrorCode.BAD_VARIANT  # type: ignore[arg-type]


def test_the_variants_given_are_the_variants_played() -> None:
    given_list = ["hole", "hey"]
    game = StawvsGame.new(2, tuple(given_list), seed=3)
    assert game.variants == given_list and game.position.rules.hey
    given_list.append("finalfree")  # the caller's list is not the game's
    assert game.variants == ["hole", "hey"]
    hey = StawvsGame.from_position(NOTATION, ("hey",))
    assert hey.variants == ["hey"] and hey.position.rules.hey


@pytest.mark.parametrize(
    "seed",
    [float("nan"), "\udcff", "7", 2.5, -3, 2**63, True, b"7", [1], {}, object(), bytearray(b"x")],
    ids=[
        "nan",
        "surrogate",
        "text",
        "float",
        "negative",
        "2^63",
        "bool",
        "bytes",
        "list",
        "dict",
        "object",
        "bytearray",
    ],
)
def test_seeds_that_deal_no_board_are_bad_argument(seed: object) -> None:
    assert _code(lambda: StawvsGame.new(2, (), seed)) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]
    assert _code(lambda: StawvsGame(2, seed=seed)) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]
    for bot in BOTS.values():
        assert _code(lambda bot=bot: bot(seed=seed)) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]


def test_every_seed_the_contract_allows_deals_the_same_board_twice() -> None:
    boards = set()
    for seed in (0, 7, 8, 2**32, 2**53 + 1, 2**63 - 1):
        first = StawvsGame.new(2, (), seed).position
        assert StawvsGame.new(2, (), seed).position == first
        boards.add(first.board)
    assert len(boards) == 6


@pytest.mark.parametrize("players", [None, "2", 2.0, [2], True])
def test_a_player_count_that_is_no_whole_number_is_bad_argument(players: object) -> None:
    assert _code(lambda: StawvsGame.new(players)) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]


def test_a_clock_and_an_rng_that_are_not_what_they_say() -> None:
    assert _code(lambda: StawvsGame(2, clock="now")) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]
    assert (
        _code(lambda: StawvsGame.from_position(NOTATION, clock=5))  # type: ignore[arg-type]
        == ErrorCode.BAD_ARGUMENT
    )
    assert _code(lambda: GAME.clone().random_move(5)) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]
    assert GAME.clone().random_move(random.Random(1)) in GAME.moves()


def test_a_bot_asked_about_something_else_is_bad_argument() -> None:
    for thing in (None, "state", GAME.serialize(), 5, [GAME]):
        for bot in (RandomBot(seed=1), GreedyBot(seed=1)):
            assert _code(lambda bot=bot, thing=thing: bot.choose(thing)) == ErrorCode.BAD_ARGUMENT  # type: ignore[arg-type]


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(),
    st.text(max_size=12),
    st.binary(max_size=6),
    st.lists(st.one_of(st.text(max_size=8), st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.tuples(st.text(max_size=6)),
)

CALLS: dict[str, Callable[[Any], object]] = {
    "new(players)": lambda v: StawvsGame.new(v),
    "new(variants)": lambda v: StawvsGame.new(2, v),
    "new(seed)": lambda v: StawvsGame.new(2, (), v),
    "StawvsGame(x)": lambda v: StawvsGame(v),
    "StawvsGame(2, variants)": lambda v: StawvsGame(2, v),
    "from_position(variants)": lambda v: StawvsGame.from_position(NOTATION, v),
    "from_position(notation)": lambda v: StawvsGame.from_position(v),
    "random_move(rng)": lambda v: GAME.clone().random_move(v),
    "chat_log(names)": lambda v: GAME.chat_log(v),
    "moves_in_words(names)": lambda v: GAME.moves_in_words(v),
    "load(i)": lambda v: GAME.clone().load(v),
    "resign(player)": lambda v: GAME.clone().resign(v),
    "move(m)": lambda v: GAME.clone().move(v),
    "handle_click(row)": lambda v: GAME.handle_click("", v, 1),
    "bot(seed)": lambda v: RandomBot(seed=v).choose(GAME),
    "bot(seconds)": lambda v: GreedyBot(seconds=v),
    "choose(iterations)": lambda v: GreedyBot(seed=1).choose(GAME, iterations=v),
    "analyse(top)": lambda v: RandomBot(seed=1).analyse(GAME, top=v),
}


@settings(max_examples=scaled(1500))
@given(st.sampled_from(sorted(CALLS)), _JUNK)
def test_any_argument_is_accepted_or_refused_with_the_packages_errors(
    name: str, value: object
) -> None:
    try:
        CALLS[name](value)
    except StawvsError as exc:
        assert exc.message
