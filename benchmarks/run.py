#!/usr/bin/env python
"""Benchmark the engine's hot paths and print a table beside their targets (issue 10).

Usage::

    python benchmarks/run.py            # full run (about a minute)
    python benchmarks/run.py --quick    # a quarter of the positions, fewer repeats

Positions come from ``benchmarks/bench_positions.jsonl.gz`` (216 collection-phase
positions recorded from the Abstract Play engine) and games from
``fixtures/reference/games.jsonl.gz`` (27 complete reference games).

How figures are taken: for an operation on many inputs (positions, games), each
input is timed ``repeat`` times over ``number`` calls with :mod:`timeit`, and the
best repeat gives that input's µs per call (timeit's advice: the slower repeats
measure other processes, not us). The package keeps no memo caches, so a replay
costs what it costs for a game the process has never seen; a game keeps the text
of the entries it wrote or loaded (docs/DEVELOPMENT.md, fast paths), so
serialize() is timed on games replayed move by move, which have none. serialize()
and loading are timed call by call. The table shows the mean and median of those
figures; "calls" counts every call made while measuring. As timeit does, the
garbage collector is off while timing.
Only the standard library is used.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import random
import statistics
import sys
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stawvs_ap import StawvsGame  # noqa: E402
from stawvs_ap.core.playout import random_playout  # noqa: E402

BENCH_POSITIONS = ROOT / "benchmarks" / "bench_positions.jsonl.gz"
REFERENCE_GAMES = ROOT / "fixtures" / "reference" / "games.jsonl.gz"


@dataclass(frozen=True)
class Row:
    """One line of the table: µs per call, and the target it is held against."""

    operation: str
    per_call_us: list[float]
    calls: int
    target: str
    met: bool

    @property
    def mean(self) -> float:
        return statistics.fmean(self.per_call_us)

    @property
    def median(self) -> float:
        return statistics.median(self.per_call_us)


def _load_jsonl(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _best_per_call(fn: Callable[[], object], number: int, repeat: int) -> float:
    """µs per call of ``fn``: the best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def _per_input(
    name: str,
    calls: Sequence[Callable[[], object]],
    number: int,
    repeat: int,
    target_us: float,
    target_text: str,
) -> Row:
    figures = [_best_per_call(fn, number, repeat) for fn in calls]
    mean = statistics.fmean(figures)
    return Row(name, figures, len(calls) * number * repeat, target_text, mean <= target_us)


def bench_positions(games: list[StawvsGame], number: int, repeat: int) -> list[Row]:
    """moves(), has_moves(), validate_move() (with and without reading the sentence for
    the player, which is worded when read) and render() on each benchmark position."""
    rng = random.Random(5)
    legal = [rng.choice(g.moves()) for g in games]
    return [
        _per_input("moves()", [g.moves for g in games], number, repeat, 40, "mean ≤ 40"),
        _per_input("has_moves()", [g.has_moves for g in games], number, repeat, 10, "mean ≤ 10"),
        _per_input(
            "validate_move(complete move)",
            [(lambda g=g, m=m: g.validate_move(m)) for g, m in zip(games, legal, strict=True)],
            number,
            repeat,
            5,
            "mean ≤ 5",
        ),
        _per_input(
            "validate_move(complete move).message",
            [
                (lambda g=g, m=m: g.validate_move(m).message)
                for g, m in zip(games, legal, strict=True)
            ],
            number,
            repeat,
            5,
            "mean ≤ 5",
        ),
        _per_input("render()", [g.render for g in games], number, repeat, 50, "mean ≤ 50"),
    ]


def _replay(game: dict[str, Any]) -> StawvsGame:
    state = StawvsGame(game["initial"])
    for ply in game["plies"]:
        state.move(ply["move"])
    return state


def bench_replay(reference: list[dict[str, Any]], repeat: int) -> list[Row]:
    """Replaying each reference game from its initial state, every move validated.

    Loading the initial state (a one-entry serialized game) is part of the replay.
    """
    figures = [
        min(timeit.repeat(lambda g=g: _replay(g), number=1, repeat=repeat)) * 1e6 for g in reference
    ]
    return [
        Row(
            "replay game: load + move() × plies",
            figures,
            len(reference) * repeat,
            "mean ≤ 500 per game",
            statistics.fmean(figures) <= 500,
        )
    ]


def bench_serialization(reference: list[dict[str, Any]], calls: int) -> list[Row]:
    """serialize() of a freshly replayed ~60-ply game, and loading it back from text."""
    game = min(reference, key=lambda g: abs(len(g["plies"]) - 60))
    text = _replay(game).serialize()
    plies = len(game["plies"])
    loaded: list[StawvsGame] = []

    def load_fresh() -> None:
        loaded[:] = [_replay(game)]

    serialize_us = [
        t * 1e6
        for t in timeit.repeat(lambda: loaded[0].serialize(), load_fresh, number=1, repeat=calls)
    ]
    load_us = [t * 1e6 for t in timeit.repeat(lambda: StawvsGame(text), number=1, repeat=calls)]
    return [
        Row(
            f"serialize() ({plies}-ply game)",
            serialize_us,
            calls,
            "mean ≤ 2000",
            statistics.fmean(serialize_us) <= 2000,
        ),
        Row(
            f"StawvsGame(text) ({plies}-ply game)",
            load_us,
            calls,
            "mean ≤ 2000",
            statistics.fmean(load_us) <= 2000,
        ),
    ]


def bench_playouts(games: list[StawvsGame], number: int, repeat: int) -> Row:
    """Random playouts to the end of the game from each benchmark position."""
    rng = random.Random(2025)
    figures = [
        _best_per_call(lambda g=g: random_playout(g.position, rng), number, repeat) for g in games
    ]
    rate = 1e6 / statistics.fmean(figures)
    return Row(
        f"random playout to the end ({rate:,.0f}/s)",
        figures,
        len(games) * number * repeat,
        "≥ 1,200/s (mean ≤ 833)",
        rate >= 1200,
    )


def print_table(rows: list[Row]) -> None:
    version = platform.python_version()
    header = ("operation", "mean µs", "median µs", "calls", "python", "target µs", "met")
    lines = [
        (
            r.operation,
            f"{r.mean:,.1f}",
            f"{r.median:,.1f}",
            f"{r.calls:,}",
            version,
            r.target,
            "yes" if r.met else "NO",
        )
        for r in rows
    ]
    widths = [max(len(str(x)) for x in column) for column in zip(header, *lines, strict=True)]
    print(
        f"{platform.python_implementation()} {version} on {platform.system()} {platform.machine()}"
    )
    for line in (header, tuple("-" * w for w in widths), *lines):
        print("| " + " | ".join(str(x).ljust(w) for x, w in zip(line, widths, strict=True)) + " |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and repeats")
    args = parser.parse_args(argv)
    positions = _load_jsonl(BENCH_POSITIONS)
    reference = _load_jsonl(REFERENCE_GAMES)
    if args.quick:
        positions = positions[::4]
        number, repeat, replay_repeat, io_calls, playouts = 20, 3, 3, 20, 2
    else:
        number, repeat, replay_repeat, io_calls, playouts = 100, 5, 7, 100, 5
    games = [StawvsGame(p["state"]) for p in positions]
    rows = bench_positions(games, number, repeat)
    rows.extend(bench_replay(reference, replay_repeat))
    rows.extend(bench_serialization(reference, io_calls))
    rows.append(bench_playouts(games, playouts, 3))
    print(f"{len(positions)} benchmark positions, {len(reference)} reference games")
    print_table(rows)


if __name__ == "__main__":
    main()
