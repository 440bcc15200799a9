#!/usr/bin/env python
"""Benchmark the service over HTTP and the playground page, from other processes.

Usage::

    python benchmarks/web.py            # 2,000 requests per row, 3 games of clicks
    python benchmarks/web.py --quick    # 300 requests per row, 1 game of clicks
    python benchmarks/web.py --no-page  # the HTTP rows only (no browser needed)

This process starts one server (``python -m stawvs_ap playground --port 0``:
the service and the page) and sends it ``validate`` and ``move`` requests by
``POST /rpc`` over one keep-alive connection on loopback, one request in
flight at a time, on the 61-ply state of ``benchmarks/service.py``. Each
latency runs from sending the request to reading the whole answer. Requests
per second are the requests over the sum of their latencies. A last row
times ``validate`` while a 3-second ``bot_move`` search runs in the same
server, for how much a search slows the others (it must not block them).

With Playwright and Debian's chromium (``/usr/bin/chromium``), it also opens
the page headless: the seconds from navigation until the first board is drawn
(best of 5 loads after a warm-up; target 1 s), and a click's round trip in
the page over whole games played by clicks (seeded random moves of two
people, each square of a move clicked in turn: a click that builds a move is
one request, ``svg`` with the click, and the redraw of the board; the click
that completes it also makes the move and redraws the panel) from the click
event to the page being idle again, timed inside the page (target p95 ≤ 50 ms).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, FLAGS  # noqa: E402  (the browser tests' own)
from service import Row, print_table, states_after  # noqa: E402

from stawvs_ap import StawvsGame  # noqa: E402

WARM_UP = 50
TARGET_P99_MS = 10.0
TARGET_RATE = 300.0
TARGET_CLICK_P95_MS = 50.0
TARGET_READY_S = 1.0


def start_server() -> tuple[subprocess.Popen[str], int]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap", "playground", "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    url = line.split()[line.split().index("on") + 1]
    return process, int(url.rsplit(":", 1)[1].strip("/"))


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used (user + system), where /proc tells it."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def body(method: str, params: dict[str, Any]) -> bytes:
    request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    return json.dumps(request, separators=(",", ":")).encode("ascii")


def connect(port: int) -> http.client.HTTPConnection:
    """A keep-alive connection that sends each request at once, as browsers and
    HTTP libraries do (without TCP_NODELAY, a body sent after its headers waits
    for the server's delayed acknowledgement, 40 ms)."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.connect()
    assert connection.sock is not None
    connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def measure(port: int, bodies: list[bytes], count: int) -> list[float]:
    """Latencies (ms) of ``count`` requests of ``bodies`` in turn, after a warm-up."""
    connection = connect(port)
    headers = {"content-type": "application/json"}
    latencies = []
    clock = time.perf_counter_ns
    for i in range(WARM_UP + count):
        start = clock()
        connection.request("POST", "/rpc", bodies[i % len(bodies)], headers)
        answer = connection.getresponse().read()
        elapsed = clock() - start
        if b'"result"' not in answer[:40]:
            raise RuntimeError(f"the server refused a benchmark request: {answer[:200]!r}")
        if i >= WARM_UP:
            latencies.append(elapsed / 1e6)
    connection.close()
    return latencies


def http_rows(port: int, pid: int, count: int) -> tuple[list[Row], dict[str, float], int]:
    """The table, the server's CPU milliseconds per request of the targeted rows
    (a figure that a busy machine disturbs less than latencies), and the seed."""
    many = states_after(61, 24)
    deep, seed = many[0]
    move = StawvsGame(deep).moves()[0]
    table = []
    cpu_ms = {}
    for method in ("validate", "move"):
        before = cpu_seconds(pid)
        latencies = measure(port, [body(method, {"state": deep, "move": move})], count)
        after = cpu_seconds(pid)
        if before is not None and after is not None:
            cpu_ms[method] = (after - before) * 1000 / (count + WARM_UP)
        table.append(Row(f"{method} (61-ply state)", latencies, True, TARGET_P99_MS, TARGET_RATE))
    for method in ("validate", "move"):
        bodies = [body(method, {"state": s, "move": StawvsGame(s).moves()[0]}) for s, _ in many]
        table.append(Row(f"{method} (61-ply, each new)", measure(port, bodies, count), False))

    def search() -> None:
        connection = connect(port)
        thinking = body("bot_move", {"state": deep, "bot": "mcts", "seconds": 3.0})
        connection.request("POST", "/rpc", thinking, {"content-type": "application/json"})
        connection.getresponse().read()
        connection.close()

    searching = threading.Thread(target=search)
    searching.start()
    time.sleep(0.1)
    during = measure(port, [body("validate", {"state": deep, "move": move})], min(count, 300))
    searching.join()
    table.append(Row("validate (61-ply) during a search", during, False))
    return table, cpu_ms, seed


def page_figures(port: int, games: int) -> tuple[float, list[float]] | str:
    """The page's ready time (s) and click round trips (ms), or why they cannot be measured."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "playwright is not installed"
    if not CHROMIUM.exists():
        return f"no chromium at {CHROMIUM}"
    url = f"http://127.0.0.1:{port}/"
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        ready = []
        for _ in range(6):  # each in a new context: nothing kept from the load before
            page = browser.new_context().new_page()
            started = time.perf_counter()
            page.goto(url)
            page.wait_for_selector('body[data-ready="yes"]')
            ready.append(time.perf_counter() - started)
        page.evaluate('() => window.stawvs.setSeats(["human", "human", "human", "human"])')
        times: list[float] = []
        for seed in range(games):
            times += clicked_game(page, seed)
        browser.close()
    return min(ready[1:]), times


#: More plies than a 2-player game can last (60 pyramids, and passes).
MAX_PLIES = 400

#: A click on a square (or the pass button) and the wait for the page to settle,
#: timed inside the page.
_TIMED_CLICK = """async (selector) => {
    const target = document.querySelector(selector);
    const start = performance.now();
    target.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    await window.stawvs.idle();
    return performance.now() - start;
}"""


def clicked_game(page: Any, seed: int) -> list[float]:
    """Plays a new 2-player game of seeded random moves to its end by clicks, as
    a person would: each square of a move clicked in turn (the pass button for
    a pass). The round trip of each click (ms)."""
    page.evaluate("text => window.stawvs.load(text)", StawvsGame.new(2, seed=seed).serialize())
    page.evaluate("() => window.stawvs.idle()")
    rng = random.Random(seed)
    times: list[float] = []
    for _ in range(MAX_PLIES):
        game = StawvsGame(page.evaluate("() => window.stawvs.state()"))
        if game.gameover:
            break
        move = rng.choice(game.legal_moves)
        if str(move) == "pass":
            selectors = ["#pass-button"]
        else:
            squares = filter(None, (move.source, move.dest, move.target))
            selectors = [f'#board [data-square="{square}"]' for square in squares]
        times += [page.evaluate(_TIMED_CLICK, selector) for selector in selectors]
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--quick", action="store_true", help="300 requests per row, 1 game of clicks"
    )
    parser.add_argument("--requests", type=int, help="requests per row (default 2000)")
    parser.add_argument("--no-page", action="store_true", help="leave out the page's figures")
    args = parser.parse_args(argv)
    count = args.requests or (300 if args.quick else 2000)
    process, port = start_server()
    try:
        table, cpu_ms, seed = http_rows(port, process.pid, count)
        page = None if args.no_page else page_figures(port, 1 if args.quick else 3)
    finally:
        process.terminate()
        process.wait(10)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores; one server process, "
        f"one request in flight, keep-alive, loopback; 61-ply state: seed {seed}"
    )
    print_table(table)
    met = all(row.met != "NO" for row in table)
    if cpu_ms:
        shown = ", ".join(f"{m} {ms:.2f} ms ({1000 / ms:,.0f}/s)" for m, ms in cpu_ms.items())
        print(f"server CPU per request (61-ply state): {shown}")
    if isinstance(page, str):
        print(f"page: not measured ({page})")
    elif page is not None:
        ready, clicks = page
        p50, p95 = percentile(clicks, 0.5), percentile(clicks, 0.95)
        print(
            f"page ready: {ready:.2f} s (best of 5 loads; target ≤ {TARGET_READY_S:g} s: "
            f"{'yes' if ready <= TARGET_READY_S else 'NO'})"
        )
        print(
            f"click round trip in the page, {len(clicks)} clicks of whole games: p50 {p50:.1f} ms, "
            f"p95 {p95:.1f} ms (target p95 ≤ {TARGET_CLICK_P95_MS:g} ms: "
            f"{'yes' if p95 <= TARGET_CLICK_P95_MS else 'NO'})"
        )
        met &= ready <= TARGET_READY_S and p95 <= TARGET_CLICK_P95_MS
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
