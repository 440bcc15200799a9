"""The bot as an ASGI application (Starlette): one endpoint, ``/``, that
speaks Abstract Play's bot protocol (node-backend ``docs/bots/protocol.md``).

- ``GET /`` (a ping) answers ``200 {"operational": true}`` and nothing more.
- ``POST /`` must be signed (:func:`~stawvs_ap.apbot.protocol.signature_fault`):
  a body over :data:`~stawvs_ap.apbot.protocol.MAX_BODY_BYTES` is refused
  with ``413`` before it is read (by its ``Content-Length``, or as soon as it
  grows past the limit); an unsigned request, a bad signature, a timestamp
  outside the window or a nonce seen before get ``401``; only then is the
  body read as JSON.
- ``{"verb": "challenge", ...}``: ``200`` to accept, ``400`` and the reason
  to decline (:func:`~stawvs_ap.apbot.protocol.challenge_refusal`).
- ``{"verb": "move", ...}``: ``202`` once the position is judged and queued
  (:meth:`~stawvs_ap.apbot.player.ApBot.accept`), also for a duplicate;
  ``400`` with the reason for a bad payload; the move goes back later by
  ``POST`` to the bot-query URL.
- Any other verb gets ``400``, any other method ``405``.

Every answer is JSON, a refusal ``{"message": "<one line>"}``. Requests are
logged in one line each, except that the refusals of unsigned or unreadable
requests (what any stranger can send) are throttled: one line per kind a
minute, with the count of those held back. The bodies being read at once hold
at most :data:`MAX_BODIES_IN_FLIGHT` bytes (counted by their
``Content-Length``, a mebibyte for one without): past it a request gets
``503`` at once. A busy journal gets ``503`` (worth trying again), and no
fault ever answers with a traceback. :func:`create_app` gives an application a host may
mount in its own (``Mount("/stawvs-bot", app=create_app(bot))``).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import anyio.to_thread
from anyio import CapacityLimiter
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..errors import excerpt
from ..service.http import Guard
from ..service.webserver import BodyTooLarge, ClientGone, read_body
from .journal import JournalFault
from .logs import Throttle, log_event
from .player import ApBot, Refusal
from .protocol import MAX_BODY_BYTES, challenge_refusal, signature_fault

__all__ = ["BotEndpoint", "create_app"]

#: How many webhooks are judged at once (each in a worker thread).
JUDGES: Final = 8
#: The most bytes of request bodies being read and judged at once.
MAX_BODIES_IN_FLIGHT: Final = 16 * MAX_BODY_BYTES
_JSON: Final = "application/json"


async def _answer(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    headers = [
        (b"content-type", _JSON.encode()),
        (b"content-length", str(len(data)).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def _variants(value: object) -> list[str] | str:
    """A challenge's variants for the log: the list itself when it is a list of
    texts, else a short description of what came."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return json.dumps(value)[:100]


class BotEndpoint:
    """The ASGI application of the endpoint, answering for ``bot``; ``clock``
    (``time.time``) is the clock signatures are judged by."""

    def __init__(self, bot: ApBot, *, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self._clock = clock
        self._judges = CapacityLimiter(JUDGES)
        self._in_flight = 0  # bytes of bodies reserved (one event loop: no lock)
        self._throttle = Throttle()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"]
        if method in {"GET", "HEAD"}:
            if (held := self._throttle.let_through("ping")) is not None:
                log_event("ping", suppressed=held)
            await _answer(send, 200, {"operational": True})
            return
        if method != "POST":
            await self._refuse(send, 405, "send GET (a ping) or a signed POST")
            return
        headers = Headers(scope=scope)
        signed = ("x-signature", "x-signature-timestamp", "x-signature-nonce")
        if not all(headers.get(name) for name in signed):
            await self._refuse(
                send,
                401,
                "the request is not signed (X-Signature, X-Signature-Timestamp, X-Signature-Nonce)",
            )
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or len(length) > 18):
            await self._refuse(send, 400, "the Content-Length is not a number")
            return
        if length is not None and int(length) > MAX_BODY_BYTES:
            await self._refuse(send, 413, f"the body is longer than {MAX_BODY_BYTES} bytes")
            return
        size = MAX_BODY_BYTES if length is None else int(length)
        if self._in_flight + size > MAX_BODIES_IN_FLIGHT:
            await self._refuse(send, 503, "too many requests at once: try again")
            return
        self._in_flight += size
        try:
            try:
                body = await read_body(receive, MAX_BODY_BYTES)
            except BodyTooLarge:
                await self._refuse(send, 413, f"the body is longer than {MAX_BODY_BYTES} bytes")
                return
            except ClientGone:
                return
            status, answer = await anyio.to_thread.run_sync(
                self._judge, headers, bytes(body), limiter=self._judges
            )
        finally:
            self._in_flight -= size
        await _answer(send, status, answer)

    async def _refuse(self, send: Send, status: int, reason: str) -> None:
        """Refuse a request not yet authenticated; its log line is throttled."""
        held = self._throttle.let_through(f"{status} {reason}")
        if held is not None:
            log_event(
                "request.refused", level=logging.WARNING, status=status, why=reason, suppressed=held
            )
        await _answer(send, status, {"message": reason})

    def _judge(self, headers: Headers, body: bytes) -> tuple[int, dict[str, Any]]:
        """The answer to a signed POST (in a worker thread: it may query Abstract Play)."""
        try:
            status, answer = self._judged(headers, body)
        except JournalFault as fault:
            log_event("journal.busy", level=logging.WARNING, why=fault.message)
            return 503, {"message": "the journal is busy: try again"}
        except Exception as exc:  # a fault of ours: one line, never a traceback
            log_event("request.failed", level=logging.ERROR, error=type(exc).__name__)
            return 500, {"message": "the bot failed to judge the request"}
        if status == 401:  # a stranger's request: throttled as the others
            if (held := self._throttle.let_through(f"401 {answer['message']}")) is not None:
                log_event(
                    "request.refused",
                    level=logging.WARNING,
                    status=status,
                    why=answer["message"],
                    suppressed=held,
                )
        elif status >= 400:
            log_event(
                "request.refused", level=logging.WARNING, status=status, why=answer["message"]
            )
        return status, answer

    def _judged(self, headers: Headers, body: bytes) -> tuple[int, dict[str, Any]]:
        now = self._clock()
        nonce = headers.get("x-signature-nonce")
        fault = signature_fault(
            self.bot.settings.public_key,
            headers.get("x-signature-timestamp"),
            nonce,
            headers.get("x-signature"),
            body,
            now=now,
        )
        if fault is not None:
            return 401, {"message": fault}
        assert nonce is not None
        first = self.bot.journal.first_use(nonce, now=now, window=300)
        if first is None:
            return 503, {"message": "too many requests in the signature window"}
        if not first:
            return 401, {"message": "the nonce was used before: a replayed request"}
        try:
            payload = json.loads(body)
        except (ValueError, RecursionError):
            return 400, {"message": "the body is not JSON"}
        if not isinstance(payload, dict):
            return 400, {"message": "the body is not a JSON object"}
        verb = payload.get("verb")
        if verb == "challenge":
            reason = challenge_refusal(payload)
            log_event(
                "challenge",
                accepted=reason is None,
                variants=_variants(payload.get("variants")),
            )
            if reason is not None:
                return 400, {"message": reason}
            return 200, {"accepted": True}
        if verb == "move":
            try:
                outcome = self.bot.accept(payload)
            except Refusal as refusal:
                return refusal.status, {"message": refusal.reason}
            return 202, {"queued": True, "duplicate": outcome == "duplicate"}
        return 400, {
            "message": f"unknown verb {excerpt(verb)}: this bot answers challenge and move"
        }


def create_app(bot: ApBot, *, clock: Callable[[], float] = time.time) -> Starlette:
    """The bot's endpoint as a Starlette application: ``/`` for ``bot``."""
    endpoint = BotEndpoint(bot, clock=clock)
    app = Starlette(
        routes=[Route("/", endpoint)],
        middleware=[Middleware(Guard, hosts=None)],
    )
    app.router.redirect_slashes = False
    return app
