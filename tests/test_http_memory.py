"""Memory per body stays near the body's size: 16 bodies of 8 MiB at once keep
``stawvs-ap serve --http`` under 600 MB, whatever JSON they hold. Slow: each
test posts 128 MiB to a server of its own and reads its peak memory."""

from __future__ import annotations

import http.client
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
    server = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap", "serve", "--http", "127.0.0.1:0"],
        env=ENV,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = int(line.split("http://127.0.0.1:", 1)[1].split("/", 1)[0])
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
