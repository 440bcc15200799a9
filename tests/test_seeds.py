"""One seed everywhere: a whole number from 0 to 2^63-1 deals the same board at every
door (Python, the command line, the service); anything else, the text "7" included,
is BAD_ARGUMENT naming the range, so that no host deals another board."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from cli_inprocess import run
from cli_process import one_error

from stawvs_ap import ErrorCode, StawvsError, StawvsGame
from stawvs_ap.bots import MCTSBot, RandomBot
from stawvs_ap.bots.arena import BotSpec, Match
from stawvs_ap.cli.botargs import seed_of
from stawvs_ap.core.position import MAX_SEED, Position
from stawvs_ap.service import methods
from stawvs_ap.service.jsonrpc import RpcError

RANGE = "a seed is a whole number from 0 to 2^63-1"
NOT_SEEDS: list[Any] = ["7", "abc", 1.5, 7.0, -1, 2**63, True, b"7", math.nan, [7]]


def test_the_largest_seed_is_two_to_the_63_less_one() -> None:
    assert MAX_SEED == 2**63 - 1
    assert StawvsGame(2, seed=MAX_SEED).position == StawvsGame(2, seed=MAX_SEED).position


def test_the_same_seed_deals_the_same_board_and_another_seed_another() -> None:
    assert StawvsGame(2, seed=7).position == StawvsGame.new(2, seed=7).position
    assert StawvsGame(2, seed=7).position != StawvsGame(2, seed=8).position


@pytest.mark.parametrize("seed", NOT_SEEDS, ids=repr)
def test_a_game_refuses_every_other_seed_naming_the_range(seed: Any) -> None:
    with pytest.raises(StawvsError) as caught:
        StawvsGame(2, seed=seed)
    assert caught.value.code == ErrorCode.BAD_ARGUMENT
    assert RANGE in caught.value.message


@pytest.mark.parametrize("seed", ["7", 1.5, -1, 2**63])
def test_a_bot_refuses_every_other_seed_naming_the_range(seed: Any) -> None:
    for bot in (RandomBot, MCTSBot):
        with pytest.raises(StawvsError, match=r"a seed is a whole number from 0 to 2\^63-1"):
            bot(seed=seed)


def test_an_arena_match_refuses_a_text_seed() -> None:
    with pytest.raises(StawvsError, match=r"a seed is a whole number"):
        Match((BotSpec.parse("random"), BotSpec.parse("random")), seed="4")  # type: ignore[arg-type]


def test_the_core_refuses_a_text_seed() -> None:
    with pytest.raises(ValueError, match=r"from 0 to 2\^63-1"):
        Position.initial(2, (), "7")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["abc", "1.5", "-1", "+7", " 7", "7_0", "٧", "9223372036854775808"]
)
def test_the_command_line_reads_only_ascii_digits_in_the_range(text: str) -> None:
    with pytest.raises(StawvsError) as caught:
        seed_of(text)
    assert caught.value.code == ErrorCode.BAD_ARGUMENT and RANGE in caught.value.message


def test_the_command_line_reads_every_seed_of_the_range() -> None:
    assert seed_of("0") == 0 and seed_of(str(MAX_SEED)) == MAX_SEED and seed_of(None) is None


def test_the_command_line_deals_the_board_the_service_deals() -> None:
    done = run("new", "--players", "2", "--seed", "7")
    assert done.returncode == 0, done.stderr
    served = methods.call("new", {"players": 2, "seed": 7})["state"]
    assert StawvsGame(done.stdout).position == StawvsGame(served).position
    assert RANGE in one_error(run("new", "--players", "2", "--seed", "abc"))


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("new", {"players": 2, "seed": "7"}),
        ("new", {"players": 2, "seed": 1.5}),
        ("new", {"players": 2, "seed": -1}),
        ("bot_move", {"bot": "random", "seed": "7"}),
        ("hint", {"bot": "greedy", "seed": 2**63}),
    ],
    ids=lambda v: json.dumps(v) if isinstance(v, dict) else v,
)
def test_the_service_refuses_a_seed_out_of_the_range_as_bad_argument(
    method: str, params: dict[str, Any]
) -> None:
    if method != "new":
        params = {"state": StawvsGame(2, seed=1).serialize(), **params}
    with pytest.raises(RpcError) as caught:
        methods.call(method, params)
    assert caught.value.data == {"code": ErrorCode.BAD_ARGUMENT}
    assert RANGE in caught.value.message
