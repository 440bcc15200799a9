"""``python -m stawvs_ap``: the ``stawvs-ap`` command line (see :mod:`stawvs_ap.cli`)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
