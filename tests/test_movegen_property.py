"""The fast move generator agrees with a slow, obviously correct one.

The slow generator below reads the rules straight off CONTRACT §1: it walks the
board with explicit (file, rank) coordinates and uses nothing from the package
but the position's raw data. Hypothesis drives it over random games of every
variant (advanced a random number of plies, so the placement phase, passes and
eliminated players come up) and over randomly made boards with random gaps and
random caps, and compares it with ``moves()``, ``has_moves()`` and the playout
path of :mod:`stawvs_ap.core.playout`.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hostile import play_random, scaled
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stawvs_ap import Position, StawvsGame
from stawvs_ap.core.moves import PASS, Move
from stawvs_ap.core.playout import random_move, random_playout
from stawvs_ap.core.squares import SQUARES

FILES = "abcdefgh"
STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
COLOURS = ("PI", "BL", "GR", "OR")
VARIANT_SETS = [
    [],
    ["hole"],
    ["random"],
    ["hey"],
    ["finalfree"],
    ["pieces-2"],
    ["hole", "hey"],
    ["random", "finalfree", "pieces-2"],
    ["hey", "finalfree"],
    ["random", "hey", "pieces-2"],
]

Coord = tuple[int, int]  # (file 0..7 = a..h, rank 1..8)


def name(coord: Coord) -> str:
    return f"{FILES[coord[0]]}{coord[1]}"


def on_board(coord: Coord) -> bool:
    return 0 <= coord[0] < 8 and 1 <= coord[1] <= 8


def read_board(state: dict[str, Any]) -> tuple[set[Coord], dict[Coord, int]]:
    """From the top stack entry: the squares with a pyramid, and who caps which."""
    pyramids: set[Coord] = set()
    caps: dict[Coord, int] = {}
    for square, cell in state["stack"][-1]["board"]["value"]:
        coord = (FILES.index(square[0]), int(square[1]))
        pyramids.add(coord)
        if len(cell) == 2:
            caps[coord] = cell[1]
    return pyramids, caps


def slow_moves(state: dict[str, Any]) -> list[str]:
    """Every legal move, found by walking the board square by square."""
    top = state["stack"][-1]
    if state["gameover"]:
        return []
    player, eliminated = top["currplayer"], top["eliminated"]
    pyramids, caps = read_board(state)

    def free(coord: Coord, vacated: Coord | None = None, landed: Coord | None = None) -> bool:
        if coord == landed:
            return False
        return coord in pyramids and (coord not in caps or coord == vacated)

    if top["mode"] == "place":
        return [name(c) for c in pyramids if c not in caps]
    if player in eliminated:
        return ["pass"]
    moves = []
    for start, owner in caps.items():
        if owner != player:
            continue
        for df, dr in STEPS:
            dest = (start[0] + df, start[1] + dr)
            while on_board(dest) and free(dest):
                if "hey" in state["variants"]:
                    moves.append(f"{name(start)}-{name(dest)},{name(start)}")
                else:
                    for tf, tr in STEPS:
                        target = (dest[0] + tf, dest[1] + tr)
                        while on_board(target) and free(target, vacated=start, landed=dest):
                            moves.append(f"{name(start)}-{name(dest)},{name(target)}")
                            target = (target[0] + tf, target[1] + tr)
                dest = (dest[0] + df, dest[1] + dr)
    return moves or ["pass"]


def check_against_slow(game: StawvsGame) -> None:
    state = json.loads(game.serialize())
    fast = game.moves()
    assert sorted(fast) == sorted(slow_moves(state))
    assert len(set(fast)) == len(fast)
    assert game.has_moves() == (fast not in ([], ["pass"]))
    position = game.position
    if game.gameover:
        return
    # The typed generator lists exactly the same moves, in the same order.
    assert [str(move) for move in position.legal_moves()] == fast
    rng = random.Random(len(fast))
    assert str(random_move(position, rng)) in fast
    for move in fast[:3]:
        assert game.validate_move(move).complete == 1


@st.composite
def random_games(draw: st.DrawFn) -> StawvsGame:
    """A game of any variant, advanced by random moves (possibly to its end)."""
    numplayers = draw(st.integers(2, 4))
    variants = draw(st.sampled_from(VARIANT_SETS))
    seed = draw(st.integers(0, 10**6))
    plies = draw(st.integers(0, 90))
    game = StawvsGame(numplayers, variants=variants, seed=seed)
    return play_random(game, random.Random(seed), plies)


@st.composite
def random_boards(draw: st.DrawFn) -> StawvsGame:
    """A board made up square by square: random gaps, random caps, any phase."""
    numplayers = draw(st.integers(2, 4))
    variants = draw(st.sampled_from(VARIANT_SETS))
    caps_each = 2 if "pieces-2" in variants else 3
    rng = random.Random(draw(st.integers(0, 10**6)))
    kinds = [(c, s) for c in COLOURS for s in (1, 2, 3) for _ in range(5)]
    rng.shuffle(kinds)
    squares = [f"{f}{r}" for f in FILES for r in range(1, 9)]
    pyramid_count = draw(st.integers(numplayers * caps_each + 1, 60))
    on_board = rng.sample(squares, pyramid_count)
    placing = draw(st.booleans())
    caps: dict[str, int] = {}
    spots = iter(rng.sample(on_board, numplayers * caps_each))
    # Placement phase: caps placed in turn, some still to place; collection: all placed.
    placed = rng.randrange(numplayers * caps_each) if placing else numplayers * caps_each
    for player in range(1, numplayers + 1):
        count = placed // numplayers + (1 if player <= placed % numplayers else 0)
        for _ in range(count):
            caps[next(spots)] = player
    currplayer = placed % numplayers + 1 if placing else rng.randint(1, numplayers)
    left = kinds[pyramid_count:]
    captured: list[list[tuple[str, int]]] = [[] for _ in range(numplayers)]
    for colour, size in left:
        if rng.random() < 0.6:
            captured[rng.randrange(numplayers)].append((colour, size))
    eliminated = (
        [] if placing else rng.sample(range(1, numplayers + 1), rng.randint(0, numplayers - 1))
    )
    cells = ["."] * 64
    for sq, (colour, size) in zip(on_board, kinds, strict=False):
        index = (8 - int(sq[1])) * 8 + FILES.index(sq[0])
        cells[index] = f"{colour}{size}" + (f"@{caps[sq]}" if sq in caps else "")
    board = "/".join("".join(cells[r * 8 : r * 8 + 8]) for r in range(8))
    held = ",".join("".join(f"{c}{s}" for c, s in mine) or "-" for mine in captured)
    passed = "".join(map(str, eliminated)) or "-"
    mode = "place" if placing else "collect"
    return StawvsGame.from_position(f"{board} {currplayer} {mode} {held} {passed}", variants)


SETTINGS = settings(
    max_examples=scaled(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(random_games())
def test_moves_of_random_games_match_the_slow_generator(game: StawvsGame) -> None:
    check_against_slow(game)


@SETTINGS
@given(random_boards())
def test_moves_of_random_boards_match_the_slow_generator(game: StawvsGame) -> None:
    check_against_slow(game)


@settings(max_examples=scaled(30), deadline=None)
@given(random_boards(), st.integers(0, 2**32))
def test_a_random_playout_plays_only_legal_moves_to_the_end(game: StawvsGame, seed: int) -> None:
    position = game.position
    before = json.loads(game.serialize())
    rng = random.Random(seed)
    # Replaying the playout's own choices through the checked host path must work
    # and end the game in the same state as the playout.
    replay = game.clone()
    while not replay.gameover:
        move = random_move(replay.position, rng)
        assert str(move) in replay.moves()
        replay.move(str(move))
    final = random_playout(position, random.Random(seed))
    assert final.is_over
    assert final.board == replay.position.board
    assert final.caps == replay.position.caps
    assert final.captured == replay.position.captured
    assert final.eliminated == replay.position.eliminated
    assert json.loads(game.serialize()) == before  # the start was left alone


@settings(max_examples=scaled(40), deadline=None)
@given(random_games())
def test_positions_made_by_play_equal_positions_built_from_their_parts(game: StawvsGame) -> None:
    # play() and with_cap_moved() make positions with core.position._make
    # (tuple.__new__: no named tuple __new__, no checks): each must be what the
    # plain constructor makes of the same parts, its bitmasks of occupied and
    # capped squares included.
    position = game.position
    made = [position.play(move)[0] for move in list(position.legal_moves())[:5]]
    made += [
        position.with_cap_moved(move.source, move.dest)
        for move in list(position.legal_moves())[:3]
        if move.dest is not None and move.source is not None
    ]
    for after in made:
        built = Position.build(
            after.rules,
            after.board,
            after.caps,
            after.currplayer,
            after.eliminated,
            after.captured,
            after.mode,
        )
        assert built == after


def next_parts(position: Position, partial: Move) -> list[Move]:
    """What can follow ``partial``, read off the legal moves: the prefixes one part
    longer than it of every legal move it begins, in the generator's order."""
    found: list[Move] = []
    for move in position.legal_moves():
        chain = [*reversed(move.prefixes)] if not move.is_pass else [move]
        shorter = [Move(), *chain]
        for before, after in zip(shorter, chain, strict=False):
            if before == partial and after not in found:
                found.append(after)
    return found


@settings(max_examples=scaled(40), deadline=None)
@given(st.one_of(random_games(), random_boards()), st.integers(0, 2**32))
def test_continuations_are_the_next_parts_of_the_legal_moves(game: StawvsGame, seed: int) -> None:
    position = game.position
    rng = random.Random(seed)
    legal = list(position.legal_moves())
    partials = [
        Move(),
        PASS,
        *(p for m in rng.sample(legal, min(4, len(legal))) for p in m.prefixes),
    ]
    # and partial moves that lead nowhere: any square, any slide of a cap
    partials += [Move(SQUARES[rng.randrange(64)]) for _ in range(3)]
    partials += [Move(SQUARES[rng.randrange(64)], SQUARES[rng.randrange(64)]) for _ in range(3)]
    for partial in partials:
        assert list(position.continuations(partial)) == next_parts(position, partial), partial


def test_a_cap_that_cannot_slide_is_no_continuation() -> None:
    # a1's cap is walled in by b1's cap and empty squares; b1's can slide to c1.
    board = "/".join(["........"] * 7 + ["PI1@1BL1@1GR1....."])
    position = Position.from_notation(board + " 1 collect -,- -")
    assert [str(m) for m in position.continuations()] == ["b1"]
    assert position.continuations(Move.parse("a1")) == ()
    # from c1 only the square it left is free in a line: b1
    assert [str(m) for m in position.continuations(Move.parse("b1-c1"))] == ["b1-c1,b1"]
