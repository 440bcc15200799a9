"""A review is exact wherever the solver proves it (issue 46): a proof of the
position after a move outweighs the search's estimate of the move; a forced
move is valued from the side of the player who makes it; the solver gets the
move's whole budget once proofs are within reach. Each test feeds the review
appraisals made by hand (through ``continue_review``, as the playground sends
them back), so that it fails on the planted bug it is named after."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stawvs_ap import Position, StawvsGame, from_record
from stawvs_ap.bots.appraise import PROVE_BELOW, Appraisal, Appraised, solver_budget
from stawvs_ap.bots.base import only_move
from stawvs_ap.bots.review import continue_review, review
from stawvs_ap.bots.solver import solve
from stawvs_ap.bots.spec import BotSpec

#: Player 2 to move, a5-b4,a5 wins and g5-h5,g5 loses (see tests/test_review.py).
ENDGAME = (
    ".BL3OR3...PI2@1./BL1....BL3@2../..BL3@1GR2..../GR3@2.....OR3@2GR1/.GR1...PI3../"
    "PI1@1......PI3/..GR1....BL1/.PI1..OR2.PI2. 2 collect "
    "GR3OR2PI1BL2GR1OR3GR2BL3OR1BL2OR2GR3BL3PI3OR3PI3BL2BL1GR3BL2OR1,"
    "PI2GR1OR1OR1GR3GR2BL1PI3BL2GR2OR1OR3OR2GR2OR2PI2PI1PI1BL1PI2 -"
)
WINNING, LOSING = "a5-b4,a5", "g5-h5,g5"


def planted_game() -> StawvsGame:
    game = StawvsGame.from_position(Position.from_notation(ENDGAME))
    game.move(LOSING)
    game.move(game.moves()[0])
    return game


def test_a_proof_after_the_move_outweighs_the_played_moves_estimate() -> None:
    game = planted_game()
    after = game.load(1).position
    # The search liked the planted move (0.75) but the solver proves the
    # position after it lost for player 2, whoever is to move there.
    lost_for_two = 1.0 if after.currplayer != 2 else 0.0
    found = [
        Appraised(0, best=None, value=0.8, played_value=0.75),
        Appraised(1, best=None, value=lost_for_two, exact=True),
    ]
    ply = continue_review(game, found, count=0, bot="mcts:iterations=10")[0].plies[0]
    assert (ply.player, ply.value_after) == (2, 0.0)
    assert ply.loss == 0.8 and ply.judgement == "blunder"
    assert not ply.exact  # the position before it was not proven


def test_a_proven_win_turned_into_a_proven_loss_is_an_exact_blunder() -> None:
    game = planted_game()
    after = game.load(1).position
    found = [
        Appraised(0, best=None, value=1.0, exact=True),
        Appraised(1, best=None, value=1.0 if after.currplayer != 2 else 0.0, exact=True),
    ]
    ply = continue_review(game, found, count=0, bot="mcts:iterations=10")[0].plies[0]
    assert (ply.value_before, ply.value_after, ply.loss) == (1.0, 0.0, 1.0)
    assert ply.exact and ply.judgement == "blunder"


def forced_pass_game() -> StawvsGame:
    """A two-player game from a position whose mover's move leaves the other
    player a lone legal move, after which the first moves again."""
    for seed in range(1, 40):
        game = StawvsGame.new(2, seed=seed)
        rng = random.Random(seed)
        while not game.gameover:
            moves = game.moves()
            game.move(moves[0] if rng.random() < 0.5 else rng.choice(moves))
        positions = [game.load(i).position for i in range(len(game.stack))]
        for i in range(1, len(positions) - 1):
            before, forced, again = positions[i - 1], positions[i], positions[i + 1]
            if (
                only_move(forced) is not None
                and only_move(before) is None
                and only_move(again) is None
                and not again.is_over
                and again.currplayer == before.currplayer != forced.currplayer
            ):
                tail = StawvsGame.from_position(before)
                tail.move(str(game.load(i).lastmove))
                tail.move(str(game.load(i + 1).lastmove))
                return tail
    raise AssertionError("no game with a forced move between two moves of one player")


def test_a_forced_move_is_valued_from_the_side_of_the_player_who_makes_it() -> None:
    game = forced_pass_game()
    mover = game.load(0).position.currplayer
    found = [
        Appraised(0, best=None, value=0.9),
        Appraised(1, forced=True),
        Appraised(2, best=None, value=0.9, exact=True),  # the first mover's, proven
    ]
    review = continue_review(game, found, count=0, bot="mcts:iterations=10")[0]
    move, passed = review.plies
    assert (move.player, passed.player, passed.forced) == (mover, 3 - mover, True)
    assert move.value_after == pytest.approx(0.9) and move.loss == pytest.approx(0.0)
    # the lone move's player has one less the other's share: their own side
    assert passed.value_after == passed.value_before == pytest.approx(0.1)


def test_near_the_end_the_solver_gets_the_moves_whole_budget() -> None:
    game = StawvsGame.from_position(Position.from_notation(ENDGAME))
    near = game.position
    assert near.free.bit_count() <= PROVE_BELOW
    spec = BotSpec("mcts")
    assert solver_budget(Appraisal(0, near, None, spec, 1, None, 400, 2000)) == (None, 4000)
    assert solver_budget(Appraisal(0, near, None, spec, 1, None, 30, 2000)) == (None, 2000)
    assert solver_budget(Appraisal(0, near, None, spec, 1, 0.5, None, 2000)) == (0.5, None)
    assert solver_budget(Appraisal(0, near, None, spec, 1, 0.5, None, 0)) == (None, 0)
    start = Position.initial(2, seed=1)
    assert solver_budget(Appraisal(0, start, None, spec, 1, 0.5, None, 2000)) == (None, 2000)


GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"


def plant_a_blunder(name: str, plies: int) -> tuple[StawvsGame, str] | None:
    """The game from the first position ``plies`` to ``plies + 5`` plies before the
    end of golden game ``name`` that the solver proves won for its mover, with a
    move played that the solver proves lost, then best play to the end; only
    positions the review proves with a move's whole budget (at most
    ``PROVE_BELOW`` free pyramids) are taken."""
    whole = from_record(json.loads((GOLDEN / f"{name}.json").read_text())["record"])
    count = len(whole.stack)
    for back in range(plies, plies + 6):
        position = whole.load(count - 1 - back).position
        if position.mode != "collect" or position.free.bit_count() > PROVE_BELOW:
            continue
        won = solve(position, seconds=2)
        if not (won.proven and won.outcome == "win"):
            continue
        for move in position.legal_moves():
            after, _ = position.play(move)
            if after.is_over:
                continue
            then = solve(after, seconds=2)
            mine = then.outcome if after.currplayer == position.currplayer else "other"
            if then.proven and (mine == "loss" or (mine == "other" and then.outcome == "win")):
                game = StawvsGame.from_position(position, whole.variants)
                game.move(str(move))
                while not game.gameover:
                    best = solve(game.position, seconds=2)
                    game.move(str(best.best[0]) if best.proven and best.best else game.moves()[0])
                return game, str(move)
    return None


@pytest.mark.slow  # the solver on positions of six games, then six half-second reviews
def test_a_planted_move_from_a_proven_win_to_a_proven_loss_is_an_exact_blunder() -> None:
    names = ["2p-default-seed-1", "2p-hole-seed-1", "2p-hey-seed-1", "2p-random-seed-1"]
    names += ["2p-finalfree-seed-1", "2p-pieces-2-seed-1"]
    planted = [found for name in names if (found := plant_a_blunder(name, 8)) is not None]
    assert planted
    for game, move in planted:
        ply = review(game, bot="mcts", seconds_per_move=0.5, seed=1).plies[0]
        assert (ply.move, ply.judgement, ply.exact) == (move, "blunder", True)
        assert (ply.value_before, ply.value_after) == (1.0, 0.0)
