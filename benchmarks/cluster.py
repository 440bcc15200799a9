"""The cost of playing the arena's games elsewhere: per game, on a local Dask
cluster and in local worker processes, against playing them here.

    python benchmarks/cluster.py                 # 60 games of random self-play
    python benchmarks/cluster.py --games 200 --bot greedy:iterations=5

Each way plays the same games (seeded; iteration budgets). With ``P`` places
(worker processes, or cluster workers of one thread) and a wall time ``W`` for
``G`` games, a game costs ``P × W / G`` seconds of a place; the overhead per
game is that less the time of a game played here (``W₁ / G`` in this process).
The cluster (Dask's ``LocalCluster``, as ``python -m stawvs_ap.cli.localcluster``
starts it: the scheduler in this process, workers of one thread on 127.0.0.1)
is started first and not counted. The figures are printed, never
written: the machine is shared, so run it a few times and read the spread.
Needs the ``cluster`` extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout, installed or not

from stawvs_ap.bots.arena import BotSpec, play_match  # noqa: E402
from stawvs_ap.bots.cluster import Cluster  # noqa: E402
from stawvs_ap.bots.runners import InProcess, LocalProcesses, Runner  # noqa: E402
from stawvs_ap.cli.localcluster import start  # noqa: E402


def _time(lineup: list[BotSpec], games: int, runner: Runner) -> tuple[float, list[object]]:
    started = time.monotonic()
    results = play_match(lineup, games, seed=2026, runner=runner)
    return time.monotonic() - started, [(r.scores, r.plies) for r in results]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--bot", default="random", help="the self-play bot (default random)")
    parser.add_argument("--places", type=int, nargs="+", default=[1, 2], help="workers to try")
    args = parser.parse_args()
    lineup = [BotSpec.parse(args.bot)] * 2
    here, games = _time(lineup, args.games, InProcess())
    game = here / args.games
    rows = [("here (one process)", 1, here)]
    for places in args.places:
        wall, same = _time(lineup, args.games, LocalProcesses(places))
        assert same == games, "local processes played other games"
        rows.append((f"--jobs {places}", places, wall))
    for places in args.places:
        with start(places) as cluster, Cluster(cluster.scheduler_address) as runner:
            wall, same = _time(lineup, args.games, runner)
        assert same == games, "the cluster played other games"
        rows.append((f"--cluster, {places} worker{'s' if places > 1 else ''}", places, wall))
    print(f"{args.games} games of {args.bot} self-play; a game here takes {1000 * game:.1f} ms")
    print()
    print("| where | places | wall s | ms a game of a place | overhead ms a game |")
    print("| --- | --- | --- | --- | --- |")
    for label, places, wall in rows:
        cost = places * wall / args.games
        print(
            f"| {label} | {places} | {wall:.2f} | {1000 * cost:.1f} | {1000 * (cost - game):+.1f} |"
        )


if __name__ == "__main__":
    main()
