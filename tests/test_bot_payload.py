"""Games rebuilt from a payload of Abstract Play's bot framework
(``StawvsGame.from_bot_payload``) and the context that makes it possible
(``bot_context()``): Abstract Play's own games (the reference fixtures, as its
engine wrote their states and move histories) rebuild exactly, with the
proposed context or from the state ``get_game`` answers; a history that does
not replay is refused naming the round and the move."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from reference_data import games

from stawvs_ap import StawvsGame
from stawvs_ap.errors import ErrorCode, StawvsError

REFERENCE = games()


def ap_context(record: dict[str, Any]) -> dict[str, Any]:
    """The context Abstract Play's ``botContext()`` would give, as proposed:
    ``{board: [...this.stack[0].board.entries()]}``, from the state its engine wrote."""
    return {"board": json.loads(record["final"])["stack"][0]["board"]["value"]}


def ap_state_after(record: dict[str, Any], plies: int) -> str:
    """Abstract Play's state of ``record`` after ``plies`` moves: its own entries, cut."""
    state = json.loads(record["final"])
    state["stack"] = state["stack"][: plies + 1]
    state["gameover"], state["winner"] = False, []
    return json.dumps(state)


def rounds(moves: list[str], players: int) -> list[list[str]]:
    return [moves[i : i + players] for i in range(0, len(moves), players)]


def payload(record: dict[str, Any], plies: int, **extra: Any) -> dict[str, Any]:
    moves = [ply["move"] for ply in record["plies"][:plies]]
    return {
        "verb": "move",
        "metaGame": "stawvs",
        "variants": record["variants"],
        "gameid": str(record["id"]),
        "clockCurr": 24,
        "numPlayers": record["numplayers"],
        "moves": rounds(moves, record["numplayers"]),
        **extra,
    }


def positions(game: StawvsGame) -> list[dict[str, Any]]:
    """The stack without the timestamps (Abstract Play's are a fake clock's)."""
    entries = copy.deepcopy(game.stack)
    for entry in entries:
        del entry["_timestamp"]
    return entries


def ap_positions(state: str) -> list[dict[str, Any]]:
    return positions(StawvsGame(state))


def test_bot_context_is_the_first_entrys_board_as_abstract_play_writes_it() -> None:
    record = REFERENCE[0]
    game = StawvsGame(record["final"])
    assert game.bot_context() == ap_context(record)
    game.bot_context()["board"].clear()  # a copy: the game is unchanged
    assert game.bot_context() == ap_context(record)


def test_a_game_with_the_context_replays_exactly_as_abstract_play_played_it() -> None:
    record = REFERENCE[5]
    plies = len(record["plies"]) - 1  # the bot is asked before the last move
    game = StawvsGame.from_bot_payload(payload(record, plies, context=ap_context(record)))
    assert positions(game) == ap_positions(ap_state_after(record, plies))
    assert game.is_legal(record["plies"][plies]["move"])


@pytest.mark.slow  # the 27 games at every fifteenth ply
@pytest.mark.parametrize("record", REFERENCE, ids=lambda r: f"{r['numplayers']}p{r['variants']}")
def test_every_reference_game_rebuilds_exactly_both_ways(record: dict[str, Any]) -> None:
    for plies in range(0, len(record["plies"]), 15):
        with_context = StawvsGame.from_bot_payload(
            payload(record, plies, context=ap_context(record))
        )
        state = ap_state_after(record, plies)
        fetched = StawvsGame.from_bot_payload(payload(record, plies), state=state)
        assert positions(with_context) == positions(fetched) == ap_positions(state)
        next_move = record["plies"][plies]["move"]
        assert with_context.is_legal(next_move) and fetched.is_legal(next_move)


@pytest.mark.slow
def test_the_history_as_abstract_plays_movehistory_writes_it_replays() -> None:
    record = REFERENCE[13]
    game = StawvsGame.from_bot_payload(
        {**payload(record, 0), "moves": record["moveHistory"], "context": ap_context(record)}
    )
    assert game.move_history() == record["moveHistory"]
    assert positions(game) == ap_positions(record["final"])


def test_the_get_game_state_is_used_when_the_payload_has_no_context() -> None:
    record = REFERENCE[20]
    state = ap_state_after(record, 30)
    game = StawvsGame.from_bot_payload(payload(record, 30, context=[]), state=state)
    assert positions(game) == ap_positions(state)


def test_a_state_with_other_moves_than_the_payload_is_refused() -> None:
    record = REFERENCE[20]
    with pytest.raises(StawvsError, match="30 moves and the payload 29") as caught:
        StawvsGame.from_bot_payload(payload(record, 29), state=ap_state_after(record, 30))
    assert caught.value.code == ErrorCode.BAD_RECORD


def test_a_state_of_other_variants_is_refused() -> None:
    record = REFERENCE[1]
    other = {**payload(record, 3), "variants": ["hey"]}
    with pytest.raises(StawvsError, match="variants") as caught:
        StawvsGame.from_bot_payload(other, state=ap_state_after(record, 3))
    assert caught.value.code == ErrorCode.BAD_RECORD


def test_no_context_and_no_state_is_refused() -> None:
    with pytest.raises(StawvsError, match="no context") as caught:
        StawvsGame.from_bot_payload(payload(REFERENCE[0], 2))
    assert caught.value.code == ErrorCode.BAD_ARGUMENT


@pytest.mark.parametrize(("round_", "place"), [(1, 1), (2, 2), (4, 1)])
def test_a_move_that_does_not_replay_is_refused_naming_its_round_and_place(
    round_: int, place: int
) -> None:
    record = REFERENCE[0]  # two players
    sent = payload(record, 10, context=ap_context(record))
    sent["moves"][round_ - 1][place - 1] = "a1-a2,a3"
    with pytest.raises(StawvsError, match=f"round {round_}, move {place} ") as caught:
        StawvsGame.from_bot_payload(sent)
    assert caught.value.code == ErrorCode.BAD_RECORD


def test_a_context_board_that_is_no_start_of_the_variants_is_refused() -> None:
    record = REFERENCE[0]
    board = ap_context(record)["board"]
    with pytest.raises(StawvsError, match="context's board") as caught:
        StawvsGame.from_bot_payload(payload(record, 0, context={"board": board[1:]}))
    assert caught.value.code == ErrorCode.BAD_RECORD
    hole = {**payload(record, 0, context={"board": board}), "variants": ["hole"]}
    with pytest.raises(StawvsError, match="context's board"):
        StawvsGame.from_bot_payload(hole)


@pytest.mark.parametrize(
    ("change", "code", "said"),
    [
        ({"numPlayers": 1}, ErrorCode.BAD_ARGUMENT, "numPlayers"),
        ({"numPlayers": True}, ErrorCode.BAD_ARGUMENT, "numPlayers"),
        ({"variants": "hole"}, ErrorCode.BAD_ARGUMENT, "variants"),
        ({"variants": ["nope"]}, ErrorCode.BAD_VARIANT, "nope"),
        ({"moves": "b2"}, ErrorCode.BAD_ARGUMENT, "moves"),
        ({"moves": ["b2"]}, ErrorCode.BAD_ARGUMENT, "round 1"),
        ({"moves": [[7]]}, ErrorCode.BAD_ARGUMENT, "round 1, move 1"),
        ({"moves": [["pass"]] * 300}, ErrorCode.BAD_ARGUMENT, "at most 255 moves"),
        ({"context": {"cells": []}}, ErrorCode.BAD_ARGUMENT, "context"),
        ({"context": "board"}, ErrorCode.BAD_ARGUMENT, "context"),
    ],
)
def test_a_payload_of_the_wrong_shape_is_refused_naming_the_field(
    change: dict[str, Any], code: ErrorCode, said: str
) -> None:
    record = REFERENCE[0]
    sent = {**payload(record, 0, context=ap_context(record)), **change}
    with pytest.raises(StawvsError, match=said) as caught:
        StawvsGame.from_bot_payload(sent)
    assert caught.value.code == code


def test_a_payload_that_is_no_object_is_refused() -> None:
    with pytest.raises(StawvsError, match="object"):
        StawvsGame.from_bot_payload([])
