#!/usr/bin/env python
"""Do two versions of the engine's bots choose the same moves, and how fast are they?

Usage::

    python benchmarks/bot_agreement.py --out new.jsonl                   # this checkout
    python benchmarks/bot_agreement.py --checkout OTHER --out old.jsonl  # another copy
    cmp old.jsonl new.jsonl

    python benchmarks/bot_agreement.py --speed [--checkout OTHER]        # rates only

A refactoring of the rules or of the bots' move ordering must not change what
the default bots play, since their strength was measured with them. This
script makes the same positions in any version of the code (games of seeded
random moves, each drawn from the *sorted* legal move strings, so that the
order a version lists its moves in does not matter), 12 for every player count
and variant set of the reference games (324 in all: placements, early, middle
and late collection phase), and writes one line per position: the move
:class:`~stawvs_ap.bots.simple.GreedyBot` (no budget: every move evaluated)
and :class:`~stawvs_ap.bots.mcts.MCTSBot` (default options, an iteration
budget) choose with a seed, and digests of the two move orderings of
:mod:`stawvs_ap.bots.knowledge` as sorted lists. Equal files mean equal play.

``--speed`` instead times GreedyBot's moves evaluated per second and MCTSBot's
iterations per second on a third of those positions (the best of three
passes, in processor time, which other processes on a shared machine disturb
less than the wall clock); run it for both versions alternately.
Only the standard library is used, besides the package under test.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

REFERENCE_GAMES = Path(__file__).resolve().parent.parent / "fixtures/reference/games.jsonl.gz"
#: Plies played from the start before a position is taken (placements end by ply 12).
PLIES: tuple[int, ...] = (1, 4, 10, 14, 20, 28, 36, 44, 52, 60, 70, 85)


def _import_package(checkout: Path) -> Any:
    sys.path.insert(0, str(checkout))
    import stawvs_ap

    if Path(stawvs_ap.__file__).resolve().parent.parent != checkout.resolve():
        raise SystemExit(f"imported stawvs_ap from {stawvs_ap.__file__}, not from {checkout}")
    return stawvs_ap


def variant_sets() -> list[tuple[str, ...]]:
    """The variant sets of the reference games, in the order they first come."""
    with gzip.open(REFERENCE_GAMES, "rt", encoding="utf-8") as lines:
        found = [tuple(json.loads(line)["variants"]) for line in lines if line.strip()]
    return list(dict.fromkeys(found))


def positions(package: Any) -> Iterator[tuple[str, Any]]:
    """(label, position) for every player count, variant set and ply count."""
    from stawvs_ap.core.moves import Move
    from stawvs_ap.core.position import Position

    sets = variant_sets()
    for numplayers in (2, 3, 4):
        for number, variants in enumerate(sets):
            for index, plies in enumerate(PLIES):
                seed = numplayers * 1000 + number * 100 + index
                rng = random.Random(seed)
                position = Position.initial(numplayers, variants, seed)
                for _ in range(plies):
                    moves = sorted(position.legal_move_strings())
                    if position.is_over or (moves == ["pass"] and rng.random() < 0.5):
                        break
                    position, _ = position.play(Move.parse(rng.choice(moves)))
                if position.is_over:
                    continue
                label = f"{numplayers}p {'+'.join(variants) or 'default'} ply {plies} seed {seed}"
                yield label, position


def _digest(entries: Sequence[int]) -> str:
    return hashlib.sha256(json.dumps(sorted(entries)).encode()).hexdigest()[:16]


def agreement(package: Any, iterations: int, out: Any) -> None:
    from stawvs_ap.bots import GreedyBot, MCTSBot
    from stawvs_ap.bots.knowledge import move_estimates, move_priors

    count = 0
    for count, (label, position) in enumerate(positions(package), start=1):
        line = {
            "position": label,
            "greedy": str(GreedyBot(seed=count).choose(position)),
            "mcts": str(MCTSBot(seed=count, iterations=iterations).choose(position)),
            "priors": _digest(move_priors(position)),
            "estimates": _digest(move_estimates(position)),
        }
        out.write(json.dumps(line) + "\n")
    print(f"{count} positions", file=sys.stderr)


def speed(package: Any, iterations: int) -> None:
    from stawvs_ap.bots import GreedyBot, MCTSBot

    chosen = [p for i, (_, p) in enumerate(positions(package)) if i % 3 == 0]
    greedy_rates, mcts_rates = [], []
    for _ in range(3):
        evaluated = 0
        start = time.process_time()
        for seed, position in enumerate(chosen):
            evaluated += len(GreedyBot(seed=seed).analyse(position))
        greedy_rates.append(evaluated / (time.process_time() - start))
        done = 0
        start = time.process_time()
        for seed, position in enumerate(chosen):
            bot = MCTSBot(seed=seed, iterations=iterations)
            bot.choose(position)
            done += bot.last_iterations
        mcts_rates.append(done / (time.process_time() - start))
    print(
        f"{len(chosen)} positions: GreedyBot {max(greedy_rates):,.0f} moves/s, "
        f"MCTSBot {max(mcts_rates):,.0f} iterations/s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--checkout",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the copy of the project whose stawvs_ap to import (default: this one)",
    )
    parser.add_argument("--iterations", type=int, default=300, help="MCTSBot's budget")
    parser.add_argument("--out", type=Path, help="where to write the moves (default: stdout)")
    parser.add_argument("--speed", action="store_true", help="time the bots instead")
    args = parser.parse_args(argv)
    package = _import_package(args.checkout)
    if args.speed:
        speed(package, args.iterations)
    elif args.out is None:
        agreement(package, args.iterations, sys.stdout)
    else:
        with args.out.open("w", encoding="utf-8") as out:
            agreement(package, args.iterations, out)


if __name__ == "__main__":
    main()
