"""Any ASGI application of ours on the network, with the same limits.

The service (``stawvs-ap serve --http``), the playground and any other HTTP
door of the package are served through :func:`limited_server` (or
:func:`serve_limited`), so that one set of limits, :class:`HttpLimits`,
holds for all of them. What each limit stops (docs/reliability.md lists the
numbers):

- **a connection that never finishes a request** (it sends nothing, only part
  of its head, or a slow body) is closed :attr:`HttpLimits.request_seconds`
  after it opened or after its previous answer was sent; uvicorn's keep-alive
  timeout covers only a connection that sends nothing at all after an answer;
- **the request head** (request line and headers) is at most
  :attr:`HttpLimits.head_bytes` bytes and :attr:`HttpLimits.headers` headers,
  counted as they arrive: past either the connection gets ``431`` and is
  closed before more is read;
- **connections**: at most :attr:`HttpLimits.connections` are open at once. A
  new one past the cap closes the connection that has waited longest without
  delivering a whole request (idle or slow ones go first); only when every open
  connection is being answered is the new one refused with ``503``. So idle
  sockets cannot lock out a real client: its connection is the newest.

The body of a request is read by the application with :func:`read_body`,
which stops at a byte limit; :func:`stawvs_ap.service.jsonrpc.loads_bounded`
then parses it with memory near its size.

The limits need uvicorn's ``httptools`` parser (the ``web`` extra installs it):
they are kept by a subclass of its protocol.
"""

from __future__ import annotations

import socket
import time
from asyncio import TimerHandle, Transport
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from starlette.types import ASGIApp, Message, Receive

from ..errors import StawvsError
from .jsonrpc import ServiceErrorCode

if TYPE_CHECKING:
    import uvicorn

__all__ = [
    "MAX_CONNECTIONS",
    "MAX_HEADERS",
    "MAX_HEAD_BYTES",
    "REQUEST_SECONDS",
    "BodyTooLarge",
    "ClientGone",
    "HttpLimits",
    "limited_server",
    "read_body",
    "serve_limited",
]

#: The most connections open at once (idle ones are closed first beyond it).
MAX_CONNECTIONS: Final = 256
#: Seconds a connection has to deliver one whole request (head and body).
REQUEST_SECONDS: Final = 20.0
#: Seconds an idle connection is kept open after an answer.
KEEP_ALIVE_SECONDS: Final = 5
#: The longest request head: the request line and every header, in bytes.
MAX_HEAD_BYTES: Final = 16 * 1024
#: The most headers one request may carry.
MAX_HEADERS: Final = 64


@dataclass(frozen=True)
class HttpLimits:
    """The limits of one server; the defaults are the package's."""

    connections: int = MAX_CONNECTIONS
    request_seconds: float = REQUEST_SECONDS
    keep_alive_seconds: int = KEEP_ALIVE_SECONDS
    head_bytes: int = MAX_HEAD_BYTES
    headers: int = MAX_HEADERS


class BodyTooLarge(StawvsError):
    """The body grew past the limit given to :func:`read_body`, ``limit`` bytes
    (code ``INVALID_REQUEST``: the service answers it with 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            ServiceErrorCode.INVALID_REQUEST, f"the request body is longer than {limit:,} bytes"
        )
        self.limit = limit


class ClientGone(StawvsError):
    """The client went away before its body was read (code ``CONNECTION_FAILED``)."""

    def __init__(self) -> None:
        super().__init__(
            ServiceErrorCode.CONNECTION_FAILED, "the client went away before its request was read"
        )


async def read_body(receive: Receive, limit: int) -> bytearray:
    """The whole body of the request, read from ``receive``; raises
    :class:`BodyTooLarge` as soon as it grows past ``limit`` bytes (nothing
    more is read), :class:`ClientGone` when the client disconnects."""
    body = bytearray()
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone()
        body += message.get("body", b"")
        if len(body) > limit:
            raise BodyTooLarge(limit)
        if not message.get("more_body", False):
            return body


_REASONS: Final = {431: b"Request Header Fields Too Large", 503: b"Service Unavailable"}


class _HeadTooLarge(Exception):
    """The request head passed a limit (raised inside the parser's callbacks)."""


def _protocol_class(limits: HttpLimits) -> type[Any]:
    """uvicorn's httptools protocol with ``limits`` kept (see the module's words)."""
    import httptools
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class LimitedProtocol(HttpToolsProtocol):
        LIMITS: ClassVar[HttpLimits] = limits

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # Waiting: no whole request awaiting its answer (idle, slow, or
            # reading a body); pipelined requests are counted in and out.
            self.waiting = True
            self._received = self._answered = 0
            self.waiting_since = time.monotonic()
            self._head_open = True
            self._head_bytes = self._head_raw = self._header_count = 0
            self._refused = False
            self._deadline: TimerHandle | None = None

        def connection_made(self, transport: Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()
            if len(self.connections) > self.LIMITS.connections:
                self._make_room()

        def _make_room(self) -> None:
            waiting: list[Any] = [
                c
                for c in self.connections
                if c is not self and getattr(c, "waiting", False) and not c.transport.is_closing()
            ]
            if not waiting:
                self._refuse(503)
                return
            oldest = min(waiting, key=lambda c: float(c.waiting_since))
            self.connections.discard(oldest)
            oldest.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(self.LIMITS.request_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.waiting and not self.transport.is_closing():
                self.transport.close()

        def _refuse(self, status: int) -> None:
            reason = _REASONS[status]
            self.transport.write(
                b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s"
                % (status, reason, len(reason), reason)
            )
            self.transport.close()

        def _count_head(self, size: int) -> None:
            self._head_bytes += size
            if self._head_bytes > self.LIMITS.head_bytes:
                self._refused = True
                raise _HeadTooLarge

        def data_received(self, data: bytes) -> None:
            if self.transport.is_closing():
                return
            self._unset_keepalive_if_required()
            head_was_open, received = self._head_open, self._received
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserUpgrade:
                self._unsupported_upgrade_warning()
                return
            except Exception:
                if self._refused:
                    self._refuse(431)
                    return
                self.send_400_response("Invalid HTTP request received.")
                return
            # A header still being received is not yet seen by the callbacks:
            # count the bytes themselves, so that one huge header stops early.
            still_head = head_was_open and self._head_open and received == self._received
            if still_head and not self.transport.is_closing():
                self._head_raw += len(data)
                if self._head_raw > self.LIMITS.head_bytes:
                    self._refuse(431)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_open = True
            self._head_bytes = self._head_raw = self._header_count = 0

        def on_url(self, url: bytes) -> None:
            self._count_head(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._header_count += 1
            if self._header_count > self.LIMITS.headers:
                self._refused = True
                raise _HeadTooLarge
            self._count_head(len(name) + len(value) + 4)
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._head_open = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._received += 1
            self.waiting = False
            self._disarm()
            self._head_open, self._head_raw = True, 0  # what comes next is the next head
            super().on_message_complete()

        def on_response_complete(self) -> None:
            self._answered += 1
            super().on_response_complete()
            if self._received == self._answered and not self.transport.is_closing():
                self.waiting = True
                self.waiting_since = time.monotonic()
                self._arm()

    return LimitedProtocol


def limited_server(app: ASGIApp, limits: HttpLimits | None = None) -> uvicorn.Server:
    """A uvicorn server of ``app`` that keeps ``limits`` (default: the package's);
    run it with ``.run(sockets=[sock])``."""
    import uvicorn

    limits = limits or HttpLimits()
    config = uvicorn.Config(
        app,
        http=_protocol_class(limits),
        ws="none",
        log_level="warning",
        limit_concurrency=None,  # the protocol keeps its own cap (idle ones go first)
        timeout_keep_alive=limits.keep_alive_seconds,
        server_header=False,
        lifespan="off",
    )
    return uvicorn.Server(config)


def serve_limited(app: ASGIApp, sock: socket.socket, limits: HttpLimits | None = None) -> None:
    """Serve ``app`` on the listening socket ``sock`` with ``limits`` until interrupted."""
    limited_server(app, limits).run(sockets=[sock])
