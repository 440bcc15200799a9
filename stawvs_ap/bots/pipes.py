"""An external engine's process, and the exchange of a JSON-RPC request for its
answer by a deadline (what :class:`~stawvs_ap.bots.engine.ExecBot` plays with).

The process runs in a process group of its own (so that Ctrl-C in a terminal
reaches the caller alone, and killing the group takes whatever the engine
started). On Linux the processes descended from it at the moment it is
killed are killed too, found by their parents in ``/proc``, so that a child
that left the group (``setsid``) goes as well; a process whose parent had
already exited (a double fork) has been adopted by another and is not found.
Its pipes are read and written without blocking, every wait has a
deadline, and nothing it writes is held beyond one line of
:data:`MAX_LINE_BYTES` and the tail of its standard error. Whatever goes
wrong is a :class:`~stawvs_ap.bots.base.BotFailure`.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
import weakref
from collections.abc import Callable
from typing import Any, Final

from ..errors import excerpt
from .base import BotFailure

__all__ = ["MAX_LINE_BYTES", "EngineProcess"]

#: The longest line an engine may write (an answer is some thirty bytes).
MAX_LINE_BYTES: Final = 1 << 20
#: What is kept of the engine's standard error, to say why it stopped.
_ERROR_TAIL_BYTES: Final = 4096
_CHUNK: Final = 1 << 16


def _descendants(pid: int) -> list[int]:
    """The processes descended from ``pid`` now, by their parents in ``/proc``
    (none where there is no ``/proc``)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                # The name, in parentheses, may hold anything: the parent follows the last ")".
                parent = int(stat.read().rpartition(b")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo and len(found) < 100_000:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def _kill_group(process: subprocess.Popen[bytes], known: list[int] | None = None) -> None:
    """Kill the engine, everything in its process group, every process descended
    from it, and the ``known`` descendants noted earlier, and reap it."""

    def send(kill: Callable[[int, int], None], pids: list[int], sig: signal.Signals) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(pid, sig)

    # Stopped first, so that none of them forks while the tree is read.
    send(os.killpg, [process.pid], signal.SIGSTOP)
    descendants = _descendants(process.pid) if process.poll() is None else []
    send(os.kill, descendants, signal.SIGSTOP)
    send(os.kill, [*(known or []), *descendants, *_descendants(process.pid)], signal.SIGKILL)
    send(os.killpg, [process.pid], signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


class EngineProcess:
    """One running engine: its process, what it has written, and the deadline-bound
    exchange of a request for an answer."""

    def __init__(self, argv: list[str]) -> None:
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                close_fds=True,
                start_new_session=True,  # its own group: killed whole, spared our Ctrl-C
            )
        except OSError as exc:
            raise BotFailure(
                "forfeit", f"the engine could not be started: {exc.strerror or exc}"
            ) from None
        # Backstop: whatever happens to the bot, the process dies with the interpreter.
        # Its descendants noted before it is asked to leave: once it has exited,
        # its orphans have another parent and cannot be found from it.
        self._tree: list[int] = []
        self._finalizer = weakref.finalize(self, _kill_group, self.process, self._tree)
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self.stdin, self.stdout, self.stderr = (
            self.process.stdin.fileno(),
            self.process.stdout.fileno(),
            self.process.stderr.fileno(),
        )
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.pending = bytearray()  # written by the engine, not yet read as lines
        self.errors = bytearray()  # the tail of its standard error
        self.open = {self.stdout, self.stderr}

    def exchange(self, request: dict[str, Any], deadline: float) -> dict[str, Any]:
        """Send ``request`` and return the engine's answer to it, by ``deadline``
        (``time.monotonic()``); :class:`BotFailure` otherwise."""
        data = memoryview((json.dumps(request, separators=(",", ":")) + "\n").encode())
        with selectors.DefaultSelector() as selector:
            for fd in self.open:
                selector.register(fd, selectors.EVENT_READ)
            selector.register(self.stdin, selectors.EVENT_WRITE)
            while True:
                answer = self._answer(request["id"])
                if answer is not None:
                    return answer
                if self.stdout not in self.open:
                    raise BotFailure("forfeit", self._gone())
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotFailure("timeout", "no answer in time")
                for key, _ in selector.select(remaining):
                    if key.fd == self.stdin:
                        data = self._write(data)
                        if not data:
                            selector.unregister(self.stdin)
                    elif not self._read(key.fd):
                        selector.unregister(key.fd)

    def _write(self, data: memoryview) -> memoryview:
        try:
            return data[os.write(self.stdin, data[:_CHUNK]) :]
        except BlockingIOError:
            return data
        except OSError:  # it closed its input: what it said, or its exit, tells why
            return data[:0]

    def _read(self, fd: int) -> bool:
        """Take what ``fd`` has; False at its end."""
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:
            return True
        if not chunk:
            self.open.discard(fd)
            return False
        if fd == self.stderr:
            self.errors += chunk
            del self.errors[:-_ERROR_TAIL_BYTES]
        else:
            self.pending += chunk
        return True

    def _answer(self, request_id: int) -> dict[str, Any] | None:
        """The answer to ``request_id`` among the complete lines written so far."""
        while True:
            end = self.pending.find(b"\n")
            if end < 0:
                if len(self.pending) > MAX_LINE_BYTES:
                    raise BotFailure(
                        "forfeit", f"it wrote a line longer than {MAX_LINE_BYTES} bytes"
                    )
                return None
            line = bytes(self.pending[:end]).strip()
            del self.pending[: end + 1]
            if len(line) > MAX_LINE_BYTES:
                raise BotFailure("forfeit", f"it wrote a line longer than {MAX_LINE_BYTES} bytes")
            if not line:
                continue
            message = _message(line)
            if "id" not in message and "method" in message:
                continue  # a notification of its own (a log line): nothing to answer
            if message.get("id") != request_id or isinstance(message.get("id"), bool):
                raise BotFailure(
                    "forfeit",
                    f"it answered request {excerpt(json.dumps(message.get('id')), 60)}, "
                    f"not request {request_id}",
                )
            return message

    def _gone(self) -> str:
        """Why the engine stopped talking: its exit status and last words."""
        try:
            status = self.process.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            reason = "it closed its output"
        else:
            reason = f"it was killed by signal {-status}" if status < 0 else f"it exited ({status})"
        words = self.errors.decode("utf-8", "replace").strip().splitlines()
        return reason + (f": {excerpt(words[-1], 100)}" if words else "")

    def notify(self, method: str) -> None:
        """Send a notification if the engine takes it at once; never waits."""
        line = json.dumps({"jsonrpc": "2.0", "method": method}) + "\n"
        if method == "quit":
            self._note_tree()
        with contextlib.suppress(OSError):
            os.write(self.stdin, line.encode())

    def stop(self, *, grace: float) -> None:
        """Ask nothing more: close its input, give it ``grace`` seconds to exit,
        then kill its process group and its descendants."""
        self._note_tree()
        if grace > 0:
            try:
                self.process.stdin.close()  # type: ignore[union-attr]
                self.process.wait(timeout=grace)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._finalizer()

    def _note_tree(self) -> None:
        if self.process.poll() is None:
            self._tree[:] = sorted({*self._tree, *_descendants(self.process.pid)})


def _message(line: bytes) -> dict[str, Any]:
    """A JSON-RPC 2.0 object read from ``line``; a forfeit for anything else."""
    try:
        message = json.loads(line, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise BotFailure(
            "forfeit", f"it wrote {excerpt(line, 60)}, which is no JSON-RPC 2.0 answer"
        )
    return message


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")
