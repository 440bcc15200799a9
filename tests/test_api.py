"""The Python API, used as a program that is not a game host would use it:
typed moves, push and pop, positions as values, the position notation and
games set up from any position (docs/CONTRACT.md §3)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hostile import VARIANT_SETS, new_game, play_random, scaled
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stawvs_ap import (
    Colour,
    ErrorCode,
    InvalidStateError,
    Move,
    Position,
    Pyramid,
    Size,
    Square,
    StawvsError,
    StawvsGame,
    from_record,
)
from stawvs_ap.pictures.svg import board_svg

# -- moves, squares and pyramids are values -----------------------------------------


def test_a_move_is_written_as_it_is_read() -> None:
    for text in ("d5", "c3-f6,f2", "c3-f6", "c3", "pass", ""):
        assert str(Move.parse(text)) == text


def test_moves_are_equal_only_to_moves() -> None:
    move = Move.parse("c3-f6,f2")
    assert move == Move.parse(" C3 - F6 , F2 ")
    assert move == Move.slide(Square.parse("c3"), Square.parse("f6"), Square.parse("f2"))
    assert move != tuple(move)
    assert move != "c3-f6,f2"
    assert Move(1, 2, 3) != (1, 2, 3, False)
    assert hash(move) == hash(Move.parse("c3-f6,f2"))
    assert len({move, Move.parse("c3-f6,f2"), Move.parse("pass")}) == 2


def test_a_move_cannot_be_changed() -> None:
    move = Move.parse("d5")
    with pytest.raises(AttributeError):
        move.source = Square.parse("d4")  # type: ignore[misc]


#: Texts of the length and shape of "a1-b2,c3", which Move.parse reads by lookup,
#: each character near a right one: other separators, cases, squares off the board.
NEAR_MOVES = st.builds(
    "".join,
    st.tuples(
        *(
            st.sampled_from(choices)
            for choices in ("ahiA ", "18 9", "-, x", "ahB ", "18 0", ",- ;", "ahC ", "18 \t")
        )
    ),
)


NEAR_PLACEMENTS = st.builds(
    "".join, st.tuples(st.sampled_from("ahiA \t"), st.sampled_from("18 90"))
)
NEAR_PASSES = st.sampled_from(["pass", "PASS", "Pass", " pass", "pass ", "pas", "passs", "p ass"])


@settings(max_examples=scaled(300))
@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-, ", max_size=10)
    | NEAR_MOVES
    | NEAR_PLACEMENTS
    | NEAR_PASSES
)
@pytest.mark.slow
@example("a1 b2,c3")
@example("a1-b2 c3")
@example("A1-B2,C3")
@example("h8")
@example("i1")
def test_complete_moves_read_by_lookup_equal_those_read_by_the_grammar(text: str) -> None:
    # Move.parse reads "a1-b2,c3", "d5" and "pass" by lookup first; the grammar must agree.
    from stawvs_ap.core import moves

    try:
        fast = Move.parse(text)
    except moves.MoveSyntaxError:
        fast = None
    match = moves._MOVE_RE.fullmatch(moves.normalise(text))
    if match is None:
        if moves.normalise(text) == "pass":
            assert fast == moves.PASS
        else:
            assert fast is None or text.strip() == ""
    else:
        squares = [Square.parse(g) if g else None for g in match.groups()]
        assert fast == Move(*squares)


def test_squares_know_their_names_rows_and_columns() -> None:
    c3 = Square.parse("C3")
    assert (str(c3), c3.name, c3.row, c3.col) == ("c3", "c3", 5, 2)
    assert Square.at(5, 2) == c3
    with pytest.raises(ValueError):
        Square.parse("i9")


def test_pyramids_have_readable_names_colours_and_sizes() -> None:
    large_blue = Pyramid.parse("bl3")
    assert large_blue is Pyramid.BLUE_LARGE
    assert (large_blue.colour, large_blue.size, large_blue.code) == (Colour.BLUE, Size.LARGE, "BL3")
    assert Pyramid.of(Colour.PINK, Size.SMALL) is Pyramid.PINK_SMALL
    assert Pyramid.GREEN_MEDIUM.ghost is Pyramid.GHOST_MEDIUM


# -- positions are values ------------------------------------------------------------


def test_two_equal_positions_compare_and_hash_alike() -> None:
    a = Position.initial(3, ["hole"], seed=5)
    b = Position.initial(3, ["hole"], seed=5)
    assert a == b and hash(a) == hash(b)
    assert a != Position.initial(3, ["hole"], seed=6)


def test_nothing_writes_into_a_position() -> None:
    game = StawvsGame.new(2, seed=3)
    position = game.position
    with pytest.raises(AttributeError):
        position.currplayer = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        position.board[0] = 5  # type: ignore[index]
    assert game.render()["pieces"] == StawvsGame(game.serialize()).render()["pieces"]


def test_playing_returns_a_new_position_and_leaves_the_old_one() -> None:
    position = Position.initial(2, seed=1)
    move = next(position.legal_moves())
    after, events = position.play(move)
    assert position == Position.initial(2, seed=1)
    assert after.cap_at(move.source) == 1 and position.cap_at(move.source) is None
    assert len(events) == 1 and events[0].player == 1


def test_queries_read_the_board() -> None:
    game = StawvsGame.new(2, seed=1)
    d5 = Square.parse("d5")
    pyramid = game.position.pyramid_at(d5)
    game.push("d5")
    assert game.position.pyramid_at(d5) is pyramid
    assert game.position.cap_at(d5) == 1
    assert game.position.pyramid_at(Square.parse("a8")) is None  # a corner gap


# -- push, pop, peek and the typed moves ------------------------------------------


@pytest.mark.parametrize("variants", VARIANT_SETS)
def test_push_then_pop_gives_back_the_move_and_the_game(variants: tuple[str, ...]) -> None:
    game = new_game(3, variants, 4)
    rng = random.Random(4)
    texts = [game.serialize()]
    played = []
    while not game.gameover:
        move = rng.choice(game.legal_moves)
        game.push(move)
        assert game.peek() == move
        played.append(move)
        texts.append(game.serialize())
    while played:
        assert game.pop() == played.pop()
        texts.pop()
        assert game.serialize() == texts[-1]
    with pytest.raises(StawvsError) as refused:
        game.pop()
    assert refused.value.code == ErrorCode.NO_UNDO


def test_legal_moves_are_the_moves_as_values() -> None:
    game = play_random(new_game(2, (), 8), random.Random(8), 12)
    assert [str(m) for m in game.legal_moves] == game.moves()
    assert all(game.is_legal(m) for m in game.legal_moves)
    assert not game.is_legal("a1-a2,a3") and not game.is_legal("c3")


def test_a_move_value_is_validated_and_played_like_its_text() -> None:
    game = new_game(2, (), 2)
    move = game.legal_moves[0]
    assert game.validate_move(move) == game.validate_move(str(move))
    game.move(move)
    assert game.lastmove == str(move)


def test_push_refuses_an_illegal_move_and_changes_nothing() -> None:
    game = new_game(2, (), 2)
    before = game.serialize()
    with pytest.raises(StawvsError) as refused:
        game.push("pass")
    assert refused.value.code == ErrorCode.NOPASS
    assert game.serialize() == before


def test_pop_of_an_ending_gives_none() -> None:
    game = new_game(2, (), 2)
    game.push(game.legal_moves[0])
    game.resign(2)
    assert game.peek() is None
    assert game.pop() is None
    assert not game.gameover


# -- constructors ----------------------------------------------------------------


def test_new_and_from_state_are_the_constructor() -> None:
    clock = lambda: "2025-12-12T00:00:00.000Z"  # noqa: E731  # the same stamp for both
    game = StawvsGame.new(3, ["hole"], seed=7, clock=clock)
    assert game.serialize() == StawvsGame(3, ["hole"], seed=7, clock=clock).serialize()
    assert StawvsGame.from_state(game.serialize()).serialize() == game.serialize()


@pytest.mark.parametrize("extra", [{"variants": ["hey"]}, {"seed": 3}, {"variants": []}])
def test_variants_or_a_seed_with_a_state_are_refused(extra: dict[str, object]) -> None:
    state = StawvsGame.new(2, seed=1).serialize()
    with pytest.raises(StawvsError) as refused:
        StawvsGame(state, **extra)  # type: ignore[arg-type]
    assert refused.value.code == ErrorCode.BAD_ARGUMENT


# -- the position notation -----------------------------------------------------------


@settings(max_examples=scaled(40), deadline=None)
@given(st.integers(2, 4), st.sampled_from(VARIANT_SETS), st.integers(0, 10**6), st.integers(0, 90))
def test_the_notation_round_trips_over_random_games(
    numplayers: int, variants: tuple[str, ...], seed: int, plies: int
) -> None:
    game = play_random(new_game(numplayers, variants, seed), random.Random(seed), plies)
    text = game.position.notation()
    again = Position.from_notation(text, variants)
    assert again == game.position
    assert again.notation() == text
    assert Position.from_notation(text.lower().replace(" ", "  "), variants) == game.position
    if game.gameover:
        with pytest.raises(StawvsError, match="over"):
            StawvsGame.from_position(text, variants)
        return
    copy = StawvsGame.from_position(text, variants)
    assert copy.moves() == game.moves()
    assert copy.position == game.position


def test_a_game_from_a_position_plays_on() -> None:
    game = play_random(new_game(2, (), 3), random.Random(3), 20)
    puzzle = StawvsGame.from_position(game.position.notation())
    assert puzzle.get_starting_position() == game.position.notation()
    rng = random.Random(1)
    while not puzzle.gameover:
        puzzle.push(rng.choice(puzzle.legal_moves))
    assert puzzle.winner
    record = puzzle.gen_record(uid="p", players=[{"name": "A"}, {"name": "B"}])
    assert record["header"]["startingPosition"] == game.position.notation()


START = StawvsGame.new(2, seed=1).position.notation()
BOARD, _, _, _, _ = START.split()


def _capped(board: str, *squares_and_players: tuple[str, int]) -> str:
    """``board`` with caps added on the named squares."""
    ranks = [list(_cells(rank)) for rank in board.split("/")]
    for name, player in squares_and_players:
        square = Square.parse(name)
        ranks[square.row][square.col] += f"@{player}"
    return "/".join("".join(rank) for rank in ranks)


def _ghost_on_b8(board: str) -> str:
    ranks = [_cells(rank) for rank in board.split("/")]
    ranks[0][1] = "GH" + ranks[0][1][2]
    return "/".join("".join(rank) for rank in ranks)


def _cells(rank: str) -> list[str]:
    out, at = [], 0
    while at < len(rank):
        size = 1 if rank[at] == "." else 3
        out.append(rank[at : at + size])
        at += size
    return out


def _with(notation: str, **fields: str) -> str:
    names = ("board", "turn", "mode", "collections", "passed")
    parts = dict(zip(names, notation.split(), strict=True))
    parts.update(fields)
    return " ".join(parts.values())


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        (_with(START, board=BOARD.replace("PI", "BL", 2)), "pyramids BL"),
        (_with(START, turn="2"), "take turns"),
        (_with(START, turn="3"), "player to move"),
        (_with(START, passed="1"), "passed"),
        (
            _with(
                START,
                mode="collect",
                board=_capped(BOARD, ("b8", 1), ("c8", 1), ("d8", 1), ("e8", 1)),
            ),
            "more than 3 caps",
        ),
        (_with(START, turn="2", board=_capped(_ghost_on_b8(BOARD), ("b8", 1))), "ghost"),
        (_with(START, collections="-,-,-,-,-"), "2 to 4"),
        (_with(START, mode="war"), "mode"),
        ("nonsense", "5 fields"),
    ],
    ids=[
        "six-of-a-kind",
        "turn-order",
        "no-such-player",
        "pass-while-placing",
        "four-caps-of-one-player",
        "ghost-before-the-end",
        "five-players",
        "mode",
        "junk",
    ],
)
def test_an_impossible_position_is_refused(notation: str, words: str) -> None:
    with pytest.raises(StawvsError) as refused:
        StawvsGame.from_position(notation)
    assert refused.value.code == ErrorCode.BAD_POSITION
    assert words in refused.value.message, refused.value.message


def test_placement_turns_must_match_the_caps_on_the_board() -> None:
    one_cap = _capped(BOARD, ("b7", 1))
    assert StawvsGame.from_position(_with(START, board=one_cap, turn="2")).currplayer == 2
    with pytest.raises(StawvsError, match="take turns"):
        StawvsGame.from_position(_with(START, board=one_cap, turn="1"))


def test_a_game_from_a_position_does_not_load_as_an_abstract_play_state() -> None:
    game = play_random(new_game(2, (), 3), random.Random(3), 20)
    puzzle = StawvsGame.from_position(game.position.notation())
    with pytest.raises(StawvsError) as refused:
        StawvsGame(puzzle.serialize())
    assert refused.value.code == ErrorCode.BAD_STATE


# -- what else a host may ask ---------------------------------------------------------


def test_the_rest_of_the_host_surface() -> None:
    game = play_random(new_game(3, ("hey",), 5), random.Random(5), 30)
    assert game.description()
    assert game.notes() is None
    assert [v["uid"] for v in game.allvariants()][:2] == ["#setup", "hole"]
    assert game.sidebar_statuses() == [] and game.get_buttons() == []
    assert game.bot_context() == {"board": game.state()["stack"][0]["board"]["value"]}
    assert game.is_eliminated(1) == (1 in game.eliminated)
    sequence = game.move_history_with_sequence()
    assert [[m for _, m in r] for r in sequence] == game.move_history()
    assert [p for r in sequence for p, _ in r][:3] == [1, 2, 3]
    assert game.get_starting_position() == Position.initial(3, ["hey"], 5).notation()


def test_a_picture_of_a_position_with_arrows() -> None:
    position = play_random(new_game(2, (), 5), random.Random(5), 12).position
    move = next(position.legal_moves())
    svg = board_svg(position, lastmove=move, arrows=[(move.source, move.dest)])
    assert svg.startswith("<svg") and 'class="arrow"' in svg and 'class="last-move"' in svg
    assert json.dumps(svg)


# -- what a review found -----------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        Move(99),
        Move("a1"),
        Move(None, Square.parse("a1")),
        Move(target=Square.parse("c3")),  # type: ignore[arg-type]
        Move(Square.parse("a1"), None, Square.parse("c3")),
        Move(True),
        Move(is_pass=1),
    ],  # type: ignore[arg-type]
    ids=repr,
)
def test_a_move_built_by_hand_that_is_no_move_is_malformed(move: Move) -> None:
    game = play_random(new_game(2, (), 5), random.Random(5), 10)
    before = game.serialize()
    verdict = game.validate_move(move)
    assert not verdict.valid and verdict.code == ErrorCode.MALFORMED
    assert not game.is_legal(move)
    with pytest.raises(StawvsError) as refused:
        game.move(move)
    assert refused.value.code == ErrorCode.MALFORMED
    assert game.serialize() == before
    assert not game.same_move(move, move)


def test_same_move_compares_move_values_and_strings() -> None:
    game = new_game(2, (), 1)
    assert game.same_move(Move.parse("c3-f6,f2"), " C3-F6,F2 ")
    assert not game.same_move(Move.parse("c3-f6,f2"), "c3-f6,f3")


def test_a_ghost_in_a_collection_is_no_position() -> None:
    with pytest.raises(StawvsError) as refused:
        StawvsGame.from_position(_with(START, collections="GH1,-"))
    assert refused.value.code == ErrorCode.BAD_POSITION and "ghost" in refused.value.message


@pytest.mark.parametrize(("pyramids", "refused"), [(5, True), (6, False)])
def test_a_placement_needs_a_free_pyramid_for_every_cap_still_to_place(
    pyramids: int, refused: bool
) -> None:
    # Two players place three caps each: six caps, on pyramids only.
    rank = "".join(["PI1", "BL2", "GR3", "OR1", "PI2", "BL3"][:pyramids]) + "." * (8 - pyramids)
    text = "/".join([rank, *["........"] * 7]) + " 1 place -,- -"
    if not refused:
        assert StawvsGame.from_position(text).moves()
        return
    with pytest.raises(StawvsError) as raised:
        StawvsGame.from_position(text)
    assert raised.value.code == ErrorCode.BAD_POSITION
    assert "6 caps are still to be placed on 5 free pyramids" in raised.value.message


def test_a_finished_position_is_no_game_to_play() -> None:
    game = play_random(new_game(2, (), 6), random.Random(6), 10_000)
    assert game.gameover
    with pytest.raises(StawvsError) as refused:
        StawvsGame.from_position(game.position.notation())
    assert refused.value.code == ErrorCode.BAD_POSITION and "over" in refused.value.message


def test_an_unknown_variant_of_a_position_is_a_bad_variant() -> None:
    with pytest.raises(StawvsError) as refused:
        StawvsGame.from_position(START, ["chaos"])
    assert refused.value.code == ErrorCode.BAD_VARIANT


def test_a_game_from_a_sparse_starting_board_records_its_whole_position() -> None:
    sparse = _with(START, board=BOARD.replace("PI1", ".", 2))  # 58 pyramids: no new game's
    game = StawvsGame.from_position(sparse)
    rng = random.Random(2)
    while not game.gameover:
        game.push(rng.choice(game.legal_moves))
    record = game.gen_record(uid="s", players=[{"name": "A"}, {"name": "B"}])
    assert record["header"]["startingPosition"] == Position.from_notation(sparse).notation()
    again = from_record(record)
    assert again.serialize().count('"_version"') == game.serialize().count('"_version"')
    stamps = [entry["_timestamp"] for entry in again.state()["stack"]]
    assert stamps[-1] == record["header"]["date-end"]
    assert set(stamps[:-1]) == {record["header"]["date-start"]}


@settings(max_examples=scaled(200), deadline=None)
@given(st.integers(2, 4), st.sampled_from(VARIANT_SETS), st.integers(0, 10**6), st.data())
def test_the_judge_accepts_exactly_the_moves_the_generator_lists(
    numplayers: int, variants: tuple[str, ...], seed: int, data: st.DataObject
) -> None:
    """Position.problem checks one move's path without listing moves; what it
    accepts, whole or as ``FROM-TO``, is what the move generator lists."""
    game = play_random(new_game(numplayers, variants, seed), random.Random(seed), 40)
    position = game.position
    caps = position.cap_squares(position.currplayer)
    if position.mode != "collect" or not caps or position.currplayer in position.eliminated:
        return
    source = data.draw(st.sampled_from(caps))
    dest, target = (Square(data.draw(st.integers(0, 63))) for _ in range(2))
    legal = set(position.legal_moves())
    assert (position.problem(Move(source, dest, target)) is None) == (
        Move(source, dest, target) in legal
    )
    assert (position.problem(Move(source, dest)) is None) == any(
        (m.source, m.dest) == (source, dest) for m in legal
    )


# -- errors ----------------------------------------------------------------------


def test_an_invalid_state_error_takes_a_message_and_names_a_position_by_its_code() -> None:
    error = InvalidStateError("no such position", code=ErrorCode.BAD_POSITION)
    assert (error.code, error.message) == (ErrorCode.BAD_POSITION, "no such position")
    assert InvalidStateError("a broken state").code == ErrorCode.BAD_STATE
    assert repr(StawvsError(ErrorCode.BAD_MOVE, "m")) == "StawvsError('BAD_MOVE', 'm')"
    assert repr(error) == "InvalidStateError('BAD_POSITION', 'no such position')"
    with pytest.raises(TypeError):
        InvalidStateError("no such position", ErrorCode.BAD_POSITION)  # type: ignore[misc]


def test_a_code_is_a_code_not_plain_text() -> None:
    with pytest.raises(TypeError, match=r"ErrorCode\.BAD_MOVE"):
        StawvsError("BAD_MOVE", "m")  # type: ignore[arg-type]


def test_a_stawvs_error_is_a_value_error_as_python_chess_errors_are() -> None:
    assert issubclass(StawvsError, ValueError)


RULES = Position.initial(2, seed=1).rules


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        (lambda: Move.parse("z9"), ErrorCode.MALFORMED),
        (lambda: Position.from_notation("not a position"), ErrorCode.BAD_POSITION),
        (
            lambda: Position.build(Position.initial(2, seed=1).rules, b"\0" * 3),
            ErrorCode.BAD_POSITION,
        ),
        (lambda: Position.initial(2, ["no-such-variant"]), ErrorCode.BAD_VARIANT),
        (lambda: Square.parse("z9"), ErrorCode.BAD_ARGUMENT),
        (lambda: Pyramid.parse("XX9"), ErrorCode.BAD_ARGUMENT),
    ],
)
def test_the_rules_core_raises_stawvs_errors_with_codes(bad: Any, code: ErrorCode) -> None:
    with pytest.raises(StawvsError) as caught:
        bad()
    assert caught.value.code == code


def test_the_codes_are_grouped_by_the_floor_that_raises_them() -> None:
    from stawvs_ap.bots.base import BotErrorCode
    from stawvs_ap.cli.safe_io import CliErrorCode
    from stawvs_ap.service.jsonrpc import ServiceErrorCode

    families = [ErrorCode, BotErrorCode, ServiceErrorCode, CliErrorCode]
    names = [code.value for family in families for code in family]
    assert len(names) == len(set(names))  # one name, one meaning
    assert {"BOT_FAILED", "ARENA_FAILED"} <= set(BotErrorCode)
    assert {"PARSE_ERROR", "INVALID_PARAMS", "SERVER_BUSY"} <= set(ServiceErrorCode)
    assert not {"BOT_FAILED", "ARENA_FAILED", "PARSE_ERROR", "FILE_ERROR"} & set(ErrorCode)


def test_the_command_line_and_service_errors_are_stawvs_errors() -> None:
    from stawvs_ap.cli.cli import CliError
    from stawvs_ap.cli.safe_io import FileError
    from stawvs_ap.service.jsonrpc import INVALID_PARAMS, RpcError

    assert FileError("cannot read x").code == "FILE_ERROR"
    assert CliError("no such command").code == "BAD_COMMAND"
    refused = RpcError(INVALID_PARAMS, "missing parameter 'state'")
    assert (refused.code, refused.rpc_code) == ("INVALID_PARAMS", INVALID_PARAMS)
    engine = RpcError(1000, "no", {"code": ErrorCode.BAD_MOVE})
    assert engine.code is ErrorCode.BAD_MOVE


def test_a_game_starts_from_a_position_value_as_from_its_notation() -> None:
    game = play_random(new_game(3, ("hey",), 4), random.Random(4), 30)
    position = game.position
    from_value = StawvsGame.from_position(position, ["hey"])
    from_text = StawvsGame.from_position(position.notation(), ["hey"])
    assert from_value.position == from_text.position == position
    assert from_value.moves() == game.moves()


def test_a_position_value_of_other_variants_is_refused() -> None:
    position = Position.initial(2, ["hey"], seed=1)
    with pytest.raises(StawvsError) as refused:
        StawvsGame.from_position(position, [])
    assert refused.value.code == ErrorCode.BAD_VARIANT
