#!/usr/bin/env python
"""Time a game review (issue 37): a 60-ply game at 0.5 s a move on two cores.

Usage::

    python benchmarks/review.py                    # 2 players, --jobs 2, 0.5 s a move
    python benchmarks/review.py --players 3 --jobs 1 --seconds 0.25

The game is played by two (or three) greedy bots from a fixed seed, 60
plies to its end, and reviewed as ``stawvs-ap review GAME --seconds-per-move
0.5 --jobs 2`` reviews it (:func:`stawvs_ap.bots.review.review`, the exact
solver first on every position). It prints the wall time, the positions the
solver proved and what they cost, and exits with status 1 when the review
takes more than the bound (40 s by default: the issue's figure) or when a
proven position cost search time. Nothing is written.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stawvs_ap import StawvsGame
from stawvs_ap.bots import GreedyBot
from stawvs_ap.bots.appraise import Appraisal, appraise
from stawvs_ap.bots.review import SOLVER_NODES, _moves_of, review
from stawvs_ap.bots.spec import BotSpec

#: Seeds whose greedy game lasts exactly 60 plies, by player count.
SEEDS = {2: 1, 3: 3}


def greedy_game(players: int) -> StawvsGame:
    """The game greedy bots play from the seed of ``players`` (60 plies)."""
    seed = SEEDS[players]
    game = StawvsGame.new(players, seed=seed)
    bots = [GreedyBot(seed=seed * 10 + i) for i in range(players)]
    while not game.gameover:
        game.move(bots[game.currplayer - 1].choose(game))
    return game


def proven_cost(game: StawvsGame, seconds: float) -> tuple[int, float, int]:
    """The positions the solver proves, the seconds their appraisals take, and
    the search iterations they ran (0 when proven positions cost no search)."""
    proven, spent, iterations = 0, 0.0, 0
    spec = BotSpec.parse("mcts")
    # From the end back to the first position the solver does not prove.
    for index, (position, move) in reversed(list(enumerate(_moves_of(game)))):
        if position.is_over or move is None or position.must_pass():
            continue
        started = time.perf_counter()
        found = appraise(Appraisal(index, position, move, spec, 1, seconds, None, SOLVER_NODES))
        if not found.exact:
            break
        proven += 1
        spent += time.perf_counter() - started
        iterations += found.iterations
    return proven, spent, iterations


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=sorted(SEEDS), default=2)
    parser.add_argument("--seconds", type=float, default=0.5, help="search time a position")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bound", type=float, default=40.0, help="seconds the review may take")
    args = parser.parse_args()
    game = greedy_game(args.players)
    plies = len(game.stack) - 1
    started = time.perf_counter()
    found = review(game, bot="mcts", seconds_per_move=args.seconds, jobs=args.jobs, seed=1)
    wall = time.perf_counter() - started
    proven, spent, iterations = proven_cost(game, args.seconds)
    judged = sum(p.judgement is not None for p in found.plies)
    print(
        f"review of a {plies}-ply {args.players}-player game, mcts at {args.seconds:g} s a move, "
        f"--jobs {args.jobs}: {wall:.1f} s (bound {args.bound:g} s)"
    )
    print(
        f"  {judged} moves judged; accuracy by player: "
        + ", ".join("-" if p.accuracy is None else f"{p.accuracy:.0f}" for p in found.players)
    )
    print(
        f"  {proven} positions proven by the solver: {spent:.2f} s in all, "
        f"{iterations} search iterations"
    )
    failed = wall > args.bound or iterations > 0
    if failed:
        print("FAILED: over the bound, or a proven position was searched")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
