"""The bot's journal: which positions it was asked to move in, and what became
of each, in one SQLite file (the standard library's :mod:`sqlite3`).

Abstract Play's queue may deliver a webhook twice, and the bot may stop in the
middle of a search. A position is known by its game and its moves
(:func:`position_key`); the first webhook for it is recorded ``accepted``
together with the game's state, the move chosen makes it ``chosen``, and the
answer of the bot-query URL ``submitted`` or ``lost``. A second webhook for a
recorded position adds nothing. After a restart, :meth:`Journal.unfinished`
lists the ``accepted`` and ``chosen`` positions, to be finished: a ``chosen``
one is sent with the move already chosen, never searched again.

The journal also remembers the nonces of signed requests for the window in
which their timestamps are accepted, so that a replayed request is refused,
also after a restart.

>>> journal = Journal(":memory:")
>>> key = position_key("g1", [["b2", "c2"]])
>>> journal.accept(key, "g1", 2, 24.0, "{}", now=0.0)
True
>>> journal.accept(key, "g1", 2, 24.0, "{}", now=1.0)  # a duplicate webhook
False
>>> journal.choose(key, "d5"); journal.status(key)
'chosen'
>>> journal.unfinished() == [key]
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Final, NamedTuple

__all__ = [
    "KEEP_SECONDS",
    "MAX_NONCES",
    "MAX_PENDING",
    "Journal",
    "Pending",
    "default_journal_path",
    "position_key",
]

#: The most positions accepted and not yet submitted or lost (more are refused).
MAX_PENDING: Final = 256
#: The most nonces remembered at once (more requests are refused until some age out).
MAX_NONCES: Final = 100_000
#: How long a finished position is kept (its duplicates are recognised that long).
KEEP_SECONDS: Final = 30 * 24 * 3600.0

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
"""


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


class Journal:
    """The journal in the SQLite file ``path`` (``":memory:"`` for one that dies
    with the object); made with its folder when new. Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        with self._lock:
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "DELETE FROM positions WHERE status IN ('submitted', 'lost') AND updated < ?",
                (time.time() - KEEP_SECONDS,),
            )

    def close(self) -> None:
        """Close the file (the object is unusable afterwards)."""
        with self._lock:
            self._db.close()

    # -- positions ---------------------------------------------------------

    def accept(
        self, key: str, gameid: str, plies: int, clock: float, state: str, *, now: float
    ) -> bool:
        """Record a new position ``accepted``; False (and nothing changed) when it is
        known already."""
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?, ?, 'accepted', NULL, ?, ?)",
                (key, gameid, plies, clock, state, now, now),
            )
            return cursor.rowcount == 1

    def knows(self, key: str) -> bool:
        """Whether the position ``key`` was accepted before."""
        return self.status(key) is not None

    def status(self, key: str) -> str | None:
        """``accepted``, ``chosen``, ``submitted`` or ``lost``; None for an unknown position."""
        with self._lock:
            row = self._db.execute("SELECT status FROM positions WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def pending_count(self) -> int:
        """How many positions are accepted or chosen and not yet finished."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM positions WHERE status IN ('accepted', 'chosen')"
            ).fetchone()
        return int(row[0])

    def pending(self, key: str) -> Pending | None:
        """The position ``key`` if it is still to finish."""
        with self._lock:
            row = self._db.execute(
                "SELECT key, gameid, clock, state, move FROM positions "
                "WHERE key = ? AND status IN ('accepted', 'chosen')",
                (key,),
            ).fetchone()
        return None if row is None else Pending(*row)

    def unfinished(self) -> list[str]:
        """The positions accepted or chosen and never finished, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT key FROM positions WHERE status IN ('accepted', 'chosen') ORDER BY received"
            ).fetchall()
        return [str(row[0]) for row in rows]

    def choose(self, key: str, move: str) -> None:
        """Record the move chosen for ``key`` (before it is sent)."""
        self._set(key, "chosen", move)

    def finish(self, key: str, status: str) -> None:
        """Record the end of ``key``: ``submitted`` or ``lost``."""
        assert status in {"submitted", "lost"}, status
        self._set(key, status, None)

    def _set(self, key: str, status: str, move: str | None) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE positions SET status = ?, move = COALESCE(?, move), updated = ? "
                "WHERE key = ?",
                (status, move, time.time(), key),
            )

    # -- nonces --------------------------------------------------------------

    def first_use(self, nonce: str, *, now: float, window: float) -> bool | None:
        """Remember ``nonce``: True the first time it is seen within ``window``
        seconds, False when it was seen already, None when :data:`MAX_NONCES` are
        remembered (the caller refuses the request)."""
        with self._lock:
            self._db.execute("DELETE FROM nonces WHERE seen < ?", (now - 2 * window,))
            (count,) = self._db.execute("SELECT COUNT(*) FROM nonces").fetchone()
            if self._db.execute("SELECT 1 FROM nonces WHERE nonce = ?", (nonce,)).fetchone():
                return False
            if count >= MAX_NONCES:
                return None
            self._db.execute("INSERT INTO nonces VALUES (?, ?)", (nonce, now))
            return True
