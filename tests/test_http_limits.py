"""The limits every HTTP server of the package keeps (stawvs_ap.service.webserver):
a connection that never finishes a request is closed, request heads are
bounded in bytes and headers, idle connections cannot lock a real client
out, and the bodies in flight hold a bounded number of bytes together. Each
runs a real uvicorn server on a loopback port."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest

from stawvs_ap.service.http import bind, create_app, loopback_hosts
from stawvs_ap.service.webserver import (
    MAX_HEAD_BYTES,
    MAX_HEADERS,
    SMALL_BODY_BYTES,
    BodyBudget,
    HttpLimits,
    limited_server,
)

VERSION = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "version"}).encode("ascii")


@contextmanager
def serving(limits: HttpLimits | None = None) -> Iterator[int]:
    """The service on a free loopback port with ``limits``; yields the port."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = limited_server(create_app(hosts=loopback_hosts("127.0.0.1", port)), limits)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    return sock


def head(port: int, *, extra: bytes = b"", length: int = len(VERSION)) -> bytes:
    return (
        b"POST /rpc HTTP/1.1\r\nhost: 127.0.0.1:%d\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n%s\r\n" % (port, length, extra)
    )


def answer_of(sock: socket.socket, seconds: float = 5) -> bytes:
    """Everything the server sends until it closes or ``seconds`` pass."""
    sock.settimeout(seconds)
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        got += chunk
        if b"\r\n\r\n" in got and got.split(b"\r\n\r\n", 1)[1].endswith(b"}"):
            break
    return got


def real_request(port: int) -> tuple[bytes, float]:
    """A whole ``version`` request on a new connection: the answer and its time."""
    start = time.monotonic()
    with connect(port) as sock:
        sock.sendall(head(port) + VERSION)
        got = answer_of(sock)
    return got, time.monotonic() - start


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds``."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def open_idle(port: int, count: int, stack: ExitStack) -> list[socket.socket]:
    """``count`` connections that never finish a request: silent, half a head,
    or a head and part of its body, in turn."""
    sockets = []
    for index in range(count):
        sock = stack.enter_context(connect(port))
        if index % 3 == 1:
            sock.sendall(b"POST /rpc HTTP/1.1\r\nhost: x\r\n")
        elif index % 3 == 2:
            sock.sendall(head(port, length=1000) + b"[")
        sockets.append(sock)
    return sockets


@pytest.mark.slow
def test_a_real_request_is_answered_within_2_s_while_200_idle_connections_are_open() -> None:
    with serving() as port, ExitStack() as stack:
        open_idle(port, 200, stack)
        time.sleep(0.2)  # let the server take them all
        got, seconds = real_request(port)
    assert got.startswith(b"HTTP/1.1 200"), got[:100]
    assert b'"result"' in got
    assert seconds < 2


@pytest.mark.slow
def test_past_the_connection_cap_the_connection_waiting_longest_is_closed() -> None:
    with serving(HttpLimits(connections=8)) as port, ExitStack() as stack:
        idle = open_idle(port, 8, stack)
        time.sleep(0.2)
        got, seconds = real_request(port)
        assert got.startswith(b"HTTP/1.1 200"), got[:100]
        assert seconds < 2
        assert closed_within(idle[0], 2)
        assert not closed_within(idle[-1], 0.2)


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"POST /rpc HTTP/1.1\r\nhost: x\r\n",
        b"POST /rpc HTTP/1.1\r\ncontent-length: 9\r\n\r\n[",
    ],
    ids=["nothing", "half a head", "part of a body"],
)
@pytest.mark.slow
def test_a_connection_that_never_finishes_its_request_is_closed(sent: bytes) -> None:
    with serving(HttpLimits(request_seconds=0.3)) as port, connect(port) as sock:
        sock.sendall(sent)
        start = time.monotonic()
        assert closed_within(sock, 3)
        assert time.monotonic() - start < 2


@pytest.mark.slow
def test_a_connection_that_sends_a_byte_after_an_answer_and_stops_is_closed() -> None:
    limits = HttpLimits(request_seconds=0.3, keep_alive_seconds=60)
    with serving(limits) as port, connect(port) as sock:
        sock.sendall(head(port) + VERSION)
        assert b'"result"' in answer_of(sock)
        sock.sendall(b"P")
        assert closed_within(sock, 3)


@pytest.mark.slow
def test_a_request_being_answered_outlives_the_request_deadline() -> None:
    from service_support import state_after

    search = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "bot_move",
            "params": {"state": state_after(4), "bot": "mcts", "seconds": 0.8},
        }
    ).encode("ascii")
    # A forwarded-for header names another client: the connection is still this one.
    forwarded = b"x-forwarded-for: 203.0.113.7\r\n"
    with serving(HttpLimits(request_seconds=0.3)) as port, connect(port) as sock:
        sock.sendall(head(port, length=len(search), extra=forwarded) + search)
        assert answer_of(sock).startswith(b"HTTP/1.1 200")


def test_a_head_over_the_byte_limit_gets_431() -> None:
    with serving() as port, connect(port) as sock:
        sock.sendall(head(port, extra=b"x-big: " + b"a" * MAX_HEAD_BYTES + b"\r\n") + VERSION)
        assert answer_of(sock).startswith(b"HTTP/1.1 431")


def test_one_huge_header_sent_in_pieces_is_refused_before_it_is_all_read() -> None:
    with serving() as port, connect(port) as sock:
        sock.sendall(b"POST /rpc HTTP/1.1\r\nx-big: ")
        sent = 0
        try:
            for _ in range(2000):  # up to 128 MB, as the attack did
                sock.sendall(b"a" * 65536)
                sent += 65536
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert sent < 16 * 1024 * 1024
        assert closed_within(sock, 2)


def test_a_long_url_counts_in_the_head() -> None:
    with serving() as port, connect(port) as sock:
        path = b"/rpc?" + b"a" * MAX_HEAD_BYTES
        sock.sendall(b"GET %s HTTP/1.1\r\nhost: 127.0.0.1:%d\r\n\r\n" % (path, port))
        assert answer_of(sock).startswith(b"HTTP/1.1 431")


@pytest.mark.parametrize(("count", "status"), [(MAX_HEADERS - 3, b"200"), (MAX_HEADERS, b"431")])
def test_more_headers_than_the_limit_get_431(count: int, status: bytes) -> None:
    # head() itself sends three headers.
    extra = b"".join(b"x-h%d: 1\r\n" % n for n in range(count))
    with serving() as port, connect(port) as sock:
        sock.sendall(head(port, extra=extra) + VERSION)
        assert answer_of(sock).startswith(b"HTTP/1.1 " + status)


@pytest.mark.slow
def test_a_real_request_is_answered_while_1000_idle_connections_come_and_go() -> None:
    with serving() as port, ExitStack() as stack:
        idle = open_idle(port, 1000, stack)
        time.sleep(0.5)
        got, seconds = real_request(port)
        assert got.startswith(b"HTTP/1.1 200"), got[:100]
        assert seconds < 2
        assert closed_within(idle[0], 2)


def test_pipelined_and_kept_alive_requests_with_large_bodies_are_answered() -> None:
    padded = VERSION[:-1] + b',"params":{}' + b" " * 100_000 + b"}"
    with serving(HttpLimits(request_seconds=2)) as port, connect(port) as sock:
        sock.sendall(head(port, length=len(padded)) + padded + head(port) + VERSION)
        got = b""
        deadline = time.monotonic() + 5
        while got.count(b'"result"') < 2 and time.monotonic() < deadline:
            got += sock.recv(65536)
        assert got.count(b"HTTP/1.1 200") == 2
        sock.sendall(head(port, length=len(padded)) + padded)
        assert answer_of(sock).startswith(b"HTTP/1.1 200")


@pytest.mark.slow  # holds connections open until the cap
def test_past_the_cap_with_every_connection_being_answered_a_new_one_gets_503() -> None:
    from service_support import state_after

    search = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "bot_move",
            "params": {"state": state_after(4), "bot": "mcts", "seconds": 1.5},
        }
    ).encode("ascii")
    with serving(HttpLimits(connections=1)) as port, connect(port) as busy:
        busy.sendall(head(port, length=len(search)) + search)
        time.sleep(0.3)  # the search is running: this connection is being answered
        got, _ = real_request(port)
        assert got.startswith(b"HTTP/1.1 503"), got[:100]
        assert answer_of(busy).startswith(b"HTTP/1.1 200")


# -- the bodies in flight ------------------------------------------------------------------

BODY = 256 * 1024  # a large body (over SMALL_BODY_BYTES), scaled down from 8 MiB
#: Room for four such bodies; every test below stalls more than that.
BUDGET = HttpLimits(bodies_bytes=4 * BODY, body_wait_seconds=0.5)


def large_body() -> bytes:
    return VERSION[:-1] + b',"params":{"x":"' + b"a" * (BODY - len(VERSION) - 20) + b'"}}'


def stall(port: int, count: int, stack: ExitStack) -> list[socket.socket]:
    """``count`` connections each sending a large body one byte short, then stalling."""
    sockets = []
    for _ in range(count):
        sock = stack.enter_context(connect(port))
        sock.sendall(head(port, length=BODY) + b"[" * (BODY - 1))
        sockets.append(sock)
    return sockets


def post_large(port: int) -> bytes:
    body = large_body()
    with connect(port) as sock:
        sock.sendall(head(port, length=len(body)) + body)
        return answer_of(sock)


def test_the_budget_takes_bytes_up_to_its_total_and_no_more() -> None:
    budget = BodyBudget(100)
    assert budget.try_take(60)
    assert budget.try_take(40)
    assert not budget.try_take(1)
    budget.give_back(40)
    assert not budget.try_take(41)
    assert budget.try_take(40)


def test_a_body_larger_than_the_whole_budget_takes_all_of_it() -> None:
    budget = BodyBudget(100)
    assert asyncio.run(budget.take(500, 0.1))
    assert budget.used == 100
    budget.give_back(500)
    assert budget.used == 0


def test_a_take_that_waits_gets_its_room_when_it_is_given_back() -> None:
    async def scenario() -> bool:
        budget = BodyBudget(100)
        assert budget.try_take(100)
        asyncio.get_running_loop().call_later(0.05, budget.give_back, 100)
        return await budget.take(70, 5)

    assert asyncio.run(scenario())


@pytest.mark.slow
def test_past_the_budget_a_large_body_waits_then_gets_503_once_it_is_sent() -> None:
    assert BODY > SMALL_BODY_BYTES
    body = b"[" + b" " * (4 * 1024 * 1024) + b"]"  # more than the sockets' buffers hold
    with serving(BUDGET) as port, ExitStack() as stack:
        stall(port, 32, stack)
        time.sleep(0.3)
        start = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"content-type": "application/json", "host": f"127.0.0.1:{port}"}
        connection.request("POST", "/rpc", body=body, headers=headers)
        answer = connection.getresponse()
        assert answer.status == 503
        assert b"too many large bodies" in answer.read()
        assert time.monotonic() - start < 3


@pytest.mark.slow
def test_while_large_bodies_fill_the_budget_a_small_request_is_answered() -> None:
    with serving(BUDGET) as port, ExitStack() as stack:
        stall(port, 32, stack)
        time.sleep(0.3)
        got, seconds = real_request(port)
        assert got.startswith(b"HTTP/1.1 200"), got[:100]
        assert seconds < 2


@pytest.mark.slow
def test_a_large_body_gets_its_turn_when_a_stalled_one_is_closed() -> None:
    limits = HttpLimits(bodies_bytes=4 * BODY, body_wait_seconds=5)
    with serving(limits) as port, ExitStack() as stack:
        stalled = stall(port, 4, stack)
        time.sleep(0.3)
        threading.Timer(0.5, stalled[0].close).start()
        start = time.monotonic()
        got = post_large(port)
        assert got.startswith(b"HTTP/1.1 200"), got[:100]
        assert 0.4 < time.monotonic() - start < 4


@pytest.mark.slow
def test_stalled_bodies_are_closed_with_their_connections_and_free_the_budget() -> None:
    limits = HttpLimits(bodies_bytes=4 * BODY, body_wait_seconds=0.5, request_seconds=1)
    with serving(limits) as port, ExitStack() as stack:
        stalled = stall(port, 8, stack)
        assert all(closed_within(sock, 4) for sock in stalled)
        assert post_large(port).startswith(b"HTTP/1.1 200")
