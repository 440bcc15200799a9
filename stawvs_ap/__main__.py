"""``python -m stawvs_ap``: the ``stawvs-ap`` command line (see :mod:`stawvs_ap.tools.cli`)."""

from __future__ import annotations

import sys

from .tools.cli import main

if __name__ == "__main__":
    sys.exit(main())
