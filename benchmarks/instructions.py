#!/usr/bin/env python
"""Count the instructions the engine's hot paths execute, here and in another checkout.

Usage::

    python benchmarks/instructions.py                      # this checkout
    python benchmarks/instructions.py --against ../before  # and another, side by side
    python benchmarks/instructions.py --quick              # fewer inputs a row

Timings on a shared machine move by a third from one minute to the next;
instructions do not. Each checkout's package runs the rows of
``benchmarks/run.py`` (on the same inputs: the benchmark positions, the
reference games) in one process under valgrind's callgrind, which counts the
instructions of each row's calls alone (the setup, the interpreter's start
and the imports are left out), so two checkouts can be compared exactly, one
after the other, whatever else the machine is doing. Instructions are not
time (a cache miss costs more than an addition), but a change that does less
work executes fewer of them.

Needs valgrind (``apt-get install valgrind``); a row takes about 50 times its
native time, and each checkout about a minute. Writes nothing but its
callgrind files, in a temporary folder it removes.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import operator
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
BENCH_POSITIONS = HERE / "benchmarks" / "bench_positions.jsonl.gz"
REFERENCE_GAMES = HERE / "fixtures" / "reference" / "games.jsonl.gz"
#: The C function around each row's calls (nothing in the engine calls it):
#: callgrind counts only inside it, and writes a count after each call.
MARK = "_operator_call"
ROWS = (
    "moves()",
    "has_moves()",
    "validate_move(complete move)",
    "validate_move(complete move).message",
    "render()",
    "replay game: load + move() × plies",
    "serialize() of a replayed game",
    "StawvsGame(text)",
    "random playout to the end",
)


# The child must import the package of the checkout it counts, first: so this
# script does not import run.py (which puts its own checkout first on the path)
# and writes its few lines of loading and replaying again.


def _load_jsonl(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run_rows(quick: bool) -> None:
    """In the child: each row's calls inside :data:`MARK`, in the order of :data:`ROWS`."""
    from stawvs_ap import StawvsGame
    from stawvs_ap.core.playout import random_playout

    positions = _load_jsonl(BENCH_POSITIONS)[:: 8 if quick else 2]
    reference = _load_jsonl(REFERENCE_GAMES)[:: 3 if quick else 1]
    games = [StawvsGame(p["state"]) for p in positions]
    rng = random.Random(5)
    legal = [rng.choice(g.moves()) for g in games]

    def replay(record: dict[str, Any]) -> Any:
        game = StawvsGame(record["initial"])
        for ply in record["plies"]:
            game.move(ply["move"])
        return game

    longest = min(reference, key=lambda g: abs(len(g["plies"]) - 60))
    replayed = [replay(longest) for _ in range(5)]
    text = replayed[0].serialize()
    playout_rng = random.Random(2025)
    work: dict[str, Callable[[], object]] = {
        "moves()": lambda: [g.moves() for g in games],
        "has_moves()": lambda: [g.has_moves() for g in games],
        "validate_move(complete move)": lambda: [
            g.validate_move(m) for g, m in zip(games, legal, strict=True)
        ],
        "validate_move(complete move).message": lambda: [
            g.validate_move(m).message for g, m in zip(games, legal, strict=True)
        ],
        "render()": lambda: [g.render() for g in games],
        "replay game: load + move() × plies": lambda: [replay(g) for g in reference],
        # Of a copy: a game that has written itself keeps the text (write_state).
        "serialize() of a replayed game": lambda: [g.clone().serialize() for g in replayed[1:]],
        "StawvsGame(text)": lambda: [StawvsGame(text) for _ in range(4)],
        "random playout to the end": lambda: [
            random_playout(g.position, playout_rng) for g in games[::2]
        ],
    }
    calls = {
        "replay game: load + move() × plies": len(reference),
        "serialize() of a replayed game": 4,
        "StawvsGame(text)": 4,
        "random playout to the end": len(games[::2]),
    }
    for name in ROWS:
        work[name]()  # warm: the first call fills the interpreter's caches
        # As timeit does, without the garbage collector, whose passes come
        # when the allocations before them (the setup's too) say so.
        gc.collect()
        gc.disable()
        operator.call(work[name])
        gc.enable()
    import stawvs_ap

    counted = {name: calls.get(name, len(games)) for name in ROWS}
    print(json.dumps({"package": stawvs_ap.__file__, "calls": counted}))


def count(checkout: Path, quick: bool) -> dict[str, float] | str:
    """Instructions per call of each row with ``checkout``'s package, or why not."""
    folder = Path(tempfile.mkdtemp(prefix="stawvs-instructions-"))
    try:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={folder / 'counts'}",
            "--collect-atstart=no",
            f"--toggle-collect={MARK}",
            f"--dump-after={MARK}",
            sys.executable,
            __file__,
            "--child",
            *(["--quick"] if quick else []),
        ]
        env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return f"the run with {checkout} failed: {done.stderr.strip()[-400:]}"
        said = json.loads(done.stdout.strip().splitlines()[-1])
        if not Path(said["package"]).resolve().is_relative_to(checkout.resolve()):
            return f"the run meant for {checkout} imported {said['package']}"
        calls = said["calls"]
        dumps = sorted(folder.glob("counts.*"), key=lambda p: int(p.suffix[1:]))
        totals = [_total(p) for p in dumps]
        if len(totals) != len(ROWS):
            return f"expected {len(ROWS)} counts, callgrind wrote {len(totals)}"
        return {name: total / calls[name] for name, total in zip(ROWS, totals, strict=True)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _total(dump: Path) -> int:
    for line in dump.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError(f"no totals in {dump}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--against", type=Path, help="another checkout, counted the same way")
    parser.add_argument("--quick", action="store_true", help="fewer inputs a row")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_rows(args.quick)
        return 0
    against = args.against.resolve() if args.against else None
    if against is not None and not (against / "stawvs_ap" / "__init__.py").is_file():
        print(f"instructions.py: {args.against} holds no stawvs_ap package", file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        missing = "valgrind is not installed (apt-get install valgrind)"
        print(f"instructions.py: {missing}", file=sys.stderr)
        return 2
    ours = count(HERE, args.quick)
    theirs = count(against, args.quick) if against else None
    for result in (ours, theirs):
        if isinstance(result, str):
            print(f"instructions.py: {result}", file=sys.stderr)
            return 2
    assert isinstance(ours, dict)
    if theirs is None:
        print("| operation | instructions a call |")
        print("| --- | --- |")
        for name in ROWS:
            print(f"| {name} | {ours[name]:,.0f} |")
        return 0
    assert isinstance(theirs, dict)
    print(f"this checkout ({HERE}) against {args.against}")
    print("| operation | other | this | change |")
    print("| --- | --- | --- | --- |")
    for name in ROWS:
        change = (ours[name] / theirs[name] - 1) * 100
        print(f"| {name} | {theirs[name]:,.0f} | {ours[name]:,.0f} | {change:+.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
