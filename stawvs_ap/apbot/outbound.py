"""The bot's requests to Abstract Play, with the standard library's
:mod:`urllib` (a request every few minutes needs no more).

- :meth:`Outbound.token`: an OAuth 2.0 client-credentials token from
  ``BOT_TOKEN_URL`` (a form of ``grant_type``, ``client_id``,
  ``client_secret``, ``scope``), kept until :data:`TOKEN_MARGIN` seconds
  before it expires.
- :meth:`Outbound.submit`: ``{"verb": "move", "gameid", "metaGame", "move"}``
  to ``BOT_QUERY_URL`` with the token as ``Authorization: Bearer``. A ``401``
  drops the token, and the move is sent once more with a new one. A network
  failure, a timeout, ``408``, ``429`` or a ``5xx`` is tried again after
  ``backoff``, doubled each time, at most ``attempts`` times in all; any other
  answer is final.
- :meth:`Outbound.get_game`: the public ``get_game`` query to
  ``AP_QUERY_URL``, for the state of a game whose webhook had no context.

Every answer read is bounded (:data:`MAX_ANSWER_BYTES`); no log line holds
the secret or a token.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..errors import ErrorCode, StawvsError
from .logs import log_event
from .settings import BotSettings

__all__ = [
    "ATTEMPTS",
    "BACKOFF_SECONDS",
    "MAX_ANSWER_BYTES",
    "TOKEN_MARGIN",
    "Outbound",
    "Submitted",
]

#: Seconds before its expiry at which a token is no longer used.
TOKEN_MARGIN: Final = 60.0
#: The most times a move is sent (the 401 retry aside).
ATTEMPTS: Final = 5
#: The first pause between two tries, in seconds (doubled each time).
BACKOFF_SECONDS: Final = 1.0
#: The most bytes read of any answer (a ``get_game`` answer holds a whole state).
MAX_ANSWER_BYTES: Final = 8_000_000
#: Seconds a request may take.
TIMEOUT_SECONDS: Final = 30.0

Submitted = Literal["submitted", "refused", "lost"]


class _Failed(Exception):
    """A request that got no answer, or an answer to try again later."""


@dataclass
class _Token:
    value: str
    good_until: float


class Outbound:
    """Requests to Abstract Play with ``settings``; ``sleep`` and ``clock`` are
    :func:`time.sleep` and :func:`time.monotonic` unless a test gives its own."""

    def __init__(
        self,
        settings: BotSettings,
        *,
        attempts: int = ATTEMPTS,
        backoff: float = BACKOFF_SECONDS,
        timeout: float = TIMEOUT_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.attempts = attempts
        self.backoff = backoff
        self.timeout = timeout
        self._sleep = sleep
        self._clock = clock
        self._token: _Token | None = None
        self._lock = threading.Lock()

    # -- the token -------------------------------------------------------------

    def token(self) -> str:
        """An access token: the one kept while it is good, else a new one.
        Raises ``_Failed`` when none can be had now."""
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
        status, body = self._post(s.token_url, form, "application/x-www-form-urlencoded")
        if status != 200:
            log_event("token.failed", level=logging.WARNING, status=status)
            raise _Failed(f"the token URL answered {status or 'nothing'}")
        try:
            data = json.loads(body)
            value = data["access_token"]
            expires_in = data.get("expires_in", 3600)
        except (ValueError, KeyError, TypeError, AttributeError):
            log_event("token.failed", level=logging.WARNING, status=status, why="unreadable")
            raise _Failed("the token URL's answer has no access_token") from None
        if not isinstance(value, str) or not value:
            raise _Failed("the token URL's answer has no access_token")
        if isinstance(expires_in, bool) or not isinstance(expires_in, int | float):
            expires_in = 3600
        lifetime = max(float(expires_in), TOKEN_MARGIN)
        log_event("token.acquired", expires_in=lifetime)
        return _Token(value, self._clock() + lifetime - TOKEN_MARGIN)

    # -- the move --------------------------------------------------------------

    def submit(self, gameid: str, meta: str, move: str) -> Submitted:
        """Send ``move`` for ``gameid``: ``submitted`` on a 2xx answer, ``refused``
        on a final refusal, ``lost`` when every try failed. Each try is logged."""
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
                status, answer = self._post(
                    self.settings.bot_query_url, body, "application/json", token
                )
            except _Failed as exc:
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
                log_event(
                    "move.refused", level=logging.WARNING, gameid=gameid, status=status, why=why
                )
                return "refused"
            if tries >= self.attempts:
                log_event("move.lost", level=logging.ERROR, gameid=gameid, tries=tries, why=why)
                return "lost"
            self._sleep(self.backoff * 2 ** (tries - 1))

    # -- the game's state ----------------------------------------------------

    def get_game(self, gameid: str, *, timeout: float | None = None) -> Any:
        """The ``state`` of game ``gameid`` as the public ``get_game`` query answers
        it (text or an object); ``BAD_ARGUMENT`` saying why when there is none."""
        url = self.settings.ap_query_url
        if url is None:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, "the payload has no context, and AP_QUERY_URL is not set"
            )
        query = {"query": "get_game", "pars": {"metaGame": "stawvs", "id": gameid, "cbit": 0}}
        body = json.dumps(query, separators=(",", ":")).encode("utf-8")
        try:
            status, answer = self._post(url, body, "application/json", timeout=timeout)
        except _Failed as exc:
            status, answer = 0, str(exc).encode()
        if status != 200:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"the payload has no context, and get_game answered {status or 'nothing'}",
            )
        try:
            state = json.loads(answer)["game"]["state"]
        except (ValueError, KeyError, TypeError):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                "the payload has no context, and get_game's answer holds no game state",
            ) from None
        return state

    # -- HTTP ------------------------------------------------------------------

    def _post(
        self,
        url: str,
        body: bytes,
        kind: str,
        token: str | None = None,
        *,
        timeout: float | None = None,
    ) -> tuple[int, bytes]:
        """POST ``body`` to ``url``: the status and the answer (status 0 and a
        ``_Failed`` when no answer came)."""
        headers = {"Content-Type": kind, "Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                return response.status, _read(response)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, _read(error)
        except (OSError, ValueError) as exc:  # refused, unreachable, timed out, bad answer
            raise _Failed(f"no answer from {urllib.parse.urlsplit(url).netloc}: {exc}") from None


def _read(response: Any) -> bytes:
    data: bytes = response.read(MAX_ANSWER_BYTES + 1)
    if len(data) > MAX_ANSWER_BYTES:
        raise _Failed(f"an answer longer than {MAX_ANSWER_BYTES} bytes")
    return data
