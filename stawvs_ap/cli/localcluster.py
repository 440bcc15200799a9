"""A Dask cluster on this machine that listens on the loopback interface alone,
for trying ``stawvs-ap arena --cluster``::

    python -m stawvs_ap.cli.localcluster --workers 2   # prints the address; Ctrl-C stops it

It is Dask's own :class:`distributed.LocalCluster`: the scheduler in this
process and worker processes of one thread each (a worker that dies is
started again by its nanny), with the dashboard off and every port, the HTTP
server Dask starts even then included, on 127.0.0.1. One that does not start
raises :class:`ClusterFailure` (``CLUSTER_FAILED``). Needs the ``cluster``
extra (Dask distributed).
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Sequence
from typing import Any

from ..bots.cluster import dask_distributed
from ..errors import StawvsError
from .safe_io import CliErrorCode

__all__ = ["LOOPBACK", "ClusterFailure", "main", "start"]

LOOPBACK = "127.0.0.1"


class ClusterFailure(StawvsError):
    """The local cluster did not start (code ``CLUSTER_FAILED``); the message
    says what Dask said."""

    def __init__(self, message: str) -> None:
        super().__init__(CliErrorCode.CLUSTER_FAILED, message)


def start(workers: int, port: int = 0) -> Any:
    """Dask's ``LocalCluster`` of ``workers`` one-thread worker processes, its
    scheduler on 127.0.0.1:``port`` (0: a free one); close it when done."""
    try:
        return dask_distributed().LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host=LOOPBACK,
            scheduler_port=port,
            dashboard_address=f"{LOOPBACK}:0",
            scheduler_kwargs={"dashboard": False},
        )
    except (OSError, RuntimeError, TimeoutError) as exc:  # Dask's "failed to start"
        raise ClusterFailure(f"the local cluster did not start: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run a loopback cluster until interrupted, printing its scheduler's address."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--port", type=int, default=0, help="the scheduler's (default: a free one)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    try:
        with start(args.workers, args.port) as cluster:
            print(cluster.scheduler_address, flush=True)
            threading.Event().wait()
    except ClusterFailure as exc:
        print(f"localcluster: error: {exc.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
