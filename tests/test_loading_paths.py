"""A loaded state's history must be one that could have been played, and both
ways in reach the same verdict.

Entries after the first must be what each entry's ``lastmove`` makes of the
entry before it. ``load_state(doc, fast=False)`` runs the full checks, the
reference; ``load_state(doc)`` first tries the fast path (replay each move and
compare the entry this engine would write with the one given). Every test here
compares the two directly, so a fast path that wrongly accepts or wrongly
declines a state fails one of them.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hostile import FIXED_TIME, VARIANT_SETS, new_game, play_random, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.core.moves import PASS, Move
from stawvs_ap.core.position import EMPTY, Position
from stawvs_ap.core.squares import SQUARES
from stawvs_ap.state import reader
from stawvs_ap.state.entry import Entry
from stawvs_ap.state.reader import GameState, load_state
from stawvs_ap.state.writer import state_dict, to_json


def played_state(plies: int = 30, numplayers: int = 2, seed: int = 5) -> dict[str, Any]:
    game = play_random(new_game(numplayers, (), seed), random.Random(seed), plies)
    return json.loads(game.serialize())  # type: ignore[no-any-return]


def written(loaded: GameState) -> str:
    return to_json(state_dict(loaded.numplayers, loaded.variants, loaded.stack))


def outcome(doc: str | dict[str, Any], *, fast: bool) -> str:
    """What loading ``doc`` gives: the state written back, or the refusal."""
    try:
        loaded = load_state(doc, fast=fast)
    except StawvsError as exc:
        assert exc.code == "BAD_STATE"
        return f"refused: {exc.message}"
    return written(loaded)


def refusal(state: dict[str, Any]) -> str:
    """The BAD_STATE message for ``state``: the same as text and as a dict, with the
    fast path and with the full checks alone."""
    messages = {
        outcome(form, fast=fast) for form in (json.dumps(state), state) for fast in (True, False)
    }
    assert len(messages) == 1, messages
    message = messages.pop()
    assert message.startswith("refused: ")
    return message.removeprefix("refused: ")


def test_a_played_game_loads_the_same_from_text_and_from_a_dict() -> None:
    state = played_state()
    text = json.dumps(state, separators=(",", ":"))
    assert StawvsGame(text).serialize() == StawvsGame(state).serialize() == text


def test_an_entry_whose_board_was_edited_is_refused() -> None:
    state = played_state()
    cells = state["stack"][20]["board"]["value"]
    first, second = cells[0], cells[1]
    first[1][0], second[1][0] = second[1][0], first[1][0]
    if first[1][0] == second[1][0]:
        pytest.skip("the two cells hold the same kind")
    assert "does not follow from entry 19" in refusal(state)


def test_a_pass_during_placement_is_refused() -> None:
    state = played_state(plies=3)
    state["stack"][2]["lastmove"] = "pass"
    assert "stack entry 2" in refusal(state)


def test_a_wrong_player_to_move_on_the_last_entry_is_refused() -> None:
    state = played_state()
    top = state["stack"][-1]
    top["currplayer"] = 3 - top["currplayer"]
    assert "currplayer" in refusal(state)


def test_a_last_move_that_is_not_written_normalised_is_refused() -> None:
    state = played_state()
    state["stack"][10]["lastmove"] = state["stack"][10]["lastmove"].upper()
    assert "stack entry 10" in refusal(state)


def test_results_that_are_not_those_of_the_move_are_refused() -> None:
    state = played_state()
    state["stack"][15]["_results"] = [{"type": "pass"}]
    assert "results" in refusal(state)


def test_a_ghost_before_the_end_is_refused() -> None:
    state = played_state()
    top = state["stack"][-1]
    capped = next(cell for cell in top["board"]["value"] if len(cell[1]) == 2)
    capped[1][0] = ["GH", capped[1][0][1]]
    assert "does not follow" in refusal(state)


def test_nobody_has_passed_while_caps_are_placed() -> None:
    state = played_state(plies=0)
    state["stack"][0]["eliminated"] = [1]
    assert "nobody eliminated" in refusal(state)


@pytest.mark.parametrize("stamp", ["yesterday", "2025-12-12", "2025-12-12T00:00:00.000Zjunk"])
def test_a_timestamp_that_is_not_iso_8601_is_refused(stamp: str) -> None:
    state = played_state(plies=4)
    state["stack"][2]["_timestamp"] = stamp
    assert "_timestamp" in refusal(state)


HISTORY_SETTINGS = settings(
    max_examples=scaled(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.parametrize(
    ("numplayers", "variants"), [(2, ()), (3, ("hole", "hey")), (4, ("random", "pieces-2"))]
)
@pytest.mark.slow
def test_states_this_engine_writes_take_the_fast_path(
    numplayers: int, variants: tuple[str, ...]
) -> None:
    for plies in (1, 9, 40, 1000):
        game = play_random(new_game(numplayers, variants, plies), random.Random(plies), plies)
        text = game.serialize()
        fast = reader._replayed(text)
        assert fast is not None, plies
        assert written(fast) == text
        assert outcome(text, fast=False) == text


@HISTORY_SETTINGS
@given(
    st.integers(2, 4),
    st.sampled_from(VARIANT_SETS),
    st.integers(0, 10**6),
    st.integers(1, 120),
    st.data(),
)
@pytest.mark.slow
def test_text_and_dict_loading_agree_on_damaged_histories(
    numplayers: int, variants: tuple[str, ...], seed: int, plies: int, data: st.DataObject
) -> None:
    """Damage one field of one entry: the fast path (text) and the full checks (dict)
    accept or refuse together, and what they accept serializes the same."""
    game = play_random(new_game(numplayers, variants, seed), random.Random(seed), plies)
    state = json.loads(game.serialize())
    damaged = copy.deepcopy(state)
    index = data.draw(st.integers(0, len(damaged["stack"]) - 1))
    entry = damaged["stack"][index]
    fields = ["currplayer", "eliminated", "captured", "board", "lastmove"]
    field = data.draw(st.sampled_from(fields))
    if field == "currplayer":
        entry["currplayer"] = entry["currplayer"] % numplayers + 1
    elif field == "eliminated":
        entry["eliminated"] = entry["eliminated"][:-1] if entry["eliminated"] else [numplayers]
    elif field == "captured":
        entry["captured"][0] = entry["captured"][0][:-1] or [["PI", 1]]
    elif field == "board":
        entry["board"]["value"] = entry["board"]["value"][1:]
    else:
        entry["lastmove"] = data.draw(st.sampled_from(["pass", "a1", "h8-h7,h6", None]))
    text = json.dumps(damaged, separators=(",", ":"))
    outcomes = {outcome(form, fast=fast) for form in (text, damaged) for fast in (True, False)}
    assert len(outcomes) == 1, outcomes


def test_a_state_reformatted_with_indentation_loads_the_same() -> None:
    state = played_state()
    compact = json.dumps(state, separators=(",", ":"))
    assert StawvsGame(json.dumps(state, indent=2)).serialize() == compact


@pytest.mark.parametrize(
    "edit",
    [
        lambda entry: entry.__setitem__("currplayer", float(entry["currplayer"])),
        lambda entry: entry.__setitem__("currplayer", True if entry["currplayer"] == 1 else 2.0),
        lambda entry: entry["board"]["value"][0][1][0].__setitem__(1, True),
    ],
    ids=["a_float_player", "a_boolean_or_float_player", "a_boolean_size"],
)
def test_a_number_written_as_a_float_or_boolean_in_a_later_entry_is_refused(edit: Any) -> None:
    state = played_state()
    edit(state["stack"][25])
    text = json.dumps(state)
    for doc in (text, state):  # the text is refused as it is read; the dict by its shape
        assert outcome(doc, fast=True) == outcome(doc, fast=False)
        assert outcome(doc, fast=True).startswith("refused: ")


def test_a_boolean_player_in_a_later_result_is_refused_both_ways() -> None:
    state = played_state()
    placement = state["stack"][1]["_results"][0]
    assert placement["type"] == "place"
    placement["who"] = True
    assert "results" in refusal(state)


# -- histories written as this engine writes them, with one illegal move -------------
#
# Damaging one field of a written state leaves entries that disagree with each
# other. A history can also be consistent but illegal: every entry is exactly
# what its lastmove makes of the entry before, results and board included, yet
# one of those moves breaks a rule. Only the legality check of the one acceptor
# (state.checks.following_entry) refuses it; the plain decision it must agree
# with is "every lastmove is one of the moves the generator lists".


def illegal_moves(position: Position) -> dict[str, list[Move]]:
    """Moves that break a rule of ``position`` but that ``Position.play`` can carry
    out, by the rule they break."""
    legal = set(position.legal_moves())
    squares = [SQUARES[sq] for sq in range(64) if position.board[sq] != EMPTY]
    free = [sq for sq in squares if not position.caps[sq]]
    player = position.currplayer
    kinds: dict[str, list[Move]] = {"a pass while a move exists": [PASS]}
    if position.mode == "place":
        kinds["a cap placed on a cap"] = [Move(sq) for sq in squares if position.caps[sq]]
    else:
        slides = [(source, dest) for source in squares if position.caps[source] for dest in free]
        own = [(s, d) for s, d in slides if position.caps[s] == player]
        reached = {(m.source, m.dest) for m in legal}
        kinds["a slide that is blocked or off the lines"] = [
            Move(s, d, s) for s, d in own if (s, d) not in reached
        ]
        kinds["a claim out of line"] = [
            Move(s, d, t) for s, d in own if (s, d) in reached for t in free if t != d
        ]
        kinds["an opponent's cap moved"] = [
            Move(s, d, s) for s, d in slides if position.caps[s] != player
        ]
        if player in position.eliminated:
            kinds["a move after passing"] = [Move(s, d, s) for s, d in own]
    return {
        kind: found
        for kind, moves in kinds.items()
        if (found := [m for m in moves if m not in legal and not position.is_legal(m)])
    }


def _plain_first_illegal(stack: list[Entry]) -> int | None:
    """The plain decision: the first entry whose lastmove the generator does not
    list after the entry before (None when there is none)."""
    for index in range(1, len(stack)):
        before = stack[index - 1].position
        if before.is_over or stack[index].lastmove not in before.legal_move_strings():
            return index
    return None


def illegal_history(
    stack: list[Entry], variants: tuple[str, ...], move: Move, after: int, rng: random.Random
) -> str:
    """The state this engine would write for ``stack`` followed by the illegal
    ``move`` and up to ``after`` random legal moves."""
    numplayers = stack[0].position.rules.numplayers
    stack = [*stack, stack[-1].after(move, FIXED_TIME)]
    index = len(stack) - 1
    for _ in range(after):
        position = stack[-1].position
        if position.is_over:
            break
        stack.append(stack[-1].after(rng.choice(list(position.legal_moves())), FIXED_TIME))
    assert _plain_first_illegal(stack) == index
    return to_json(state_dict(numplayers, list(variants), stack))


def refuses_the_illegal_move(text: str, index: int) -> None:
    """Every way in refuses ``text``, naming the illegal move of entry ``index``."""
    assert reader._replayed(text) is None  # the fast path does not accept it either
    message = refusal(json.loads(text))
    assert message.startswith(f"stack entry {index}: its last move "), message
    assert message.endswith(f"is not a legal move after entry {index - 1}"), message


def random_stack(
    numplayers: int, variants: tuple[str, ...], seed: int, plies: int
) -> tuple[list[Entry], random.Random]:
    rng = random.Random(seed)
    game = play_random(new_game(numplayers, variants, seed), rng, plies)
    return list(game._stack), rng  # the entries this engine wrote


KINDS = [
    (2, (), "a cap placed on a cap"),
    (3, ("pieces-2",), "a pass while a move exists"),
    (2, (), "a slide that is blocked or off the lines"),
    (4, ("hole",), "a claim out of line"),
    (3, ("hey",), "a claim out of line"),
    (2, ("finalfree",), "an opponent's cap moved"),
    (3, (), "a move after passing"),
]


@pytest.mark.parametrize(
    ("numplayers", "variants", "kind"), KINDS, ids=[k[2].replace(" ", "-") for k in KINDS]
)
@pytest.mark.slow
def test_a_consistent_history_with_an_illegal_move_is_refused_both_ways(
    numplayers: int, variants: tuple[str, ...], kind: str
) -> None:
    for seed in range(200):
        stack, rng = random_stack(numplayers, variants, seed, plies=seed % 90)
        found = illegal_moves(stack[-1].position).get(kind)
        if found and not stack[-1].ended:
            break
    else:
        pytest.fail(f"no game offers {kind}")
    text = illegal_history(stack, variants, rng.choice(found), 3, rng)
    refuses_the_illegal_move(text, len(stack))


@HISTORY_SETTINGS
@given(
    st.integers(2, 4),
    st.sampled_from(VARIANT_SETS),
    st.integers(0, 10**6),
    st.integers(0, 100),
    st.integers(0, 6),
    st.data(),
)
def test_histories_with_an_illegal_move_are_refused_like_the_plain_decision(
    numplayers: int,
    variants: tuple[str, ...],
    seed: int,
    plies: int,
    after: int,
    data: st.DataObject,
) -> None:
    """Every way in refuses a history the engine wrote but for one illegal move,
    naming the entry the generator says is illegal."""
    stack, rng = random_stack(numplayers, variants, seed, plies)
    if stack[-1].ended:
        return
    kinds = illegal_moves(stack[-1].position)
    kind = data.draw(st.sampled_from(sorted(kinds)))
    move = data.draw(st.sampled_from(kinds[kind]))
    refuses_the_illegal_move(illegal_history(stack, variants, move, after, rng), len(stack))
