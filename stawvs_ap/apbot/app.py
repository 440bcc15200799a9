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

Every answer is JSON, a refusal ``{"message": "<one line>"}``; every request
is logged in one line. :func:`create_app` gives an application a host may
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
from .logs import log_event
from .player import ApBot, Refusal
from .protocol import MAX_BODY_BYTES, challenge_refusal, signature_fault

__all__ = ["BotEndpoint", "create_app"]

#: How many webhooks are judged at once (each in a worker thread).
JUDGES: Final = 8
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


class BotEndpoint:
    """The ASGI application of the endpoint, answering for ``bot``; ``clock``
    (``time.time``) is the clock signatures are judged by."""

    def __init__(self, bot: ApBot, *, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self._clock = clock
        self._judges = CapacityLimiter(JUDGES)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope["method"]
        if method in {"GET", "HEAD"}:
            log_event("ping")
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
        await _answer(send, status, answer)

    async def _refuse(self, send: Send, status: int, reason: str) -> None:
        log_event("request.refused", level=logging.WARNING, status=status, why=reason)
        await _answer(send, status, {"message": reason})

    def _judge(self, headers: Headers, body: bytes) -> tuple[int, dict[str, Any]]:
        """The answer to a signed POST (in a worker thread: it may query Abstract Play)."""
        status, answer = self._judged(headers, body)
        if status >= 400:
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
                variants=json.dumps(payload.get("variants"))[:100],
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
