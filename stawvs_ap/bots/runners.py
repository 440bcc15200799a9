"""Where the arena's games are played: in this process, or in local worker processes.

A runner plays *tasks* (anything picklable; the arena's are
:class:`~stawvs_ap.bots.arena.GameTask`) with a function ``play(task, should_stop)``
and yields a :class:`Done` for each as it finishes, in whatever order. It
draws tasks from its iterable only when it has room for one, so a match of
any length costs memory for the games in flight, not for the games to come.
The cluster runner (:mod:`stawvs_ap.bots.cluster`) keeps the same promise on
Dask distributed.

``should_stop`` is ``None`` or a function that the play function asks between
moves; once it answers True, the game is no longer wanted and may stop by
raising :class:`Stopped`.

>>> runner = InProcess()
>>> [(d.task, d.result, d.attempts) for d in runner.run([1, 2], lambda t, s: t * 10)]
[(1, 10, 1), (2, 20, 1)]
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from types import FrameType
from typing import Any, Generic, Protocol, TypeVar

from ..errors import ErrorCode, StawvsError
from .base import BotErrorCode

__all__ = [
    "MAX_ATTEMPTS",
    "Done",
    "InProcess",
    "LocalProcesses",
    "Runner",
    "Stopped",
    "cores",
]

T = TypeVar("T")
R = TypeVar("R")
StopCheck = Callable[[], bool]
Play = Callable[[T, StopCheck | None], R]

#: A game is tried this often before the run gives up on it: a game whose every
#: attempt kills its worker (running out of memory, say) is not tried forever.
MAX_ATTEMPTS = 4


class Stopped(StawvsError):
    """A game stopped because its run no longer wants it (an interrupt; code
    ``GAME_STOPPED``)."""

    def __init__(self, message: str) -> None:
        super().__init__(BotErrorCode.GAME_STOPPED, message)


@dataclass(frozen=True)
class Done(Generic[T, R]):
    """A finished task: its result, and how many times it was started (1 when no
    worker died under it)."""

    task: T
    result: R
    attempts: int = 1


class Runner(Protocol):
    """What plays the arena's games. ``run`` yields each task's result once, as it
    finishes; leaving the iteration early (an interrupt, an error) stops the games
    in flight."""

    def run(self, tasks: Iterable[T], play: Play[T, R]) -> Generator[Done[T, R], None, None]: ...


def cores() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class InProcess:
    """Plays each task here, one after the other."""

    def run(self, tasks: Iterable[T], play: Play[T, R]) -> Generator[Done[T, R], None, None]:
        for task in tasks:
            yield Done(task, play(task, None))


class _Worker:
    """A child process that plays one task at a time for its parent."""

    def __init__(self, play: Play[Any, Any]) -> None:
        parent_end, child_end = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=_serve, args=(child_end, play), daemon=True)
        self.process.start()
        child_end.close()
        self.conn = parent_end
        self.task: Any = None
        self.attempts = 0

    def give(self, task: Any, attempts: int) -> None:
        self.task, self.attempts = task, attempts
        self.conn.send(task)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _leave(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _serve(conn: multiprocessing.connection.Connection, play: Play[Any, Any]) -> None:
    # The parent stops its workers itself; a Ctrl-C reaches the whole process
    # group, and a worker that caught it would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Stopped by its parent, it leaves through its game's cleanup (which stops an
    # external engine it started) and quietly: SystemExit prints nothing.
    signal.signal(signal.SIGTERM, _leave)
    signal.signal(signal.SIGHUP, _leave)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", play(task, None))
        except Exception as exc:  # handed to the parent, which raises it
            answer = ("error", exc)
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


class LocalProcesses:
    """Plays tasks in ``jobs`` child processes, one game at a time each.

    A worker that dies (killed, out of memory) takes only its own game with it:
    the game is started again in a new worker, up to :data:`MAX_ATTEMPTS` times,
    and its :class:`Done` counts the attempts. Leaving the iteration early stops
    every worker. An exception raised by ``play`` is raised here.
    """

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "jobs must be at least 1")
        self.jobs = jobs

    def run(self, tasks: Iterable[T], play: Play[T, R]) -> Generator[Done[T, R], None, None]:
        source = iter(tasks)
        again: deque[tuple[T, int]] = deque()  # games whose worker died, with their attempts
        idle: list[_Worker] = []
        busy: list[_Worker] = []
        exhausted = False
        try:
            while True:
                while (again or not exhausted) and len(busy) < self.jobs:
                    if again:
                        task, attempts = again.popleft()
                    else:
                        try:
                            task, attempts = next(source), 0
                        except StopIteration:
                            exhausted = True
                            break
                    worker = idle.pop() if idle else _Worker(play)
                    worker.give(task, attempts + 1)
                    busy.append(worker)
                if not busy:
                    return
                ready = multiprocessing.connection.wait(
                    [w.conn for w in busy] + [w.process.sentinel for w in busy]
                )
                for worker in list(busy):
                    answer = None
                    if worker.conn in ready:
                        try:
                            answer = worker.conn.recv()
                        except (EOFError, OSError):
                            answer = None
                    if answer is not None:
                        busy.remove(worker)
                        idle.append(worker)
                        status, value = answer
                        if status == "error":
                            raise value
                        yield Done(worker.task, value, worker.attempts)
                    elif worker.process.sentinel in ready or worker.conn in ready:
                        busy.remove(worker)
                        worker.stop()
                        if worker.attempts >= MAX_ATTEMPTS:
                            raise StawvsError(
                                BotErrorCode.ARENA_FAILED,
                                f"a game killed its worker {worker.attempts} times: "
                                "giving up (is it running out of memory?)",
                            )
                        again.append((worker.task, worker.attempts))
        finally:
            for worker in idle + busy:
                worker.stop()
