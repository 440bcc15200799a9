"""``--cluster`` pointed at something that is not a Dask scheduler: refused in
one line, quickly, before any frame size the peer announces is trusted. The
peers are plain sockets on loopback."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("distributed", reason="the cluster extra is not installed")

from stawvs_ap.bots.cluster import Cluster
from stawvs_ap.errors import StawvsError


@contextmanager
def peer(greeting: bytes) -> Iterator[str]:
    """A listener that sends ``greeting`` to whoever connects, then waits."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    done = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        kept = []
        try:
            while not done.is_set():
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                conn.sendall(greeting)
                kept.append(conn)
        except OSError:
            pass
        for conn in kept:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{port}"
    finally:
        done.set()
        server.close()
        thread.join(6)


@pytest.mark.parametrize(
    ("greeting", "complaint"),
    [
        (struct.pack("<Q", 1_500_000_000), "announces 1,500,000,000 bytes"),
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", "is not a Dask scheduler"),
        (struct.pack("<Q", 10) + b"0123456789", "did not greet as one"),
        (b"", "said nothing Dask says"),
    ],
    ids=["a 1.5 GB frame", "a web server", "another protocol", "a silent listener"],
)
def test_a_peer_that_is_not_a_dask_scheduler_is_refused_in_one_line(
    greeting: bytes, complaint: str
) -> None:
    with peer(greeting) as address:
        start = time.monotonic()
        with pytest.raises(StawvsError, match=complaint) as caught:
            Cluster(address, timeout=1)
        assert time.monotonic() - start < 5
    assert caught.value.code == "ARENA_FAILED"
    assert "\n" not in caught.value.message


@pytest.mark.slow
def test_the_local_cluster_keeps_its_scheduler_and_other_workers_when_one_worker_dies() -> None:
    import os
    import signal
    import subprocess
    import sys

    import psutil
    from cli_process import ENV

    main = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap.cli.localcluster", "--workers", "2"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert main.stdout is not None
        address = main.stdout.readline().strip()
        assert address.startswith("tcp://127.0.0.1:")
        children = psutil.Process(main.pid).children()
        workers = [c for c in children if "dask_worker" in " ".join(c.cmdline())]
        assert len(workers) == 2
        os.kill(workers[0].pid, signal.SIGKILL)
        time.sleep(2)
        assert main.poll() is None
        assert workers[1].is_running() and workers[1].status() != psutil.STATUS_ZOMBIE
        with Cluster(address, timeout=10) as cluster:
            assert cluster.threads() == 1
    finally:
        main.send_signal(signal.SIGINT)
        try:
            main.wait(30)
        except subprocess.TimeoutExpired:
            main.kill()
            main.wait()
    assert "the other workers go on" in (main.stderr.read() if main.stderr else "")
