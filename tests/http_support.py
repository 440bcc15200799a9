"""Helpers for the tests of the HTTP transport: a real uvicorn server on a free
loopback port, in a thread of the test process, and raw requests to it."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.types import ASGIApp

from stawvs_ap.service.http import bind, loopback_hosts
from stawvs_ap.service.webserver import limited_server


@contextmanager
def running(make_app: Any, host: str = "127.0.0.1") -> Iterator[int]:
    """Serve ``make_app(hosts)`` (hosts: the loopback Host headers) on a free port
    of ``host``; yields the port."""
    sock = bind(host, 0)
    port = sock.getsockname()[1]
    app: ASGIApp = make_app(loopback_hosts(host, port))
    running_server = limited_server(app)
    thread = threading.Thread(target=running_server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not running_server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield port
    finally:
        running_server.should_exit = True
        thread.join(10)
        sock.close()


def post(
    port: int, body: bytes | str, *, headers: dict[str, str] | None = None, path: str = "/rpc"
) -> tuple[int, dict[str, str], bytes]:
    """POST ``body`` (JSON by default); the status, the headers and the body answered."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    return request(
        port, "POST", path, data, {"content-type": "application/json", **(headers or {})}
    )


def request(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def rpc(port: int, method: str, params: dict[str, Any] | None = None) -> Any:
    """The parsed answer to one request."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        message["params"] = params
    status, _, body = post(port, json.dumps(message))
    assert status == 200, (status, body[:200])
    return json.loads(body)
