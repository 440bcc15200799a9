"""Screen search settings by their decisions: how often a bot's move is the one
a long search prefers, and how much worse it is when it is not.

    python benchmarks/decisions.py oracle --positions 300 --jobs 2 --out oracle.json.gz
    python benchmarks/decisions.py screen mcts:seconds=0.25 "mcts:seconds=0.25,widening=3"

``oracle`` plays seeded games of ``mcts:iterations=300`` against ``greedy``,
takes positions of the collection phase with 25 to 52 free squares (where
the games are decided), and searches each with the oracle bot (by default
16,000 iterations with the settings ``MCTSBot`` had before this screen, so
that the oracle does not favour the settings under test). It keeps, per
position, the oracle's visits and best-line value (the implicit minimax
reward, 0–1, of the player to move) of every move it searched, in the file
``--out`` names (the committed one, which ``screen`` reads unless given
``--oracle-file``, is ``benchmarks/results/decisions-oracle.json.gz``;
nothing else writes it).

``screen`` asks each bot spec for a move in every oracle position and prints
the share that agree with the oracle's most visited move and the mean regret:
the oracle's value of its best move minus that of the move chosen (a move the
oracle did not search counts as its worst). A 300-position screen takes about
a minute per spec at 0.25 s; in the run of docs/strength.md it told 0.25 s from 1 s of
the same bot (48.7% against 59.7% agreement) but not from 0.5 s, so it is a
screen, and the arena (``strength.py``) decides.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout, installed or not

from strength import mean_interval  # noqa: E402  (benchmarks/ is this script's folder)

from stawvs_ap.bots.arena import BotSpec  # noqa: E402
from stawvs_ap.bots.mcts import MCTSBot  # noqa: E402
from stawvs_ap.core.position import Position  # noqa: E402
from stawvs_ap.host.game import StawvsGame  # noqa: E402

ORACLE_FILE = ROOT / "benchmarks" / "results" / "decisions-oracle.json.gz"
ORACLE_SPEC = "mcts:iterations=16000,exploration=0.5,widening=4"
SAMPLER = ("mcts:iterations=300", "greedy")
FREE_RANGE = range(25, 53)


def _game_positions(game_number: int) -> list[str]:
    """The notations of the positions of one sampling game that an oracle may judge."""
    bots = [
        BotSpec.parse(spec).make(f"decisions:bot:{game_number}:{seat}")
        for seat, spec in enumerate(SAMPLER)
    ]
    if game_number % 2:
        bots.reverse()
    game = StawvsGame.new(2, seed=game_number)
    found = []
    while not game.gameover:
        position = game.position
        in_range = position.free.bit_count() in FREE_RANGE
        if position.mode == "collect" and in_range and not position.must_pass():
            found.append(position.notation())
        game.move(bots[game.currplayer - 1].choose(game))
    return found


def _judge(job: tuple[str, str]) -> dict[str, Any]:
    spec, notation = job
    position = Position.from_notation(notation)
    bot = BotSpec.parse(spec).make("decisions:oracle")
    assert isinstance(bot, MCTSBot)
    bot.choose(position)
    # The best-line values are not in the public analysis (which gives mean
    # rewards), and they are what separates close moves: read the tree.
    root = bot._root
    assert root is not None
    me = position.currplayer - 1
    moves = {
        str(child.move): [child.visits, round(child.values[me], 5)]
        for child in root.children
        if child.visits and child.values is not None
    }
    return {"position": notation, "moves": moves}


def oracle(positions: int, jobs: int, spec: str, out: Path) -> None:
    per_game = 3
    rng = random.Random("decisions")
    with multiprocessing.Pool(jobs) as pool:
        sampled: list[str] = []
        for found in pool.imap(_game_positions, range((positions + per_game - 1) // per_game)):
            sampled += rng.sample(found, min(per_game, len(found)))
        judged = pool.map(_judge, [(spec, n) for n in sampled[:positions]], chunksize=4)
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt") as target:
        json.dump({"oracle": spec, "sampler": list(SAMPLER), "positions": judged}, target)
    sys.stderr.write(f"{len(judged)} positions judged by {spec} in {out}\n")


def _decide(job: tuple[str, dict[str, Any]]) -> tuple[bool, float]:
    spec, entry = job
    moves = entry["moves"]
    position = Position.from_notation(entry["position"])
    chosen = str(BotSpec.parse(spec).make("decisions:screen").choose(position))
    best = max(moves, key=lambda move: moves[move][0])
    value = moves[chosen][1] if chosen in moves else min(v for _, v in moves.values())
    return chosen == best, moves[best][1] - value


def screen(specs: list[str], jobs: int, oracle_file: Path) -> None:
    with gzip.open(oracle_file, "rt") as source:
        data = json.load(source)
    entries = data["positions"]
    print(f"{len(entries)} positions, oracle {data['oracle']}")
    print("| bot | agrees with the oracle | mean regret (95% interval) |")
    print("| --- | --- | --- |")
    with multiprocessing.Pool(jobs) as pool:
        for spec in specs:
            BotSpec.parse(spec)  # a bad spec fails here, not in a worker
            found = pool.map(_decide, [(spec, entry) for entry in entries], chunksize=4)
            regret = mean_interval([regret for _, regret in found], digits=4)
            agree = sum(1 for same, _ in found if same) / len(found)
            print(f"| {spec} | {100 * agree:.1f}% | {regret} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["oracle", "screen"])
    parser.add_argument("specs", nargs="*", help="bot specs to screen")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--oracle", default=ORACLE_SPEC, help="the bot spec that judges")
    parser.add_argument(
        "--out", type=Path, metavar="FILE", help="oracle: where to write the judged positions"
    )
    parser.add_argument(
        "--oracle-file",
        type=Path,
        default=ORACLE_FILE,
        metavar="FILE",
        help="screen: the judged positions to read (default: the committed ones)",
    )
    args = parser.parse_args()
    if args.what == "oracle":
        if args.out is None:
            parser.error(
                f"oracle needs --out FILE (--out {ORACLE_FILE.relative_to(ROOT)} "
                "replaces the committed positions)"
            )
        oracle(args.positions, args.jobs, args.oracle, args.out)
    else:
        screen(args.specs or ["mcts:seconds=0.25"], args.jobs, args.oracle_file)


if __name__ == "__main__":
    main()
