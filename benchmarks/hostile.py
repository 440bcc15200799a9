#!/usr/bin/env python
"""Time how long the engine takes to refuse huge hostile documents (issue 11),
and what an attacker on loopback costs the service (issue 51).

Usage::

    python benchmarks/hostile.py [--quick] [--only documents|bodies|batch]

Each document of ``tests/test_hostile_documents.py``'s kind (a million empty
collections, millions of numbers, thousands of stack entries, a board of a
million cells, a hundred megabytes under an unknown key, a 2.9 MB stack of 256
well-formed but impossible entries) is loaded as a parsed dict and, when it
fits the byte limit, as text; the best of three runs is printed beside the
target of 0.5 s.

``bodies``: ``stawvs-ap serve --http`` is started, then 256 connections each
send a body one byte short of the 8 MiB limit and stall; the server's peak
memory and CPU time are printed (before the budget of bodies in flight: 2,110
MB from 45 MB). ``complete``: 32 whole batches of 1,000 ``moves`` calls (6.2 MiB)
posted at once; how many are answered, how many told to retry, the peak
memory and CPU time. ``batch``: one line of 12 ``solve`` calls on standard input,
of which at most 4 run; its time is printed. ``--quick`` runs 32 stalled connections and 4 batches.
Only the standard library and the package (with the ``web`` extra for
``bodies``) are used.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stawvs_ap import StawvsError, StawvsGame
from stawvs_ap.state.format import MAX_ENTRIES, MAX_STATE_BYTES

TARGET_S = 0.5
START = json.loads(StawvsGame.new(2, seed=3).serialize())


def _entry(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["stack"][0]  # type: ignore[no-any-return]


DOCUMENTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "1.3 million empty collections": lambda d: _entry(d).__setitem__("captured", [[]] * 1_300_000),
    "1.9 million zeros": lambda d: _entry(d).__setitem__("eliminated", [0] * 1_900_000),
    "3,166 stack entries": lambda d: d.__setitem__("stack", d["stack"] * 3_166),
    "256 impossible entries": lambda d: d.__setitem__("stack", d["stack"] * MAX_ENTRIES),
    "a board of a million cells": lambda d: _entry(d)["board"].__setitem__(
        "value", [["a1", [["PI", 1]]]] * 1_000_000
    ),
    "100 MB under an unknown key": lambda d: d.__setitem__("pad", "x" * 100_000_000),
}


def _seconds(doc: object) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with contextlib.suppress(StawvsError):
            StawvsGame(doc)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - start)
    return best


def documents() -> None:
    print(f"{'document':32s} {'as a dict':>10s} {'as text':>10s}   target ≤ {TARGET_S} s")
    for name, change in DOCUMENTS.items():
        doc = copy.deepcopy(START)
        change(doc)
        text = json.dumps(doc, separators=(",", ":"))
        as_text = f"{_seconds(text):9.3f}s" if len(text) <= MAX_STATE_BYTES else "too long"
        print(f"{name:32s} {_seconds(doc):9.3f}s {as_text:>10s}")


ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LIMIT = 8 * 1024 * 1024


def _memory_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _stall(port: int, opened: list[socket.socket]) -> None:
    """One connection sending a body one byte short of the limit, left open."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    opened.append(sock)
    head = (
        b"POST /rpc HTTP/1.1\r\nhost: 127.0.0.1:%d\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % (port, LIMIT)
    )
    with contextlib.suppress(OSError):
        sock.sendall(head + b"[" * (LIMIT - 1))


def _serve_http() -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap", "serve", "--http", "127.0.0.1:0"],
        env=ENV,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    return server, int(server.stdout.readline().split("127.0.0.1:", 1)[1].split("/", 1)[0])


def _game(plies: int) -> str:
    from stawvs_ap import StawvsGame

    game = StawvsGame.new(2, seed=3)
    for _ in range(plies):
        game.move(game.moves()[0])
    return game.serialize()


def _post(port: int, body: bytes, statuses: list[int]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(
            "POST",
            "/rpc",
            body=body,
            headers={"content-type": "application/json", "host": f"127.0.0.1:{port}"},
        )
        statuses.append(connection.getresponse().status)
    except OSError:
        statuses.append(0)
    finally:
        connection.close()


def complete(connections: int) -> None:
    """``connections`` whole batches of 1,000 ``moves`` calls posted at once."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "moves", "params": {"state": _game(3)}}
    body = json.dumps([request] * 1000).encode("ascii")[: LIMIT - 1]
    body = body[: body.rindex(b"},{") + 1] + b"]"
    server, port = _serve_http()
    try:
        before = _memory_mb(server.pid, "VmRSS")
        statuses: list[int] = []
        threads = [
            threading.Thread(target=_post, args=(port, body, statuses)) for _ in range(connections)
        ]
        start = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        print(
            f"{connections} whole batches of {len(body) / 2**20:.1f} MiB at once: "
            f"{statuses.count(200)} answered, {statuses.count(503)} told to retry (503), "
            f"the server from {before:.0f} MB to {_memory_mb(server.pid, 'VmHWM'):.0f} MB, "
            f"{_cpu_seconds(server.pid):.1f} s of CPU in {time.monotonic() - start:.0f} s"
        )
    finally:
        server.terminate()
        server.wait(10)


def bodies(connections: int) -> None:
    server, port = _serve_http()
    opened: list[socket.socket] = []
    try:
        before = _memory_mb(server.pid, "VmRSS")
        threads = [threading.Thread(target=_stall, args=(port, opened)) for _ in range(connections)]
        start = time.monotonic()
        for thread in threads:
            thread.start()
        time.sleep(8)  # what can be read is read; the rest waits for room
        print(
            f"{connections} stalled bodies of 8 MiB: the server from {before:.0f} MB to "
            f"{_memory_mb(server.pid, 'VmHWM'):.0f} MB at its peak, "
            f"{_cpu_seconds(server.pid):.1f} s of CPU in {time.monotonic() - start:.0f} s"
        )
    finally:
        for sock in opened:
            sock.close()
        server.terminate()
        server.wait(10)


def batch(calls: int = 12) -> None:
    state = _game(40)
    line = json.dumps(
        [
            {"jsonrpc": "2.0", "id": n, "method": "solve", "params": {"state": state}}
            for n in range(calls)
        ]
    )
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "stawvs_ap", "serve"],
        input=line + "\n",
        env=ENV,
        capture_output=True,
        text=True,
        check=True,
    )
    answers = json.loads(done.stdout)
    ran = sum("error" not in a or a["error"]["code"] != -32600 for a in answers)
    print(
        f"one line of {calls} solve calls on standard input: {ran} ran, "
        f"{calls - ran} refused, {time.monotonic() - start:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="32 stalled connections")
    parser.add_argument("--only", choices=["documents", "bodies", "complete", "batch"])
    args = parser.parse_args()
    if args.only in (None, "documents"):
        documents()
    if args.only in (None, "bodies"):
        bodies(32 if args.quick else 256)
    if args.only in (None, "complete"):
        complete(4 if args.quick else 32)
    if args.only in (None, "batch"):
        batch()


if __name__ == "__main__":
    main()
