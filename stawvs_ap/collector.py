"""Pausing the cyclic garbage collector around work that makes many objects and
no reference cycles, which reference counting frees anyway.

No rule of the game: a leaf beside :mod:`stawvs_ap.errors` that every floor may
use (the state loader parses with it, the bots' searches run under it).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector off inside the block, then restore it.

    Parsing a hostile text of a million tiny lists otherwise sets off collection
    after collection (1.6 s instead of 0.35 for 1.3 million), and a collection in
    the middle of a bot's search can take tens of milliseconds and break its time
    budget.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
