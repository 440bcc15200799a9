#!/usr/bin/env python
"""Benchmark the Abstract Play bot under a burst: many games' move webhooks at once.

Usage::

    python benchmarks/apbot.py              # 50 games at once (about 20 s on 2 cores)
    python benchmarks/apbot.py --games 10   # a smaller burst

This process starts a fake Abstract Play (tests/fake_abstract_play.py) and
the bot (``stawvs_ap.apbot``, served by uvicorn on loopback with the
package's HTTP limits, two search threads, the ``greedy`` bot), then sends
one signed move webhook per game, all at once from as many threads. It
reports the slowest and the median time to each ``202`` (from sending the
request to reading the whole answer), the time until every move arrived, and
checks that every game got exactly one move, each in the position of its
webhook. The searches run while webhooks are still being answered: the
``202`` never waits for a search (the promise is within 0.5 s each).
Nothing is written; the exit status is 1 when a promise is broken.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout, installed or not
sys.path.insert(0, str(ROOT / "tests"))  # the fake Abstract Play and the loopback server

from fake_abstract_play import FakeAbstractPlay  # noqa: E402
from http_support import post, running  # noqa: E402

from stawvs_ap import StawvsGame  # noqa: E402
from stawvs_ap.apbot import ApBot, BotSettings, Outbound, create_app  # noqa: E402

#: The promise: each webhook's 202 within this many seconds.
ANSWER_SECONDS = 0.5


def burst(games: int) -> dict[str, float | int | bool]:
    """Send ``games`` webhooks at once; the figures and whether each promise held."""
    with tempfile.TemporaryDirectory() as folder, FakeAbstractPlay() as ap:
        names = [f"game-{n}" for n in range(games)]
        for n, name in enumerate(names):
            ap.games[name] = StawvsGame.new(2, seed=n + 1)
        settings = BotSettings.from_environment(ap.environment())
        bot = ApBot(
            settings, "greedy", Path(folder) / "journal.sqlite3", outbound=Outbound(settings)
        )
        answers: dict[str, tuple[int, float]] = {}
        try:
            with running(lambda hosts: create_app(bot)) as port:
                bodies = {
                    name: json.dumps(ap.move_payload(name, clock=1)).encode() for name in names
                }
                go = threading.Barrier(games)

                def send(name: str) -> None:
                    body = bodies[name]
                    headers = ap.sign(body)
                    go.wait()
                    started = time.perf_counter()
                    status, _, _ = post(port, body, headers=headers, path="/")
                    answers[name] = (status, time.perf_counter() - started)

                started = time.perf_counter()
                threads = [threading.Thread(target=send, args=(name,)) for name in names]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                ap.wait_moves(games, timeout=120)
                every_move = time.perf_counter() - started
                bot.wait_idle(10)
        finally:
            bot.close(wait=5)
        per_game = [sum(1 for m in ap.moves if m["gameid"] == name) for name in names]
        latencies = [seconds for _, seconds in answers.values()]
        return {
            "games": games,
            "all_202": all(status == 202 for status, _ in answers.values()),
            "slowest_202_s": max(latencies),
            "median_202_s": statistics.median(latencies),
            "every_move_s": every_move,
            "moves_sent": len(ap.arrivals),
            "exactly_once": per_game == [1] * games and len(ap.arrivals) == games,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (default 50)")
    args = parser.parse_args(argv)
    figures = burst(args.games)
    for name, value in figures.items():
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        print(f"{name:>16}: {shown}")
    held = (
        figures["all_202"]
        and figures["exactly_once"]
        and float(figures["slowest_202_s"]) <= ANSWER_SECONDS
    )
    print(f"{'promise held':>16}: {held}")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
