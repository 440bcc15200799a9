#!/usr/bin/env python
"""What ``import stawvs_ap`` costs: the time a host waits, and what it loads.

Usage::

    python benchmarks/imports.py            # 20 fresh interpreters per row
    python benchmarks/imports.py --runs 5

Each row starts a fresh interpreter that imports what the row names and prints
the time the import took (``time.perf_counter`` around it) and how many of the
package's modules it loaded; the row shows the best and the median of the
runs (the slower runs measure other processes). The rows: Python alone (the
interpreter's own start is not counted, so this is the clock's floor), the
package (what a game host does), the package and then its solver (what
``stawvs_ap.solve`` costs the first time). Standard library only; nothing is
written.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ROWS = (
    ("nothing", "pass"),
    ("import stawvs_ap", "import stawvs_ap"),
    ("import stawvs_ap; stawvs_ap.solve", "import stawvs_ap; stawvs_ap.solve"),
)

PROBE = (
    "import sys, time\n"
    "start = time.perf_counter()\n"
    "{code}\n"
    "took = time.perf_counter() - start\n"
    "print(took, sum(name.split('.')[0] == 'stawvs_ap' for name in sys.modules))\n"
)


def measure(code: str, runs: int) -> tuple[list[float], int]:
    """The import's times over ``runs`` fresh interpreters, and the modules it loaded."""
    times = []
    modules = 0
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", PROBE.format(code=code)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        took, count = done.stdout.split()
        times.append(float(took))
        modules = int(count)
    return times, modules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="fresh interpreters per row")
    runs = parser.parse_args().runs
    print(f"{'row':40} {'best ms':>8} {'median ms':>10} {'modules':>8}")
    for label, code in ROWS:
        times, modules = measure(code, runs)
        best, median = min(times) * 1000, statistics.median(times) * 1000
        print(f"{label:40} {best:8.1f} {median:10.1f} {modules:8d}")


if __name__ == "__main__":
    main()
