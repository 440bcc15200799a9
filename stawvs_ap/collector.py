"""Pausing the cyclic garbage collector around work that makes many objects and
no reference cycles, which reference counting frees anyway.

No rule of the game: a leaf beside :mod:`stawvs_ap.errors` that every floor may
use; the state loader parses with it. ``benchmarks/collector.py`` times the
parse with and without the pause (and a bot's search, which gains nothing
from one and so runs without).

The collector is one per process, so a pause is shared: the HTTP service runs
requests on several threads, and one thread's pause must neither end another's
nor leave the collector off. Pauses are counted under a lock: the first to
begin turns the collector off (if it was on), the last to end turns it back
on; in between, garbage from any thread waits for that end, never longer than
the longest paused block (the parse of a state within the byte limit, a
tenth of a second).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]

_LOCK = threading.Lock()
#: How many blocks, in every thread, are inside :func:`collector_paused`.
_paused = 0
#: Whether the collector was on when the first of them began.
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector off inside the block, then restore it
    once no block of any thread is paused any more.

    Parsing a hostile text of a million tiny lists otherwise sets off collection
    after collection: ``benchmarks/collector.py`` parses 1.3 million in about
    0.1 s with the pause, 0.3 s without.
    """
    global _paused, _was_enabled
    with _LOCK:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _LOCK:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
