"""The bot's requests to Abstract Play, with the standard library's
:mod:`http.client` (a request every few minutes needs no more).

- :meth:`Outbound.token`: an OAuth 2.0 client-credentials token from
  ``BOT_TOKEN_URL`` (a form of ``grant_type``, ``client_id``,
  ``client_secret``, ``scope``), kept until :data:`TOKEN_MARGIN` seconds
  before it expires. A token that is not one printable word is refused.
- :meth:`Outbound.submit`: ``{"verb": "move", "gameid", "metaGame", "move"}``
  to ``BOT_QUERY_URL`` with the token as ``Authorization: Bearer``. A ``401``
  drops the token, and the move is sent once more with a new one. A network
  failure, a timeout, ``408``, ``429`` or a ``5xx`` is tried again after
  ``backoff``, doubled each time, at most ``attempts`` times in all, and is
  then ``unreachable`` (the caller tries again later); any other answer is
  final, a redirect among them (no redirect is followed: it would carry the
  token elsewhere, and it is no submission).
- :meth:`Outbound.get_game`: the public ``get_game`` query to
  ``AP_QUERY_URL``, its answer parsed with the service's bounds
  (:func:`~stawvs_ap.service.jsonrpc.loads_bounded`).

Every request has a total deadline (``timeout`` seconds for connecting,
sending and reading the whole answer, however slowly it trickles) and every
answer read is bounded (:data:`MAX_ANSWER_BYTES`); no log line holds the
secret, a token or an address's user name and password
(:func:`~stawvs_ap.apbot.settings.shown_url`).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..errors import ErrorCode, StawvsError
from ..service.jsonrpc import RpcError, ServiceErrorCode, loads_bounded
from .logs import hide, log_event
from .settings import BotSettings, shown_url

__all__ = [
    "ATTEMPTS",
    "BACKOFF_SECONDS",
    "MAX_ANSWER_BYTES",
    "TOKEN_MARGIN",
    "Outbound",
    "QueryFailed",
    "Submitted",
]

#: Seconds before its expiry at which a token is no longer used.
TOKEN_MARGIN: Final = 60.0
#: The most times a move is sent in a row (the 401 retry aside).
ATTEMPTS: Final = 5
#: The first pause between two tries, in seconds (doubled each time).
BACKOFF_SECONDS: Final = 1.0
#: The most bytes read of any answer (a ``get_game`` answer holds a whole state).
MAX_ANSWER_BYTES: Final = 2_000_000
#: Seconds a whole request may take, answer included.
TIMEOUT_SECONDS: Final = 20.0
#: The most JSON values of a ``get_game`` answer parsed.
MAX_GAME_VALUES: Final = 200_000

Submitted = Literal["submitted", "refused", "unreachable"]


class QueryFailed(StawvsError):
    """The ``get_game`` query gave no game (code ``BAD_ARGUMENT``); ``status`` is
    the platform's answer (0 for none), so that a poll backs off on 429 and 5xx."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(ErrorCode.BAD_ARGUMENT, message)
        self.status = status

    @property
    def transient(self) -> bool:
        """Whether the platform is unreachable or busy (worth waiting for)."""
        return self.status in {0, 408, 429} or self.status >= 500


class Failed(StawvsError):
    """A request that got no whole answer in time, or a token address that gave
    no token (code ``CONNECTION_FAILED``; the message says why, with no secret
    in it)."""

    def __init__(self, message: str) -> None:
        super().__init__(ServiceErrorCode.CONNECTION_FAILED, message)


@dataclass
class _Token:
    value: str
    good_until: float


def _usable_token(value: object) -> bool:
    return (
        isinstance(value, str)
        and 0 < len(value) <= 8192
        and value.isascii()
        and value.isprintable()
        and " " not in value
    )


class Outbound:
    """Requests to Abstract Play with ``settings``; ``sleep`` and ``clock`` are
    :func:`time.sleep` and :func:`time.monotonic` unless a test gives its own;
    ``stopping``, when set, cuts a series of tries short."""

    def __init__(
        self,
        settings: BotSettings,
        *,
        attempts: int = ATTEMPTS,
        backoff: float = BACKOFF_SECONDS,
        timeout: float = TIMEOUT_SECONDS,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        stopping: threading.Event | None = None,
    ) -> None:
        self.settings = settings
        self.attempts = attempts
        self.backoff = backoff
        self.timeout = timeout
        self.stopping = stopping or threading.Event()
        self._sleep = sleep or (lambda seconds: self.stopping.wait(seconds) and None)
        self._clock = clock
        self._token: _Token | None = None
        self._lock = threading.Lock()
        hide(settings.client_secret.reveal())

    # -- the token -------------------------------------------------------------

    def token(self) -> str:
        """An access token: the one kept while it is good, else a new one.
        Raises :class:`Failed` when none can be had now."""
        with self._lock:
            kept = self._token
            if kept is not None and self._clock() < kept.good_until:
                return kept.value
            self._token = self._fetch_token()
            return self._token.value

    def drop_token(self) -> None:
        """Forget the token kept (after a ``401``)."""
        with self._lock:
            self._token = None

    def _fetch_token(self) -> _Token:
        s = self.settings
        form = urllib.parse.urlencode(
            {
                "grant_type": "client_credentials",
                "client_id": s.client_id,
                "client_secret": s.client_secret.reveal(),
                "scope": s.scope,
            }
        ).encode("ascii")
        where = shown_url(s.token_url)
        try:
            status, body = self.post(s.token_url, form, "application/x-www-form-urlencoded")
        except Failed as exc:
            log_event("token.failed", level=logging.WARNING, url=where, status=0, why=str(exc))
            raise
        if status != 200:
            log_event("token.failed", level=logging.WARNING, url=where, status=status)
            raise Failed(f"the token address {where} answered {status}")
        try:
            data = json.loads(body)
            value = data["access_token"]
            expires_in = data.get("expires_in", 3600)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            value, expires_in = None, 0
        if not _usable_token(value):
            if isinstance(value, str):
                hide(value)
            log_event(
                "token.failed", level=logging.WARNING, url=where, status=status, why="no token"
            )
            raise Failed(f"the token address {where} answered no usable access_token")
        assert isinstance(value, str)
        hide(value)
        if isinstance(expires_in, bool) or not isinstance(expires_in, int | float):
            expires_in = 3600
        lifetime = max(float(expires_in), TOKEN_MARGIN)
        log_event("token.acquired", expires_in=lifetime)
        return _Token(value, self._clock() + lifetime - TOKEN_MARGIN)

    # -- the move --------------------------------------------------------------

    def submit(self, gameid: str, meta: str, move: str) -> Submitted:
        """Send ``move`` for ``gameid``: ``submitted`` on a 2xx answer, ``refused``
        on a final refusal, ``unreachable`` when every try failed (or a stop
        came). Each try is logged."""
        body = json.dumps(
            {"verb": "move", "gameid": gameid, "metaGame": meta, "move": move},
            separators=(",", ":"),
        ).encode("utf-8")
        renewed = False
        tries = 0
        while True:
            tries += 1
            try:
                token = self.token()
                status, answer = self.post(
                    self.settings.bot_query_url, body, "application/json", token
                )
            except Failed as exc:
                status, answer, why = 0, b"", str(exc)
            else:
                why = answer[:200].decode("utf-8", "replace")
            log_event("move.sent", gameid=gameid, move=move, attempt=tries, status=status)
            if 200 <= status < 300:
                return "submitted"
            if status == 401 and not renewed:
                renewed = True  # one new token, one more try
                self.drop_token()
                tries -= 1
                continue
            transient = status in {0, 408, 429} or status >= 500
            if not transient:
                if 300 <= status < 400:
                    why = "a redirect: none is followed, and a move redirected is not submitted"
                log_event(
                    "move.refused", level=logging.WARNING, gameid=gameid, status=status, why=why
                )
                return "refused"
            if tries >= self.attempts or self.stopping.is_set():
                log_event(
                    "move.unreachable", level=logging.WARNING, gameid=gameid, tries=tries, why=why
                )
                return "unreachable"
            self._sleep(self.backoff * 2 ** (tries - 1))

    # -- the game's state ----------------------------------------------------

    def get_game(self, gameid: str, *, timeout: float | None = None) -> dict[str, Any]:
        """The game record of ``gameid`` as the public ``get_game`` query answers
        it, checked to be that game's, with a ``state``; :class:`QueryFailed` saying
        why when there is none (the answer is parsed within the service's bounds)."""
        url = self.settings.ap_query_url
        query = {"query": "get_game", "pars": {"metaGame": "stawvs", "id": gameid, "cbit": 0}}
        body = json.dumps(query, separators=(",", ":")).encode("utf-8")
        try:
            status, answer = self.post(url, body, "application/json", timeout=timeout)
        except Failed as exc:
            raise QueryFailed(0, f"get_game got no answer: {exc}") from None
        if status != 200:
            raise QueryFailed(status, f"get_game answered {status}")
        try:
            record = loads_bounded(answer, MAX_GAME_VALUES)["game"]
        except RpcError as exc:
            raise QueryFailed(status, f"get_game's answer: {exc.message}") from None
        except (KeyError, TypeError):
            record = None
        if not isinstance(record, dict) or "state" not in record:
            raise QueryFailed(status, "get_game's answer holds no game state")
        if record.get("id", gameid) != gameid or record.get("metaGame", "stawvs") != "stawvs":
            raise QueryFailed(status, "get_game answered with another game")
        return record

    # -- HTTP ------------------------------------------------------------------

    def post(
        self,
        url: str,
        body: bytes,
        kind: str,
        token: str | None = None,
        *,
        timeout: float | None = None,
    ) -> tuple[int, bytes]:
        """POST ``body`` to ``url``: the status and the whole answer, within
        ``timeout`` seconds in all (default :attr:`timeout`); :class:`Failed`
        when no whole answer came in time. No redirect is followed."""
        parts = urllib.parse.urlsplit(url)
        seconds = timeout or self.timeout
        secure = parts.scheme == "https"
        kind_of = http.client.HTTPSConnection if secure else http.client.HTTPConnection
        connection = kind_of(parts.hostname or "", parts.port, timeout=seconds)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = {"Content-Type": kind, "Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        where = shown_url(url)
        expired = threading.Event()
        opened: list[socket.socket] = []

        def cut_off() -> None:  # a trickling answer is cut off at the deadline
            expired.set()
            for sock in opened:  # kept here: the connection forgets it once answered
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

        timer = threading.Timer(seconds, cut_off)
        timer.daemon = True
        timer.start()
        try:
            connection.connect()
            if connection.sock is not None:
                opened.append(connection.sock)
            if expired.is_set():
                cut_off()
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read(MAX_ANSWER_BYTES + 1)
            if len(data) > MAX_ANSWER_BYTES:
                raise Failed(f"{where} answered more than {MAX_ANSWER_BYTES} bytes")
            if expired.is_set():
                raise Failed(f"{where} did not answer within {seconds:g} s")
            return response.status, data
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if expired.is_set():
                raise Failed(f"{where} did not answer within {seconds:g} s") from None
            raise Failed(f"no answer from {where}: {type(exc).__name__}") from None
        finally:
            timer.cancel()
            connection.close()
