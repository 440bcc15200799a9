"""``--cluster`` pointed at something that is not a Dask scheduler: refused in
one line, quickly, before any frame size the peer announces is trusted. The
peers are plain sockets on loopback."""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster extra is not installed")

from stawvs_ap.bots.cluster import Cluster, cluster_address
from stawvs_ap.errors import StawvsError

ROOT = Path(__file__).resolve().parent.parent
#: Addresses of no scheduler the arena can reach: other transports, and tcp:// without a port.
NOT_TCP = [
    "inproc://x",
    "tls://127.0.0.1:8786",
    "ucx://127.0.0.1:8786",
    "127.0.0.1:8786",
    "tcp://127.0.0.1",
    "tcp://:8786",
    "tcp://127.0.0.1:0",
    "tcp://127.0.0.1:65536",
    "tcp://127.0.0.1:+1",
    "tcp://127.0.0.1:٣",
    "tcp://host name:8786",
    "tcp://" + "h" * 100_000 + ":1",
]


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
@pytest.mark.slow
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


@pytest.mark.parametrize("address", NOT_TCP, ids=lambda a: a[:30])
def test_an_address_that_is_not_tcp_host_port_is_refused_before_connecting(address: str) -> None:
    start = time.monotonic()
    with pytest.raises(StawvsError) as caught:
        Cluster(address, timeout=30)
    assert time.monotonic() - start < 1
    assert caught.value.code == "BAD_ARGUMENT"
    assert caught.value.message.startswith("a cluster's address is tcp://HOST:PORT")
    assert "\n" not in caught.value.message and len(caught.value.message) < 200


def test_a_tcp_address_gives_its_host_and_port() -> None:
    assert cluster_address("tcp://127.0.0.1:8786") == ("127.0.0.1", 8786)
    assert cluster_address("tcp://[::1]:1") == ("::1", 1)
    assert cluster_address("tcp://sched.example:65535") == ("sched.example", 65535)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["review", "arena"])
@pytest.mark.parametrize("address", ["inproc://x", "tls://127.0.0.1:8786"])
def test_the_command_line_refuses_another_transport_in_one_line_quickly(
    command: str, address: str
) -> None:
    from cli_process import ENV

    record = ROOT / "fixtures" / "golden" / "2p-default-seed-1.json"
    given = [str(record), "--bot", "random"] if command == "review" else ["--games", "2"]
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "stawvs_ap", command, *given, "--cluster", address],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - start < 10  # a Python start and the record's replay; was 22 s
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("stawvs-ap: error: a cluster's address is tcp://HOST:PORT")


@pytest.mark.slow
def test_the_local_cluster_to_try_keeps_going_when_a_worker_dies_and_stops_on_ctrl_c() -> None:
    import os
    import signal
    import subprocess
    import sys

    import psutil
    from cli_process import ENV, HANG

    main = subprocess.Popen(
        [sys.executable, "-m", "stawvs_ap.cli.localcluster", "--workers", "2"],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert main.stdout is not None
        address = main.stdout.readline().strip()  # once the workers have started
        assert address.startswith("tcp://127.0.0.1:")
        processes = [psutil.Process(main.pid), *psutil.Process(main.pid).children()]
        workers = [p for p in processes if "spawn_main" in " ".join(p.cmdline())]
        assert len(workers) == 2
        for process in processes:
            for conn in process.net_connections("inet"):
                assert conn.laddr.ip == "127.0.0.1", (process.cmdline(), conn)
        os.kill(workers[0].pid, signal.SIGKILL)
        with Cluster(address, timeout=HANG) as cluster:
            assert cluster.threads() >= 1
        assert main.poll() is None
    finally:
        main.send_signal(signal.SIGINT)
        try:
            main.wait(HANG)
        except subprocess.TimeoutExpired:
            main.kill()
            main.wait()
    assert main.returncode == 0
    assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers)
