"""Hostile serialized states: each is refused with ``BAD_STATE`` and a message
saying what is wrong, or (when the damage is harmless) loads into a game that
then works in every call, plays on, and saves states that load again."""

from __future__ import annotations

import copy
import json
import math
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsGame
from stawvs_ap.errors import StawvsError
from stawvs_ap.state import format as state_format
from stawvs_ap.state import format as state_io

try:  # tests/ on sys.path (pytest's default "prepend" import mode)
    import hostile as h
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import hostile as h


def _sample_states() -> list[str]:
    """Real states of every phase: new, placing, collecting, finished, ended by a call."""
    out = []
    for seed, (n, variants, plies) in enumerate(
        [
            (2, (), 0),
            (3, ("hole",), 5),
            (2, (), 25),
            (4, ("hey", "pieces-2"), 40),
            (3, ("random", "finalfree"), 1000),
            (2, ("pieces-2",), 1000),
        ]
    ):
        game = h.play_random(h.new_game(n, variants, seed), random.Random(seed), plies)
        out.append(game.serialize())
    resigned = h.play_random(h.new_game(3, (), 7), random.Random(7), 20)
    resigned.resign(2)
    out.append(resigned.serialize())
    return out


SAMPLES = _sample_states()
STATE_DIR = h.CORPUS / "states"
HOSTILE_VALUES = [
    None,
    True,
    False,
    0,
    1,
    -1,
    1.0,
    2.5,
    2**64,
    -(2**70),
    math.nan,
    math.inf,
    "",
    "x",
    "PI",
    "GH",
    "a1",
    "i9",
    "20251113",
    [],
    [None],
    [[]],
    {},
    {"dataType": "Map"},
    ["PI", 1],
    [["PI", 1]],
    [["GH", 1], 1],
    [["PI", 1], 9],
    "x" * 10_000,
    list(range(100)),
]


def exercise(game: StawvsGame) -> None:
    """Call everything a host calls; a state that loaded must keep working."""
    saved = game.serialize()
    assert StawvsGame(saved).serialize() == saved
    game.render(), game.chat_log(["A", "B"]), game.sidebar_scores(), game.move_history()
    game.results_history(), game.winner, game.gameover, game.state()
    moves = game.moves()
    for move in moves[:3]:
        assert game.validate_move(move).complete == 1
    if moves:
        game.move(moves[-1])
        reloaded = StawvsGame(game.serialize())  # what it saves after a move loads again
        reloaded.render(), reloaded.chat_log()
        game.undo()
    game.load(0)
    game.render()


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as a path of keys and indexes."""
    out = [here]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, (*here, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, (*here, i))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def damaged_states(draw: st.DrawFn) -> Any:
    """A real state with one to three parts dropped, replaced, added to or duplicated."""
    doc = json.loads(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        if not path:
            continue
        parent, key = _parent(doc, path), path[-1]
        action = draw(st.sampled_from(["drop", "replace", "replace", "add", "duplicate"]))
        if action == "drop":
            del parent[key]
        elif action == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(HOSTILE_VALUES)))
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "_extra", "board", "x" * 50]))] = 1
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[key] = [parent[key]]
    return doc


def _load_or_refuse(state: Any) -> StawvsGame | None:
    try:
        game = StawvsGame(state)
    except StawvsError as refused:
        assert refused.code == "BAD_STATE" and refused.message
        return None
    return game


@pytest.mark.slow  # a long fuzz run
@settings(max_examples=h.scaled(600))
@given(damaged_states())
def test_a_damaged_state_is_refused_or_loads_into_a_working_game(state):
    game = _load_or_refuse(state)
    if game is not None:
        exercise(game)


@settings(max_examples=h.scaled(600))
@given(st.sampled_from(SAMPLES), st.data())
def test_damaged_state_text_is_refused_or_loads_into_a_working_game(text, data):
    i = data.draw(st.integers(0, len(text)))
    how = data.draw(st.sampled_from(["cut", "insert", "replace", "bytes"]))
    if how == "cut":
        damaged: str | bytes = text[:i]
    elif how == "bytes":
        damaged = text.encode()[:i] + data.draw(st.binary(min_size=1, max_size=4))
    else:
        ch = data.draw(st.sampled_from('{}[],:"0123456789-.eE aGHPI\\\x00\u00e9'))
        damaged = text[:i] + ch + text[i + (how == "replace") :]
    game = _load_or_refuse(damaged)
    if game is not None:
        # Text accepted is a state: the same game as its parsed document, saved as
        # the engine writes it (which loads back to the same game).
        assert game.serialize() == StawvsGame(json.loads(damaged)).serialize()
        assert StawvsGame(game.serialize()).serialize() == game.serialize()
        exercise(game)


# -- each kind of damage, and what the message says -------------------------------


def _doc(sample: int = 2) -> dict[str, Any]:
    return json.loads(SAMPLES[sample])


def _top(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["stack"][-1]


def _first_cell(doc: dict[str, Any], capped: bool = False) -> list[Any]:
    return next(c for _sq, c in _top(doc)["board"]["value"] if (len(c) == 2) == capped)


def _six_of_a_kind(doc):
    cell = _first_cell(doc)
    kind = next(c for _sq, c in _top(doc)["board"]["value"] if c[0] != cell[0])[0]
    for _sq, other in _top(doc)["board"]["value"]:
        if other[0] != kind:
            other[0] = list(kind)
            break


def _set(path: tuple[Any, ...], value: Any):
    def change(doc):
        _parent(doc, path)[path[-1]] = value

    return change


def _drop(path: tuple[Any, ...]):
    def change(doc):
        del _parent(doc, path)[path[-1]]

    return change


BROKEN = {
    # what is damaged: (how, words the message must contain)
    "game missing": (_drop(("game",)), "game"),
    "another game": (_set(("game",), "chess"), "chess"),
    "numplayers missing": (_drop(("numplayers",)), "numplayers"),
    "numplayers 1": (_set(("numplayers",), 1), "2 to 4"),
    "numplayers 5": (_set(("numplayers",), 5), "2 to 4"),
    "numplayers a float": (_set(("numplayers",), 2.0), "numplayers"),
    "numplayers a boolean": (_set(("numplayers",), True), "numplayers"),
    "numplayers NaN": (_set(("numplayers",), math.nan), "numplayers"),
    "unknown variant": (_set(("variants",), ["chaos"]), "chaos"),
    "two setups": (_set(("variants",), ["hole", "random"]), "cannot be combined"),
    "stack missing": (_drop(("stack",)), "stack"),
    "empty stack": (_set(("stack",), []), "stack"),
    "stack not a list": (_set(("stack",), {}), "stack"),
    "extra key": (lambda d: d.update(cheat=True), "cheat"),
    "extra key in an entry": (lambda d: _top(d).update(cheat=True), "cheat"),
    "unknown _version": (lambda d: _top(d).update(_version="19990101"), "19990101"),
    "board missing": (lambda d: _top(d).pop("board"), "board"),
    "captured missing": (lambda d: _top(d).pop("captured"), "captured"),
    "captured too short": (lambda d: _top(d)["captured"].pop(), "collections"),
    "captured too long": (lambda d: _top(d)["captured"].append([]), "collections"),
    "currplayer 0": (lambda d: _top(d).update(currplayer=0), "player 0"),
    "currplayer 3 of 2": (lambda d: _top(d).update(currplayer=3), "player 3"),
    "currplayer a boolean": (lambda d: _top(d).update(currplayer=True), "currplayer"),
    "currplayer a float": (lambda d: _top(d).update(currplayer=1.0), "currplayer"),
    "currplayer Infinity": (lambda d: _top(d).update(currplayer=math.inf), "currplayer"),
    "unknown mode": (lambda d: _top(d).update(mode="war"), "mode"),
    "a cap of a missing player": (lambda d: _first_cell(d, True).__setitem__(1, 3), "player 3"),
    "a cap of player 0": (lambda d: _first_cell(d, True).__setitem__(1, 0), "player 0"),
    "a cap on an empty square": (
        lambda d: _top(d)["board"]["value"].append(["a8", [None, 1]]),
        "board",
    ),
    "six of a kind": (_six_of_a_kind, "does not follow"),
    "61 pyramids": (
        lambda d: _top(d)["board"]["value"].append(["a8", copy.deepcopy(_first_cell(d)[:1])]),
        "does not follow",
    ),
    "a square listed twice": (
        lambda d: _top(d)["board"]["value"].append(copy.deepcopy(_top(d)["board"]["value"][0])),
        "twice",
    ),
    "a square off the board": (lambda d: _top(d)["board"]["value"][0].__setitem__(0, "i9"), "i9"),
    "a size 4 pyramid": (lambda d: _first_cell(d)[0].__setitem__(1, 4), "4] is not a pyramid"),
    "an unknown colour": (lambda d: _first_cell(d)[0].__setitem__(0, "RE"), "RE"),
    "a ghost without a cap": (lambda d: _first_cell(d)[0].__setitem__(0, "GH"), "does not follow"),
    "a fourth cap": (lambda d: _first_cell(d).append(1), "does not follow"),
    "eliminated twice": (lambda d: _top(d).update(eliminated=[1, 1]), "twice"),
    "eliminated player 7": (lambda d: _top(d).update(eliminated=[7]), "player 7"),
    "a last move that is not a move": (lambda d: _top(d).update(lastmove="jump!"), "jump!"),
    "gameover without an ending": (_set(("gameover",), True), "gameover"),
    "winners that did not win": (_set(("winner",), [2]), "winner"),
    "a result without its square": (
        lambda d: _top(d).update(_results=[{"type": "place"}]),
        "results",
    ),
    "a winners result without players": (
        lambda d: _top(d).update(_results=[{"type": "winners"}]),
        "results",
    ),
    "a winners result naming player 9": (
        lambda d: _top(d).update(_results=[{"type": "winners", "players": [9]}]),
        "results",
    ),
    "a resignation of nobody": (
        lambda d: _top(d).update(_results=[{"type": "resigned", "player": "me"}]),
        "results",
    ),
    "a move result on no square": (
        lambda d: _top(d).update(
            _results=[{"type": "move", "from": "z0", "to": "a1", "how": "a2", "what": "x"}]
        ),
        "results",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("damage", h.thinned(list(BROKEN), 3))
def test_a_broken_state_is_refused_saying_what_is_wrong(damage):
    change, words = BROKEN[damage]
    doc = _doc()
    change(doc)
    with pytest.raises(StawvsError) as refused:
        StawvsGame(doc)
    assert refused.value.code == "BAD_STATE"
    assert words.lower() in refused.value.message.lower(), refused.value.message
    with pytest.raises(StawvsError):  # the same as text
        StawvsGame(json.dumps(doc))


def test_a_starting_entry_with_caps_is_refused():
    doc = _doc(0)
    cells = _top(doc)["board"]["value"]
    for _sq, cell in cells[:3]:
        cell.append(1)
    with pytest.raises(StawvsError, match="no caps"):
        StawvsGame(doc)


@pytest.mark.parametrize(
    "text",
    [
        b"\xff\xfe\xfd",
        b"\x00" * 10,
        "",
        "null",
        "[]",
        "42",
        '"stawvs"',
        "{",
        "{}}",
        '{"game": "stawvs"',
        "NaN",
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 50_000 + "1" + "}" * 50_000,
    ],
    ids=lambda text: repr(text[:12]) + f"..{len(text)}",
)
def test_text_that_is_no_state_is_refused(text):
    with pytest.raises(StawvsError) as refused:
        StawvsGame(text)
    assert refused.value.code == "BAD_STATE"


def test_deeply_nested_results_are_refused():
    doc = _doc()
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    _top(doc)["_results"] = [{"type": "note", "deep": deep}]
    with pytest.raises(StawvsError) as refused:
        StawvsGame(doc)
    assert refused.value.code == "BAD_STATE"


def test_a_huge_document_is_refused_before_parsing(monkeypatch):
    def no_parsing(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a document over the size limit reached the JSON parser")

    monkeypatch.setattr(state_format.json, "loads", no_parsing)
    huge = SAMPLES[0][:-1] + "," + '"pad":"' + "x" * state_io.MAX_STATE_BYTES + '"}'
    for text, unit in ((huge, "characters"), (huge.encode(), "bytes")):
        with pytest.raises(StawvsError) as refused:
            StawvsGame(text)
        assert refused.value.code == "BAD_STATE" and unit in refused.value.message


def test_a_long_stack_of_real_moves_is_refused_when_over_the_entry_limit():
    doc = _doc(4)
    doc["stack"] = doc["stack"][:1] + doc["stack"][1:2] * 3000
    with pytest.raises(StawvsError) as refused:
        StawvsGame(doc)
    assert refused.value.code == "BAD_STATE"


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _corpus_states() -> list[Any]:
    return sorted(STATE_DIR.glob("*.json"))


@pytest.mark.parametrize("path", _corpus_states(), ids=lambda p: p.name)
def test_the_kept_broken_states_are_refused(path):
    with pytest.raises(StawvsError) as refused:
        StawvsGame(path.read_bytes())
    assert refused.value.code == "BAD_STATE" and refused.value.message


@pytest.mark.parametrize(
    "arguments",
    [
        {"state": 1},
        {"state": 5},
        {"state": True},
        {"state": None},
        {"state": 2.0},
        {"state": [2]},
        {"variants": 5},
        {"variants": "hole"},
        {"variants": [None]},
        {"variants": ["hole", "random"]},
        {"variants": ["hole", "hole"]},
        {"seed": [1]},
        {"seed": {}},
        {"seed": object()},
    ],
    ids=lambda arguments: _ADDRESS.sub("", repr(arguments)),
)  # the same in every xdist worker
def test_a_new_game_with_hostile_arguments_is_refused(arguments):
    with pytest.raises(StawvsError) as refused:
        StawvsGame(**{"state": 2, **arguments})
    assert refused.value.code in ("BAD_ARGUMENT", "BAD_VARIANT")


@pytest.mark.parametrize("names", [5, "Ann", None, ["Ann"], [None, 3], ["x" * 1000] * 9])
def test_chat_log_names_are_a_list_or_refused(names):
    game = StawvsGame(SAMPLES[2])
    try:
        log = game.chat_log(names)
    except StawvsError as refused:
        assert refused.code == "BAD_ARGUMENT"
    else:
        assert all(isinstance(line, str) for entry in log for line in entry)
