#!/usr/bin/env python
"""The endgame solver's reach, and what it adds to the mcts bot's strength.

    python benchmarks/solver.py reach --source greedy --games 8
    python benchmarks/solver.py reach --source golden --players 2 --plies 8 12 --limit 10
    python benchmarks/solver.py side --players 2 --plies 6 7 8 9 10 11 12 --plain-nodes 1000000
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

``side`` sets the solver beside a plain alpha-beta search with a table
(:class:`PlainSearch`, written here: the core's moves in the core's order, no
move ordering, a full window, bounds kept under the same canonical key),
on the positions *k* plies before the end of every recorded game of
``--source`` (``all``: the golden games, the 27 games recorded from the
Abstract Play engine in ``fixtures/reference`` and the greedy games; every
variant set and player count those hold). Per position it prints both
searches' nodes and seconds; per player count and k, the share the solver
proves within 2 s and within ``--limit`` (10 s), the share the plain search
proves within ``--plain-nodes`` (1,000,000), and whether every position the
plain search proved the solver proved within ``--limit``.

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
import gzip
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
from stawvs_ap.core.scoring import score  # noqa: E402
from stawvs_ap.errors import StawvsError  # noqa: E402

GOLDEN = ROOT / "fixtures" / "golden"
REFERENCE = ROOT / "fixtures" / "reference" / "games.jsonl.gz"
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


def reference_games(players: int, games: int) -> list[tuple[str, list[Position]]]:
    """The games recorded from the Abstract Play engine, replayed from their
    initial state: every position of each."""
    out = []
    with gzip.open(REFERENCE, "rt", encoding="utf-8") as lines:
        for line in lines:
            recorded = json.loads(line)
            if recorded["numplayers"] != players or len(out) >= games:
                continue
            game = StawvsGame(recorded["initial"])
            positions = [game.position]
            for ply in recorded["plies"]:
                game.move(ply["move"])
                positions.append(game.position)
            variants = "+".join(recorded["variants"]) or "default"
            out.append((f"reference-{players}p-{variants}", positions))
    return out


class PlainSearch:
    """A plain paranoid alpha-beta with a transposition table, to set the solver
    beside: the core's moves in the core's order, each searched with the window
    as it stands, proven bounds kept under the solver's canonical key; no move
    ordering, no null windows, nothing else. It counts every position it
    enters, finished ones included, and stops after ``limit`` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}

    def value(self, position: Position, root: int, alpha: int, beta: int) -> int | None:
        """The root's margin (fail-soft), or None when the limit ran out."""
        try:
            return self._value(position, root, alpha, beta)
        except _PlainOut:
            return None

    def _value(self, position: Position, root: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _PlainOut
        if position.is_over:
            scores = [score(collection) for collection in position.captured]
            return scores[root - 1] - max(s for p, s in enumerate(scores, 1) if p != root)
        # What the rest of the game depends on: collections as multisets, passes as a set.
        collections = tuple(tuple(sorted(collection)) for collection in position.captured)
        key = (
            position.rules,
            position.board,
            position.caps,
            position.currplayer,
            frozenset(position.eliminated),
            collections,
            position.mode,
        )
        lower, upper = self.table.get(key, (-PLAIN_INFINITY, PLAIN_INFINITY))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        low, high = max(alpha, lower), min(beta, upper)
        maximising = position.currplayer == root
        best = -PLAIN_INFINITY if maximising else PLAIN_INFINITY
        for move in position.legal_moves():
            value = self._value(position.play(move)[0], root, low, high)
            if maximising:
                best = max(best, value)
                low = max(low, value)
            else:
                best = min(best, value)
                high = min(high, value)
            if low >= high:
                break
        if best <= alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper)
        return best


class _PlainOut(Exception):
    """The plain search's node limit ran out."""


PLAIN_INFINITY = 10_000


def side(
    source: str, players: list[int], plies: list[int], limit: float, plain_nodes: int, games: int
) -> None:
    """The solver and the plain search side by side (see the module's docstring)."""
    sources = {"golden": [golden_games], "reference": [reference_games]}
    sources["greedy"] = [greedy_games]
    sources["all"] = [golden_games, reference_games, greedy_games]
    rows: dict[tuple[int, int], list[tuple[float | None, int | None]]] = defaultdict(list)
    missed: list[str] = []
    nodes = 0
    seconds = 0.0
    plain_nodes_all = 0
    plain_seconds = 0.0
    for count in players:
        for found in sources[source]:
            for name, positions in found(count, games):
                for k in plies:
                    if k >= len(positions):
                        continue
                    position = positions[-1 - k]
                    solution = solve(position, seconds=limit)
                    nodes += solution.nodes
                    seconds += solution.seconds
                    plain = PlainSearch(plain_nodes)
                    started = time.perf_counter()
                    value = plain.value(
                        position, position.currplayer, -PLAIN_INFINITY, PLAIN_INFINITY
                    )
                    spent = time.perf_counter() - started
                    plain_nodes_all += plain.nodes
                    plain_seconds += spent
                    if value is not None and solution.proven:
                        assert value == solution.margin, (
                            f"{name} k={k}: {value} != {solution.margin}"
                        )
                    if value is not None and not solution.proven:
                        missed.append(f"{name} k={k}")
                    rows[count, k].append(
                        (
                            solution.seconds if solution.proven else None,
                            plain.nodes if value is not None else None,
                        )
                    )
                    print(
                        f"{name} k={k}: solver {'proven' if solution.proven else 'open'} "
                        f"{solution.margin} in {solution.seconds:.2f} s, {solution.nodes} nodes; "
                        f"plain {'open' if value is None else 'proven'} {value} "
                        f"in {spent:.2f} s, {plain.nodes} nodes",
                        file=sys.stderr,
                        flush=True,
                    )
    print(
        f"| players | k | positions | solver ≤ 2 s | solver ≤ {limit:g} s | median s (solver) "
        f"| plain ≤ {plain_nodes:,} nodes | plain's proven, solver ≤ {limit:g} s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (count, k), results in sorted(rows.items()):
        times = [t for t, _ in results if t is not None]
        quick = sum(1 for t in times if t <= 2.0)
        plain_proven = [t for t, p in results if p is not None]
        both = sum(1 for t in plain_proven if t is not None)
        median = f"{statistics.median(times):.2f}" if times else "—"
        total = len(results)
        print(
            f"| {count} | {k} | {total} | {quick}/{total} | {len(times)}/{total} | {median} "
            f"| {len(plain_proven)}/{total} | {both}/{len(plain_proven)} |"
        )
    if seconds and plain_seconds:
        print(
            f"\nnode rate: solver {nodes / seconds:,.0f} positions a second ({nodes:,} in "
            f"{seconds:.0f} s); plain {plain_nodes_all / plain_seconds:,.0f} "
            f"({plain_nodes_all:,} in {plain_seconds:.0f} s)"
        )
    print(f"plain search proved, solver did not within {limit:g} s: {', '.join(missed) or 'none'}")


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
    b = sub.add_parser("side", help="the solver beside a plain alpha-beta with a table")
    b.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    b.add_argument("--plies", type=int, nargs="+", default=[6, 7, 8, 9, 10, 11, 12, 14, 16, 20])
    b.add_argument("--limit", type=float, default=10.0, help="the solver's seconds (default 10)")
    b.add_argument("--plain-nodes", type=int, default=1_000_000, help="the plain search's limit")
    b.add_argument("--source", choices=["golden", "reference", "greedy", "all"], default="all")
    b.add_argument("--games", type=int, default=1000, help="games per source and player count")
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
    if args.command == "side":
        side(args.source, args.players, args.plies, args.limit, args.plain_nodes, args.games)
    elif args.command == "reach":
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
