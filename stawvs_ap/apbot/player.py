"""The bot's work between the webhook and the move sent back.

:meth:`ApBot.accept` judges a move webhook while Abstract Play waits for the
answer: it rebuilds the game (from the payload's context, or from the public
``get_game`` query when there is none), records the position in the
:class:`~stawvs_ap.apbot.journal.Journal` and queues it. A few worker threads
(:data:`SEARCHES`) take the queued positions in turn: search with the bot spec
for the think time (:func:`~stawvs_ap.apbot.protocol.think_seconds`), record
the move chosen, send it (:class:`~stawvs_ap.apbot.outbound.Outbound`), and
record whether it arrived. A position already recorded is never searched or
sent again, and the positions left unfinished by an earlier run are queued
when the bot starts.
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
from .journal import MAX_PENDING, Journal, position_key
from .logs import log_event
from .outbound import Outbound
from .protocol import DEFAULT_THINK_CAP, GAME, move_fields, think_seconds
from .settings import BotSettings

__all__ = ["SEARCHES", "ApBot", "Chooser"]

#: How many searches run at once.
SEARCHES: Final = 2
#: Seconds the ``get_game`` query may take while Abstract Play waits for the answer.
QUERY_TIMEOUT: Final = 10.0

#: A function that chooses the move of a game in a number of seconds.
Chooser = Callable[[StawvsGame, float], str]


class Refusal(StawvsError):
    """A webhook answered with the HTTP ``status`` and a one-line ``reason`` (the
    message); ``code`` says why: the refused payload's or game's own code, or
    ``SERVER_BUSY`` when too many positions wait."""

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
    queued. :meth:`close` stops them."""

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
    ) -> None:
        self.settings = settings
        self.spec = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec, allow_exec=True)
        self.journal = journal if isinstance(journal, Journal) else Journal(journal)
        self.outbound = outbound or Outbound(settings)
        self._choose = chooser or spec_chooser(self.spec)
        self._cap = think_cap(self.spec)
        self.query_timeout = query_timeout
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._stop = threading.Event()
        self._idle = threading.Condition()
        self._busy = 0
        self._workers = [
            threading.Thread(target=self._work, name=f"ap-bot-search-{i}", daemon=True)
            for i in range(searches)
        ]
        left = self.journal.unfinished()
        for key in left:
            self._queue.put(key)
        if left:
            log_event("journal.resumed", positions=len(left))
        for worker in self._workers:
            worker.start()

    # -- the webhook -----------------------------------------------------------

    def accept(self, payload: Mapping[str, object]) -> str:
        """Judge a move webhook and queue its position: ``"accepted"``, or
        ``"duplicate"`` for a position recorded before. Raises :class:`Refusal`
        (400, or 503 when :data:`MAX_PENDING` positions wait) saying why."""
        try:
            gameid, clock = move_fields(payload)
        except StawvsError as exc:
            raise Refusal(400, exc.code, exc.message) from None
        key = position_key(gameid, payload.get("moves"))
        if self.journal.knows(key):
            log_event("move.duplicate", gameid=gameid)
            return "duplicate"
        if self.journal.pending_count() >= MAX_PENDING:
            raise Refusal(
                503, ServiceErrorCode.SERVER_BUSY, f"{MAX_PENDING} positions are waiting already"
            )
        try:
            state = None
            if read_bot_payload(payload).board is None:
                state = self.outbound.get_game(gameid, timeout=self.query_timeout)
            game = StawvsGame.from_bot_payload(payload, state=state)
        except StawvsError as exc:
            raise Refusal(400, exc.code, exc.message) from None
        if game.gameover:
            raise Refusal(400, ErrorCode.GAMEOVER, "the game is over: there is no move to make")
        plies = len(game.stack) - 1
        if not self.journal.accept(key, gameid, plies, clock, game.serialize(), now=time.time()):
            log_event("move.duplicate", gameid=gameid)
            return "duplicate"
        log_event("move.accepted", gameid=gameid, ply=plies, clock_hours=clock)
        self._queue.put(key)
        return "accepted"

    # -- the workers -----------------------------------------------------------

    def _work(self) -> None:
        while not self._stop.is_set():
            key = self._queue.get()
            if key is None:
                return
            with self._idle:
                self._busy += 1
            try:
                self._finish(key)
            except Exception as exc:  # one position's fault never stops the bot
                log_event("move.failed", level=logging.ERROR, error=f"{type(exc).__name__}: {exc}")
                if not self._stop.is_set():
                    self.journal.finish(key, "lost")
            finally:
                with self._idle:
                    self._busy -= 1
                    self._idle.notify_all()

    def _finish(self, key: str) -> None:
        pending = self.journal.pending(key)
        if pending is None or self._stop.is_set():
            return
        move = pending.move
        if move is None:
            game = StawvsGame(pending.state)
            seconds = think_seconds(pending.clock, self._cap)
            started = time.perf_counter()
            move = self._choose(game, seconds)
            if self._stop.is_set():
                return  # stopped mid-search: the position stays accepted for the next run
            self.journal.choose(key, move)
            log_event(
                "move.chosen",
                gameid=pending.gameid,
                move=move,
                seconds=round(time.perf_counter() - started, 3),
            )
        if self._stop.is_set():
            return
        result = self.outbound.submit(pending.gameid, GAME, move)
        self.journal.finish(key, "submitted" if result == "submitted" else "lost")
        if result == "submitted":
            log_event("move.submitted", gameid=pending.gameid, move=move)

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

    def close(self, *, wait: float = 5.0) -> None:
        """Stop the workers: a search under way is left to finish but its move is
        not sent (the journal keeps its position for the next run). The journal
        is closed once every worker has stopped within ``wait`` seconds."""
        self._stop.set()
        for _ in self._workers:
            self._queue.put(None)
        deadline = time.monotonic() + wait
        for worker in self._workers:
            worker.join(max(0.0, deadline - time.monotonic()))
        if not any(worker.is_alive() for worker in self._workers):
            self.journal.close()
        log_event("bot.stopped")
