#!/usr/bin/env python
"""What hostile values cost at the command line's and the bot's doors (issue 51,
findings 3 to 5).

Usage::

    python benchmarks/hostile_doors.py            # the issue's sizes (about a minute)
    python benchmarks/hostile_doors.py --quick    # a tenth of them

Each row is one command run as a user runs it (``python -m stawvs_ap ...``, a
process of its own), or one call of the bot's challenge check, with the
issue's hostile value:

- ``review`` of a golden record whose two players have names of 200,000
  characters and of 1.9 million (two of them fill the 4 MB limit), beside the
  same record with one-letter names: the wall time, the peak memory and the
  bytes written must stay those of the plain record (the issue measured 11 s
  and 13 MB, then 74 s, 413 MB and 154 MB);
- ``new --variant`` with a variant id of 100,000 characters, and a bot
  challenge with one of a megabyte: the bytes of the refusal (the issue: the
  whole value quoted back);
- ``review --cluster inproc://x`` and ``tls://``: the wall time and the lines
  on standard error (the issue: 22 s and a 10-line Dask traceback).

Nothing is written but temporary files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stawvs_ap.apbot.protocol import challenge_refusal

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "fixtures" / "golden" / "2p-default-seed-1.json"
BOT = "mcts:iterations=1"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _run(*args: str) -> tuple[float, int, int, bytes, bytes]:
    """Run ``stawvs-ap ARGS``: its wall time, exit status, peak memory (KiB),
    standard output and standard error."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "stawvs_ap", *args], env=ENV, stdout=out, stderr=err
        )
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return seconds, os.waitstatus_to_exitcode(status), usage.ru_maxrss, out.read(), err.read()


def _row(what: str, seconds: float, memory_kib: int | None, written: int, status: int) -> None:
    memory = "" if memory_kib is None else f"{memory_kib / 1024:.0f} MB"
    print(f"{what:48s} {seconds:7.2f}s {memory:>7s} {written:>12,d} {status:>5d}")


def review_names(sizes: list[int], folder: Path) -> None:
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))["record"]
    for size in [1, *sizes]:
        for seat, player in enumerate(record["header"]["players"]):
            player["name"] = "AB"[seat] * size
        path = folder / f"names-{size}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        seconds, status, memory, out, err = _run("review", str(path), "--bot", BOT)
        _row(f"review, two names of {size:,} characters", seconds, memory, len(out + err), status)


def long_variant(size: int, challenge_size: int) -> None:
    seconds, status, memory, out, err = _run("new", "--players", "2", "--variant", "v" * size)
    _row(f"new --variant of {size:,} characters", seconds, memory, len(out + err), status)
    challenge = {
        "verb": "challenge",
        "metaGame": "stawvs",
        "variants": ["v" * challenge_size],
        "clockStart": 72,
        "clockInc": 24,
        "clockMax": 168,
        "challengers": ["p1"],
    }
    start = time.perf_counter()
    reason = challenge_refusal(challenge) or ""
    seconds = time.perf_counter() - start
    _row(f"a challenge's variant of {challenge_size:,} bytes", seconds, None, len(reason), 0)


def other_transports() -> None:
    for address in ("inproc://x", "tls://127.0.0.1:8786"):
        seconds, status, _memory, _out, err = _run(
            "review", str(GOLDEN), "--bot", BOT, "--cluster", address
        )
        lines = err.decode("utf-8", "replace").count("\n")
        _row(f"review --cluster {address} ({lines} line)", seconds, None, len(err), status)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the issue's sizes")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    print(f"{'door':48s} {'wall':>8s} {'memory':>7s} {'bytes out':>12s} {'exit':>5s}")
    with tempfile.TemporaryDirectory() as folder:
        review_names([200_000 // scale, 1_900_000 // scale], Path(folder))
    long_variant(100_000 // scale, 1_000_000 // scale)
    other_transports()


if __name__ == "__main__":
    main()
