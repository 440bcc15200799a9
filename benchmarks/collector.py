#!/usr/bin/env python
"""What pausing the garbage collector buys: a state's parse and a bot's search,
timed with and without the pause.

Usage::

    python benchmarks/collector.py            # both jobs
    python benchmarks/collector.py --games 2 --plies 20 --seconds 0.25

``stawvs_ap.collector.collector_paused`` keeps the cyclic collector off while
the state loader parses a text (docs/DEVELOPMENT.md lists it among the fast
paths); the bots' searches ran under it too until these figures showed that
they gain nothing from it. This script runs each job with the pause and
without it, and prints:

- the parse of a hostile state text (a list of about 1.3 million empty
  lists, under the byte limit; refused afterwards, as it is no state): the
  best of three runs;
- ``mcts`` playing games against itself at 0.1 s a move, its tree kept from
  move to move: the iterations its searches ran, how many collections ran
  while it played, the longest one, and how far a move went past its budget
  at worst.

Writes nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import stawvs_ap.state.format as format_module  # noqa: E402
from stawvs_ap import StawvsError, StawvsGame  # noqa: E402
from stawvs_ap.bots import MCTSBot  # noqa: E402
from stawvs_ap.collector import collector_paused  # noqa: E402
from stawvs_ap.state.format import MAX_STATE_BYTES, read_document  # noqa: E402


@contextlib.contextmanager
def no_pause() -> Iterator[None]:
    yield


@contextlib.contextmanager
def pause_replaced(module: Any, paused: bool) -> Iterator[None]:
    """``module``'s pause as the package has it, or (``paused`` False) one that does nothing."""
    kept = module.collector_paused
    if not paused:
        module.collector_paused = no_pause
    try:
        yield
    finally:
        module.collector_paused = kept


class Collections:
    """The collections the interpreter runs while it is active, and how long each took."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds.append(time.perf_counter() - self._started)

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        gc.callbacks.append(self)
        try:
            yield
        finally:
            gc.callbacks.remove(self)


def hostile_text() -> str:
    count = (MAX_STATE_BYTES - 20) // 3
    return '{"stack": [' + ",".join(["[]"] * count) + "]}"


def parse_seconds(text: str, paused: bool) -> float:
    best = float("inf")
    for _ in range(3):
        with pause_replaced(format_module, paused):
            started = time.perf_counter()
            with contextlib.suppress(StawvsError):
                read_document(text)
            best = min(best, time.perf_counter() - started)
    return best


def searches(games: int, plies: int, budget: float, paused: bool) -> tuple[int, float, float, int]:
    """``games`` games of one ``mcts`` bot against itself for ``plies`` moves each
    (its tree kept from move to move, as in a game): the collections run, the
    longest (s), the worst overrun of ``budget`` (s) and the iterations run."""
    watch = Collections()
    worst = 0.0
    iterations = 0
    pause = collector_paused if paused else no_pause
    with watch.watching():
        for number in range(games):
            game = StawvsGame(2, seed=number)
            bot = MCTSBot(seed=number, seconds=budget, solve=False)
            for _ in range(plies):
                if game.gameover:
                    break
                started = time.perf_counter()
                with pause():
                    move = bot.choose(game)
                worst = max(worst, time.perf_counter() - started - budget)
                iterations += bot.last_iterations
                game.move(move)
            bot.close()
    return len(watch.seconds), max(watch.seconds, default=0.0), worst, iterations


def table(rows: list[tuple[str, str, str]]) -> None:
    print("| job | with the pause | without |")
    print("| --- | --- | --- |")
    for job, paused, free in rows:
        print(f"| {job} | {paused} | {free} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games of mcts (default 4)")
    parser.add_argument("--plies", type=int, default=40, help="moves a game at most (40)")
    parser.add_argument("--seconds", type=float, default=0.1, help="budget a move (0.1)")
    args = parser.parse_args()
    text = hostile_text()
    rows: list[tuple[str, str, str]] = []
    parsed = [parse_seconds(text, paused) for paused in (True, False)]
    rows.append((f"parse {len(text):,} characters of empty lists (s)", *_shown(parsed, "{:.2f}")))
    found = [searches(args.games, args.plies, args.seconds, paused) for paused in (True, False)]
    rows.append(("iterations of the searches", *(f"{f[3]:,}" for f in found)))
    rows.append(("collections while the bots played", *(str(f[0]) for f in found)))
    rows.append(("the longest collection (ms)", *_shown([1000 * f[1] for f in found], "{:.1f}")))
    rows.append(
        ("the worst overrun of a budget (ms)", *_shown([1000 * f[2] for f in found], "{:.1f}"))
    )
    table(rows)
    return 0


def _shown(pair: list[float], form: str) -> tuple[str, str]:
    shown: Callable[[float], str] = form.format
    return shown(pair[0]), shown(pair[1])


if __name__ == "__main__":
    sys.exit(main())
