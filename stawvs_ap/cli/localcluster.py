"""A Dask cluster on this machine that listens on the loopback interface alone,
for trying ``stawvs-ap arena --cluster``::

    python -m stawvs_ap.cli.localcluster --workers 2   # prints the address; Ctrl-C stops it

It is Dask's own :class:`distributed.LocalCluster`: the scheduler in this
process and worker processes of one thread each (a worker that dies is
started again by its nanny), with the dashboard off and every port, the HTTP
server Dask starts even then included, on 127.0.0.1. Needs the ``cluster``
extra (Dask distributed).
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Sequence

from ..bots.cluster import dask_distributed

__all__ = ["LOOPBACK", "main"]

LOOPBACK = "127.0.0.1"


def main(argv: Sequence[str] | None = None) -> int:
    """Run a loopback cluster until interrupted, printing its scheduler's address."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    try:
        with dask_distributed().LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            host=LOOPBACK,
            dashboard_address=f"{LOOPBACK}:0",
            scheduler_kwargs={"dashboard": False},
        ) as cluster:
            print(cluster.scheduler_address, flush=True)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
