"""The service over HTTP: JSON-RPC 2.0 by ``POST /rpc``, as an ASGI application.

:func:`create_app` gives a Starlette application that a Python host can mount
in its own (Starlette, FastAPI, or any ASGI server or router)::

    from starlette.applications import Starlette
    from starlette.routing import Mount
    from stawvs_ap.service.http import create_app

    app = Starlette(routes=[Mount("/stawvs", app=create_app())])   # POST /stawvs/rpc

:func:`serve_http` runs it with uvicorn (``stawvs-ap serve --http
127.0.0.1:8765``), through :func:`stawvs_ap.service.webserver.limited_server`
and its limits on connections, request heads and slow clients. Both need the
``web`` extra (``pip install "stawvs-ap[web]"``). The body of a request is what one line is to the
standard input transport: one request or a batch, answered with status 200
and the response (204 and no body when there is nothing to answer). Before
anything reaches the methods:

- a request that is not ``POST`` is refused with 405, a body that is not
  ``application/json`` with 415;
- a body over :data:`MAX_BODY_BYTES` (or ``max_body_bytes``) is refused with
  413: by its ``Content-Length`` before it is read, or as soon as a chunked
  body grows past it; a ``Content-Length`` that is not a number gets 400;
  an empty body is a parse error (``-32700``), as JSON-RPC says;
- with ``hosts`` (as :func:`serve_http` sets it when bound to a loopback
  address), a ``Host`` header not in it gets 403, so that a page of another
  site whose name was pointed at 127.0.0.1 (DNS rebinding) cannot reach the
  methods;
- methods run in worker threads (at most :data:`CALL_THREADS` at once), so
  the event loop never waits on a search; searches also hold one of the
  :data:`~stawvs_ap.service.bots.SEARCHES` slots, and one body runs at most
  :data:`~stawvs_ap.service.methods.MAX_SEARCHES_PER_REQUEST` of them, as a
  line does on standard input.

Every refusal is a JSON-RPC error object (``id`` null) with the status; no
answer carries a traceback (faults are logged on standard error, answered
``-32603`` or a bare 500).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
from collections.abc import Iterable, Sequence
from typing import Final

import anyio.to_thread
from anyio import CapacityLimiter
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, MAX_LINE_BYTES, PARSE_ERROR
from .methods import answer_line
from .webserver import BodyTooLarge, ClientGone, limited_server, read_body

__all__ = [
    "CALL_THREADS",
    "MAX_BODY_BYTES",
    "bind",
    "create_app",
    "loopback_hosts",
    "serve_http",
]

#: The largest request body read: the same as a request line on standard input.
MAX_BODY_BYTES: Final = MAX_LINE_BYTES
#: How many requests run their methods at once (the others wait their turn).
CALL_THREADS: Final = 8

_LOG = logging.getLogger("stawvs_ap.service")
_JSON: Final = "application/json"


Answer = tuple[int, dict[str, str], bytes]


def _refusal(status: int, code: int, message: str, headers: dict[str, str] | None = None) -> Answer:
    """The parts of a refusal: status, headers and a JSON-RPC error body."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}},
        separators=(",", ":"),
    ).encode("ascii")
    return status, {**(headers or {}), "content-type": _JSON}, body


async def _send(send: Send, status: int, headers: dict[str, str], body: bytes = b"") -> None:
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    raw += [(b"content-length", str(len(body)).encode("ascii")), (b"cache-control", b"no-store")]
    raw.append((b"x-content-type-options", b"nosniff"))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class RpcEndpoint:
    """``/rpc``: a JSON-RPC body in, its answer out (an ASGI application)."""

    def __init__(self, max_body_bytes: int = MAX_BODY_BYTES, threads: int = CALL_THREADS) -> None:
        self.max_body_bytes = max_body_bytes
        self._limiter = CapacityLimiter(threads)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self._refusal(scope)
        if refusal is not None:
            await _send(send, *refusal)
            return
        try:
            body = await read_body(receive, self.max_body_bytes)
        except BodyTooLarge:
            await _send(send, *self._too_large())
            return
        except ClientGone:
            return  # nobody is left to answer
        if not body or body.isspace():
            await _send(send, *_refusal(200, PARSE_ERROR, "the body is empty: send a request"))
            return
        reply = await anyio.to_thread.run_sync(answer_line, body, limiter=self._limiter)
        if reply is None:
            await _send(send, 204, {})
        else:
            await _send(send, 200, {"content-type": _JSON}, reply.encode("ascii"))

    def _too_large(self) -> Answer:
        return _refusal(
            413, INVALID_REQUEST, f"the request body is longer than {self.max_body_bytes} bytes"
        )

    def _refusal(self, scope: Scope) -> Answer | None:
        """What to answer instead of reading the body, or None to read it."""
        if scope["method"] != "POST":
            return _refusal(405, INVALID_REQUEST, "send requests by POST", {"allow": "POST"})
        headers = Headers(scope=scope)
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != _JSON:
            return _refusal(415, PARSE_ERROR, "the body must be application/json")
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit() or len(length) > 18:
                return _refusal(400, INVALID_REQUEST, "the Content-Length is not a number")
            if int(length) > self.max_body_bytes:
                return self._too_large()
        return None


class Guard:
    """ASGI middleware: the ``Host`` check, and no traceback in any answer."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] | None = None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # websockets: none served
            return
        if self.hosts is not None:
            host = Headers(scope=scope).get("host", "").lower()
            if host not in self.hosts:
                await _send(
                    send, *_refusal(403, INVALID_REQUEST, "this server answers only its own host")
                )
                return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            _LOG.exception("stawvs-ap: internal error answering %s", scope.get("path", "")[:80])
            if not started:
                await _send(send, *_refusal(500, INTERNAL_ERROR, "internal error"))


def create_app(
    *,
    hosts: Iterable[str] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    routes: Sequence[BaseRoute] = (),
) -> Starlette:
    """The service as a Starlette application: ``POST /rpc``, then ``routes``.

    ``hosts`` are the ``Host`` headers answered (any when None); see
    :func:`loopback_hosts`. A host that mounts it under a prefix serves
    ``/prefix/rpc``.
    """
    app = Starlette(
        routes=[Route("/rpc", RpcEndpoint(max_body_bytes)), *routes],
        middleware=[Middleware(Guard, hosts=hosts)],
    )
    app.router.redirect_slashes = False  # a path is served as it is or not at all
    return app


def loopback_hosts(host: str, port: int) -> list[str] | None:
    """The ``Host`` headers a server bound to ``host``:``port`` answers: its own
    address and ``localhost`` when ``host`` is a loopback address, None (any)
    otherwise.

    >>> loopback_hosts("127.0.0.1", 8765)
    ['127.0.0.1:8765', 'localhost:8765']
    >>> loopback_hosts("0.0.0.0", 8765) is None
    True
    """
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return [f"{host}:{port}", f"localhost:{port}"] if host == "localhost" else None
    if not address.is_loopback:
        return None
    own = f"[{address}]:{port}" if address.version == 6 else f"{address}:{port}"
    return [own, f"localhost:{port}"]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Naming the protocol lets asyncio set TCP_NODELAY on each connection: without
    # it a small answer's body waits for the client's delayed acknowledgement (40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.setblocking(False)
    return sock


def serve_http(app: ASGIApp, sock: socket.socket) -> None:
    """Serve ``app`` on the listening socket ``sock`` until interrupted, with the
    package's HTTP limits (:func:`~stawvs_ap.service.webserver.limited_server`)."""
    limited_server(app).run(sockets=[sock])
