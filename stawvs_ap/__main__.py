"""``python -m stawvs_ap``: the ``stawvs-ap`` command line (see :mod:`stawvs_ap.cli.cli`)."""

from __future__ import annotations

import sys

from .cli.cli import main

if __name__ == "__main__":
    sys.exit(main())
