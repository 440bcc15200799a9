#!/usr/bin/env python
"""The endgame solver's reach, and what it adds to the mcts bot's strength.

    python benchmarks/solver.py reach --source greedy --games 8
    python benchmarks/solver.py reach --source golden --players 2 --plies 8 12 --limit 10
    python benchmarks/solver.py strength --games 200 --jobs 2
    python benchmarks/solver.py thrown --games 40 --jobs 2

``reach`` takes recorded games: with ``--source golden`` those of
``fixtures/golden`` (uniformly random moves, played to their end, in every
variant and player count), with ``--source greedy`` games of the greedy bot
against itself, seeded and played here (variants mixed as in
:data:`VARIANT_SETS`); at most ``--games`` per player count. It solves the
position *k* plies before each game's end for each ``--plies`` k, with
``--limit`` seconds (default 10). It prints, per player count and k, the share proven within 2 s
and within the limit, the median time of the proven ones, and the node rate
(positions a second over every search).

``strength`` plays the new ``mcts`` against the search as it was before the
solver, ``mcts:solve=false`` (the same bot with its proofs and root solver
turned off: nothing else differs; the last release, 0.1.0, had no bots),
0.25 s a move, two players, seats swapped, the games shared evenly among the variant sets of
:data:`VARIANT_SETS`; it prints the new bot's win rate with its 95% (Wilson)
interval, overall and per variant set.

``thrown`` measures how much any endgame play can add against the previous
search: it plays that search against itself (0.25 s a move, two players,
variants as in :data:`VARIANT_SETS`), then walks back from each game's end
solving every position (``--nodes`` positions each) until one is not proven.
In that proven stretch a move *throws away* when the outcome it leaves the
mover (win, shared, loss) is worse than the one it found; the games with a
throw are the only ones a perfect endgame could turn, so the new bot's win
rate against the previous search is at most about 50% plus half their share.
``--bot SPEC`` plays another bot against itself (``--bot mcts:seconds=0.25``:
how often the new search throws one away).

Nothing is written; docs/solver.md and docs/strength.md quote the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from strength import name_seed  # noqa: E402  (the match seeds of benchmarks/strength.py)

from stawvs_ap import Position, StawvsGame, from_record, solve  # noqa: E402
from stawvs_ap.bots import GreedyBot  # noqa: E402
from stawvs_ap.bots.arena import play_match, summarise, wilson  # noqa: E402
from stawvs_ap.bots.spec import BotSpec  # noqa: E402
from stawvs_ap.errors import StawvsError  # noqa: E402

GOLDEN = ROOT / "fixtures" / "golden"
VARIANT_SETS: list[list[str]] = [[], ["hey"], ["finalfree"], ["hole", "hey"]]
NEW = "mcts:seconds=0.25"
PREVIOUS = "mcts:seconds=0.25,solve=false"


def game_positions(path: Path) -> list[Position] | None:
    """Every position of the golden game in ``path``, start to end; None for a
    game a host ended (a resignation) rather than the last pass."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    game = from_record(doc["record"])
    if not game.position.is_over:
        return None
    positions = []
    for ply in range(len(game.stack)):
        game.load(ply)
        positions.append(game.position)
    return positions


def greedy_games(players: int, games: int) -> list[tuple[str, list[Position]]]:
    """``games`` games of the greedy bot against itself, every position of each."""
    out = []
    for number in range(games):
        variants = VARIANT_SETS[number % len(VARIANT_SETS)]
        game = StawvsGame.new(players, variants=variants, seed=number)
        bot = GreedyBot(seed=number)
        positions = [game.position]
        while not game.gameover:
            game.move(bot.choose(game))
            positions.append(game.position)
        out.append((f"greedy-{players}p-{'+'.join(variants) or 'default'}-{number}", positions))
    return out


def golden_games(players: int, games: int) -> list[tuple[str, list[Position]]]:
    out = []
    for path in sorted(GOLDEN.glob(f"{players}p-*.json")):
        positions = game_positions(path)
        if positions is not None and len(out) < games:
            out.append((path.stem, positions))
    return out


def reach(source: str, players: list[int], plies: list[int], limit: float, games: int) -> None:
    rows: dict[tuple[int, int], list[float | None]] = defaultdict(list)
    nodes = 0
    seconds = 0.0
    found = greedy_games if source == "greedy" else golden_games
    matches = [(n, name, positions) for n in players for name, positions in found(n, games)]
    for count, name, positions in matches:
        for k in plies:
            if k >= len(positions):
                continue
            solution = solve(positions[-1 - k], seconds=limit)
            nodes += solution.nodes
            seconds += solution.seconds
            rows[count, k].append(solution.seconds if solution.proven else None)
            print(
                f"{name} k={k}: {'proven' if solution.proven else 'open'} "
                f"{solution.margin} in {solution.seconds:.2f} s, {solution.nodes} nodes",
                file=sys.stderr,
                flush=True,
            )
    print(f"| players | k | positions | proven ≤ 2 s | proven ≤ {limit:g} s | median s (proven) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (count, k), times in sorted(rows.items()):
        proven = [t for t in times if t is not None]
        quick = sum(1 for t in proven if t <= 2.0)
        median = f"{statistics.median(proven):.2f}" if proven else "—"
        print(
            f"| {count} | {k} | {len(times)} | {quick}/{len(times)} | {len(proven)}/{len(times)} "
            f"| {median} |"
        )
    if seconds:
        print(
            f"\nnode rate: {nodes / seconds:,.0f} positions a second ({nodes:,} in {seconds:.0f} s)"
        )


def strength(games: int, jobs: int, seed: int) -> None:
    lineup = [BotSpec.parse(NEW), BotSpec.parse(PREVIOUS)]
    each = max(2, games // len(VARIANT_SETS) // 2 * 2)  # even: seats swapped
    wins = played = 0.0
    print("| variants | games | new mcts's win rate | 95% interval |")
    print("| --- | --- | --- | --- |")
    started = time.monotonic()
    for variants in VARIANT_SETS:
        match_seed = name_seed(f"{seed}-{'-'.join(variants)}")
        results = play_match(lineup, each, variants=variants, seed=match_seed, jobs=jobs)
        stats = summarise(lineup, results)[0]
        wins += stats.wins
        played += stats.games
        print(
            f"| {', '.join(variants) or 'default'} | {stats.games} | {100 * stats.rate:.1f}% "
            f"| {100 * stats.low:.1f}–{100 * stats.high:.1f}% |",
            flush=True,
        )
    low, high = wilson(wins, int(played))
    print(
        f"| all | {int(played)} | {100 * wins / played:.1f}% | {100 * low:.1f}–{100 * high:.1f}% |"
    )
    print(f"\n{time.monotonic() - started:.0f} s of wall time", file=sys.stderr)


def outcome(margin: int) -> int:
    """1, 0 or -1: a win, a shared win or a loss for the player whose margin it is."""
    return (margin > 0) - (margin < 0)


def thrown_in_game(
    number: int, nodes: int, bot: str = PREVIOUS
) -> tuple[int, list[tuple[int, int, int]]]:
    """Game ``number`` of the bot ``bot`` (a spec) against itself: how many plies
    from its end the solver proves every position, and each throw there, as
    (plies before the end, the mover, free pyramids)."""
    variants = VARIANT_SETS[number % len(VARIANT_SETS)]
    game = StawvsGame.new(2, variants, seed=name_seed(f"thrown-{number}"))
    bots = [BotSpec.parse(bot).make(2 * number + seat) for seat in range(2)]
    positions = [game.position]
    while not game.gameover:
        game.move(bots[game.currplayer - 1].choose(game))
        positions.append(game.position)
    final = positions[-1].scores()
    after = outcome(final[0] - final[1])  # the first player's outcome after each move
    throws = []
    proven = 0
    for k in range(1, len(positions)):
        position = positions[-1 - k]
        solution = solve(position, nodes=nodes)
        if not solution.proven or solution.margin is None:
            break
        proven = k
        first = solution.margin if position.currplayer == 1 else -solution.margin
        if outcome(first) != after:  # proven values only worsen for the mover
            throws.append((k, position.currplayer, position.free.bit_count()))
        after = outcome(first)
    return proven, throws


def thrown(games: int, jobs: int, nodes: int, bot: str) -> None:
    started = time.monotonic()
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        results = list(pool.map(thrown_in_game, range(games), [nodes] * games, [bot] * games))
    with_throw = sum(1 for _, throws in results if throws)
    for number, (proven, throws) in enumerate(results):
        print(
            f"game {number}: proven {proven} plies from the end, throws {throws}", file=sys.stderr
        )
    low, high = wilson(with_throw, games)
    stretch = statistics.median(proven for proven, _ in results)
    print("| games | median plies proven before the end | games with a throw | 95% interval |")
    print("| --- | --- | --- | --- |")
    print(
        f"| {games} | {stretch:g} | {with_throw} ({100 * with_throw / games:.1f}%) "
        f"| {100 * low:.1f}–{100 * high:.1f}% |"
    )
    print(
        f"\nso a perfect endgame scores at most about {50 + 50 * with_throw / games:.1f}% "
        f"against {bot} ({50 + 50 * high:.1f}% at the interval's top)"
    )
    print(f"\n{time.monotonic() - started:.0f} s of wall time", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("reach", help="the share of endgames proven k plies before the end")
    r.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    r.add_argument("--plies", type=int, nargs="+", default=[8, 12, 14, 16, 20])
    r.add_argument("--limit", type=float, default=10.0, help="seconds a position (default 10)")
    r.add_argument("--source", choices=["golden", "greedy"], default="greedy")
    r.add_argument("--games", type=int, default=1000, help="games per player count at most")
    s = sub.add_parser("strength", help="the new mcts against the search before the solver")
    s.add_argument("--games", type=int, default=200)
    s.add_argument("--jobs", type=int, default=1)
    s.add_argument("--seed", type=int, default=0, help="other seeds play other boards")
    t = sub.add_parser("thrown", help="how often a search throws away a proven endgame")
    t.add_argument("--games", type=int, default=40)
    t.add_argument("--jobs", type=int, default=1)
    t.add_argument("--nodes", type=int, default=300_000, help="positions a proof at most")
    t.add_argument("--bot", default=PREVIOUS, help=f"the bot playing itself (default {PREVIOUS})")
    args = parser.parse_args()
    if args.command == "reach":
        reach(args.source, args.players, args.plies, args.limit, args.games)
    elif args.command == "thrown":
        try:
            BotSpec.parse(args.bot)  # here, not in each worker process
        except StawvsError as exc:
            parser.error(f"--bot: {exc}")
        thrown(args.games, args.jobs, args.nodes, args.bot)
    else:
        strength(args.games, args.jobs, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
