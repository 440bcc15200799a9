"""Turns whose webhook never came, found by asking for the game.

Abstract Play sends each turn's webhook once and does not send it again; a
turn that arrived while the bot was down, or was answered 5xx, would never be
played. The :class:`Keeper` thread therefore, at start and every ``poll``
seconds, asks the public ``get_game`` query (``AP_QUERY_URL``) for each game of
the journal not over (:meth:`Journal.games_in_play
<stawvs_ap.apbot.journal.Journal.games_in_play>`). A game found over is marked
so and polled no more; when it is the bot's seat to move at a position the
journal has not recorded, the position is admitted exactly as a webhook's
(:meth:`ApBot.admit <stawvs_ap.apbot.player.ApBot.admit>`, logged
``turn.recovered``), so a webhook and a poll of one position send one move;
at a position recorded and put off (its send found no platform) it is tried
at once (``turn.retried``).

Polling is bounded: one query at a time, at least :data:`QUERY_GAP` seconds
apart, each within the outbound deadline; a ``429``, a ``5xx`` or no answer
ends the round and backs off (5 s, doubled each time, at most 15 minutes).
An answer that is not a good game of that id (hostile, malformed, another
game, a state that does not replay, moves that disagree with the journal) is
refused with one ``poll.refused`` line and nothing is sent. Between rounds the
keeper queues again the positions whose put-off try is due.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Final

from ..errors import StawvsError
from ..host.game import StawvsGame
from .journal import JournalFault, position_key
from .logs import log_event
from .outbound import QueryFailed
from .player import ApBot
from .protocol import MAX_CLOCK_HOURS

__all__ = ["POLL_SECONDS", "QUERY_GAP", "Keeper", "poll_game"]

#: Seconds between two rounds of polling by default.
POLL_SECONDS: Final = 300.0
#: The least seconds between two ``get_game`` queries of a round.
QUERY_GAP: Final = 0.5
#: The first pause after the platform answered 429 or 5xx, in seconds.
BACKOFF_SECONDS: Final = 5.0
#: The longest pause after the platform answered 429 or 5xx, in seconds.
BACKOFF_LONGEST: Final = 900.0


def _clock_hours(record: dict[str, Any], seat: int) -> float:
    """The bot's clock in hours from the record's ``players[seat-1].time``
    (milliseconds) where it holds one; else a clock long enough for the
    bot's whole think time."""
    players = record.get("players")
    if isinstance(players, list) and 0 < seat <= len(players):
        player = players[seat - 1]
        left = player.get("time") if isinstance(player, dict) else None
        if isinstance(left, int | float) and not isinstance(left, bool) and 0 <= left < 1e15:
            return float(left) / 3_600_000.0
    return float(MAX_CLOCK_HOURS)


def poll_game(bot: ApBot, gameid: str, seat: int) -> str:
    """Ask for ``gameid`` once and act on the answer: ``"over"``, ``"waiting"``
    (another seat to move), ``"known"`` (a position recorded already),
    ``"recovered"``, ``"refused"`` (a bad answer, logged) or ``"unreachable"``
    (429, 5xx or no answer: the caller backs off)."""
    try:
        record = bot.outbound.get_game(gameid, timeout=bot.query_timeout)
        game = StawvsGame(record["state"])
    except QueryFailed as exc:
        if exc.transient:
            log_event("poll.unreachable", level=logging.WARNING, gameid=gameid, status=exc.status)
            return "unreachable"
        log_event("poll.refused", level=logging.WARNING, gameid=gameid, why=exc.message)
        return "refused"
    except (StawvsError, RecursionError, ValueError, TypeError) as exc:
        why = exc.message if isinstance(exc, StawvsError) else "the state cannot be read"
        log_event("poll.refused", level=logging.WARNING, gameid=gameid, why=why)
        return "refused"
    plies = len(game.stack) - 1
    key = position_key(gameid, game.move_history())
    known = bot.journal.key_at(gameid, plies)
    if known is not None and known != key:
        why = "the game's moves disagree with the journal's"
        log_event("poll.refused", level=logging.WARNING, gameid=gameid, why=why)
        return "refused"
    settled = bot.journal.settle(gameid, plies=plies, over=game.gameover)
    if settled:
        log_event("game.moved_on", gameid=gameid, positions=len(settled))
    if game.gameover:
        log_event("game.over", gameid=gameid)
        return "over"
    if game.currplayer != seat:
        return "waiting"
    if known is not None:
        if bot.journal.pending(known) is not None and bot.line_up(known):
            log_event("turn.retried", gameid=gameid)  # a put-off position, tried now
        return "known"
    bot.admit(gameid, game, _clock_hours(record, seat), found="turn.recovered")
    return "recovered"


class Keeper(threading.Thread):
    """The thread that polls ``bot``'s games every ``poll`` seconds (0: never)
    and queues the positions due for another try every ``tick`` seconds, until
    the bot stops."""

    def __init__(
        self,
        bot: ApBot,
        *,
        poll: float = POLL_SECONDS,
        tick: float = 1.0,
        gap: float = QUERY_GAP,
    ) -> None:
        super().__init__(name="ap-bot-keeper", daemon=True)
        self.bot = bot
        self.poll = poll
        self.tick = tick
        self.gap = gap
        self.rounds = 0
        self._backoff = 0.0

    def run(self) -> None:
        stopping = self.bot.stopping
        next_round = time.monotonic()
        while not stopping.is_set():
            try:
                self.bot.retry_due()
                if self.poll > 0 and time.monotonic() >= next_round:
                    pause = self.poll_round()
                    next_round = time.monotonic() + pause
            except JournalFault as fault:
                if not stopping.is_set():  # at a stop the journal closes under the keeper
                    log_event("journal.busy", level=logging.WARNING, why=fault.message)
            except Exception as exc:  # the keeper outlives any fault
                log_event("poll.failed", level=logging.ERROR, error=f"{type(exc).__name__}: {exc}")
            stopping.wait(self.tick)

    def poll_round(self) -> float:
        """Poll every game in play once; the seconds until the next round."""
        self.rounds += 1
        for gameid, seat in self.bot.journal.games_in_play():
            if self.bot.stopping.is_set():
                break
            if poll_game(self.bot, gameid, seat) == "unreachable":
                self._backoff = min(BACKOFF_LONGEST, max(BACKOFF_SECONDS, 2 * self._backoff))
                return self._backoff
            self.bot.stopping.wait(self.gap)
        self._backoff = 0.0
        return self.poll
