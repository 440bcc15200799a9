"""The bot's work between a turn found and the move sent back.

A turn is found by a move webhook (:meth:`ApBot.accept`, while Abstract Play
waits for the answer) or by polling the game (:mod:`~stawvs_ap.apbot.poller`,
for a webhook that never came). Either way :meth:`ApBot.admit` records the
position in the :class:`~stawvs_ap.apbot.journal.Journal` under one key, its
game and moves as the rebuilt game has them, so that a webhook and a poll of
one position queue it once. A few worker threads (:data:`SEARCHES`) take the
queued positions in turn: search with the bot spec for the think time
(:func:`~stawvs_ap.apbot.protocol.think_seconds`), record the move chosen,
send it (:class:`~stawvs_ap.apbot.outbound.Outbound`), and record whether it
arrived. A send that found no platform, and any fault of a worker, puts the
position off for a later try (backing off, :meth:`Journal.postpone
<stawvs_ap.apbot.journal.Journal.postpone>`), for as long as its game is not
over; a worker survives every fault. A position already recorded is never
searched or sent again, and the positions left unfinished by an earlier run
are queued when the bot starts.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Final

from ..bots.spec import BotSpec
from ..errors import ErrorCode, StawvsError
from ..host.botpayload import read_bot_payload
from ..host.game import StawvsGame
from ..service.jsonrpc import ServiceErrorCode
from .journal import MAX_PENDING, Journal, JournalFault, position_key
from .logs import log_event
from .outbound import Outbound
from .protocol import DEFAULT_THINK_CAP, GAME, move_fields, think_seconds
from .settings import BotSettings

__all__ = ["RETRY_LONGEST", "RETRY_SECONDS", "SEARCHES", "ApBot", "Chooser"]

#: How many searches run at once.
SEARCHES: Final = 2
#: Seconds the ``get_game`` query may take while Abstract Play waits for the answer.
QUERY_TIMEOUT: Final = 10.0
#: Seconds before a position whose send failed is tried again (doubled each time).
RETRY_SECONDS: Final = 30.0
#: The longest pause between two tries of one position, in seconds.
RETRY_LONGEST: Final = 900.0

#: A function that chooses the move of a game in a number of seconds.
Chooser = Callable[[StawvsGame, float], str]


class Refusal(StawvsError):
    """A webhook answered with the HTTP ``status`` and a one-line ``reason`` (the
    message); ``code`` says why: the refused payload's or game's own code, or
    ``SERVER_BUSY`` when too many positions wait or the journal is busy."""

    def __init__(self, status: int, code: StrEnum, reason: str) -> None:
        super().__init__(code, reason)
        self.status = status
        self.reason = reason


def think_cap(spec: BotSpec) -> float:
    """The longest think time of a move with ``spec``: its own ``seconds``, else
    :data:`DEFAULT_THINK_CAP`."""
    seconds = dict(spec.options).get("seconds")
    return DEFAULT_THINK_CAP if not isinstance(seconds, int | float) else float(seconds)


def spec_chooser(spec: BotSpec) -> Chooser:
    """Search with a new bot of ``spec`` for the seconds given, its own
    ``iterations`` (if any) kept."""
    iterations = dict(spec.options).get("iterations")

    def choose(game: StawvsGame, seconds: float) -> str:
        with spec.make(None) as bot:
            limit = iterations if isinstance(iterations, int) else None
            return str(bot.choose(game, seconds=seconds, iterations=limit))

    return choose


class ApBot:
    """The bot: ``settings``, a bot ``spec`` (or a ``chooser`` of moves), the
    journal at ``journal`` (a path, or an open :class:`Journal`) and
    ``searches`` worker threads, started at once with the unfinished positions
    queued. ``retry`` is the first and the longest pause before a failed
    position is tried again. :meth:`close` stops them."""

    def __init__(
        self,
        settings: BotSettings,
        spec: BotSpec | str,
        journal: str | Path | Journal,
        *,
        outbound: Outbound | None = None,
        chooser: Chooser | None = None,
        searches: int = SEARCHES,
        query_timeout: float = QUERY_TIMEOUT,
        retry: tuple[float, float] = (RETRY_SECONDS, RETRY_LONGEST),
    ) -> None:
        self.settings = settings
        self.spec = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec, allow_exec=True)
        self.journal = journal if isinstance(journal, Journal) else Journal(journal)
        self.stopping = threading.Event()
        self.outbound = outbound or Outbound(settings, stopping=self.stopping)
        self.outbound.stopping = self.stopping
        self._choose = chooser or spec_chooser(self.spec)
        self._cap = think_cap(self.spec)
        self.query_timeout = query_timeout
        self.retry = retry
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._lined_up: set[str] = set()  # queued or being worked on
        self._idle = threading.Condition()
        self._busy = 0
        self._workers = [
            threading.Thread(target=self._work, name=f"ap-bot-search-{i}", daemon=True)
            for i in range(searches)
        ]
        left = self.journal.unfinished()
        for key in left:
            self.line_up(key)
        if left:
            log_event("journal.resumed", positions=len(left))
        for worker in self._workers:
            worker.start()

    # -- turns found -----------------------------------------------------------

    def accept(self, payload: Mapping[str, object]) -> str:
        """Judge a move webhook and queue its position: ``"accepted"``, or
        ``"duplicate"`` for a position recorded before. Raises :class:`Refusal`
        (400 for a bad payload; 503 when :data:`MAX_PENDING` positions wait or
        the journal is busy) saying why."""
        try:
            gameid, clock = move_fields(payload)
        except StawvsError as exc:
            raise Refusal(400, exc.code, exc.message) from None
        try:
            known = position_key(gameid, payload.get("moves"))
            if self.journal.knows(known):
                log_event("move.duplicate", gameid=gameid)
                if self.journal.pending(known) is not None:
                    self.line_up(known)  # a position put off: a new webhook tries it now
                return "duplicate"
            self._room()
            try:
                state = None
                if read_bot_payload(payload).board is None:
                    record = self.outbound.get_game(gameid, timeout=self.query_timeout)
                    state = record["state"]
                game = StawvsGame.from_bot_payload(payload, state=state)
            except StawvsError as exc:
                raise Refusal(400, exc.code, exc.message) from None
            if game.gameover:
                raise Refusal(400, ErrorCode.GAMEOVER, "the game is over: there is no move to make")
            return self.admit(gameid, game, clock, found="move.accepted")
        except JournalFault as fault:
            log_event("journal.busy", level=logging.WARNING, why=fault.message)
            raise Refusal(503, fault.code, "the journal is busy: try again") from None

    def _room(self) -> None:
        if self.journal.pending_count() >= MAX_PENDING:
            raise Refusal(
                503, ServiceErrorCode.SERVER_BUSY, f"{MAX_PENDING} positions are waiting already"
            )

    def admit(self, gameid: str, game: StawvsGame, clock: float, *, found: str) -> str:
        """Record the position of ``game`` (the bot to move in it, ``clock`` hours
        left) and queue it, logging ``found`` (``move.accepted`` or
        ``turn.recovered``): ``"accepted"``, or ``"duplicate"`` when it is known."""
        key = position_key(gameid, game.move_history())
        plies = len(game.stack) - 1
        fresh = self.journal.accept(
            key, gameid, plies, clock, game.serialize(), seat=game.currplayer, now=time.time()
        )
        if not fresh:
            log_event("move.duplicate", gameid=gameid)
            if self.journal.pending(key) is not None:
                self.line_up(key)  # a position put off: a new webhook tries it now
            return "duplicate"
        log_event(found, gameid=gameid, ply=plies, clock_hours=clock)
        self.line_up(key)
        return "accepted"

    def line_up(self, key: str) -> bool:
        """Queue ``key`` unless it is queued or being worked on already."""
        with self._idle:
            if key in self._lined_up or self.stopping.is_set():
                return False
            self._lined_up.add(key)
        self._queue.put(key)
        return True

    # -- the workers -----------------------------------------------------------

    def _work(self) -> None:
        while True:
            key = self._queue.get()
            if key is None or self.stopping.is_set():
                return
            with self._idle:
                self._busy += 1
            try:
                self._finish(key)
            except Exception as exc:  # one position's fault never stops a worker
                log_event("move.failed", level=logging.ERROR, error=f"{type(exc).__name__}: {exc}")
                self._put_off(key)
            finally:
                with self._idle:
                    self._busy -= 1
                    self._lined_up.discard(key)
                    self._idle.notify_all()

    def _put_off(self, key: str) -> None:
        try:
            first, longest = self.retry
            delay = self.journal.postpone(key, first=first, longest=longest, now=time.time())
            log_event("move.postponed", seconds=delay)
        except JournalFault as fault:  # tried again when the journal answers
            log_event("journal.busy", level=logging.WARNING, why=fault.message)

    def _finish(self, key: str) -> None:
        pending = self.journal.pending(key)
        if pending is None or self.stopping.is_set():
            return
        move = pending.move
        if move is None:
            game = StawvsGame(pending.state)
            seconds = think_seconds(pending.clock, self._cap)
            started = time.perf_counter()
            move = self._choose(game, seconds)
            self.journal.choose(key, move)
            log_event(
                "move.chosen",
                gameid=pending.gameid,
                move=move,
                seconds=round(time.perf_counter() - started, 3),
            )
        if self.stopping.is_set():
            return  # stopped: the move chosen is sent at the next start
        result = self.outbound.submit(pending.gameid, GAME, move)
        if result == "unreachable":
            self._put_off(key)
            return
        self.journal.finish(key, result)
        if result == "submitted":
            log_event("move.submitted", gameid=pending.gameid, move=move)

    def retry_due(self) -> int:
        """Queue the positions whose next try is due; how many were queued."""
        return sum(self.line_up(key) for key in self.journal.unfinished(due=time.time()))

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no position is queued or being worked on (tests and shutdown);
        False when ``timeout`` seconds passed first."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._busy or not self._queue.empty():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(min(left, 0.05))
        return True

    def close(self, *, wait: float = 5.0) -> bool:
        """Stop: no position is taken up any more; a search under way is left to
        finish within ``wait`` seconds and its move recorded, to be sent at the
        next start; a send under way finishes. The journal is closed then (a
        search still running records nothing); True when every worker stopped
        within ``wait``."""
        self.stopping.set()
        for _ in self._workers:
            self._queue.put(None)
        deadline = time.monotonic() + wait
        for worker in self._workers:
            worker.join(max(0.0, deadline - time.monotonic()))
        stopped = not any(worker.is_alive() for worker in self._workers)
        self.journal.close()  # a worker still searching records nothing more
        log_event("bot.stopped", clean=stopped)
        return stopped
