"""A bot that thinks for more than a moment says so at a terminal, and only there."""

from __future__ import annotations

import io
import time

import pytest

from stawvs_ap.cli.terminal import THINKING_AFTER, thinking


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.slow
def test_a_long_think_is_shown_at_a_terminal_and_erased_when_it_ends() -> None:
    terminal = _Terminal()
    with thinking(terminal, "mcts (@2) is thinking…", after=0.05):
        time.sleep(0.3)
        assert terminal.getvalue() == "mcts (@2) is thinking…"
    assert terminal.getvalue() == "mcts (@2) is thinking…\r\x1b[K"


@pytest.mark.slow
def test_a_quick_answer_shows_nothing() -> None:
    terminal = _Terminal()
    with thinking(terminal, "thinking…"):
        pass
    time.sleep(THINKING_AFTER + 0.05)  # the timer was stopped: nothing comes later
    assert terminal.getvalue() == ""


def test_off_a_terminal_nothing_is_written() -> None:
    log = io.StringIO()
    with thinking(log, "thinking…", after=0.0):
        time.sleep(0.05)
    assert log.getvalue() == ""


def test_the_signal_comes_after_about_a_third_of_a_second() -> None:
    assert 0.2 <= THINKING_AFTER <= 0.4
