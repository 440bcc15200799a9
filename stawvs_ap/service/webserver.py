"""Any ASGI application of ours on the network, with the same limits.

The service (``stawvs-ap serve --http``), the playground, the Abstract Play
bot and any other HTTP door of the package are served through
:func:`limited_server`, so that one set of limits,
:class:`HttpLimits`, holds for all of them (docs/reliability.md lists the
numbers). They are kept with uvicorn's public settings and two pieces of our
own around it, no subclass of any of its classes:

- **the request head** (request line and headers) is at most
  :attr:`HttpLimits.head_bytes` bytes, counted as it arrives by uvicorn's h11
  parser (``h11_max_incomplete_event_size``): past it the connection gets
  ``400`` and is closed before more is read; a head that came whole in one
  read over it, or with more than :attr:`HttpLimits.headers` headers, gets
  ``431``;
- **a connection that never finishes a request** (it sends nothing, only part
  of its head, or a slow body) is closed :attr:`HttpLimits.request_seconds`
  after it opened or after its previous answer; one that sends nothing after
  an answer, after :attr:`HttpLimits.keep_alive_seconds`;
- **connections**: at most :attr:`HttpLimits.connections` are open at once. A
  new one past the cap closes the connection that has waited longest without
  delivering a whole request (idle or slow ones go first); only when every
  open connection is being answered is the new one refused with ``503``;
- **bodies in flight**: the bodies being read or answered hold at most
  :attr:`HttpLimits.bodies_bytes` bytes together (:class:`BodyBudget`; a body
  of at most :data:`SMALL_BODY_BYTES` is not counted: the connection cap
  bounds those). A larger body waits for room, by its ``Content-Length``
  before any of it is read, and gets ``503`` when none is made within
  :attr:`HttpLimits.body_wait_seconds` (a chunked one past the room, at once),
  once the rest of it was read and dropped.
  So a crowd of stalled or complete large bodies holds a bounded memory, and
  only so many of them are parsed at once, whatever the application does.

The two pieces are :class:`_Watched`, an :class:`asyncio.Protocol` that
holds uvicorn's own h11 protocol and watches its connection, and
:class:`_Limits`, an ASGI middleware that tells it when a request was
delivered and answered, and keeps the header count and the budget. The body
of a request is read by the application with :func:`read_body`, which stops
at the application's own byte limit.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import StawvsError
from .jsonrpc import ServiceErrorCode

if TYPE_CHECKING:
    import uvicorn

__all__ = [
    "BODY_WAIT_SECONDS",
    "MAX_BODIES_BYTES",
    "MAX_CONNECTIONS",
    "MAX_HEADERS",
    "MAX_HEAD_BYTES",
    "REQUEST_SECONDS",
    "SMALL_BODY_BYTES",
    "BodyBudget",
    "BodyTooLarge",
    "ClientGone",
    "HttpLimits",
    "limited_server",
    "read_body",
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
#: The most bytes of request bodies a server holds at once, being read or
#: answered: four bodies of the service's largest (8 MiB).
MAX_BODIES_BYTES: Final = 32 * 1024 * 1024
#: A body of at most this many bytes is not counted in the budget.
SMALL_BODY_BYTES: Final = 64 * 1024
#: Seconds a large body waits for room in the budget before its 503.
BODY_WAIT_SECONDS: Final = 10.0


@dataclass(frozen=True)
class HttpLimits:
    """The limits of one server; the defaults are the package's."""

    connections: int = MAX_CONNECTIONS
    request_seconds: float = REQUEST_SECONDS
    keep_alive_seconds: int = KEEP_ALIVE_SECONDS
    head_bytes: int = MAX_HEAD_BYTES
    headers: int = MAX_HEADERS
    bodies_bytes: int = MAX_BODIES_BYTES
    body_wait_seconds: float = BODY_WAIT_SECONDS


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
    more is read), :class:`ClientGone` when the client disconnects (or the
    server refused the body for want of room: it answers 503 itself)."""
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


class BodyBudget:
    """At most ``total`` bytes taken at once by the requests of one event loop;
    a request takes its share with :meth:`take` and gives it back with
    :meth:`give_back` when answered."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.used = 0
        self._freed: asyncio.Event | None = None

    def try_take(self, size: int) -> bool:
        """Take ``size`` bytes if they fit now."""
        if self.used + size > self.total:
            return False
        self.used += size
        return True

    async def take(self, size: int, seconds: float) -> bool:
        """Take ``size`` bytes (at most the whole budget), waiting at most
        ``seconds`` for room; False when none was made."""
        deadline = time.monotonic() + seconds
        while not self.try_take(min(size, self.total)):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._freed = self._freed or asyncio.Event()
            try:
                await asyncio.wait_for(self._freed.wait(), left)
            except TimeoutError:
                return False
        return True

    def give_back(self, size: int) -> None:
        """Give back ``size`` bytes taken (with :meth:`take`, as many as it took)."""
        self.used -= min(size, self.total)
        if self._freed is not None:
            self._freed.set()
            self._freed = None


_Peer = tuple[str, int]


def _peer(address: Any) -> _Peer | None:
    """A connection's key: the client's address and port, as uvicorn's scope has them."""
    if isinstance(address, tuple | list) and len(address) >= 2:
        return str(address[0]), int(address[1])
    return None


class _Server:
    """The open connections of one server and its body budget."""

    def __init__(self, limits: HttpLimits) -> None:
        self.limits = limits
        self.budget = BodyBudget(limits.bodies_bytes)
        self.connections: dict[_Peer, _Watched] = {}

    def make_room(self, new: _Watched) -> bool:
        """Close the connection that has waited longest; False if all are being answered."""
        waiting = [
            c
            for c in self.connections.values()
            if c is not new and c.waiting and not c.transport.is_closing()
        ]
        if not waiting:
            return False
        min(waiting, key=lambda c: c.since).transport.close()
        return True


class _Watched(asyncio.Protocol):
    """One connection: uvicorn's own protocol ``inner`` does HTTP; this closes
    the connection when it has not delivered a whole request in time, and
    keeps the connection cap."""

    def __init__(self, server: _Server, inner: asyncio.Protocol) -> None:
        self.server, self.inner = server, inner
        self.received = self.answered = 0
        self.since = time.monotonic()
        self.made = False
        self._deadline: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> bool:
        """No whole request awaiting its answer (idle, slow, or reading a body)."""
        return self.received == self.answered

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.peer = _peer(transport.get_extra_info("peername"))
        if self.peer is not None:
            self.server.connections[self.peer] = self
        self._arm()
        over = len(self.server.connections) > self.server.limits.connections
        if over and not self.server.make_room(self):
            transport.write(_raw_503())
            transport.close()
            return
        self.made = True
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.made:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.made else None

    def pause_writing(self) -> None:
        if self.made:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.made:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.peer is not None and self.server.connections.get(self.peer) is self:
            del self.server.connections[self.peer]
        if self.made:
            self.inner.connection_lost(exc)

    def delivered(self) -> None:
        """A whole request came in (told by :class:`_Limits`)."""
        self.received += 1
        self._disarm()

    def done(self) -> None:
        """A request was answered: from now on the connection waits again."""
        self.answered += 1
        if self.waiting and not self.transport.is_closing():
            self.since = time.monotonic()
            self._arm()

    def _arm(self) -> None:
        self._disarm()
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(self.server.limits.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.waiting:
            self.transport.close()


def _raw_503() -> bytes:
    reason = b"Service Unavailable"
    return (
        b"HTTP/1.1 503 %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (reason, len(reason), reason)
    )


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = reason.encode("ascii")
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _drain(receive: Receive) -> None:
    """Read the rest of a refused body and drop it: a client reads the answer
    only once it has sent its body (the connection's deadline bounds the time)."""
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


def _declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The ``Content-Length`` as a number, None when absent or not a number
    (the application refuses that one)."""
    for name, value in headers:
        if name.lower() == b"content-length":
            return int(value) if value.isdigit() and len(value) <= 18 else None
    return None


def _head_bytes(scope: Scope) -> int:
    """The size of a request head that arrived whole (one read can bring more
    than h11's limit on a head still arriving)."""
    line = len(scope["method"]) + len(scope.get("raw_path") or b"") + len(scope["query_string"])
    return line + 12 + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


class _Limits:
    """ASGI middleware of :func:`limited_server`: the header count, the body
    budget, and the connection told when a request was delivered and answered."""

    def __init__(self, app: ASGIApp, server: _Server) -> None:
        self.app, self.server = app, server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        watched = self.server.connections.get(_peer(scope.get("client")) or ("", 0))
        limits, budget = self.server.limits, self.server.budget
        headers: list[tuple[bytes, bytes]] = scope["headers"]
        length = _declared_length(headers)
        delivered = started = refused = False
        taken = 0

        def deliver() -> None:
            nonlocal delivered
            if not delivered and watched is not None:
                watched.delivered()
            delivered = True

        async def budgeted() -> Message:
            nonlocal taken, refused
            if refused:
                return {"type": "http.disconnect"}
            if length is not None and length > SMALL_BODY_BYTES and not taken:
                if not await budget.take(length, limits.body_wait_seconds):
                    refused = True
                    return {"type": "http.disconnect"}
                taken = length
            message = await receive()
            if message["type"] == "http.request":
                if length is None:  # chunked: counted as it comes, never waited for
                    size = taken + len(message.get("body", b""))
                    if size > SMALL_BODY_BYTES and not budget.try_take(size - taken):
                        refused = True
                        return {"type": "http.disconnect"}
                    taken = size if size > SMALL_BODY_BYTES else taken
                if not message.get("more_body", False):
                    deliver()
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            if len(headers) > limits.headers or _head_bytes(scope) > limits.head_bytes:
                await _refuse(send, 431, "Request Header Fields Too Large")
                return
            if not length and not any(n.lower() == b"transfer-encoding" for n, _ in headers):
                deliver()  # no body: the head was the whole request
            try:
                await self.app(scope, budgeted, tracked)
            finally:
                budget.give_back(taken)
            if refused and not started:
                await _drain(receive)
                await _refuse(send, 503, "the server is reading too many large bodies: try again")
        finally:
            deliver()
            if watched is not None:
                watched.done()


def limited_server(app: ASGIApp, limits: HttpLimits | None = None) -> uvicorn.Server:
    """A uvicorn server of ``app`` that keeps ``limits`` (default: the package's);
    run it with ``.run(sockets=[sock])``."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    server = _Server(limits or HttpLimits())

    def watched(**settings: Any) -> asyncio.Protocol:
        # uvicorn makes its protocol with these keywords; ours passes them on.
        return _Watched(server, H11Protocol(**settings))

    config = uvicorn.Config(
        _Limits(app, server),
        # uvicorn calls its ``http`` setting with keywords to make each
        # connection's protocol: a function does as well as a class.
        http=cast(type[asyncio.Protocol], watched),
        ws="none",
        log_level="warning",
        limit_concurrency=None,  # the cap is _Server's (idle ones go first)
        timeout_keep_alive=server.limits.keep_alive_seconds,
        h11_max_incomplete_event_size=server.limits.head_bytes,
        proxy_headers=False,  # the scope's client must be the connection's own address
        server_header=False,
        lifespan="off",
    )
    return uvicorn.Server(config)
