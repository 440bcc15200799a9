"""Game records (CONTRACT §8): what gen_record writes, and replaying records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hostile import scaled
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_data import canonical_state, extra_id, extras, game_id, games

from devtools.fixtures import FakeClock
from stawvs_ap import InvalidRecordError, StawvsError, StawvsGame
from stawvs_ap.core.notation import format_board as format_starting_position
from stawvs_ap.core.position import EMPTY
from stawvs_ap.core.pyramids import COLOURED, PER_KIND
from stawvs_ap.host.record import ranks
from stawvs_ap.records import from_record, game_of, parse_starting_position, record_in

SCHEMA_FILE = (
    Path(__file__).resolve().parent.parent
    / "fixtures"
    / "upstream-schemas"
    / "gamerecord.schema.json"
)
VALIDATOR = jsonschema.Draft7Validator(
    json.loads(SCHEMA_FILE.read_text(encoding="utf-8")),
    format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER,
)
NAMES = ["Alice", "Bob", "Carol", "Dave"]
ENDINGS = [x for x in extras("ending") if x.get("selected") != "finished"]


def players(n: int) -> list[dict[str, Any]]:
    return [{"name": NAMES[i], "uid": f"u{i + 1}"} for i in range(n)]


def record_of(state: str | dict[str, Any], uid: str) -> dict[str, Any]:
    game = StawvsGame(state)
    return game.gen_record(uid=uid, players=players(game.numplayers))


def without_our_additions(record: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["header"].pop("date-generated")
    out["header"].pop("startingPosition", None)
    for player in out["header"]["players"]:
        player.pop("rank", None)
    return out


def finished_game(
    numplayers: int = 3, variants: list[str] | None = None, seed: int = 5
) -> StawvsGame:
    game = StawvsGame(numplayers, variants or [], seed=seed)
    rng = random.Random(seed)
    while not game.gameover:
        game.move(rng.choice(sorted(game.moves())))
    return game


# -- writing ---------------------------------------------------------------------


@pytest.mark.parametrize("ref", games(), ids=game_id)
def test_record_satisfies_the_upstream_schema(ref: dict[str, Any]) -> None:
    VALIDATOR.validate(record_of(ref["final"], f"test-{ref['id']}"))


@pytest.mark.parametrize("ref", games(), ids=game_id)
def test_record_equals_the_reference_record_apart_from_our_additions(
    ref: dict[str, Any],
) -> None:
    ours = record_of(ref["final"], f"test-{ref['id']}")
    assert ours["moves"] == ref["record"]["moves"]
    assert without_our_additions(ours) == without_our_additions(ref["record"])


@pytest.mark.slow
@pytest.mark.parametrize("line", ENDINGS, ids=extra_id)
def test_record_of_an_ending_equals_the_reference_record(line: dict[str, Any]) -> None:
    theirs = line["genRecord"]
    ours = record_of(line["serialize"], theirs["header"]["site"]["gameid"])
    VALIDATOR.validate(ours)
    assert ours["moves"] == theirs["moves"]
    assert without_our_additions(ours) == without_our_additions(theirs)


def test_unfinished_game_has_no_record() -> None:
    game = StawvsGame(2, seed=1)
    with pytest.raises(StawvsError) as info:
        game.gen_record(uid="x", players=players(2))
    assert info.value.code == "NOT_FINISHED"


def test_record_needs_one_player_entry_per_player() -> None:
    with pytest.raises(StawvsError) as info:
        finished_game(3).gen_record(uid="x", players=players(2))
    assert info.value.code == "BAD_ARGUMENT"


def test_record_of_a_loaded_game_records_the_whole_game() -> None:
    game = finished_game(2)
    whole = game.gen_record(uid="x", players=players(2))
    game.load(3)
    assert game.gen_record(uid="x", players=players(2))["moves"] == whole["moves"]


def test_dates_default_to_the_first_and_last_timestamps() -> None:
    game = StawvsGame(2, seed=4, clock=FakeClock())
    rng = random.Random(4)
    while not game.gameover:
        game.move(rng.choice(sorted(game.moves())))
    header = game.gen_record(uid="x", players=players(2))["header"]
    assert header["date-start"] == "2025-12-12T00:00:00.000Z"
    assert header["date-end"] == game.stack[-1]["_timestamp"]
    assert header["date-generated"] > header["date-end"]


def test_given_dates_event_round_and_unrated_are_recorded() -> None:
    record = finished_game(2).gen_record(
        uid="x",
        players=[{"name": "Ann", "uid": "a", "is_ai": True}, {"name": "Ben"}],
        date_start="2025-01-01T10:00:00.000Z",
        date_end="2025-01-02T10:00:00.000Z",
        event="Cup",
        round="1",
        unrated=True,
    )
    header = record["header"]
    VALIDATOR.validate(record)
    assert (header["date-start"], header["date-end"]) == (
        "2025-01-01T10:00:00.000Z",
        "2025-01-02T10:00:00.000Z",
    )
    assert (header["event"], header["round"], header["unrated"]) == ("Cup", "1", True)
    assert header["players"][0]["is_ai"] is True
    assert "userid" not in header["players"][1]


def test_two_player_records_have_no_rank() -> None:
    header = finished_game(2).gen_record(uid="x", players=players(2))["header"]
    assert all("rank" not in p for p in header["players"])


def test_three_and_four_player_records_rank_every_player() -> None:
    for n in (3, 4):
        header = finished_game(n).gen_record(uid="x", players=players(n))["header"]
        scores = [p["score"] for p in header["players"]]
        for p in header["players"]:
            assert p["rank"] == 1 + sum(s > p["score"] for s in scores)
            assert p["result"] == (1 if p["rank"] == 1 else 0)


def test_ranks_share_ties_and_skip_the_places_they_take() -> None:
    assert ranks([30, 28, 30, 12], [1, 3], by_score=True) == [1, 3, 1, 4]


def test_after_a_resignation_all_winners_share_the_first_rank() -> None:
    assert ranks([5, 9, 7], [1, 3], by_score=False) == [1, 3, 1]


# -- the starting position -------------------------------------------------------

CORNER_BOARD = (
    ".PI2BL1GR2GR1OR3PI3./OR3BL2BL1OR3PI2PI2GR2BL2/PI1OR1GR3GR2PI1OR2OR1GR1/"
    "PI2OR3GR1PI2BL3BL1BL2GR3/GR1PI3GR3PI3OR2PI1GR2PI3/PI1BL3BL3GR1OR1BL1GR3BL3/"
    "OR3BL2OR2OR1PI3BL2BL3OR2/.GR2BL1GR3OR2OR1PI1."
)


def test_starting_position_is_the_first_reference_board() -> None:
    ref = games()[0]
    game = StawvsGame(ref["initial"])
    assert format_starting_position(game.position.board) == CORNER_BOARD


@settings(max_examples=scaled(60), deadline=None)
@given(st.randoms(use_true_random=False))
def test_starting_position_round_trips_exactly(rng: random.Random) -> None:
    board = [kind for kind in COLOURED for _ in range(PER_KIND)] + [EMPTY] * 4
    rng.shuffle(board)
    text = format_starting_position(board)
    assert parse_starting_position(text) == board
    assert format_starting_position(parse_starting_position(text)) == text


def test_starting_position_ignores_case_and_whitespace() -> None:
    typed = CORNER_BOARD.lower().replace("/", " /\n ")
    assert parse_starting_position(typed) == parse_starting_position(CORNER_BOARD)


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (CORNER_BOARD.rsplit("/", 1)[0], "7 ranks"),
        (CORNER_BOARD.replace("PI2BL1", "XX2BL1", 1), "rank 8, file b: 'XX2' is not a square"),
        (CORNER_BOARD.replace("PI2BL1", "GH2BL1", 1), "no caps and no ghosts"),
        (CORNER_BOARD.replace(".PI2BL1", ".BL1", 1), "rank 8 has 7 squares"),
        (CORNER_BOARD.replace(".PI2BL1", ".PI2PI2BL1", 1), "more than 8 squares"),
        (CORNER_BOARD.replace("BL1", "PI2", 1), "6 pyramids PI2"),
        (CORNER_BOARD.replace("PI2", ".", 1), "4 pyramids PI2"),
        (12, "written as text"),
    ],
    ids=[
        "ranks",
        "unknown-code",
        "ghost",
        "short-rank",
        "long-rank",
        "six-of-a-kind",
        "five-gaps",
        "not-text",
    ],
)
def test_bad_starting_position_is_refused_saying_why(text: object, complaint: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        parse_starting_position(text)
    assert info.value.code == "BAD_RECORD"
    assert complaint in info.value.message


# -- replaying -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ref", games(), ids=game_id)
def test_reference_record_replays_from_its_initial_state(ref: dict[str, Any]) -> None:
    game = from_record(ref["record"], initial=ref["initial"])
    assert canonical_state(game.serialize()) == canonical_state(ref["final"])


@pytest.mark.slow
@pytest.mark.parametrize("ref", games(), ids=game_id)
def test_our_record_alone_replays_the_game(ref: dict[str, Any]) -> None:
    original = StawvsGame(ref["final"])
    record = original.gen_record(uid="x", players=players(original.numplayers))
    game = from_record(json.loads(json.dumps(record)))
    assert canonical_state(game.serialize()) == canonical_state(ref["final"])
    assert game.sidebar_scores() == original.sidebar_scores()
    assert game.winner == original.winner
    again = game.gen_record(uid="x", players=players(original.numplayers))
    assert {**again["header"], "date-generated": None} == {
        **record["header"],
        "date-generated": None,
    }
    assert again["moves"] == record["moves"]


@pytest.mark.slow
@pytest.mark.parametrize("line", ENDINGS, ids=extra_id)
def test_records_ending_outside_the_rules_replay(line: dict[str, Any]) -> None:
    from_reference = from_record(line["genRecord"], initial=line["state_before"])
    ours = from_record(record_of(line["serialize"], "x"))
    for game in (from_reference, ours):
        assert canonical_state(game.serialize()) == canonical_state(line["serialize"])


def test_an_ending_after_the_end_does_not_replay() -> None:
    line = next(x for x in extras("ending") if x.get("selected") == "finished")
    with pytest.raises(InvalidRecordError, match="is not legal: The game is already over"):
        from_record(line["genRecord"], initial=line["state_before"])


def our_record(n: int = 3) -> dict[str, Any]:
    return finished_game(n).gen_record(uid="x", players=players(n))


def refused(record: object, **kwargs: Any) -> str:
    with pytest.raises(InvalidRecordError) as info:
        from_record(record, **kwargs)
    assert info.value.code == "BAD_RECORD"
    return info.value.message


def test_illegal_move_names_round_player_and_move() -> None:
    record = our_record(3)
    record["moves"][11][1] = "a1-a2,a3"
    message = refused(record)
    assert message.startswith("round 12, Bob (player 2): 'a1-a2,a3' is not legal: ")


def test_unreadable_move_names_round_and_player() -> None:
    record = our_record(2)
    record["moves"][4][0] = 42
    assert refused(record).startswith("round 5, Alice (player 1): 42 is not a move")


def test_missing_move_inside_the_game_is_refused() -> None:
    record = our_record(2)
    record["moves"][2][1] = None
    assert "round 3, Bob (player 2): no move" in refused(record)


def test_round_with_more_moves_than_players_is_refused() -> None:
    record = our_record(2)
    record["moves"][0].append("a2")
    assert "round 1 has 3 moves, but there are 2 players" in refused(record)


def test_moves_after_the_end_are_refused() -> None:
    record = our_record(2)
    record["moves"].append(["pass"])
    assert "is not legal: The game is over" in refused(record)


@pytest.mark.parametrize("record", [None, [], "record", 3], ids=repr)
def test_a_record_must_be_an_object(record: object) -> None:
    assert "a record is a JSON object" in refused(record)


def test_missing_header_is_refused() -> None:
    assert "no 'header'" in refused({"moves": []})


def test_moves_must_be_rounds() -> None:
    record = our_record(2)
    record["moves"] = ["d7", "f8"]
    assert "list of rounds" in refused(record)


def test_unknown_variant_name_is_refused() -> None:
    record = our_record(2)
    record["header"]["game"]["variants"] = ["Giant pyramids"]
    assert "'Giant pyramids' is not a variant of Stawvs" in refused(record)


def test_record_of_another_game_is_refused() -> None:
    record = our_record(2)
    record["header"]["game"]["name"] = "Chess"
    assert "not of a game of Stawvs" in refused(record)


def test_bad_starting_position_in_a_record_is_refused() -> None:
    record = our_record(2)
    record["header"]["startingPosition"] = "PI1/PI2"
    assert "2 ranks" in refused(record)


def test_starting_position_must_leave_the_variants_squares_empty() -> None:
    record = our_record(2)
    record["header"]["game"]["variants"] = ["Center hole"]
    assert "must be d5, e5, d4, e4" in refused(record)


def test_record_without_starting_position_needs_the_initial_state() -> None:
    assert "give the initial state" in refused(games()[0]["record"])


def test_initial_state_for_another_player_count_is_refused() -> None:
    assert "the record has 2 players, the initial state 3" in refused(
        games()[0]["record"], initial=games()[9]["initial"]
    )


def test_initial_state_must_match_the_starting_position() -> None:
    record = our_record(2)
    assert "not the board of the initial state" in refused(record, initial=games()[0]["initial"])


def test_resignation_must_name_the_player() -> None:
    line = next(x for x in ENDINGS if x["which"] == "resign")
    record = copy.deepcopy(line["genRecord"])
    record["moves"][-1][-1] = "resign"
    assert "must name the player" in refused(record, initial=line["state_before"])


def test_results_in_the_record_must_match_the_replay() -> None:
    record = copy.deepcopy(games()[0]["record"])
    record["moves"][24][1]["result"][0]["payload"].reverse()
    assert "round 25, Bob (player 2): the record says 'pass' gave" in refused(
        record, initial=games()[0]["initial"]
    )


def test_scores_in_the_record_must_match_the_replay() -> None:
    record = our_record(2)
    record["header"]["players"][1]["score"] += 1
    assert "the record gives Bob a score of" in refused(record)


def test_dates_may_be_datetimes_but_not_arbitrary_text() -> None:
    from datetime import UTC, datetime

    game = finished_game(2)
    header = game.gen_record(
        uid="x", players=players(2), date_start=datetime(2025, 3, 1, 12, 30, tzinfo=UTC)
    )["header"]
    assert header["date-start"] == "2025-03-01T12:30:00.000Z"
    with pytest.raises(StawvsError) as info:
        game.gen_record(uid="x", players=players(2), date_end="yesterday")
    assert info.value.code == "BAD_ARGUMENT"


# -- state or record: the one decision (records.record_in, records.game_of) --------------


def _resigned() -> StawvsGame:
    return StawvsGame.new(2, seed=3).move("b7").move("c7").resign(1)


def test_a_record_and_a_fixture_wrapping_one_are_records_and_a_state_is_not() -> None:
    record = _resigned().gen_record(uid="g", players=players(2))
    assert record_in(record) is record
    assert record_in({"seed": 3, "record": record}) is record
    state = json.loads(StawvsGame.new(2, seed=3).serialize())
    assert record_in(state) is None
    assert record_in({"record": state}) is None
    assert record_in([record]) is None and record_in("text") is None


def test_game_of_loads_a_state_and_replays_a_record() -> None:
    game = _resigned()
    assert game_of(game.serialize()).serialize() == game.serialize()
    record = game.gen_record(uid="g", players=players(2))
    for value in (record, {"record": record}):
        assert game_of(value).winner == game.winner == [2]


def test_game_of_refuses_an_initial_state_with_a_state() -> None:
    state = StawvsGame.new(2, seed=3).serialize()
    with pytest.raises(StawvsError, match="goes with a record") as refused:
        game_of(state, state)
    assert refused.value.code == "BAD_ARGUMENT"


def test_game_of_says_what_is_wrong_with_an_object_that_is_no_record() -> None:
    with pytest.raises(InvalidRecordError, match="no 'header'"):
        game_of({"moves": []})
