"""A clock for tests of time budgets that does not depend on the machine."""

from __future__ import annotations

import pytest

from stawvs_ap.bots import base as bots_base


class SteppingClock:
    """A stand-in for the bots' clock (``stawvs_ap.bots.base.time``) that moves
    on by ``step`` seconds at each reading, whatever the machine is doing: a
    test of a time budget counts readings instead of timing a shared machine."""

    def __init__(self, step: float = 0.001) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def stepping_clock(monkeypatch: pytest.MonkeyPatch, step: float = 0.001) -> SteppingClock:
    """A :class:`SteppingClock` put in place of the bots' clock for one test."""
    clock = SteppingClock(step)
    monkeypatch.setattr(bots_base, "time", clock)
    return clock
