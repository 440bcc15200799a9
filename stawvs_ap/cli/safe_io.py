"""Files for the command line: bounded reads, locked updates, all-or-nothing writes.

A :class:`Transaction` carries one command from its first check to its last
rename:

1. :meth:`~Transaction.reserve` checks every output path before any work and
   makes its temporary file beside the real target (through symbolic links),
   so that an unwritable target costs nothing;
2. :meth:`~Transaction.read` reads at most ``limit + 1`` bytes of an input. An
   input that is also an output (under any name, or as standard input) is
   locked (``flock``, exclusive) from here to the end, so that two commands
   updating one file take turns;
3. :meth:`~Transaction.commit` fills the temporary files, prints standard
   output, then renames every file into place, undoing the earlier renames if
   a later one fails.

Leaving the ``with`` block any other way removes every temporary file and
changes no target. Interrupts (SIGINT, SIGTERM, SIGHUP) become
:class:`Interrupted` under :func:`interrupts_raise`, and wait while files are
being created or renamed. Linux (POSIX) only.
"""

from __future__ import annotations

import errno
import fcntl
import os
import secrets
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import StrEnum
from types import FrameType, TracebackType

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
_CHUNK = 1 << 18


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


class _Deferral:
    depth = 0
    pending: int | None = None


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _Deferral.depth:
        _Deferral.pending = signum
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
def _critical() -> Iterator[None]:
    """Hold stop signals back until the block is done.

    Blocking them in the kernel covers callers without our handlers (the
    default SIGTERM would kill us mid-rename); the depth counter covers a
    signal whose Python handler was already due when the block began.
    """
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    _Deferral.depth += 1
    try:
        yield
    finally:
        _Deferral.depth -= 1
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        if not _Deferral.depth and _Deferral.pending is not None:
            signum, _Deferral.pending = _Deferral.pending, None
            raise Interrupted(signum)


# -- reading -------------------------------------------------------------------------


def _read_at_most(fd: int, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        block = os.read(fd, min(_CHUNK, size - len(data)))
        if not block:
            break
        data += block
    return bytes(data)


def _identity(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def _open_locked(path: str) -> int:
    """Open ``path`` and hold an exclusive lock on the file it names.

    An update replaces the file by renaming a new one over it, so a process
    that waited for the lock may wake up holding the old, unlinked file: it
    then tries again with whatever ``path`` names now.
    """
    while True:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if _identity(os.fstat(fd)) == _identity(os.stat(path)):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


# -- writing -------------------------------------------------------------------------


@dataclass
class _Target:
    path: str  # as the user gave it: every message names this
    real: str  # the file to replace, symbolic links resolved
    temp: str | None = None
    fd: int | None = None
    identity: tuple[int, int] | None = None  # of the file there at reserve time


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


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


def flush_stdout() -> None:
    """Flush standard output; a failure is a :class:`FileError`."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError) as exc:
        _silence_stdout()
        reason = _reason(exc) if isinstance(exc, OSError) else "it is closed"
        raise FileError(f"cannot write to standard output: {reason}") from None


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
        _silence_stdout()
        reason = _reason(exc) if isinstance(exc, OSError) else "it is closed"
        raise FileError(f"cannot write to standard output: {reason}") from None
    flush_stdout()


class Transaction:
    """One command's reads and writes; see the module's documentation."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._targets: dict[str, _Target] = {}
        self._locks: list[int] = []
        self._stdin_lock: int | None = None

    def __enter__(self) -> Transaction:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- outputs -------------------------------------------------------------------

    def reserve(self, path: str) -> None:
        """Check that ``path`` can be replaced and make its temporary file now."""
        if path in self._targets:
            return
        where = label(path)
        if not path or path.endswith(os.sep):
            raise FileError(f"cannot write {where}: it does not name a file")
        real = os.path.realpath(path)
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
        target = _Target(path, real, identity=_identity(st) if st is not None else None)
        for other in self._targets.values():
            if other.real == real or (target.identity and other.identity == target.identity):
                raise FileError(f"{label(other.path)} and {where} are the same file")
        with _critical():  # a temporary file must never exist unrecorded
            try:
                target.fd, target.temp = tempfile.mkstemp(
                    prefix=TEMP_PREFIX, suffix=".tmp", dir=os.path.dirname(real)
                )
            except OSError as exc:
                reason = (
                    "its directory does not exist"
                    if isinstance(exc, FileNotFoundError)
                    else _reason(exc)
                )
                raise FileError(f"cannot write {where}: {reason}") from None
            self._targets[path] = target

    def _is_output(self, fd: int, path: str) -> bool:
        identity, real = _identity(os.fstat(fd)), os.path.realpath(path)
        return any(t.identity == identity or t.real == real for t in self._targets.values())

    # -- inputs --------------------------------------------------------------------

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

    def _read_stdin(self) -> bytes:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise ValueError("no standard input")
        try:
            fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):
            fd = None  # not a real descriptor, as under a test runner's capture
        if fd is not None:
            self._lock_stdin(fd)
        data = stream.read(self.limit + 1)
        return bytes(data) if data is not None else b""

    def _lock_stdin(self, fd: int) -> None:
        """Lock standard input when it is an output file (``move - X -o g.json < g.json``).

        The shell opened it, so there is no path to open again if an update
        replaced the file while we waited: the command is refused instead.
        """
        identity = _identity(os.fstat(fd))
        for target in self._targets.values():
            if target.identity != identity:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._stdin_lock = fd
            try:
                current = _identity(os.stat(target.real))
            except FileNotFoundError:
                current = None
            if current != identity:
                raise FileError(
                    f"cannot update {label(target.path)}: another command replaced it "
                    "while this one waited for it; run the command again"
                )
            return

    def _read_file(self, path: str) -> bytes:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            shared = self._is_output(fd, path)
        except BaseException:
            os.close(fd)
            raise
        if shared:
            os.close(fd)
            fd = _open_locked(path)
            self._locks.append(fd)  # released by close(), after the renames
            return _read_at_most(fd, self.limit + 1)
        try:
            return _read_at_most(fd, self.limit + 1)
        finally:
            os.close(fd)

    # -- the end -------------------------------------------------------------------

    def commit(self, outputs: Mapping[str, str]) -> None:
        """Write every ``path: text`` (``-``: standard output), all of them or none."""
        for path in outputs:
            if path != "-":
                self.reserve(path)
        targets = [self._targets[path] for path in outputs if path != "-"]
        for target in targets:
            self._fill(target, outputs[target.path])
        if "-" in outputs:
            write_stdout(outputs["-"])
        self._install(targets)

    def _fill(self, target: _Target, text: str) -> None:
        assert target.fd is not None
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise FileError(f"cannot write {label(target.path)}: the text is not UTF-8") from None
        try:
            _write_all(target.fd, data)
            try:
                old = os.stat(target.real)
            except FileNotFoundError:
                os.fchmod(target.fd, _new_file_mode())
            else:
                with suppress(OSError):  # only root may give files away; the mode still goes
                    os.fchown(target.fd, old.st_uid, old.st_gid)
                os.fchmod(target.fd, stat.S_IMODE(old.st_mode))
            os.fsync(target.fd)
        except OSError as exc:
            raise FileError(f"cannot write {label(target.path)}: {_reason(exc)}") from None
        finally:
            fd, target.fd = target.fd, None
            os.close(fd)

    def _install(self, targets: list[_Target]) -> None:
        """Rename each temporary file over its target; on a failure undo the earlier ones.

        Every target but the last keeps a hard link to its old file until all
        are in place: renaming the link back is the undo. Where hard links are
        not to be had, a target is restored only if it did not exist before.
        """
        undo: list[tuple[_Target, str | None, bool]] = []
        backups: list[str] = []
        with _critical():
            try:
                for number, target in enumerate(targets):
                    existed = os.path.lexists(target.real)
                    backup = None
                    if existed and number < len(targets) - 1:
                        backup = _hard_link_beside(target.real)
                        if backup is not None:
                            backups.append(backup)
                    assert target.temp is not None
                    try:
                        os.replace(target.temp, target.real)
                    except OSError as exc:
                        self._undo(undo)
                        raise FileError(
                            f"cannot write {label(target.path)}: {_reason(exc)}"
                        ) from None
                    target.temp = None
                    undo.append((target, backup, existed))
            finally:
                for backup in backups:
                    _remove(backup)

    @staticmethod
    def _undo(done: list[tuple[_Target, str | None, bool]]) -> None:
        for target, backup, existed in reversed(done):
            try:
                if backup is not None:
                    os.replace(backup, target.real)
                elif not existed:
                    os.unlink(target.real)
            except OSError:
                pass  # keep undoing the others; the error reported is the first one

    def close(self) -> None:
        """Remove every temporary file still there and release the locks."""
        with _critical():
            for target in self._targets.values():
                if target.fd is not None:
                    fd, target.fd = target.fd, None
                    os.close(fd)
                if target.temp is not None:
                    _remove(target.temp)
                    target.temp = None
            while self._locks:
                os.close(self._locks.pop())
            if self._stdin_lock is not None:
                fd, self._stdin_lock = self._stdin_lock, None
                with suppress(OSError):
                    fcntl.flock(fd, fcntl.LOCK_UN)


def _hard_link_beside(path: str) -> str | None:
    directory = os.path.dirname(path)
    for _ in range(100):
        name = os.path.join(directory, f"{TEMP_PREFIX}{secrets.token_hex(6)}.old")
        try:
            os.link(path, name)
        except FileExistsError:
            continue
        except OSError:
            return None
        return name
    return None


def _remove(path: str) -> None:
    with suppress(FileNotFoundError):
        os.unlink(path)
