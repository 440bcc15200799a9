"""Memory per body stays near the body's size: 16 bodies of 8 MiB at once keep
``stawvs-ap serve --http`` under 600 MB, whatever JSON they hold, and the
bodies in flight are bounded together: 64 stalled bodies of 8 MiB keep it
under 250 MB. Slow: each test posts 128 MiB or more to a server of its own and
reads its peak memory."""

from __future__ import annotations

import contextlib
import http.client
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.cli_process import ENV

pytestmark = pytest.mark.slow

LIMIT = 8 * 1024 * 1024
BODIES = 16


def _peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def _post(port: int, body: bytes, statuses: list[int]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request(
            "POST",
            "/rpc",
            body=body,
            headers={"content-type": "application/json", "host": f"127.0.0.1:{port}"},
        )
        statuses.append(connection.getresponse().status)
    finally:
        connection.close()


def _start() -> tuple[subprocess.Popen[str], int]:
    """``stawvs-ap serve --http`` on a free port, and the port."""
    server = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap", "serve", "--http", "127.0.0.1:0"],
        env=ENV,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    return server, int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])


def _fill(unit: bytes, head: bytes = b"[", tail: bytes = b"{}]") -> bytes:
    return head + unit * ((LIMIT - len(head) - len(tail)) // len(unit)) + tail


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    "body",
    [
        _fill(b"{},"),
        _fill(b"[],"),
        _fill(b'"ab",'),
        _fill(b"1.5,"),
        # One string: a state's worth of text, the legitimate large body.
        b'{"jsonrpc":"2.0","id":1,"method":"version","params":{"x":"'
        + b"a" * (LIMIT - 100)
        + b'"}}',
    ],
    ids=["empty objects", "empty arrays", "short strings", "numbers", "one long string"],
)
def test_16_bodies_of_8_mib_at_once_keep_the_server_under_600_mb(body: bytes) -> None:
    assert len(body) <= LIMIT
    server, port = _start()
    try:
        statuses: list[int] = []
        threads = [
            threading.Thread(target=_post, args=(port, body, statuses)) for _ in range(BODIES)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        assert statuses == [200] * BODIES
        peak = _peak_mb(server.pid)
        print(f"peak {peak:.0f} MB")
        assert peak < 600
    finally:
        server.terminate()
        server.wait(10)


def _stall(port: int, opened: list[socket.socket]) -> None:
    """A connection sending a body one byte short of the limit, then stalling."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    opened.append(sock)
    head = (
        b"POST /rpc HTTP/1.1\r\nhost: 127.0.0.1:%d\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % (port, LIMIT)
    )
    with contextlib.suppress(OSError):  # refused (503) once it waited for room in vain
        sock.sendall(head + b"[" * (LIMIT - 1))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_64_stalled_bodies_of_8_mib_keep_the_server_under_250_mb() -> None:
    """Before the budget of bodies in flight, 64 such connections took the
    server from 46 MB to 581 MB (256 of them: 2,110 MB; benchmarks/hostile.py)."""
    server, port = _start()
    opened: list[socket.socket] = []
    try:
        threads = [threading.Thread(target=_stall, args=(port, opened)) for _ in range(64)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        peak = _peak_mb(server.pid)
        print(f"peak {peak:.0f} MB")
        assert peak < 250
    finally:
        for sock in opened:
            sock.close()
        server.terminate()
        server.wait(10)
