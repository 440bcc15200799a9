"""A Dask cluster for the tests: a scheduler and workers started as processes of
their own on 127.0.0.1 (``dask scheduler``, ``dask worker``), so that a test
can kill any of them as a crash would, and see that no port opens on another
interface. Every process binds to 127.0.0.1, with the dashboard off and its
HTTP server (health, metrics), which Dask starts even then, on 127.0.0.1 too.
A cluster that does not start raises RuntimeError saying where its logs are.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import distributed

LOOPBACK = "127.0.0.1"
_QUIET = ["--no-dashboard", "--dashboard-address", f"{LOOPBACK}:0"]


class LoopbackCluster:
    """A scheduler and ``workers`` workers on 127.0.0.1, started on entering and
    stopped on leaving (each process it started, and no other).

    ``env`` is the workers' environment (default: this process's); their logs
    go to files in a temporary directory (``self.directory``).
    """

    def __init__(
        self, workers: int = 2, *, env: Mapping[str, str] | None = None, timeout: float = 60
    ) -> None:
        self.workers_wanted = workers
        self.env = dict(env if env is not None else os.environ)
        self.timeout = timeout
        self._tmp = tempfile.TemporaryDirectory(prefix="stawvs-cluster-")
        self.directory = Path(self._tmp.name)
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.address = ""

    def _start(self, name: str, module: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.directory / f"{name}.log").open("wb")
        try:
            return subprocess.Popen(
                [sys.executable, "-m", f"distributed.cli.{module}", *args],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
                cwd=self.directory,
            )
        finally:
            log.close()

    def start(self) -> LoopbackCluster:
        """Start the scheduler and the workers; return when every worker has joined."""
        info = self.directory / "scheduler.json"
        self.scheduler = self._start(
            "scheduler",
            "dask_scheduler",
            "--host",
            LOOPBACK,
            "--port",
            "0",
            *_QUIET,
            "--scheduler-file",
            str(info),
        )
        deadline = time.monotonic() + self.timeout
        while not info.exists():
            self._check(self.scheduler, "the scheduler", deadline)
        while True:  # the file may be seen before it is whole
            try:
                self.address = json.loads(info.read_text())["address"]
                break
            except (ValueError, KeyError):
                self._check(self.scheduler, "the scheduler", deadline)
        for _ in range(self.workers_wanted):
            self.add_worker(wait=False)
        self.wait_for_workers(len(self.workers))
        return self

    def _check(self, process: subprocess.Popen[bytes], what: str, deadline: float) -> None:
        if process.poll() is not None:
            raise RuntimeError(f"{what} stopped at once: see its log in {self.directory}")
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"{what} did not start within {self.timeout} s: see its log in {self.directory}"
            )
        time.sleep(0.1)

    def add_worker(self, *, wait: bool = True) -> subprocess.Popen[bytes]:
        """Start one more worker (one thread, no nanny); with ``wait``, return once it joined."""
        name = f"worker-{len(self.workers) + 1}"
        worker = self._start(
            name,
            "dask_worker",
            self.address,
            "--host",
            LOOPBACK,
            *_QUIET,
            "--nthreads",
            "1",
            "--no-nanny",
            "--name",
            name,
            "--local-directory",
            str(self.directory / name),
            "--death-timeout",
            "30",  # a worker whose scheduler is gone stops by itself
        )
        self.workers.append(worker)
        if wait:
            self.wait_for_workers(sum(w.poll() is None for w in self.workers))
        return worker

    def client(self) -> Any:
        """A new Dask client of this cluster (close it when done)."""
        return distributed.Client(self.address, timeout=self.timeout, set_as_default=False)

    def wait_for_workers(self, count: int) -> None:
        """Return once ``count`` workers have joined; RuntimeError when
        they have not within the timeout."""
        try:
            client = self.client()
        except (OSError, TimeoutError):
            raise RuntimeError(
                f"the cluster's scheduler at {self.address} cannot be reached: see the logs "
                f"in {self.directory}"
            ) from None
        try:
            client.wait_for_workers(count, timeout=self.timeout)
        except TimeoutError:
            raise RuntimeError(
                f"{count} worker{'s' if count != 1 else ''} did not join within "
                f"{self.timeout} s: see the logs in {self.directory}"
            ) from None
        finally:
            client.close()

    def pids(self) -> list[int]:
        """The processes this cluster started that still run."""
        return [p.pid for p in [self.scheduler, *self.workers] if p and p.poll() is None]

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """Kill one of this cluster's processes at once (SIGKILL), as a crash would."""
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop(self) -> None:
        """Stop every process this cluster started, workers first (a worker whose
        scheduler went first would wait for it): politely, then by force."""
        for group in (self.workers, [self.scheduler] if self.scheduler else []):
            for process in group:
                if process.poll() is None:
                    process.terminate()
            deadline = time.monotonic() + 10
            for process in group:
                try:
                    process.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self._tmp.cleanup()

    def __enter__(self) -> LoopbackCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()
