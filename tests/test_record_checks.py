"""Records as a consumer reads them (docs/CONTRACT.md §8): every date in one UTC
form, distinct player entries, and a header that must agree with the replay."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import jsonschema
import pytest
from hostile import new_game, play_random
from records_support import in_progress
from upstream_schemas import validator

from stawvs_ap import StawvsError, StawvsGame, from_record
from stawvs_ap.state.timestamps import is_timestamp

PLAYERS = [
    {"name": "Ann", "uid": "a"},
    {"name": "Bob", "uid": "b"},
    {"name": "Cy", "uid": "c"},
    {"name": "Di", "uid": "d"},
]


def finished(numplayers: int = 3, seed: int = 4) -> StawvsGame:
    game = play_random(new_game(numplayers, (), seed), random.Random(seed), 10_000)
    assert game.gameover
    return game


def record_of(game: StawvsGame, **kwargs: Any) -> dict[str, Any]:
    return game.gen_record(uid="g", players=PLAYERS[: game.numplayers], **kwargs)


# -- dates -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "written"),
    [
        ("2025-12-12T02:00:00+02:00", "2025-12-12T00:00:00.000Z"),
        ("2025-12-11T19:30:00.5-04:30", "2025-12-12T00:00:00.500Z"),
        ("2025-12-12T00:00:00Z", "2025-12-12T00:00:00.000Z"),
        ("2025-12-12T00:00:00.123Z", "2025-12-12T00:00:00.123Z"),
        (datetime(2025, 12, 12, 0, 0, 0, 250_000), "2025-12-12T00:00:00.250Z"),
        (
            datetime(2025, 12, 12, 1, 0, tzinfo=timezone(timedelta(hours=1))),
            "2025-12-12T00:00:00.000Z",
        ),
        (datetime(2025, 12, 12, tzinfo=UTC), "2025-12-12T00:00:00.000Z"),
    ],
)
def test_record_dates_are_written_in_utc_to_the_millisecond(given: object, written: str) -> None:
    record = record_of(finished(), date_start=given, date_end=given)
    assert record["header"]["date-start"] == record["header"]["date-end"] == written


def test_every_date_of_a_record_has_one_form() -> None:
    header = record_of(finished())["header"]
    for key in ("date-start", "date-end", "date-generated"):
        assert is_timestamp(header[key]), (key, header[key])


@pytest.mark.parametrize(
    "given",
    ["2025-12-12T00:00:00.000Z\n", "2025-13-45T99:99:99.000Z", "yesterday", "", 20251212],
)
def test_a_date_that_is_no_instant_is_refused(given: object) -> None:
    with pytest.raises(StawvsError) as refused:
        record_of(finished(), date_end=given)
    assert refused.value.code == "BAD_ARGUMENT"


# -- players -------------------------------------------------------------------------


def test_identical_player_entries_are_refused() -> None:
    game = finished(2, seed=7)
    same = [{"name": "Bot", "uid": "bot"}, {"name": "Bot", "uid": "bot"}]
    with pytest.raises(StawvsError) as refused:
        game.gen_record(uid="g", players=same)
    assert refused.value.code == "BAD_ARGUMENT"
    assert "distinct" in refused.value.message


def test_the_same_player_in_two_seats_with_distinct_uids_is_a_valid_record() -> None:
    game = finished(2, seed=7)
    record = game.gen_record(uid="g", players=[{"name": "Bot", "uid": "1"}, {"name": "Bot"}])
    validator("gamerecord").validate(record)


@pytest.mark.parametrize("seed", range(6))
def test_our_records_satisfy_the_record_schema(seed: int) -> None:
    game = finished(2 + seed % 3, seed)
    record = record_of(game, date_end="2025-12-12T02:00:00+02:00")
    try:
        validator("gamerecord").validate(record)
    except jsonschema.ValidationError as exc:  # pragma: no cover - the failure message
        pytest.fail(exc.message)


# -- the header must agree with the replay -----------------------------------------


def refusal(record: dict[str, Any], **kwargs: Any) -> str:
    with pytest.raises(StawvsError) as refused:
        from_record(record, **kwargs)
    assert refused.value.code == "BAD_RECORD"
    return refused.value.message


def test_a_wrong_score_in_the_header_is_refused() -> None:
    record = record_of(finished())
    record["header"]["players"][0]["score"] += 1
    assert "score" in refusal(record) and "Ann" in refusal(record)


def test_swapped_result_flags_are_refused() -> None:
    record = record_of(finished())
    players = record["header"]["players"]
    winner = next(p for p in players if p["result"] == 1)
    loser = next(p for p in players if p["result"] == 0)
    winner["result"], loser["result"] = 0, 1
    assert "result" in refusal(record)


def test_a_wrong_rank_is_refused() -> None:
    record = record_of(finished())
    record["header"]["players"][0]["rank"] = 4
    assert "rank" in refusal(record)


def test_a_boolean_result_is_refused() -> None:
    record = record_of(finished())
    player = record["header"]["players"][0]
    player["result"] = bool(player["result"])
    assert "result" in refusal(record)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda r: r["header"]["players"][0].__setitem__("score", 10**5000),
        lambda r: r["header"]["players"][0].__setitem__("score", "\x1b[2J" * 1000),
        # A wrong score, to be told with the player's name.
        lambda r: r["header"]["players"][0].update(name="\x1b]0;x\x07" * 1000, score=-1),
        lambda r: r["header"].__setitem__("date-start", "\x1b[2J" * 1000),
        lambda r: r["header"]["game"].__setitem__("name", "\x1b[2J" * 1000),
        lambda r: r["header"]["game"].__setitem__("variants", ["\x1b[2J" * 1000]),
    ],
    ids=["huge score", "text score", "name", "date", "game", "variant"],
)
def test_a_hostile_header_value_is_quoted_short_and_without_controls(
    spoil: Callable[[dict[str, Any]], object],
) -> None:
    record = record_of(finished())
    spoil(record)
    message = refusal(record)
    assert len(message) < 200 and "\x1b" not in message and "\x07" not in message


def unfinished_record() -> dict[str, Any]:
    return in_progress(record_of(finished()), 5)


def test_the_record_of_an_unfinished_game_is_refused_unless_asked_for() -> None:
    record = unfinished_record()
    assert "not finished" in refusal(record)
    assert "--unfinished" in refusal(record)  # the way the command line asks for it
    game = from_record(record, allow_unfinished=True)
    assert not game.gameover and len(game.move_history()) == 5


def test_an_unfinished_game_may_claim_no_result() -> None:
    record = unfinished_record()
    claimed = copy.deepcopy(record)
    claimed["header"]["players"][1]["result"] = 1
    assert "result" in refusal(claimed, allow_unfinished=True)


def test_a_record_whose_header_agrees_replays() -> None:
    game = finished()
    again = from_record(record_of(game))
    assert again.serialize().count('"_version"') == game.serialize().count('"_version"')
    assert again.winner == game.winner


def test_a_float_in_the_header_is_refused_even_when_it_equals_the_replay() -> None:
    record = record_of(finished())
    player = record["header"]["players"][0]
    player["score"] = float(player["score"])
    assert "whole number" in refusal(record)


def test_an_unfinished_game_s_scores_are_checked_too() -> None:
    record = unfinished_record()
    record["header"]["players"][0]["score"] = 999
    assert "score" in refusal(record, allow_unfinished=True)


def test_a_starting_board_typed_rank_by_rank_replays() -> None:
    record = record_of(finished())
    header = record["header"]
    header["startingPosition"] = header["startingPosition"].replace("/", " /\n  ")
    from_record(record)
