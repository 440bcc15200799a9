"""The arena's games on a cluster of Dask distributed (``pip install "stawvs-ap[cluster]"``).

:class:`Cluster` is a runner (:mod:`stawvs_ap.bots.runners`) that connects to
a running Dask scheduler and plays each game as a task of its own: the task
carries everything the game is seeded from, so it plays the same game on
whichever worker, in whichever order. Only this module imports Dask, and only
when a :class:`Cluster` is made; the package works without it.

- **Lazily:** it keeps four games per worker thread (at least 16) in flight and
  submits the next as each one finishes, so a match of any length costs the
  scheduler only the games in flight.
- **Faults:** a worker that dies takes its games with it; the scheduler gives
  them to other workers, and each game's :class:`~stawvs_ap.bots.runners.Done`
  counts the times it was started (every task reports its start as an event
  of the run's own topic). A result counts once. A game that keeps killing
  its workers (Dask's ``allowed-failures``, 3 by default), a worker that fails
  a game (no ``stawvs_ap`` installed there, another version), and a lost
  scheduler raise :class:`~stawvs_ap.errors.StawvsError` ``ARENA_FAILED`` with
  one sentence.
- **Stopping:** leaving the iteration early (an interrupt) cancels the games
  not started, and the games in play stop at their next move: they ask the
  run's stop :class:`distributed.Event` at most once a second.

Dask's own log lines are silenced while the cluster is in use: the arena
says what matters itself.
"""

from __future__ import annotations

import importlib
import logging
import socket
import struct
import time
import uuid
from collections.abc import Generator, Iterable
from contextlib import suppress
from threading import Lock
from types import TracebackType
from typing import Any

from ..errors import ErrorCode, StawvsError, excerpt
from ..version import __version__
from .base import BotErrorCode
from .runners import Done, Play, T

__all__ = ["STOP_POLL_SECONDS", "Cluster", "cluster_address", "dask_distributed"]

#: How often a game in play asks whether its run still wants it.
STOP_POLL_SECONDS = 1.0
_KEY_PREFIX = "stawvs-game"
_END: Any = object()  # the end of the tasks


def dask_distributed() -> Any:
    """The ``distributed`` module, imported on first use (an optional extra; its
    calls are not type-checked here)."""
    return importlib.import_module("distributed")


def _failed(message: str) -> StawvsError:
    return StawvsError(BotErrorCode.ARENA_FAILED, message)


def _on_worker(play: Play[Any, Any], task: Any, topic: str) -> tuple[str, Any]:
    """Run on a worker: report the start, play the game, and answer with this
    worker's package version beside the result."""
    distributed = dask_distributed()
    worker = distributed.get_worker()
    worker.log_event(topic, str(worker.get_current_task()))
    stop = distributed.Event(f"{topic}-stop")
    asked = time.monotonic()

    def should_stop() -> bool:
        nonlocal asked
        if time.monotonic() - asked < STOP_POLL_SECONDS:
            return False
        asked = time.monotonic()
        return bool(stop.is_set())

    return __version__, play(task, should_stop)


#: The most bytes a scheduler's first message (its handshake) may announce.
MAX_HANDSHAKE_BYTES = 64 * 1024


#: The longest host name DNS has.
_MAX_HOST = 253


def cluster_address(address: object) -> tuple[str, int]:
    """The host and port of a scheduler's address ``tcp://HOST:PORT``, or
    ``BAD_ARGUMENT`` in one line: Dask's other transports (``inproc://``,
    ``tls://``, ``ucx://``) are not the arena's, and a bare ``HOST:PORT``
    lacks its scheme.

    >>> cluster_address("tcp://127.0.0.1:8786"), cluster_address("tcp://[::1]:8786")
    (('127.0.0.1', 8786), ('::1', 8786))
    """
    scheme, _, rest = address.partition("://") if isinstance(address, str) else ("", "", "")
    host, _, port = rest.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")  # an IPv6 address in brackets
    if (
        scheme != "tcp"
        or not 0 < len(host) <= _MAX_HOST
        or not host.isprintable()
        or " " in host
        or not (port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536)
    ):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a cluster's address is tcp://HOST:PORT (such as tcp://127.0.0.1:8786), "
            f"not {excerpt(address)}",
        )
    return host, int(port)


def _check_scheduler(address: str, timeout: float) -> None:
    """Refuse (``ARENA_FAILED``, one line) a peer whose first message is not a
    Dask handshake, reading at most :data:`MAX_HANDSHAKE_BYTES` of it within
    ``timeout`` seconds, before Dask trusts any frame size it announces."""
    host, port = cluster_address(address)
    shown = excerpt(address)
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as peer:
            head = _read_exactly(peer, 8, deadline)
            (size,) = struct.unpack("<Q", head)
            if not 0 < size <= MAX_HANDSHAKE_BYTES:
                raise _failed(
                    f"{shown} is not a Dask scheduler: its first message announces {size:,} bytes"
                )
            if b"pickle-protocol" not in _read_exactly(peer, size, deadline):
                raise _failed(f"{shown} is not a Dask scheduler: it did not greet as one")
    except TimeoutError:
        raise _failed(
            f"{shown} is not a Dask scheduler: it said nothing Dask says within {timeout:g} s"
        ) from None
    except (OSError, UnicodeError) as exc:  # UnicodeError: a host name that IDNA refuses
        raise _failed(f"cannot reach the cluster at {shown}: {_reason(exc)}") from None


def _read_exactly(peer: socket.socket, size: int, deadline: float) -> bytes:
    data = bytearray()
    while len(data) < size:
        peer.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = peer.recv(min(size - len(data), 65536))
        if not chunk:
            raise OSError("it closed the connection")
        data += chunk
    return bytes(data)


class Cluster:
    """The Dask cluster whose scheduler listens at ``address`` (``tcp://HOST:PORT``).

    Connecting waits at most ``timeout`` seconds. Use it as a context manager,
    or call :meth:`close`. Raises ``BAD_ARGUMENT`` for any other address
    (:func:`cluster_address`), before connecting; ``ARENA_FAILED`` when Dask is
    not installed or the scheduler cannot be reached. While it is open and ``quiet``, Dask's
    log lines in this process are dropped.
    """

    def __init__(self, address: str, *, timeout: float = 10.0, quiet: bool = True) -> None:
        cluster_address(address)
        try:
            distributed = dask_distributed()
        except ImportError:
            raise _failed(
                "--cluster needs Dask distributed: pip install 'stawvs-ap[cluster]'"
            ) from None
        self.address = address
        self._distributed = distributed
        _check_scheduler(address, timeout)
        self._silence = _Silence() if quiet else None
        try:
            self.client: Any = distributed.Client(
                address, timeout=timeout, set_as_default=False, name="stawvs-arena"
            )
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            if self._silence:
                self._silence.end()
            raise _failed(
                f"cannot reach the cluster at {excerpt(address)}: {_reason(exc)}"
            ) from None

    def threads(self) -> int:
        """The worker threads the cluster has now."""
        try:
            return sum(self.client.nthreads().values())
        except (OSError, TimeoutError):
            raise self._lost() from None

    def _lost(self) -> StawvsError:
        return _failed(
            f"lost the cluster at {excerpt(self.address)}: its scheduler no longer answers"
        )

    def run(self, tasks: Iterable[T], play: Play[T, Any]) -> Generator[Done[T, Any], None, None]:
        distributed = self._distributed
        client = self.client
        run = uuid.uuid4().hex
        topic = f"stawvs-arena-{run}"
        starts: dict[str, int] = {}
        lock = Lock()

        def started(event: tuple[float, Any]) -> None:
            with lock:
                starts[event[1]] = starts.get(event[1], 0) + 1

        source = iter(tasks)
        in_flight: dict[Any, T] = {}
        completed = distributed.as_completed(
            loop=client.loop, with_results=True, raise_errors=False
        )
        window = 0
        sized = -1.0
        number = 0
        stop = None
        try:
            client.subscribe_topic(topic, started)
            stop = distributed.Event(f"{topic}-stop", client=client)
            while True:
                if time.monotonic() - sized > 5:  # workers come and go
                    window, sized = max(16, 4 * self.threads()), time.monotonic()
                while len(in_flight) < window:
                    task = next(source, _END)
                    if task is _END:
                        break
                    future = client.submit(
                        _on_worker,
                        play,
                        task,
                        topic,
                        key=f"{_KEY_PREFIX}-{run}-{number}",
                        pure=False,
                    )
                    number += 1
                    in_flight[future] = task
                    completed.add(future)
                if not in_flight:
                    return
                future, value = next(completed)
                task = in_flight.pop(future)
                yield Done(task, self._result(value), self._attempts(future.key, starts, lock))
        finally:
            if in_flight and client.status == "running":
                with suppress(OSError, TimeoutError):
                    if stop is not None:
                        stop.set()
                    client.cancel(list(in_flight))
            in_flight.clear()
            with suppress(OSError, TimeoutError, RuntimeError):
                client.unsubscribe_topic(topic)

    @staticmethod
    def _attempts(key: str, starts: dict[str, int], lock: Lock) -> int:
        with lock:
            return max(1, starts.pop(key, 1))

    def _result(self, value: Any) -> Any:
        # The value tells, not the future's status: a worker that dies right after
        # its result was fetched makes the status "lost" although the result is here.
        if isinstance(value, tuple) and len(value) == 2:
            version, result = value
            if version != __version__:
                raise _failed(
                    f"a worker of the cluster runs stawvs-ap {version}, this is {__version__}: "
                    "install the same version on every worker"
                )
            return result
        if not isinstance(value, tuple) or self.client.status != "running":
            raise self._lost()  # cancelled, and not by us
        error: BaseException = value[1] if len(value) == 3 else RuntimeError(repr(value))
        if isinstance(error, self._distributed.KilledWorker):
            raise _failed(
                "a game killed every worker it was given (Dask's allowed-failures): "
                "giving up on it (is it running out of memory?)"
            )
        raise _failed(f"a worker of the cluster failed a game: {_reason(error)}")

    def close(self) -> None:
        try:
            with suppress(OSError, TimeoutError, RuntimeError):
                self.client.close(timeout=5)
        finally:
            if self._silence:
                self._silence.end()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class _Silence:
    """Drops the log records of Dask's loggers (each has a level of its own, so the
    parent's level is not enough) until :meth:`end`."""

    def __init__(self) -> None:
        names = ["distributed"] + [
            name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
        ]
        self._loggers = [logging.getLogger(name) for name in names]
        self._was = [logger.disabled for logger in self._loggers]
        for logger in self._loggers:
            logger.disabled = True
        # Loggers made later still reach the handlers of "distributed".
        self._handlers = list(self._loggers[0].handlers)
        self._levels = [handler.level for handler in self._handlers]
        for handler in self._handlers:
            handler.setLevel(logging.CRITICAL + 1)

    def end(self) -> None:
        for logger, was in zip(self._loggers, self._was, strict=True):
            logger.disabled = was
        for handler, level in zip(self._handlers, self._levels, strict=True):
            handler.setLevel(level)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
