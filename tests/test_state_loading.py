"""Serialized states are checked on load (CONTRACT §3–§4): a refused state raises
StawvsError with code BAD_STATE and a message naming the problem, and nothing
else ever escapes; good states, ours and the reference engine's, round-trip.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hostile import scaled
from hypothesis import given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.state.format import MAX_STATE_BYTES

try:
    import reference_data as ref
except ImportError:  # pragma: no cover - tests/ imported as a package
    from tests import reference_data as ref


def good_state() -> dict[str, Any]:
    """A real two-player game: all caps placed and two collection moves made."""
    game = StawvsGame.new(2, seed=11)
    rng = random.Random(11)
    for _ in range(8):
        game.move(game.random_move(rng))
    return json.loads(game.serialize())  # type: ignore[no-any-return]


def entry(state: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return state["stack"][index]  # type: ignore[no-any-return]


def refused(state: object) -> str:
    """The message of the BAD_STATE error that loading ``state`` raises."""
    with pytest.raises(StawvsError) as caught:
        StawvsGame(state)  # type: ignore[arg-type]
    assert caught.value.code == "BAD_STATE"
    return caught.value.message


def test_the_good_state_is_accepted() -> None:
    game = StawvsGame(good_state())
    assert game.moves()


# -- each problem is named --------------------------------------------------------

Edit = Callable[[dict[str, Any]], None]


def _path(path: str) -> tuple[Any, Any]:
    *parents, last = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]
    return parents, last


def _set(path: str, value: Any) -> Edit:
    """An edit setting ``path`` (keys separated by dots; digits index lists) to ``value``."""

    def edit(state: dict[str, Any]) -> None:
        parents, last = _path(path)
        target: Any = state
        for key in parents:
            target = target[key]
        target[last] = value

    return edit


def _delete(path: str) -> Edit:
    def edit(state: dict[str, Any]) -> None:
        parents, last = _path(path)
        target: Any = state
        for key in parents:
            target = target[key]
        del target[last]

    return edit


def _add_cell(name: str, cell: list[Any], index: int = 0) -> Edit:
    return lambda state: entry(state, index)["board"]["value"].append([name, cell])


def _first_cell(cell: list[Any]) -> Edit:
    """Replace the pyramid of the first board cell of the starting entry."""

    def edit(state: dict[str, Any]) -> None:
        entry(state)["board"]["value"][0][1] = cell

    return edit


def _drop_cells(count: int) -> Edit:
    def edit(state: dict[str, Any]) -> None:
        del entry(state)["board"]["value"][:count]

    return edit


def _all(*edits: Edit) -> Edit:
    def edit(state: dict[str, Any]) -> None:
        for one in edits:
            one(state)

    return edit


REFUSALS: dict[str, tuple[Edit, tuple[str, ...]]] = {
    # the document and its header
    "a_state_of_another_game": (_set("game", "homeworlds"), ("homeworlds",)),
    "a_state_naming_no_game": (_delete("game"), ("game",)),
    "an_unknown_engine_version": (_set("stack.0._version", "20240101"), ("20240101", "version")),
    "a_version_that_is_not_text": (_set("stack.0._version", 20251113), ("_version",)),
    "an_unknown_variant": (_set("variants", ["bogus"]), ("bogus",)),
    "conflicting_setup_variants": (_set("variants", ["hole", "random"]), ("hole", "random")),
    "a_variant_given_twice": (_set("variants", ["hey", "hey"]), ("hey", "twice")),
    "one_player": (_set("numplayers", 1), ("2 to 4",)),
    "five_players": (_set("numplayers", 5), ("2 to 4",)),
    "a_player_count_given_as_text": (_set("numplayers", "2"), ("numplayers",)),
    "gameover_given_as_a_number": (_set("gameover", 0), ("gameover",)),
    "an_extra_key": (_set("colour", "red"), ("colour",)),
    "a_missing_stack": (_delete("stack"), ("stack",)),
    "an_empty_stack": (_set("stack", []), ("stack",)),
    # the starting entry must be a new game's position
    "a_square_off_the_board": (_add_cell("i9", [["PI", 2]]), ("i9",)),
    "a_square_listed_twice": (_add_cell("b8", [["PI", 2]]), ("b8", "twice")),
    "an_unknown_colour": (_first_cell([["XX", 2]]), ("XX",)),
    "a_size_out_of_range": (_first_cell([["PI", 4]]), ("PI", "4")),
    "a_cap_on_the_starting_board": (_first_cell([["PI", 2], 1]), ("no caps",)),
    "a_cap_of_a_player_who_does_not_exist": (_first_cell([["PI", 2], 3]), ("player 3",)),
    "a_ghost_on_the_starting_board": (_first_cell([["GH", 2], 1]), ("no caps",)),
    "a_starting_board_with_59_pyramids": (_drop_cells(1), ("4 pyramids", "5")),
    "an_empty_starting_board": (_set("stack.0.board.value", []), ("0 pyramids",)),
    "a_collection_at_the_start": (
        _set("stack.0.captured", [[["PI", 1]], []]),
        ("empty collections",),
    ),
    "results_on_the_starting_entry": (_set("stack.0._results", [{"type": "pass"}]), ("results",)),
    "a_starting_entry_with_a_last_move": (_set("stack.0.lastmove", "d6-d5,d6"), ("last move",)),
    "a_starting_entry_with_player_2_to_move": (_set("stack.0.currplayer", 2), ("player 1",)),
    "a_starting_entry_in_the_collection_phase": (
        _set("stack.0.mode", "collect"),
        ("placement phase",),
    ),
    "a_default_game_relabelled_hole": (_set("variants", ["hole"]), ("d5 e5 d4 e4",)),
    "a_captured_list_of_the_wrong_length": (
        _set("stack.0.captured", [[]]),
        ("captured", "2 players"),
    ),
    "a_current_player_out_of_range": (_set("stack.0.currplayer", 3), ("player to move", "3")),
    "a_current_player_given_as_text": (_set("stack.0.currplayer", "1"), ("currplayer",)),
    "an_unknown_mode": (_set("stack.0.mode", "play"), ("mode",)),
    "a_board_that_is_not_a_map": (_set("stack.0.board", []), ("board",)),
    "a_missing_board": (_delete("stack.0.board"), ("board",)),
    "a_missing_current_player": (_delete("stack.0.currplayer"), ("currplayer",)),
    "an_extra_key_in_an_entry": (_set("stack.0.clock", 5), ("clock",)),
    "an_impossible_timestamp": (
        _set("stack.0._timestamp", "2025-13-45T99:99:99.000Z"),
        ("2025-13-45", "not a real time"),
    ),
    "a_timestamp_with_a_trailing_newline": (
        _set("stack.0._timestamp", "2025-12-12T00:00:00.000Z\n"),
        ("_timestamp",),
    ),
    "a_timestamp_without_milliseconds": (
        _set("stack.0._timestamp", "2025-12-12T00:00:00Z"),
        ("_timestamp",),
    ),
    # each later entry must be what its last move makes of the one before
    "a_one_entry_mid_game_document": (
        lambda state: state.update(stack=state["stack"][-1:]),
        ("stack entry 0",),
    ),
    "a_later_entry_with_the_wrong_player_to_move": (
        _set("stack.-1.currplayer", 2),
        ("stack entry 8", "currplayer"),
    ),
    "a_later_entry_with_an_illegal_last_move": (
        _set("stack.-1.lastmove", "a1-a2,a3"),
        ("stack entry 8", "not a legal move"),
    ),
    "a_later_entry_without_a_last_move": (_delete("stack.-1.lastmove"), ("lastmove",)),
    "a_placement_result_naming_a_boolean_player": (
        _set("stack.1._results", [{"type": "place", "where": "PLACEHOLDER", "who": True}]),
        ("stack entry 1", "results"),
    ),
    "a_later_entry_with_a_different_board": (
        _set("stack.-1.board.value", []),
        ("stack entry 8", "differs"),
    ),
    "a_player_eliminated_who_did_not_pass": (_set("stack.-1.eliminated", [1]), ("eliminated",)),
    "a_game_over_flag_without_an_ending": (_set("gameover", True), ("gameover",)),
    "a_winner_without_an_ending": (_set("winner", [1]), ("winner",)),
}


def _where_of_placement(state: dict[str, Any]) -> None:
    # The boolean test needs the square the real first placement names.
    stack = state.get("stack")
    if not isinstance(stack, list) or len(stack) < 2:
        return
    for result in entry(state, 1)["_results"]:
        if result.get("where") == "PLACEHOLDER":
            result["where"] = state["stack"][1]["lastmove"]


@pytest.mark.parametrize("problem", list(REFUSALS))
def test_a_broken_state_is_refused_naming_the_problem(problem: str) -> None:
    edit, words = REFUSALS[problem]
    state = good_state()
    edit(state)
    _where_of_placement(state)
    message = refused(state)
    for word in words:
        assert word in message, (problem, message)
    assert refused(json.dumps(state)) == message  # as text, the same verdict


def test_a_float_standing_for_an_integer_is_refused_as_text_and_as_data() -> None:
    state = good_state()
    state["numplayers"] = 2.0
    assert "whole number" in refused(json.dumps(state))
    assert "numplayers" in refused(state)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("this is not JSON", ("JSON",)),
        ("{", ("JSON",)),
        ("", ("JSON",)),
        ("[1, 2]", ("object",)),
        ("null", ("object",)),
        ('"stawvs"', ("object",)),
        (b"\xff\xfe\x00", ("JSON",)),
    ],
)
def test_non_json_or_non_object_text_is_refused(text: str | bytes, words: tuple[str, ...]) -> None:
    message = refused(text)
    assert all(word in message for word in words), message


def test_a_huge_document_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_parsing(*args: object, **kwargs: object) -> None:
        raise AssertionError("the document was parsed")

    monkeypatch.setattr(json, "loads", no_parsing)
    assert str(MAX_STATE_BYTES) in refused(" " * (MAX_STATE_BYTES + 1))
    assert str(MAX_STATE_BYTES) in refused(b"{" * (MAX_STATE_BYTES + 1))


def nested(depth: int) -> list[Any]:
    root: list[Any] = []
    inner = root
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return root


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_json_text_is_refused(depth: int) -> None:
    text = json.dumps(good_state())[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    assert refused(text)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["variants", "stack.0._results", "winner", "stack.0.board.value"])
def test_deeply_nested_parsed_values_are_refused(where: str) -> None:
    state = good_state()
    _set(where, nested(50_000))(state)
    assert refused(state)


def test_deep_results_are_refused_rather_than_breaking_serialize() -> None:
    state = good_state()
    entry(state)["_results"] = [{"type": "note", "more": nested(5_000)}]
    assert "nested" in refused(state)


# -- good states load and round-trip -----------------------------------------------------


def play_randomly(game: StawvsGame, plies: int, seed: int) -> StawvsGame:
    rng = random.Random(seed)
    for _ in range(plies):
        if game.gameover:
            break
        game.move(game.random_move(rng))
    return game


@pytest.mark.parametrize(
    ("numplayers", "variants"),
    [(2, []), (3, ["hole", "hey"]), (4, ["random", "finalfree", "pieces-2"]), (2, ["pieces-2"])],
)
def test_our_states_round_trip(numplayers: int, variants: list[str]) -> None:
    for plies in (0, 7, 1000):
        game = play_randomly(StawvsGame(numplayers, variants, seed=plies), plies, seed=plies)
        text = game.serialize()
        assert StawvsGame(text).serialize() == text
        assert StawvsGame(json.loads(text)).serialize() == text
        assert StawvsGame(text.encode()).serialize() == text


def test_a_finished_game_round_trips() -> None:
    game = play_randomly(StawvsGame(3, seed=9), 10_000, seed=9)
    assert game.gameover
    again = StawvsGame(game.serialize())
    assert (again.gameover, again.winner, again.moves()) == (True, game.winner, [])


@pytest.mark.parametrize("ending", ["resign", "timeout", "draw", "abandoned"])
def test_states_ended_by_a_host_call_round_trip(ending: str) -> None:
    game = play_randomly(StawvsGame(2, seed=4), 12, seed=4)
    getattr(game, ending)(*([2] if ending in ("resign", "timeout") else []))
    text = game.serialize()
    assert StawvsGame(text).serialize() == text


@pytest.mark.slow
def test_reference_engine_states_load_and_round_trip() -> None:
    for recorded in ref.games():
        for text in (recorded["initial"], recorded["final"]):
            ours = StawvsGame(text)
            assert ref.canonical_state(ours.serialize()) == ref.canonical_state(text)
            assert StawvsGame(ours.serialize()).serialize() == ours.serialize()
    for probe in ref.probes():
        StawvsGame(probe["state"])


# -- a refused load raises StawvsError and nothing else ----------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out.extend(_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out.extend(_paths(child, (*prefix, i)))
    return out


@pytest.mark.slow
@settings(max_examples=scaled(300))
@given(data=st.data(), replacement=JSON_VALUES)
def test_a_damaged_state_raises_only_stawvs_errors(data: st.DataObject, replacement: Any) -> None:
    state = good_state()
    path = data.draw(st.sampled_from(_paths(state)[1:]))
    target: Any = state
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = replacement
    try:
        game = StawvsGame(state)
    except StawvsError as exc:
        assert exc.code == "BAD_STATE" and exc.message
    else:  # accepted: then it must be usable
        game.moves()
        game.render()
        assert StawvsGame(game.serialize()).serialize() == game.serialize()


@settings(max_examples=scaled(200))
@given(text=st.text(max_size=40) | st.binary(max_size=40))
def test_random_text_raises_only_stawvs_errors(text: str | bytes) -> None:
    try:
        StawvsGame(text)
    except StawvsError as exc:
        assert exc.code == "BAD_STATE"


def test_a_state_file_starting_with_a_byte_order_mark_loads() -> None:
    game = StawvsGame.new(2) if hasattr(StawvsGame, "new") else StawvsGame()
    game.move(game.moves()[0])
    text = game.serialize()
    for marked in ("\ufeff" + text, b"\xef\xbb\xbf" + text.encode("utf-8")):
        assert StawvsGame(marked).serialize() == text  # type: ignore[arg-type]


def test_the_command_line_reads_a_state_file_with_a_byte_order_mark(tmp_path: Any) -> None:
    from stawvs_ap.cli.cli import main

    game = StawvsGame()
    path = tmp_path / "state.json"
    path.write_bytes(b"\xef\xbb\xbf" + game.serialize().encode("utf-8"))
    assert main(["moves", str(path)]) == 0
