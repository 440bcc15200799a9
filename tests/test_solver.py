"""The endgame solver: its values against a plain exhaustive search written here
from the core's rules, in every variant and player count; every best move
reaching the value; the line reaching it; budgets kept; the same answers for
the same question; and the rules of the margin checked on positions worked
out by hand.
"""

from __future__ import annotations

import random

import pytest
from stepping_clock import stepping_clock

import stawvs_ap
from stawvs_ap import Move, Position, StawvsGame
from stawvs_ap.bots import solver as solver_module
from stawvs_ap.bots.solver import Solution, Solver, canonical, solve
from stawvs_ap.core.pyramids import EMPTY
from stawvs_ap.core.scoring import score
from stawvs_ap.core.variants import rules_for
from stawvs_ap.errors import ErrorCode, StawvsError

VARIANT_SETS = [(), ("hole",), ("random",), ("hey",), ("finalfree",), ("pieces-2",)]
VARIANT_SETS += [("hey", "finalfree")]


def plain_margin(position: Position, player: int) -> int:
    """The margin of ``player``: their score minus the best other score, from the
    core's scoring of each collection."""
    scores = [score(collection) for collection in position.captured]
    return scores[player - 1] - max(s for p, s in enumerate(scores, start=1) if p != player)


def plain_value(position: Position, player: int) -> int:
    """The paranoid value for ``player``, every move of the core's generator tried,
    no pruning and no table: ``player`` maximises, everyone else minimises."""
    if position.is_over:
        return plain_margin(position, player)
    values = [plain_value(position.play(move)[0], player) for move in position.legal_moves()]
    return max(values) if position.currplayer == player else min(values)


def small_endgame(
    rng: random.Random, players: int, variants: tuple[str, ...], pyramids: int = 6
) -> Position:
    """A collection-phase position with a small tree: one cap of each player among
    ``pyramids`` pyramids in a corner of 3×4 squares, every other cap walled in on the top
    rank, some pyramids already collected, maybe some players passed."""
    rules = rules_for(players, list(variants))
    top = rng.randrange(5, 6)
    left = rng.randrange(0, 5)
    region = [(top + r) * 8 + left + c for r in range(3) for c in range(4)]
    squares = rng.sample(region, pyramids)
    board = [EMPTY] * 64
    caps = [0] * 64
    for square in squares:
        board[square] = rng.randrange(12)
    for player, square in enumerate(squares[:players], start=1):
        caps[square] = player
    walled = iter(range(8))
    for player in range(1, players + 1):
        for _ in range(rules.caps_per_player - 1):
            square = next(walled)
            board[square] = rng.randrange(12)
            caps[square] = player
    captured = [[rng.randrange(12) for _ in range(rng.randrange(5))] for _ in range(players)]
    passed = [p for p in range(1, players + 1) if rng.random() < 0.25][: players - 1]
    rng.shuffle(passed)
    mover = rng.randrange(1, players + 1)
    return Position.build(rules, board, caps, mover, passed, captured, "collect")


def cases(count: int, seed: int) -> list[tuple[int, tuple[str, ...], Position]]:
    rng = random.Random(seed)
    return [
        (players, variants, small_endgame(rng, players, variants, pyramids=7))
        for players in (2, 3, 4)
        for variants in VARIANT_SETS
        for _ in range(count)
    ]


CASES = cases(3, seed=36)


def case_id(case: tuple[int, tuple[str, ...], Position]) -> str:
    return f"{case[0]}p-{'+'.join(case[1]) or 'base'}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_value_is_the_plain_searchs_in_every_variant_and_player_count(
    case: tuple[int, tuple[str, ...], Position],
) -> None:
    _, _, position = case
    solution = solve(position)
    assert solution.proven
    assert solution.margin == plain_value(position, position.currplayer)


@pytest.mark.parametrize("case", CASES[::3], ids=case_id)
def test_every_best_move_reaches_the_value_and_no_other_does(
    case: tuple[int, tuple[str, ...], Position],
) -> None:
    _, _, position = case
    solution = solve(position)
    assert solution.best
    mover = position.currplayer
    values = {m: plain_value(position.play(m)[0], mover) for m in position.legal_moves()}
    assert solution.best == tuple(m for m in position.legal_moves() if values[m] == solution.margin)
    assert max(values.values()) == solution.margin


def test_no_move_short_of_the_margin_is_among_the_best() -> None:
    # A root test whose window sits one point high takes a move that fails low at
    # exactly the margin for one reaching it: about one position in nine of these.
    for seed in range(30):
        rng = random.Random(seed)
        players = (2, 3, 4)[seed % 3]
        position = small_endgame(rng, players, VARIANT_SETS[seed % len(VARIANT_SETS)])
        values = {
            m: plain_value(position.play(m)[0], position.currplayer) for m in position.legal_moves()
        }
        margin = max(values.values())
        assert solve(position).best == tuple(m for m, v in values.items() if v == margin), seed


@pytest.mark.parametrize("case", CASES[1::3], ids=case_id)
def test_the_line_is_legal_starts_with_a_best_move_and_ends_at_the_margin(
    case: tuple[int, tuple[str, ...], Position],
) -> None:
    _, _, position = case
    solution = solve(position)
    assert solution.best and solution.line[0] == solution.best[0]
    reached = position
    for move in solution.line:
        assert reached.is_legal(move)
        reached = reached.play(move)[0]
    assert reached.is_over
    assert plain_margin(reached, position.currplayer) == solution.margin


def test_the_outcome_follows_the_margin() -> None:
    for _, _, position in CASES[:12]:
        solution = solve(position)
        assert solution.margin is not None
        expected = "win" if solution.margin > 0 else "loss" if solution.margin < 0 else "shared"
        assert solution.outcome == expected
        assert solution.bound == solution.margin


@pytest.mark.slow
@pytest.mark.parametrize("case", cases(6, seed=3601), ids=case_id)
def test_more_values_are_the_plain_searchs(case: tuple[int, tuple[str, ...], Position]) -> None:
    _, _, position = case
    assert solve(position).margin == plain_value(position, position.currplayer)


def wider_endgame(
    rng: random.Random, players: int, variants: tuple[str, ...], pyramids: int
) -> Position:
    """A collection-phase position of ``pyramids`` pyramids (9 to 12) in a corner of
    4×4 squares: two players have a cap there (the others' caps, and their
    other caps, walled in on the top two ranks), some pyramids already collected,
    maybe some players passed."""
    rules = rules_for(players, list(variants))
    left = rng.randrange(0, 5)
    region = [(4 + r) * 8 + left + c for r in range(4) for c in range(4)]
    squares = rng.sample(region, pyramids)
    board = [EMPTY] * 64
    caps = [0] * 64
    for square in squares:
        board[square] = rng.randrange(12)
    movers = rng.sample(range(1, players + 1), 2)
    for player, square in zip(movers, squares, strict=False):
        caps[square] = player
    walled = iter(range(16))
    for player in range(1, players + 1):
        for _ in range(rules.caps_per_player - (player in movers)):
            square = next(walled)
            board[square] = rng.randrange(12)
            caps[square] = player
    captured = [[rng.randrange(12) for _ in range(rng.randrange(5))] for _ in range(players)]
    passed = [p for p in range(1, players + 1) if p not in movers and rng.random() < 0.5]
    mover = rng.randrange(1, players + 1)
    return Position.build(rules, board, caps, mover, passed, captured, "collect")


class TooBig(Exception):
    """The plain search met more positions than it was allowed."""


def exact_values(position: Position, player: int, limit: int = 10**9) -> dict[Move, int]:
    """The paranoid value for ``player`` after each legal move: plain minimax over
    the core's moves, no pruning, each position's exact value remembered (under
    the position with its collections sorted: scores count pyramids, not their
    order)."""
    known: dict[Position, int] = {}

    def value(at: Position) -> int:
        if at.is_over:
            return plain_margin(at, player)
        sorted_ = at.replace(captured=tuple(tuple(sorted(c)) for c in at.captured))
        found = known.get(sorted_)
        if found is None:
            if len(known) >= limit:
                raise TooBig
            values = [value(at.play(move)[0]) for move in at.legal_moves()]
            found = known[sorted_] = max(values) if at.currplayer == player else min(values)
        return found

    return {move: value(position.play(move)[0]) for move in position.legal_moves()}


WIDER = [(players, variants) for players in (2, 3, 4) for variants in VARIANT_SETS]


def wider_case(
    players: int, variants: tuple[str, ...], seed: int, sizes: tuple[int, ...], limit: int
) -> tuple[Position, dict[Move, int]]:
    """The first of a seeded series of :func:`wider_endgame` positions whose plain
    search meets at most ``limit`` positions (counted, not timed: the same
    position every run), with its values."""
    rng = random.Random(f"{seed}-{players}-{'+'.join(variants)}")
    while True:
        position = wider_endgame(rng, players, variants, rng.choice(sizes))
        try:
            return position, exact_values(position, position.currplayer, limit)
        except TooBig:
            continue


def check_against_the_plain_search(position: Position, values: dict[Move, int]) -> None:
    solution = solve(position)
    margin = max(values.values())
    assert solution.proven and solution.margin == margin
    assert solution.best == tuple(move for move, value in values.items() if value == margin)


def wider_id(case: tuple[int, tuple[str, ...]]) -> str:
    return f"{case[0]}p-{'+'.join(case[1]) or 'base'}"


@pytest.mark.slow
@pytest.mark.parametrize("case", WIDER, ids=wider_id)
def test_best_moves_and_margin_are_the_plain_searchs_with_nine_or_ten_pyramids(
    case: tuple[int, tuple[str, ...]],
) -> None:
    position, values = wider_case(*case, seed=46, sizes=(9, 10), limit=600)
    check_against_the_plain_search(position, values)


@pytest.mark.slow
@pytest.mark.parametrize("case", WIDER[:11], ids=wider_id)  # 2 players, and 3 in part
def test_best_moves_and_margin_are_the_plain_searchs_with_eleven_or_twelve_pyramids(
    case: tuple[int, tuple[str, ...]],
) -> None:
    position, values = wider_case(*case, seed=4611, sizes=(11, 12), limit=1000)
    check_against_the_plain_search(position, values)


def test_positions_differing_only_in_collection_or_passing_order_share_an_entry() -> None:
    position = wider_case(2, (), seed=46, sizes=(9,), limit=1500)[0]
    collections = tuple(tuple(reversed(c)) for c in position.captured)
    reordered = position.replace(captured=collections)
    assert reordered != position
    assert canonical(reordered) == canonical(position)
    three = rules_for(3, [])
    first = Position.build(three, position.board, position.caps, 1, [2, 3], [[], [], []])
    assert canonical(first) == canonical(first.replace(eliminated=(3, 2)))


def table_shared_by(first: Position, second: Position) -> None:
    """One solver asked about ``first`` then ``second``: its answer for ``second``
    is the plain search's, whatever the table kept of ``first``."""
    solver = Solver()
    for position in (first, second):
        values = exact_values(position, position.currplayer)
        solution = solver.solve(position)
        margin = max(values.values())
        assert solution.margin == margin
        assert solution.best == tuple(move for move, value in values.items() if value == margin)


def test_positions_differing_in_more_than_collection_order_have_their_own_entries() -> None:
    position = wider_case(2, (), seed=46, sizes=(9,), limit=1500)[0].replace(
        currplayer=1, eliminated=()
    )
    collections = [list(c) for c in position.captured]
    collections[0] = [*collections[0], 4, 4]
    position = position.replace(captured=tuple(map(tuple, collections)))
    as_set = [*collections[0][:-1]]
    others = [
        position.replace(currplayer=2),
        position.replace(eliminated=(2,)),
        position.replace(captured=(tuple(as_set), *position.captured[1:])),
        position.replace(rules=rules_for(2, ["finalfree"])),
    ]
    for other in others:
        assert canonical(other) != canonical(position)


def test_a_table_entry_is_not_reused_for_another_player_to_move() -> None:
    # Player 1's margin with player 1 to move, then (the same table) with player 2 to move.
    rng = random.Random(460)
    differ = 0
    for _ in range(6):
        position = small_endgame(rng, 2, ()).replace(currplayer=1, eliminated=())
        other = position.replace(currplayer=2)
        solver = Solver()
        assert solver.solve(position).margin == max(exact_values(position, 1).values())
        solver._root = 1
        expected = min(exact_values(other, 1).values())
        assert solver._exact(other, canonical(other)) == expected
        differ += expected != max(exact_values(position, 1).values())
    assert differ


def test_a_table_entry_is_not_reused_once_a_player_has_passed() -> None:
    rng = random.Random(461)
    differ = 0
    for _ in range(6):
        position = small_endgame(rng, 2, ()).replace(eliminated=())
        passed = position.replace(eliminated=(position.currplayer % 2 + 1,))
        table_shared_by(position, passed)
        differ += solve(position).margin != solve(passed).margin
    assert differ


def test_a_table_entry_is_not_reused_for_a_collection_holding_one_pyramid_less() -> None:
    rng = random.Random(462)
    differ = 0
    for _ in range(6):
        position = small_endgame(rng, 2, ())
        mover = position.currplayer
        doubled = list(map(list, position.captured))
        doubled[mover - 1] = [*doubled[mover - 1], 5, 5]
        single = [list(c) for c in doubled]
        single[mover - 1] = single[mover - 1][:-1]
        with_pair = position.replace(captured=tuple(map(tuple, doubled)))
        with_one = position.replace(captured=tuple(map(tuple, single)))
        table_shared_by(with_pair, with_one)
        differ += solve(with_pair).margin != solve(with_one).margin
    assert differ


def test_one_solver_keeps_the_variants_apart_in_its_table() -> None:
    # The same board and caps under different rules: a table keyed without the
    # rules would hand one variant's values to the other.
    rng = random.Random(7)
    solver = Solver()
    differ = 0
    for _ in range(8):
        base = small_endgame(rng, 2, ())
        for variants in [(), ("finalfree",), ("hey",), ("hey", "finalfree")]:
            position = base.replace(rules=rules_for(2, list(variants)))
            expected = plain_value(position, position.currplayer)
            assert solver.solve(position).margin == expected, variants
        free = base.replace(rules=rules_for(2, ["finalfree"]))
        differ += plain_value(base, 1) != plain_value(free, 1)
    assert differ  # the check above could fail


def test_one_solver_answers_every_player_of_a_position() -> None:
    # The table is keyed on whose margin is searched too.
    rng = random.Random(8)
    solver = Solver()
    for _ in range(6):
        position = small_endgame(rng, 3, ())
        for mover in (1, 2, 3):
            turned = position.replace(currplayer=mover)
            expected = plain_value(turned, mover)
            assert solver.solve(turned).margin == expected


@pytest.mark.slow
def test_a_full_table_takes_no_more_entries_and_the_values_stay_exact() -> None:
    # The table's bound holds while the search goes on; what it could not keep
    # is searched again, so the answers do not change.
    position = max((case[2] for case in CASES[:9]), key=lambda p: solve(p).nodes)
    small = Solver(table_limit=20)
    full = solve(position)
    assert full.nodes > 200  # far more positions than the table holds
    answer = small.solve(position)
    assert answer.margin == plain_value(position, position.currplayer) == full.margin
    assert answer.best == full.best and answer.line
    after = position
    for move in answer.line:  # every move of the line keeps the value
        after = after.play(move)[0]
        assert plain_value(after, position.currplayer) == full.margin
    assert after.is_over
    assert len(small._table) <= 20
    for _, _, other in CASES[:6]:
        assert small.solve(other).margin == plain_value(other, other.currplayer)
        assert len(small._table) <= 20


def test_a_full_table_is_emptied_at_the_next_question() -> None:
    _, _, position = CASES[0]
    solver = Solver(table_limit=5)
    solver.solve(position)
    assert len(solver._table) == 5
    solver.solve(position.replace(currplayer=position.currplayer % 2 + 1))
    # started afresh: the first five entries of this question, none of the last
    assert len(solver._table) == 5
    assert all(root == solver._root for _, root in solver._table)


@pytest.mark.parametrize(("held", "kept"), [(6, True), (7, False)])
def test_a_table_more_than_three_quarters_full_is_emptied_at_the_next_question(
    held: int, kept: bool
) -> None:
    # A finished game asks nothing of the table: what is left is what the question kept.
    finished = Position.from_notation(board("GH1@1GH2@2......") + " 1 collect OR1OR2,OR3 12")
    assert finished.is_over
    solver = Solver(table_limit=8)
    solver._table.update({(finished, root): (0, 0, None) for root in range(held)})
    solver.solve(finished)
    assert len(solver._table) == (held if kept else 0)


def test_the_default_table_fits_the_bots_default_memory() -> None:
    from stawvs_ap.bots.options import DEFAULT_MEMORY, MEMORY

    held = solver_module.TABLE_LIMIT * solver_module.TABLE_ENTRY_BYTES
    assert MEMORY.default == DEFAULT_MEMORY
    assert DEFAULT_MEMORY << 20 >= held > (DEFAULT_MEMORY - 1) << 20


def test_a_table_limit_may_be_any_whole_number() -> None:
    class Whole:  # as numpy's integers are
        def __index__(self) -> int:
            return 3

    assert Solver(table_limit=Whole())._table_limit == 3  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "10"])
def test_a_table_limit_out_of_range_is_refused(limit: object) -> None:
    with pytest.raises(StawvsError) as raised:
        Solver(table_limit=limit)  # type: ignore[arg-type]
    assert raised.value.code == ErrorCode.BAD_ARGUMENT


# -- the margin's rules, worked out by hand ---------------------------------------

EMPTY_RANK = "." * 8


def board(*ranks: str) -> str:
    return "/".join([*ranks, *[EMPTY_RANK] * (8 - len(ranks))])


def test_final_captures_count_and_trees_are_grouped_as_the_engine_groups_them() -> None:
    # Player 2 has passed; player 1's cap has nowhere to go, so player 1 passes and
    # the game ends: PI3 under the cap completes player 1's pink tree (7 points),
    # BL1 under player 2's cap is its only pyramid (1).
    text = board("PI3@1.......", EMPTY_RANK, "........", "......BL1@2.") + " 1 collect PI1PI2,- 2"
    solution = solve(Position.from_notation(text))
    assert (solution.margin, solution.outcome) == (6, "win")
    assert solution.best == (Move.parse("pass"),)


def test_with_finalfree_the_pyramids_under_the_caps_do_not_count() -> None:
    text = board("PI3@1.......", EMPTY_RANK, "........", "......BL1@2.") + " 1 collect PI1PI2,- 2"
    solution = solve(Position.from_notation(text, ["finalfree"]))
    assert (solution.margin, solution.outcome) == (2, "win")


def test_the_caps_of_a_player_who_passed_still_block_and_still_score() -> None:
    # Player 2 passed; its cap on b8 walls player 1's cap on a8 in, away from GR3
    # on c8. Player 1 passes, the game ends, each collects the pyramid under its
    # cap: 1 point each, a shared result. Were b8 passable, player 1 would slide
    # to c8 and claim a8 (2 to 1).
    text = board("PI1@1BL2@2GR3.....") + " 1 collect -,- 2"
    solution = solve(Position.from_notation(text))
    assert (solution.margin, solution.outcome) == (0, "shared")
    assert solution.best == (Move.parse("pass"),)


def test_the_game_ends_when_the_last_player_passes_wherever_in_the_round() -> None:
    # Three players: 1 and 3 have passed; player 2 plays on alone and the game
    # ends at its pass, in the middle of a round. Player 2 can take both free
    # pyramids (OR3 and OR2, then OR1 under its cap at the end: a tree, 7); the
    # others end with 2 each (GR1 and PI1, GR2 and BL1).
    text = board("OR1@2OR2OR3.....", EMPTY_RANK, EMPTY_RANK, "PI1@1.......", "BL1@3.......")
    position = Position.from_notation(text + " 2 collect GR1,-,GR2 13")
    solution = solve(position)
    assert solution.margin == 7 - 2
    assert len(solution.line) > 2  # the others' turns pass on the way
    assert solution.margin == plain_value(position, 2)


def test_a_finished_position_has_its_final_margin_and_no_moves() -> None:
    text = board("GH1@1GH2@2......") + " 1 collect OR1OR2,OR3 12"
    solution = solve(Position.from_notation(text))
    assert (solution.margin, solution.outcome, solution.best, solution.line) == (1, "win", (), ())
    assert solution.proven and solution.nodes == 0


def test_the_margin_is_the_movers_against_the_best_of_the_others() -> None:
    # Four players who have all passed but player 4, who must pass: scores 3, 1, 2, 0.
    text = board("PI1@4.......") + " 4 collect OR1BL1GR1,BL1,GR1GR2,- 123"
    solution = solve(Position.from_notation(text, ["finalfree"]))
    assert solution.margin == 0 - 3
    assert solution.outcome == "loss"


# -- budgets, answers, errors ------------------------------------------------------


def middle_game() -> Position:
    game = StawvsGame.new(2, seed=5)
    rng = random.Random(5)
    while game.mode == "place" or len(game.moves()) < 50:
        game.move(rng.choice(game.moves()))
    return game.position


def test_a_node_budget_is_kept() -> None:
    solution = solve(middle_game(), nodes=300)
    assert not solution.proven and solution.nodes <= 300
    assert (solution.margin, solution.outcome, solution.best) == (None, None, None)


def test_a_time_budget_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = stepping_clock(monkeypatch, step=0.02)  # 20 ms a reading, whatever the machine does
    solution = solve(middle_game(), seconds=0.2)
    assert not solution.proven and 0.2 <= solution.seconds <= 0.2 + 0.06
    # one reading every _CLOCK_EVERY positions, the search stopping at the first past the deadline
    assert solution.nodes <= clock.readings * solver_module._CLOCK_EVERY


def test_the_same_question_gets_the_same_answer() -> None:
    def fields(solution: Solution) -> dict[str, object]:
        return {name: getattr(solution, name) for name in solution.__slots__ if name != "seconds"}

    position = middle_game()
    assert fields(solve(position, nodes=2000)) == fields(solve(position, nodes=2000))
    for _, _, small in CASES[:6]:
        assert fields(solve(small)) == fields(solve(small))


@pytest.mark.slow
def test_an_unproven_answer_says_what_was_learned() -> None:
    # With a budget that ends after a first root move was proven, bound is its value
    # and the line starts with it.
    _, _, position = max(CASES[:6], key=lambda case: solve(case[2]).nodes)
    full = solve(position)
    assert full.margin is not None
    for budget in range(1, full.nodes, max(1, full.nodes // 25)):
        partial = solve(position, nodes=budget)
        if partial.proven:
            break
        if partial.bound is not None:
            assert partial.bound <= full.margin
            assert partial.line and position.is_legal(partial.line[0])
            assert plain_value(position.play(partial.line[0])[0], position.currplayer) == (
                partial.bound
            )


@pytest.mark.slow
def test_a_game_is_solved_as_its_position() -> None:
    game = StawvsGame.new(2, seed=1)
    assert solve(game, nodes=50).nodes == solve(game.position, nodes=50).nodes


def test_a_game_ended_by_a_host_has_no_margin() -> None:
    game = StawvsGame.new(2, seed=1).resign(1)
    with pytest.raises(StawvsError) as raised:
        solve(game)
    assert raised.value.code == ErrorCode.GAMEOVER


@pytest.mark.parametrize("budget", [{"seconds": 0}, {"seconds": -1}, {"nodes": 0}, {"nodes": 1.5}])
def test_a_budget_out_of_range_is_refused(budget: dict[str, float]) -> None:
    with pytest.raises(StawvsError) as raised:
        solve(CASES[0][2], **budget)  # type: ignore[arg-type]
    assert raised.value.code == ErrorCode.BAD_ARGUMENT


def test_only_positions_and_games_are_solved() -> None:
    with pytest.raises(StawvsError) as raised:
        solve("a position")  # type: ignore[arg-type]
    assert raised.value.code == ErrorCode.BAD_ARGUMENT


def test_the_solver_is_the_packages() -> None:
    assert stawvs_ap.solve is solve
    assert stawvs_ap.Solution is Solution


def test_a_solution_reads_as_json() -> None:
    text = board("PI3@1.......", EMPTY_RANK, "........", "......BL1@2.") + " 1 collect PI1PI2,- 2"
    data = solve(Position.from_notation(text)).to_dict()
    assert data["margin"] == 6 and data["outcome"] == "win" and data["best"] == ["pass"]
    assert data["line"] == ["pass"] and data["proven"] is True


def test_a_position_no_game_can_reach_is_refused_not_given_an_endless_margin() -> None:
    # Six caps to place on three pyramids (Position.from_notation checks no rule):
    # the placement gets stuck, with no legal move and no end.
    text = "PI1BL2GR3...../" + "/".join(["........"] * 7) + " 1 place -,- -"
    with pytest.raises(StawvsError) as raised:
        solve(Position.from_notation(text))
    assert raised.value.code == ErrorCode.BAD_POSITION
