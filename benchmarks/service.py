#!/usr/bin/env python
"""Benchmark ``stawvs-ap serve`` from a second process, as a host drives it.

Usage::

    python benchmarks/service.py            # 2,000 requests per row (about 20 s)
    python benchmarks/service.py --quick    # 300 requests per row

This process starts the server (``python -m stawvs_ap serve``) and sends it
``moves``, ``validate`` and ``move`` requests on two states: a new two-player
game, and the state after 61 plies of a seeded game of random moves (the
first seed whose game is still on after 61 plies with a choice of moves).
One request is in flight at a time, as for a host that waits for each
answer; request lines are built before timing. Each request's latency runs
from writing its line to reading the whole response line, so it includes both
pipes, parsing, loading the state, the call itself and writing the answer.
Requests per second are the requests divided by the sum of their latencies.
After a warm-up of 50 requests per row, every response is checked (a result,
not an error) outside the timed span.

For scale, the table ends with the in-process cost of loading the 61-ply
state (``StawvsGame(text)``), the share of a request that a cache of loaded
states could save. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from stawvs_ap import StawvsGame  # noqa: E402
from stawvs_ap.service.client import Client  # noqa: E402

WARM_UP = 50
#: Targets of issue 14 on the development machine kind.
TARGET_P99_MS = 5.0
TARGET_RATE = 500.0


@dataclass(frozen=True)
class Row:
    """One line of the table: a workload and its latencies in milliseconds."""

    label: str
    latencies_ms: list[float]
    held_to_target: bool
    target_p99_ms: float = TARGET_P99_MS
    target_rate: float = TARGET_RATE

    @property
    def rate(self) -> float:
        return len(self.latencies_ms) / (sum(self.latencies_ms) / 1000)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    @property
    def met(self) -> str:
        if not self.held_to_target:
            return "-"
        ok = self.percentile(0.99) <= self.target_p99_ms and self.rate >= self.target_rate
        return "yes" if ok else "NO"


def states_after(plies: int, count: int = 1, players: int = 2) -> list[tuple[str, int]]:
    """The states after ``plies`` random moves of the first ``count`` seeded games
    still on then with more than one move to choose from; and their seeds."""
    found = []
    for seed in range(1, 10_000):
        game, rng = StawvsGame(players, seed=seed), random.Random(seed)
        for _ in range(plies):
            if game.gameover:
                break
            game.move(rng.choice(game.moves()))
        else:
            if not game.gameover and len(game.moves()) > 1:
                found.append((game.serialize(), seed))
                if len(found) == count:
                    return found
    raise RuntimeError(f"not {count} seeded games last {plies} plies")


def request_line(method: str, params: dict[str, Any]) -> bytes:
    request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return json.dumps(request, separators=(",", ":")).encode("ascii") + b"\n"


def measure(client: Client, lines: list[bytes], count: int) -> list[float]:
    """Latencies (ms) of ``count`` round trips of ``lines`` in turn, after a warm-up."""
    latencies = []
    clock = time.perf_counter_ns
    for i in range(WARM_UP + count):
        line = lines[i % len(lines)]
        start = clock()
        client.send_raw(line)
        answer = client.read_raw()
        elapsed = clock() - start
        response = json.loads(answer)
        if "result" not in response:
            raise RuntimeError(f"the server refused a benchmark request: {response['error']}")
        if i >= WARM_UP:
            latencies.append(elapsed / 1e6)
    return latencies


def rows(client: Client, count: int) -> tuple[list[Row], str, int]:
    """The table. The server keeps the games of its last 16 state texts, so a
    state sent again is not loaded again; the "each new" rows send 24 states in
    turn, so that every request loads its state, as for a host whose games the
    server has not seen."""
    many = states_after(61, 24)
    deep, seed = many[0]
    new = StawvsGame(2, seed=1).serialize()
    table = []
    for label, states, targeted in (
        ("61-ply state", [deep], True),
        ("61-ply, each new", [s for s, _ in many], True),
        ("new game", [new], False),
    ):
        for method, held in (("moves", False), ("validate", targeted), ("move", targeted)):
            lines = []
            for state in states:
                params: dict[str, Any] = {"state": state}
                if method != "moves":
                    params["move"] = StawvsGame(state).moves()[0]
                lines.append(request_line(method, params))
            table.append(Row(f"{method} ({label})", measure(client, lines, count), held))
    return table, deep, seed


def load_cost_ms(text: str, count: int) -> float:
    """Mean in-process time (ms) of ``StawvsGame(text)``."""
    spent = []
    for _ in range(count):
        start = time.perf_counter_ns()
        StawvsGame(text)
        spent.append((time.perf_counter_ns() - start) / 1e6)
    return statistics.fmean(spent)


def print_table(table: list[Row], out: Callable[[str], None] = print) -> None:
    head = ("request", "requests", "requests/s", "p50 ms", "p99 ms", "target", "met")
    lines = [head] + [
        (
            row.label,
            f"{len(row.latencies_ms):,}",
            f"{row.rate:,.0f}",
            f"{row.percentile(0.5):.2f}",
            f"{row.percentile(0.99):.2f}",
            f"p99 ≤ {row.target_p99_ms:g}, ≥ {row.target_rate:g}/s" if row.held_to_target else "",
            row.met,
        )
        for row in table
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    for n, line in enumerate(lines):
        out("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + " |")
        if n == 0:
            out("| " + " | ".join("-" * w for w in widths) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="300 requests per row")
    parser.add_argument("--requests", type=int, help="requests per row (default 2000)")
    args = parser.parse_args(argv)
    count = args.requests or (300 if args.quick else 2000)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    with Client(env=env) as client:
        table, deep, seed = rows(client, count)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores; one request in flight; "
        f"61-ply state: 2 players, seed {seed}, {len(deep):,} bytes"
    )
    print_table(table)
    print(f"in-process StawvsGame(text) of the 61-ply state: {load_cost_ms(deep, 200):.2f} ms mean")
    return 0 if all(row.met != "NO" for row in table) else 1


if __name__ == "__main__":
    sys.exit(main())
