"""Hostile game records: ``stawvs_ap.from_record`` replays a record or refuses
it with ``BAD_RECORD`` saying what is wrong; an illegal move is named with its
round, player and move; nothing else ever escapes."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame, from_record
from stawvs_ap.errors import StawvsError

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import hostile as h
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import hostile as h

NAMES = ["Ann", "Ben", "Cy", "Di"]


def _finished(n: int, variants: tuple[str, ...], seed: int) -> StawvsGame:
    return h.play_random(h.new_game(n, variants, seed), random.Random(seed), 1000)


def _record(game: StawvsGame) -> dict[str, Any]:
    players = [{"name": NAMES[i]} for i in range(game.numplayers)]
    return game.gen_record(uid="fuzz", players=players)


def _sample_records() -> list[tuple[dict[str, Any], str]]:
    """Records of finished games of several kinds, with each game's first state."""
    out = []
    for seed, (n, variants) in enumerate(
        [(2, ()), (3, ("hole", "hey")), (4, ("random", "pieces-2", "finalfree"))]
    ):
        game = _finished(n, variants, seed)
        first = json.loads(game.serialize())
        first = {**first, "gameover": False, "winner": [], "stack": first["stack"][:1]}
        out.append((_record(game), json.dumps(first)))
    resigned = h.play_random(h.new_game(2, (), 9), random.Random(9), 15)
    resigned.resign(1)
    out.append((_record(resigned), resigned.serialize()))
    return out


SAMPLES = _sample_records()
HOSTILE = [
    None,
    True,
    0,
    -1,
    1.5,
    float("nan"),
    "",
    "x" * 5000,
    "pass",
    "a1-b2,c3",
    [],
    {},
    [None],
    {"move": None},
    {"move": "pass", "result": 5},
    "resign",
    ["d5"],
]


def _refused_or_replayed(record: Any, initial: Any = None) -> None:
    try:
        game = from_record(record, initial=initial)
    except StawvsError as refused:
        assert refused.code == "BAD_RECORD", refused
        assert refused.message
        return
    game.serialize(), game.render(), game.moves(), game.chat_log()


def test_the_sample_records_replay():
    for record, initial in SAMPLES:
        assert from_record(record).gameover
        assert from_record(record, initial=initial).gameover


def _places(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _places(child, (*here, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _places(child, (*here, i))
    return out


@st.composite
def damaged_records(draw: st.DrawFn) -> tuple[Any, str | None]:
    record, initial = copy.deepcopy(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        places = _places(record)
        path = places[draw(st.integers(0, len(places) - 1))]
        if not path:
            continue
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        action = draw(st.sampled_from(["drop", "replace", "swap"]))
        if action == "drop":
            del parent[key]
        elif action == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
        elif isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    return record, draw(st.sampled_from([None, initial]))


@settings(max_examples=h.scaled(500))
@given(damaged_records())
def test_a_damaged_record_is_refused_or_replays(case):
    record, initial = case
    _refused_or_replayed(record, initial)


@settings(max_examples=h.scaled(300))
@given(st.data())
def test_a_record_with_a_wrong_move_names_round_player_and_move(data):
    record, _ = copy.deepcopy(data.draw(st.sampled_from(SAMPLES)))
    rounds = record["moves"]
    number = data.draw(st.integers(1, len(rounds)))
    seat = data.draw(st.integers(0, len(rounds[number - 1]) - 1))
    bad = data.draw(st.sampled_from(["z9", "a1-a1,a1", "h8-a1,b2", "d5-", "pass!", "e4-e5"]))
    rounds[number - 1][seat] = bad
    with pytest.raises(StawvsError) as refused:
        from_record(record)
    message = refused.value.message
    assert refused.value.code == "BAD_RECORD"
    if bad in message:  # a later move can fail first only if this one was legal: never here
        assert f"round {number}" in message and NAMES[seat] in message
    else:
        pytest.fail(f"the message does not name the move {bad!r}: {message}")


@pytest.mark.parametrize(
    "record", [*HOSTILE, {"header": {}, "moves": []}, {"header": None, "moves": None}]
)
def test_a_record_that_is_no_record_is_refused(record):
    with pytest.raises(StawvsError) as refused:
        from_record(record)
    assert refused.value.code == "BAD_RECORD"


@pytest.mark.parametrize(
    "initial",
    [
        "",
        "{",
        b"\xff",
        "[" * 100_000,
        "null",
        "[]",
        '{"stack": 5}',
        '{"stack": [{}]}',
        "x" * 5_000_000,
    ],
    ids=lambda text: repr(text[:12]) + f"..{len(text)}",
)
def test_a_record_with_a_broken_initial_state_is_refused(initial):
    record, _ = SAMPLES[0]
    with pytest.raises(StawvsError) as refused:
        from_record(record, initial=initial)
    assert refused.value.code == "BAD_RECORD"


def test_a_record_with_a_million_moves_is_refused_quickly():
    record, _ = copy.deepcopy(SAMPLES[0])
    record["moves"] = [["pass", "pass"]] * 500_000
    with pytest.raises(StawvsError) as refused:
        from_record(record)
    assert refused.value.code == "BAD_RECORD"
