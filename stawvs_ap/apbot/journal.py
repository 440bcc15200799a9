"""The bot's journal: the games it plays, the positions it was asked to move
in and what became of each, in one SQLite file (the standard library's
:mod:`sqlite3`).

Abstract Play's queue may deliver a webhook twice, never deliver one, and the
bot may stop in the middle of a search. A position is known by its game and
its moves (:func:`position_key`); the first webhook (or poll, see
:mod:`~stawvs_ap.apbot.poller`) for it records it ``accepted`` with the game's
state, the move chosen makes it ``chosen``, and the answer of the bot-query
URL ``submitted`` or ``refused``. A send that found the platform unreachable
leaves the position ``chosen`` and puts off its next try (:meth:`Journal.postpone`);
a position whose game went on or ended without it is ``done``. A second webhook
for a recorded position adds nothing. After a restart, :meth:`Journal.unfinished`
lists the ``accepted`` and ``chosen`` positions: a ``chosen`` one is sent with
the move already chosen, never searched again.

Each game is remembered with the seat the bot plays in it (the player to move
in its first position), so that the games not over can be polled.

The journal also remembers the nonces of signed requests for the window in
which their timestamps are accepted, so that a replayed request is refused,
also after a restart.

The file is held by one process at a time (a lock beside it, ``PATH.lock``);
it is written in SQLite's write-ahead mode, so that a reader (a backup) does
not stop the bot's writes. Any fault of the file while the bot runs is a
:class:`JournalFault`: the bot answers it as a busy moment, never as a crash.

>>> journal = Journal(":memory:")
>>> key = position_key("g1", [["b2", "c2"]])
>>> journal.accept(key, "g1", 2, 24.0, "{}", seat=1, now=0.0)
True
>>> journal.accept(key, "g1", 2, 24.0, "{}", seat=1, now=1.0)  # a duplicate webhook
False
>>> journal.choose(key, "d5"); journal.status(key)
'chosen'
>>> journal.unfinished() == [key], journal.games_in_play()
(True, [('g1', 1)])
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, NamedTuple, TypeVar

from ..errors import ErrorCode, StawvsError
from ..service.jsonrpc import ServiceErrorCode

__all__ = [
    "BUSY_SECONDS",
    "KEEP_SECONDS",
    "MAX_NONCES",
    "MAX_PENDING",
    "Journal",
    "JournalFault",
    "Pending",
    "default_journal_path",
    "position_key",
]

#: The most positions accepted and not yet finished (more are refused).
MAX_PENDING: Final = 256
#: The most nonces remembered at once (more requests are refused until some age out).
MAX_NONCES: Final = 100_000
#: How long a finished position is kept (its duplicates are recognised that long).
KEEP_SECONDS: Final = 30 * 24 * 3600.0
#: How long a write waits for another program's lock on the file, in seconds.
BUSY_SECONDS: Final = 2.0

_UNFINISHED: Final = "('accepted', 'chosen')"
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS positions (
    key TEXT PRIMARY KEY,
    gameid TEXT NOT NULL,
    plies INTEGER NOT NULL,
    clock REAL NOT NULL,
    state TEXT NOT NULL,
    status TEXT NOT NULL,
    move TEXT,
    received REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS positions_status ON positions (status);
CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, seen REAL NOT NULL);
CREATE INDEX IF NOT EXISTS nonces_seen ON nonces (seen);
CREATE TABLE IF NOT EXISTS games (
    gameid TEXT PRIMARY KEY,
    seat INTEGER NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS retries (
    key TEXT PRIMARY KEY,
    tries INTEGER NOT NULL,
    next_try REAL NOT NULL
);
"""
# A journal of an earlier version marked a position whose send failed 'lost'
# for good: it is to be tried again now.
_UPGRADE: Final = (
    "UPDATE positions SET status = CASE WHEN move IS NULL THEN 'accepted' ELSE 'chosen' END "
    "WHERE status = 'lost'"
)

_T = TypeVar("_T")


class JournalFault(StawvsError):
    """The journal could not be read or written just now (another program holds
    its lock, the disk is full, …): code ``SERVER_BUSY``, worth trying again."""

    def __init__(self, problem: str) -> None:
        super().__init__(ServiceErrorCode.SERVER_BUSY, f"the journal is unavailable: {problem}")


def position_key(gameid: str, moves: object) -> str:
    """The name of the position a webhook asks about: its game and its moves.

    >>> position_key("g1", [["b2"]]) == position_key("g1", [["b2"]]) != position_key("g1", [])
    True
    """
    text = json.dumps([gameid, moves], ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def default_journal_path() -> Path:
    """``$XDG_STATE_HOME/stawvs-ap/ap-bot.sqlite3`` (``~/.local/state`` without it)."""
    base = os.environ.get("XDG_STATE_HOME", "").strip()
    root = Path(base) if base else Path.home() / ".local" / "state"
    return root / "stawvs-ap" / "ap-bot.sqlite3"


class Pending(NamedTuple):
    """A position still to finish: its game, clock (hours), state and chosen move."""

    key: str
    gameid: str
    clock: float
    state: str
    move: str | None


def _refused(path: Path, problem: str) -> StawvsError:
    return StawvsError(ErrorCode.BAD_ARGUMENT, f"the journal {str(path)!r} {problem}")


def _hold(path: Path) -> int | None:
    """A file descriptor holding the lock ``PATH.lock`` beside the journal, or
    None where the system has no ``flock``; refused when another process holds it."""
    lock = path.with_name(path.name + ".lock")
    if lock.is_symlink():
        raise _refused(path, f"has {lock.name} as a symbolic link: it is not opened")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as exc:
        raise _refused(path, f"cannot be locked: {exc.strerror or exc}") from None
    if sys.platform == "win32":  # pragma: no cover - no flock there
        return fd
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise _refused(path, "is in use by another running bot: one journal, one bot") from None
    return fd


def _check_file(path: Path) -> None:
    """Refuse a journal that is a symbolic link or anything but a regular file."""
    if path.is_symlink():
        raise _refused(path, "is a symbolic link: it is not opened")
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _refused(path, f"cannot be used: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise _refused(path, f"is {kind}")


class Journal:
    """The journal in the SQLite file ``path`` (``":memory:"`` for one that dies
    with the object); made with its folder when new. Safe to share between
    threads. A journal that is a symbolic link, not a regular file, not a
    journal, unwritable or held by another process is refused (``BAD_ARGUMENT``
    naming the file and the problem)."""

    def __init__(self, path: str | Path, *, busy_seconds: float = BUSY_SECONDS) -> None:
        self._lock = threading.Lock()
        self._held: int | None = None
        memory = str(path) == ":memory:"
        where = Path(path)
        if not memory:
            _check_file(where)
            try:
                where.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise _refused(where, f"cannot be made: {exc.strerror or exc}") from None
            self._held = _hold(where)
            try:  # made here, not by SQLite, so that no link is followed
                flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                os.close(os.open(where, flags, 0o600))
            except OSError as exc:
                self._release()
                raise _refused(where, f"cannot be written: {exc.strerror or exc}") from None
        try:
            self._db = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=busy_seconds
            )
            if not memory:
                # Write-ahead: a reader stops no write. NORMAL: a commit survives
                # the process's end; only a power cut may take the last ones.
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._db.execute(_UPGRADE)
            self._db.execute(
                f"DELETE FROM positions WHERE status NOT IN {_UNFINISHED} AND updated < ?",
                (time.time() - KEEP_SECONDS,),
            )
        except sqlite3.Error as exc:
            self._release()
            raise _refused(where, f"cannot be used as a journal: {exc}") from None

    def _release(self) -> None:
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def close(self) -> None:
        """Close the file and let another process have it (the object is unusable
        afterwards)."""
        with self._lock:
            self._db.close()
            self._release()

    def _do(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """``work`` on the database under the lock, as one transaction; a fault
        of the file is a :class:`JournalFault`."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(self._db)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return result
            except sqlite3.Error as exc:
                raise JournalFault(str(exc)) from None

    def _rows(self, sql: str, *args: Any) -> list[Any]:
        """The rows of one read (a statement is a transaction of its own)."""
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise JournalFault(str(exc)) from None

    # -- positions ---------------------------------------------------------

    def accept(
        self,
        key: str,
        gameid: str,
        plies: int,
        clock: float,
        state: str,
        *,
        seat: int,
        now: float,
    ) -> bool:
        """Record a new position ``accepted`` of the game ``gameid``, the bot at
        ``seat`` (1-based); False (and nothing changed) when it is known already."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?, ?, 'accepted', NULL, ?, ?)",
                (key, gameid, plies, clock, state, now, now),
            )
            if cursor.rowcount != 1:
                return False
            db.execute(
                "INSERT INTO games VALUES (?, ?, 0, ?) ON CONFLICT (gameid) "
                "DO UPDATE SET seat = excluded.seat, over = 0, updated = excluded.updated",
                (gameid, seat, now),
            )
            return True

        return self._do(work)

    def knows(self, key: str) -> bool:
        """Whether the position ``key`` was accepted before."""
        return self.status(key) is not None

    def status(self, key: str) -> str | None:
        """``accepted``, ``chosen``, ``submitted``, ``refused`` or ``done``; None
        for an unknown position."""
        rows = self._rows("SELECT status FROM positions WHERE key = ?", key)
        return str(rows[0][0]) if rows else None

    def pending_count(self) -> int:
        """How many positions are accepted or chosen and not yet finished."""
        rows = self._rows(f"SELECT COUNT(*) FROM positions WHERE status IN {_UNFINISHED}")
        return int(rows[0][0])

    def pending(self, key: str) -> Pending | None:
        """The position ``key`` if it is still to finish."""
        rows = self._rows(
            "SELECT key, gameid, clock, state, move FROM positions "
            f"WHERE key = ? AND status IN {_UNFINISHED}",
            key,
        )
        return Pending(*rows[0]) if rows else None

    def unfinished(self, *, due: float | None = None) -> list[str]:
        """The positions accepted or chosen and never finished, oldest first;
        with ``due``, only those whose next try is not later than ``due``."""
        rows = self._rows(
            "SELECT p.key FROM positions p LEFT JOIN retries r ON r.key = p.key "
            f"WHERE p.status IN {_UNFINISHED} AND (? IS NULL OR COALESCE(r.next_try, 0) <= ?) "
            "ORDER BY p.received",
            due,
            due,
        )
        return [str(row[0]) for row in rows]

    def choose(self, key: str, move: str) -> None:
        """Record the move chosen for ``key`` (before it is sent)."""
        self._set(key, "chosen", move)

    def finish(self, key: str, status: str) -> None:
        """Record the end of ``key``: ``submitted``, ``refused`` or ``done``."""
        assert status in {"submitted", "refused", "done"}, status
        self._set(key, status, None)

    def postpone(self, key: str, *, first: float, longest: float, now: float) -> float:
        """Put off the next try of ``key`` (its send found no platform): ``first``
        seconds after the first failure, doubled each time, at most ``longest``;
        the seconds put off."""

        def work(db: sqlite3.Connection) -> float:
            row = db.execute("SELECT tries FROM retries WHERE key = ?", (key,)).fetchone()
            tries = 0 if row is None else int(row[0])
            delay = min(longest, first * 2.0 ** min(tries, 30))
            db.execute(
                "INSERT OR REPLACE INTO retries VALUES (?, ?, ?)", (key, tries + 1, now + delay)
            )
            return delay

        return self._do(work)

    def _set(self, key: str, status: str, move: str | None) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE positions SET status = ?, move = COALESCE(?, move), updated = ? "
                "WHERE key = ?",
                (status, move, time.time(), key),
            )
            if status not in {"accepted", "chosen"}:
                db.execute("DELETE FROM retries WHERE key = ?", (key,))

        self._do(work)

    # -- games ---------------------------------------------------------------

    def games_in_play(self) -> list[tuple[str, int]]:
        """The games not known to be over, each with the bot's seat."""
        rows = self._rows("SELECT gameid, seat FROM games WHERE over = 0 ORDER BY updated")
        return [(str(gameid), int(seat)) for gameid, seat in rows]

    def settle(self, gameid: str, *, plies: int, over: bool) -> list[str]:
        """The game ``gameid`` is at ``plies`` moves (and ``over`` or not): its
        unfinished positions of fewer moves are ``done`` (the game went on
        without them), all of them when it is over, and the game is polled no
        more when over. The positions so settled."""

        def work(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                f"SELECT key FROM positions WHERE gameid = ? AND status IN {_UNFINISHED} "
                "AND (plies < ? OR ?)",
                (gameid, plies, over),
            ).fetchall()
            keys = [str(row[0]) for row in rows]
            for key in keys:
                db.execute(
                    "UPDATE positions SET status = 'done', updated = ? WHERE key = ?",
                    (time.time(), key),
                )
                db.execute("DELETE FROM retries WHERE key = ?", (key,))
            if over:
                db.execute("UPDATE games SET over = 1 WHERE gameid = ?", (gameid,))
            return keys

        return self._do(work)

    def key_at(self, gameid: str, plies: int) -> str | None:
        """The position of ``gameid`` recorded after ``plies`` moves, if any."""
        rows = self._rows(
            "SELECT key FROM positions WHERE gameid = ? AND plies = ? LIMIT 1", gameid, plies
        )
        return str(rows[0][0]) if rows else None

    def is_over(self, gameid: str) -> bool:
        """Whether the game ``gameid`` was found over."""
        return bool(self._rows("SELECT 1 FROM games WHERE gameid = ? AND over = 1", gameid))

    # -- nonces --------------------------------------------------------------

    def first_use(self, nonce: str, *, now: float, window: float) -> bool | None:
        """Remember ``nonce``: True the first time it is seen within ``window``
        seconds, False when it was seen already, None when :data:`MAX_NONCES` are
        remembered (the caller refuses the request)."""

        def work(db: sqlite3.Connection) -> bool | None:
            db.execute("DELETE FROM nonces WHERE seen < ?", (now - 2 * window,))
            (count,) = db.execute("SELECT COUNT(*) FROM nonces").fetchone()
            if db.execute("SELECT 1 FROM nonces WHERE nonce = ?", (nonce,)).fetchone():
                return False
            if count >= MAX_NONCES:
                return None
            db.execute("INSERT INTO nonces VALUES (?, ?)", (nonce, now))
            return True

        return self._do(work)
