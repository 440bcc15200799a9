"""The bot commands' shared arguments (stawvs_ap.cli.botargs): lineups, seeds,
record ids and argument types, as ``arena``, ``hint``, ``selfplay`` and ``play``
read them."""

from __future__ import annotations

import argparse

import pytest

from stawvs_ap.bots.spec import BotSpec
from stawvs_ap.cli.botargs import (
    BotCliError,
    lineup_of,
    local_uid,
    seed_of,
    spec_argument,
    variants_of,
    whole,
)
from stawvs_ap.errors import ErrorCode, StawvsError

MCTS, GREEDY = BotSpec.parse("mcts"), BotSpec.parse("greedy")


def test_the_last_bot_fills_the_seats_the_others_leave() -> None:
    assert lineup_of([MCTS, GREEDY], 4) == [MCTS, GREEDY, GREEDY, GREEDY]


def test_without_players_there_is_one_seat_per_bot_and_at_least_two() -> None:
    assert lineup_of([GREEDY], None) == [GREEDY, GREEDY]
    assert lineup_of([MCTS, GREEDY, GREEDY], None) == [MCTS, GREEDY, GREEDY]


def test_seats_taken_by_people_are_not_filled_by_bots() -> None:
    assert lineup_of([MCTS], 3, seats=1) == [MCTS, MCTS]
    assert lineup_of([MCTS], None, seats=1) == [MCTS]


@pytest.mark.parametrize(
    ("bots", "players", "seats", "message"),
    [
        ([MCTS, GREEDY], 2, 1, "2 bots given for 1 seat"),
        ([MCTS, GREEDY, GREEDY], 2, 0, "3 bots given for 2 seats"),
        ([MCTS], 5, 0, "Stawvs is for 2 to 4 players, not 5"),
        ([MCTS], 1, 0, "Stawvs is for 2 to 4 players, not 1"),
    ],
)
def test_a_lineup_that_cannot_be_seated_is_refused_by_name(
    bots: list[BotSpec], players: int, seats: int, message: str
) -> None:
    with pytest.raises(BotCliError) as caught:
        lineup_of(bots, players, seats=seats)
    assert caught.value.message == message
    assert caught.value.code is ErrorCode.BAD_ARGUMENT


def test_a_seed_is_a_whole_number_and_any_other_text_is_bad_argument() -> None:
    assert seed_of("42") == 42
    with pytest.raises(StawvsError, match=r"from 0 to 2\^63-1"):
        seed_of("abc")
    assert seed_of(None) is None


def test_a_record_made_here_has_the_same_id_for_the_same_game() -> None:
    assert local_uid("state one") == local_uid("state one")
    assert local_uid("state one") != local_uid("state two")
    assert local_uid("x").startswith("local-")


def test_argument_types_refuse_with_a_short_quoted_excerpt() -> None:
    assert whole("7") == 7
    with pytest.raises(argparse.ArgumentTypeError, match="'seven' is not a whole number"):
        whole("seven")
    with pytest.raises(argparse.ArgumentTypeError, match="unknown bot"):
        spec_argument("nosuchbot")


def test_people_typing_exec_specs_may_run_them() -> None:
    assert spec_argument("exec:node engine.mjs").name == "exec"


def test_unknown_variants_are_refused_with_their_own_code() -> None:
    assert variants_of(None) == []
    with pytest.raises(StawvsError) as caught:
        variants_of(["nosuch"])
    assert caught.value.code is ErrorCode.BAD_VARIANT
