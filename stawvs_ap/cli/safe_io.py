"""Files for the command line: bounded reads, and writes that leave a target's
old file or its new one, never a torn one and never a lost update.

A :class:`Transaction` carries one command:

1. :meth:`~Transaction.reserve` checks an output path before any work and makes
   its temporary file beside the real target (through symbolic links);
2. :meth:`~Transaction.read` reads at most ``limit + 1`` bytes of an input. An
   input that is also an output (under any name, or as standard input) is
   locked (``flock``, exclusive) until the transaction ends, so that two
   commands updating one file take turns;
3. :meth:`~Transaction.commit` writes each temporary file in full and flushes
   it to the disk, prints standard output, then renames each over its target
   (``os.replace``, which swaps the whole file at once).

Leaving the ``with`` block any other way removes the temporary files and
changes no target. Under :func:`interrupts_raise` a stop signal (SIGINT,
SIGTERM, SIGHUP) raises :class:`Interrupted`, held back while a temporary
file is made or removed and while the renames run. Linux (POSIX) only.
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import StrEnum
from types import FrameType

from ..errors import StawvsError

__all__ = [
    "TEMP_PREFIX",
    "CliErrorCode",
    "FileError",
    "Interrupted",
    "Transaction",
    "flush_stdout",
    "interrupts_raise",
    "label",
    "write_stdout",
]

#: Temporary files are hidden and easy to recognise: ``.stawvs-ap-XXXXXXXX.tmp``.
TEMP_PREFIX = ".stawvs-ap-"
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class CliErrorCode(StrEnum):
    """The codes of the command line's floor (the others are
    :class:`~stawvs_ap.errors.ErrorCode` and the bots' and service's)."""

    #: An input or output failed: a file, standard input or standard output.
    FILE_ERROR = "FILE_ERROR"
    #: Bad input on the command line: a usage error, an unreadable argument.
    BAD_COMMAND = "BAD_COMMAND"
    #: The local Dask cluster (:mod:`stawvs_ap.cli.localcluster`) did not start.
    CLUSTER_FAILED = "CLUSTER_FAILED"


class FileError(StawvsError):
    """An input or output failed (code ``FILE_ERROR``); the message names the path
    as the user gave it."""

    def __init__(self, message: str) -> None:
        super().__init__(CliErrorCode.FILE_ERROR, message)


class Interrupted(BaseException):
    """A signal asked the command to stop (see :func:`interrupts_raise`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def label(path: str) -> str:
    return "standard input" if path == "-" else repr(path)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


# -- interrupts ---------------------------------------------------------------------

#: The stop signals that came while held back (:func:`_signals_held`); None outside.
_held: list[int] | None = None


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _held is not None:
        _held.append(signum)
        return
    raise Interrupted(signum)


@contextmanager
def interrupts_raise() -> Iterator[None]:
    """Inside, the stop signals raise :class:`Interrupted`, so cleanup code runs.

    SIGTERM and SIGHUP would otherwise end the process on the spot, leaving
    temporary files behind. A signal ignored on entry (``nohup``, a
    background job) stays ignored. Outside the main thread nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {
        signum: signal.signal(signum, _on_signal)
        for signum in _SIGNALS
        if signal.getsignal(signum) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def _signals_held() -> Iterator[None]:
    """A stop signal that comes inside the block is raised once it is done, so
    that a temporary file never exists unrecorded and the renames all run."""
    global _held
    _held = []
    try:
        yield
    finally:
        came, _held = _held, None
        if came:
            raise Interrupted(came[0])


# -- standard output -----------------------------------------------------------------


def _silence_stdout() -> None:
    """Point descriptor 1 at /dev/null after a failed write.

    The unwritten text stays in Python's buffer, and the interpreter flushes
    it again at exit, which would fail once more with a traceback.
    """
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _stdout_failed(exc: OSError | ValueError) -> FileError:
    _silence_stdout()
    reason = _reason(exc) if isinstance(exc, OSError) else "it is closed"
    return FileError(f"cannot write to standard output: {reason}")


def flush_stdout() -> None:
    """Flush standard output; a failure is a :class:`FileError`."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError) as exc:
        raise _stdout_failed(exc) from None


def write_stdout(text: str) -> None:
    """Write ``text`` to standard output and flush it; a failure is a :class:`FileError`."""
    if sys.stdout is None:
        raise FileError("cannot write to standard output: it is closed")
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        raise FileError(
            f"cannot write to standard output: its encoding ({sys.stdout.encoding}) "
            "cannot show this text"
        ) from None
    except (OSError, ValueError) as exc:
        raise _stdout_failed(exc) from None
    flush_stdout()


# -- the transaction -----------------------------------------------------------------


def _identity(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def _current_identity(path: str) -> tuple[int, int] | None:
    try:
        return _identity(os.stat(path))
    except FileNotFoundError:
        return None


@dataclass
class _Target:
    path: str  # as the user gave it: every message names this
    real: str  # the file to replace, symbolic links resolved
    identity: tuple[int, int] | None  # of the file there at reserve time
    temp: str | None = None


class Transaction:
    """One command's reads and writes; see the module's documentation."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._targets: dict[str, _Target] = {}
        self._locks: list[int] = []  # descriptors of our own, each holding a lock

    def __enter__(self) -> Transaction:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reserve(self, path: str) -> None:
        """Check that ``path`` can be replaced and make its temporary file now."""
        if path in self._targets:
            return
        where = label(path)
        if not path or path.endswith(os.sep):
            raise FileError(f"cannot write {where}: it does not name a file")
        try:
            st: os.stat_result | None = os.stat(path)
        except FileNotFoundError:
            st = None  # a new file, or a dangling link whose target will be made
        except OSError as exc:
            raise FileError(f"cannot write {where}: {_reason(exc)}") from None
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                raise FileError(f"cannot write {where}: it is a directory")
            if not stat.S_ISREG(st.st_mode):
                # Renaming over a device or a pipe would replace it, not write to it.
                raise FileError(f"cannot write {where}: it is not a regular file")
            if not os.access(path, os.W_OK):
                raise FileError(f"cannot write {where}: {os.strerror(errno.EACCES)}")
        target = _Target(path, os.path.realpath(path), None if st is None else _identity(st))
        for other in self._targets.values():
            if other.real == target.real or (target.identity and other.identity == target.identity):
                raise FileError(f"{label(other.path)} and {where} are the same file")
        with _signals_held():
            try:
                fd, target.temp = tempfile.mkstemp(
                    prefix=TEMP_PREFIX, suffix=".tmp", dir=os.path.dirname(target.real)
                )
            except FileNotFoundError:
                raise FileError(f"cannot write {where}: its directory does not exist") from None
            except OSError as exc:
                raise FileError(f"cannot write {where}: {_reason(exc)}") from None
            os.close(fd)
            self._targets[path] = target

    def read(self, path: str, what: str) -> bytes:
        """The bytes of ``path`` (``-``: standard input), refused past the size limit.

        Call :meth:`reserve` for every output first: an input that is also an
        output is then locked until the transaction ends.
        """
        where = label(path)
        try:
            data = self._read_stdin() if path == "-" else self._read_file(path)
        except OSError as exc:
            raise FileError(f"cannot read {what} {where}: {_reason(exc)}") from None
        except FileError:
            raise  # ours (a FileError is a ValueError too): not a closed input
        except ValueError:  # a closed standard input
            raise FileError(f"cannot read {what} {where}: it is closed") from None
        if len(data) > self.limit:
            raise FileError(f"cannot read {what} {where}: it is larger than {self.limit:,} bytes")
        return data

    def read_text(self, path: str, what: str) -> str:
        """:meth:`read`, as UTF-8 text; bytes that are not UTF-8 are a :class:`FileError`."""
        try:
            return self.read(path, what).decode("utf-8")
        except UnicodeDecodeError:
            raise FileError(f"cannot read {what} {label(path)}: it is not UTF-8 text") from None

    def _locked_if_output(self, fd: int, real: str | None) -> _Target | None:
        """Lock ``fd``'s file until the end when it is an output's, and give that
        output back if another command replaced its file while this one waited
        for the lock (the lock is then let go); None otherwise."""
        identity = _identity(os.fstat(fd))
        for target in self._targets.values():
            if target.identity == identity or target.real == real:
                fcntl.flock(fd, fcntl.LOCK_EX)
                if _current_identity(target.real) == identity:
                    self._locks.append(fd)
                    return None
                fcntl.flock(fd, fcntl.LOCK_UN)
                return target
        return None

    def _read_file(self, path: str) -> bytes:
        real = os.path.realpath(path)
        while True:  # a file replaced while we waited for its lock: read the new one
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                if self._locked_if_output(fd, real) is None:
                    return _read_at_most(fd, self.limit + 1)
            finally:
                if fd not in self._locks:
                    os.close(fd)

    def _read_stdin(self) -> bytes:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise ValueError("no standard input")
        try:  # a copy of the descriptor of our own, to lock and close
            fd = os.dup(stream.fileno())
        except (AttributeError, OSError, ValueError):
            fd = None  # not a real descriptor, as under a test runner's capture
        if fd is not None:
            try:
                replaced = self._locked_if_output(fd, None)
            finally:
                if fd not in self._locks:
                    os.close(fd)
            if replaced is not None:  # the shell opened the old file: no path to open again
                raise FileError(
                    f"cannot update {label(replaced.path)}: another command replaced it "
                    "while this one waited for it; run the command again"
                )
        data = stream.read(self.limit + 1)
        return bytes(data) if data is not None else b""

    def commit(self, outputs: Mapping[str, str]) -> None:
        """Write every ``path: text`` (``-``: standard output): each file is
        filled in full before standard output is printed and the files renamed."""
        files = [path for path in outputs if path != "-"]
        for path in files:
            self.reserve(path)
        for path in files:
            self._fill(self._targets[path], outputs[path])
        if "-" in outputs:
            write_stdout(outputs["-"])
        with _signals_held():
            for path in files:
                target = self._targets[path]
                assert target.temp is not None
                try:
                    os.replace(target.temp, target.real)
                except OSError as exc:
                    raise FileError(f"cannot write {label(path)}: {_reason(exc)}") from None
                target.temp = None

    @staticmethod
    def _fill(target: _Target, text: str) -> None:
        """Write ``text`` to the target's temporary file, with the target's mode
        (a new file's from the umask), and flush it to the disk."""
        assert target.temp is not None
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise FileError(f"cannot write {label(target.path)}: the text is not UTF-8") from None
        try:
            with open(target.temp, "wb") as out:
                out.write(data)
                out.flush()
                try:
                    old = os.stat(target.real)
                except FileNotFoundError:
                    umask = os.umask(0)
                    os.umask(umask)
                    os.fchmod(out.fileno(), 0o666 & ~umask)
                else:
                    with suppress(OSError):  # only root may give files away; the mode still goes
                        os.fchown(out.fileno(), old.st_uid, old.st_gid)
                    os.fchmod(out.fileno(), stat.S_IMODE(old.st_mode))
                os.fsync(out.fileno())
        except OSError as exc:
            raise FileError(f"cannot write {label(target.path)}: {_reason(exc)}") from None

    def close(self) -> None:
        """Remove every temporary file still there and let go of the locks."""
        with _signals_held():
            for target in self._targets.values():
                if target.temp is not None:
                    with suppress(FileNotFoundError):
                        os.unlink(target.temp)
                    target.temp = None
            while self._locks:
                fd = self._locks.pop()
                with suppress(OSError):  # a copy of standard input keeps its file open
                    fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)


def _read_at_most(fd: int, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        block = os.read(fd, min(1 << 18, size - len(data)))
        if not block:
            break
        data += block
    return bytes(data)
