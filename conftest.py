"""The doctests of the research adapters need the rl extra (OpenSpiel, PettingZoo):
without it they are not collected, so that the package's other tests run
anywhere. CI installs the extra and sets STAWVS_REQUIRE_RL=1, which fails
collection instead."""

from __future__ import annotations

import importlib.util
import os

_NEEDS = {
    "stawvs_ap/openspiel.py": ("pyspiel", "numpy"),
    "stawvs_ap/pettingzoo.py": ("pettingzoo", "gymnasium", "numpy"),
    "stawvs_ap/encoding.py": ("numpy",),
}

collect_ignore = [
    path
    for path, modules in _NEEDS.items()
    if not os.environ.get("STAWVS_REQUIRE_RL")
    and any(importlib.util.find_spec(m) is None for m in modules)
]
