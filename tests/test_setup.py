"""Setting up a game (CONTRACT §1): the board, the gaps each variant leaves, the
seed that reproduces them, and the placement phase."""

from __future__ import annotations

from collections import Counter

from stawvs_ap import Pyramid, StawvsGame
from stawvs_ap.core.invariants import StartFault, is_new_game_start, miscounted_kinds, start_fault


def code(game: StawvsGame, move: str) -> str | None:
    """The rejection code of ``move`` (None when valid)."""
    return game.validate_move(move).code


def gaps(game: StawvsGame) -> set[str]:
    filled = {name for name, _ in game.state()["stack"][0]["board"]["value"]}
    return {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)} - filled


def test_the_board_holds_five_of_each_of_the_twelve_pyramids() -> None:
    board = StawvsGame(3, seed=5).state()["stack"][0]["board"]["value"]
    kinds = Counter(f"{cell[0][0]}{cell[0][1]}" for _, cell in board)
    assert len(kinds) == 12 and set(kinds.values()) == {5}


def test_default_gaps_are_the_corners() -> None:
    assert gaps(StawvsGame(2, seed=3)) == {"a1", "a8", "h1", "h8"}


def test_hole_gaps_are_the_centre() -> None:
    assert gaps(StawvsGame(2, ["hole"], seed=3)) == {"d4", "e4", "d5", "e5"}


def test_random_gaps_are_four_distinct_squares_the_seed_reproduces() -> None:
    boards = [gaps(StawvsGame(2, ["random"], seed=s)) for s in range(10)]
    assert all(len(b) == 4 for b in boards)
    assert gaps(StawvsGame(4, ["random"], seed=7)) == gaps(StawvsGame(4, ["random"], seed=7))
    assert len({frozenset(b) for b in boards}) > 1


def test_the_same_seed_and_variants_give_the_same_board() -> None:
    def board(seed: int) -> object:
        return StawvsGame(2, ["hey"], seed=seed).state()["stack"][0]["board"]

    assert board(42) == board(42)
    assert board(42) != board(43)


def test_placement_puts_a_cap_on_a_pyramid_without_one() -> None:
    game = StawvsGame(2, seed=1)
    game.move("b2")
    assert game.results == [{"type": "place", "where": "b2", "who": 1}]
    assert code(game, "b2") == "BAD_PLACEMENT"
    assert code(game, "a1") == "BAD_PLACEMENT"  # a corner gap
    assert "b2" not in game.moves() and len(game.moves()) == 59


def test_placement_ends_after_three_caps_each() -> None:
    game = StawvsGame(2, seed=1)
    for square in ["b2", "b3", "b4", "b5", "b6"]:
        game.move(square)
    assert game.mode == "place"
    game.move("b7")
    assert game.mode == "collect"
    assert game.currplayer == 1


def test_pieces_2_ends_placement_after_two_caps_each() -> None:
    game = StawvsGame(3, ["pieces-2"], seed=1)
    for square in ["b2", "b3", "b4", "b5", "b6"]:
        game.move(square)
    assert game.mode == "place"
    game.move("b7")
    assert game.mode == "collect"


# -- what a new game starts from: core.invariants, the one start check -----------------


def test_every_new_game_is_a_start_of_its_variants() -> None:
    for variants in ([], ["hole"], ["random"], ["hey", "pieces-2"]):
        for seed in range(5):
            start = StawvsGame(3, variants=variants, seed=seed).position
            assert start_fault(start, variants) is None
            assert is_new_game_start(start, variants)


def test_a_start_has_the_gaps_of_its_variants() -> None:
    start = StawvsGame(2, seed=1).position
    fault = start_fault(start, ["hole"])
    assert fault is not None and fault.what == "gaps"
    assert [str(sq) for sq in fault.gaps] == ["d5", "e5", "d4", "e4"]
    assert start_fault(start, ["random"]) is None  # any four gaps will do


def test_a_start_has_five_of_each_kind_and_no_ghost() -> None:
    start = StawvsGame(2, seed=1).position
    board = list(start.board)
    first = next(sq for sq in range(64) if board[sq] == Pyramid.PINK_SMALL)
    board[first] = Pyramid.GHOST_SMALL
    assert miscounted_kinds(board) == [(Pyramid.PINK_SMALL, 4, 5), (Pyramid.GHOST_SMALL, 1, 0)]
    fault = start_fault(start.replace(board=board), [])
    assert fault == StartFault("pyramids", Pyramid.PINK_SMALL, 4, 5)


def test_a_start_has_no_caps_no_collections_and_player_1_placing() -> None:
    start = StawvsGame(2, seed=1).position
    after, _ = start.play(next(start.legal_moves()))
    assert start_fault(after, []) == StartFault("caps")
    assert start_fault(start.replace(captured=((0,), ())), []) == StartFault("collections")
    assert start_fault(start.replace(currplayer=2), []) == StartFault("turn")
