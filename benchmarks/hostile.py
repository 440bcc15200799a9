#!/usr/bin/env python
"""Time how long the engine takes to refuse huge hostile documents (issue 11).

Usage::

    python benchmarks/hostile.py

Each document of ``tests/test_hostile_documents.py``'s kind (a million empty
collections, millions of numbers, thousands of stack entries, a board of a
million cells, a hundred megabytes under an unknown key, a 2.9 MB stack of 256
well-formed but impossible entries) is loaded as a parsed dict and, when it
fits the byte limit, as text; the best of three runs is printed beside the
target of 0.5 s. Only the standard library and the package are used.
"""

from __future__ import annotations

import contextlib
import copy
import json
import sys
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


def main() -> None:
    print(f"{'document':32s} {'as a dict':>10s} {'as text':>10s}   target ≤ {TARGET_S} s")
    for name, change in DOCUMENTS.items():
        doc = copy.deepcopy(START)
        change(doc)
        text = json.dumps(doc, separators=(",", ":"))
        as_text = f"{_seconds(text):9.3f}s" if len(text) <= MAX_STATE_BYTES else "too long"
        print(f"{name:32s} {_seconds(doc):9.3f}s {as_text:>10s}")


if __name__ == "__main__":
    main()
