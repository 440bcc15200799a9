"""States a game wrote take a fast way in; it must reach the full checks' verdict.

The first entry's board cells are looked up by their text rather than parsed
(see :mod:`stawvs_ap.fast_load`). Whatever the text, loading it must give what
the full checks give for the same document parsed first: the same game, or the
same refusal.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hostile import VARIANT_SETS, new_game, play_random, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_data import games as reference_games

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.fast_load import load_from_text


def compact(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"))


def outcome(form: str | dict[str, Any]) -> str:
    """What loading ``form`` gives: the game written back, or the refusal."""
    try:
        return StawvsGame(form).serialize()
    except StawvsError as exc:
        assert exc.code == "BAD_STATE"
        return f"refused: {exc.message}"


def assert_text_agrees_with_full_checks(text: str) -> str:
    """Loading ``text`` gives what the full checks give for the parsed document."""
    result = outcome(text)
    assert result == outcome(json.loads(text))
    return result


def new_state(numplayers: int = 2, seed: int = 3) -> dict[str, Any]:
    return json.loads(StawvsGame(numplayers, seed=seed).serialize())  # type: ignore[no-any-return]


def test_a_new_game_loads_by_the_fast_way() -> None:
    text = StawvsGame(3, seed=8).serialize()
    assert load_from_text(text) is not None
    assert assert_text_agrees_with_full_checks(text) == text


def test_an_abstract_play_starting_state_loads_by_the_fast_way() -> None:
    """Abstract Play writes the first entry's keys in another order: board,
    captured, then eliminated."""
    initial = reference_games()[0]["initial"]
    assert '"captured":[[],[]],"eliminated":[]}' in initial
    assert load_from_text(initial) is not None
    assert_text_agrees_with_full_checks(initial)


def test_a_played_game_loads_by_the_fast_way() -> None:
    game = play_random(new_game(2, (), 4), random.Random(4), 40)
    text = game.serialize()
    assert load_from_text(text) is not None
    assert StawvsGame(text).serialize() == text


def test_board_cells_in_another_order_load_the_same() -> None:
    state = new_state()
    random.Random(1).shuffle(state["stack"][0]["board"]["value"])
    assert not assert_text_agrees_with_full_checks(compact(state)).startswith("refused")


def test_a_look_alike_board_in_the_results_is_not_taken_for_the_board() -> None:
    state = new_state()
    first = state["stack"][0]
    first["_results"] = [{"type": "note", "board": first["board"]}]
    first["board"] = {"dataType": "Map", "value": []}
    assert_text_agrees_with_full_checks(compact(state))


def test_a_board_written_before_the_other_keys_is_read_as_written() -> None:
    state = new_state()
    first = state["stack"][0]
    state["stack"][0] = {"board": first.pop("board"), **first}
    assert_text_agrees_with_full_checks(compact(state))


_CELL_DAMAGE = {
    "a cap of a player who is not playing": lambda cell: cell[1].append(3),
    "a second cap owner": lambda cell: cell[1].extend([1, 2]),
    "a ghost": lambda cell: cell[1].__setitem__(0, ["GH", 1]),
    "a float size": lambda cell: cell[1][0].__setitem__(1, 1.0),
    "a boolean size": lambda cell: cell[1][0].__setitem__(1, True),
    "a size of 4": lambda cell: cell[1][0].__setitem__(1, 4),
    "an unknown colour": lambda cell: cell[1][0].__setitem__(0, "XX"),
    "a square off the board": lambda cell: cell.__setitem__(0, "i9"),
    "a square listed twice": lambda cell: cell.__setitem__(0, "d4"),
    "an extra item": lambda cell: cell.append(0),
}


@pytest.mark.parametrize("damage", list(_CELL_DAMAGE), ids=list(_CELL_DAMAGE))
def test_a_damaged_cell_of_the_first_entry_gets_the_full_checks_verdict(damage: str) -> None:
    state = new_state()
    cells = state["stack"][0]["board"]["value"]
    cell = next(c for c in cells if c[0] != "d4")
    _CELL_DAMAGE[damage](cell)
    assert assert_text_agrees_with_full_checks(compact(state)).startswith("refused")


@pytest.mark.parametrize(
    "edit",
    [
        lambda text: text.replace('[["', '[ ["', 1),
        lambda text: text.replace('"value":[[', '"value":[ [', 1),
        lambda text: text.replace("]]]]}", "]]] ]}", 1),
        lambda text: text.replace(']],["', ']], ["', 1),
    ],
    ids=["space_inside_a_cell", "space_before_the_cells", "space_after_them", "space_between"],
)
def test_spacing_inside_the_board_loads_the_same(edit: Any) -> None:
    text = StawvsGame(2, seed=5).serialize()
    edited = edit(text)
    assert edited != text
    assert assert_text_agrees_with_full_checks(edited) == text


@settings(
    max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    st.integers(2, 4), st.sampled_from(VARIANT_SETS), st.integers(0, 10**6),
    st.integers(0, 40), st.data(),
)
def test_text_and_dict_loading_agree_on_a_damaged_first_entry(
    numplayers: int, variants: tuple[str, ...], seed: int, plies: int, data: st.DataObject
) -> None:
    game = play_random(new_game(numplayers, variants, seed), random.Random(seed), plies)
    state = json.loads(game.serialize())
    damaged = copy.deepcopy(state)
    first = damaged["stack"][0]
    cells = first["board"]["value"]
    at = data.draw(st.integers(0, len(cells) - 1))
    damage = data.draw(st.sampled_from([*_CELL_DAMAGE, "drop", "player", "mode", "captured"]))
    if damage == "drop":
        del cells[at]
    elif damage == "player":
        first["currplayer"] = data.draw(st.integers(0, 5))
    elif damage == "mode":
        first["mode"] = "collect"
    elif damage == "captured":
        first["captured"][0] = [["PI", 1]]
    else:
        _CELL_DAMAGE[damage](cells[at])
    assert_text_agrees_with_full_checks(compact(damaged))


def test_a_board_whose_cells_are_not_in_brackets_is_refused() -> None:
    text = StawvsGame(2, seed=5).serialize()
    start = text.index('"value":[') + len('"value":[')
    end = text.index("]}", start)
    body = text[start:end]
    broken = text[:start] + "(" + body[1:-1] + ")" + text[end:]
    assert outcome(broken).startswith("refused: the state is not valid JSON")


def test_a_parsed_state_a_game_wrote_loads_without_the_full_checks(monkeypatch) -> None:
    from stawvs_ap import state_io

    def full_checks(*args: Any) -> None:
        raise AssertionError("a parsed state that a game wrote took the full checks")

    game = play_random(new_game(3, (), 6), random.Random(6), 30)
    state = game.state()
    monkeypatch.setattr(state_io, "check_history", full_checks)
    assert StawvsGame(state).serialize() == game.serialize()


@pytest.mark.parametrize(
    "value",
    [b"collect", {"collect"}, ("collect",)],
    ids=["bytes", "a_set", "a_tuple"],
)
def test_a_parsed_state_holding_what_json_cannot_hold_is_refused(value: object) -> None:
    state = play_random(new_game(2, (), 6), random.Random(6), 20).state()
    state["stack"][-1]["mode"] = value
    assert outcome(state).startswith("refused")


def test_a_parsed_state_with_tuples_for_lists_loads_as_with_lists() -> None:
    game = play_random(new_game(2, (), 6), random.Random(6), 20)
    state = game.state()
    for entry in state["stack"]:
        entry["board"]["value"] = tuple(tuple(cell) for cell in entry["board"]["value"])
        entry["eliminated"] = tuple(entry["eliminated"])
    assert outcome(state) == game.serialize()
