"""Pausing the garbage collector (``stawvs_ap.collector``): off inside, as before after."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from stawvs_ap.collector import collector_paused


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was_enabled = gc.isenabled()
    yield
    (gc.enable if was_enabled else gc.disable)()


def test_the_collector_is_off_inside_and_on_again_after() -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_the_block_raises() -> None:
    gc.enable()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_pauses_nest() -> None:
    gc.enable()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_in_one_thread_does_not_end_another_threads_pause() -> None:
    gc.enable()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with collector_paused():
            second_in.set()
            first_out.wait(5)
            seen.append(gc.isenabled())  # the first thread's pause has ended; this one has not

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == [False]
    assert gc.isenabled()


def test_overlapping_pauses_of_many_threads_leave_the_collector_on() -> None:
    gc.enable()
    barrier = threading.Barrier(8)

    def pause() -> None:
        for _ in range(200):
            with collector_paused():
                pass
        barrier.wait(10)

    threads = [threading.Thread(target=pause) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert gc.isenabled()
