"""Shared test configuration: hypothesis profiles.

``HYPOTHESIS_PROFILE`` chooses one:

- ``ci`` (the default): derandomized and quick, so every CI run replays the
  same cases (together more than 10,000 generated cases in a few minutes);
- ``nightly``: random and about twenty times as many cases, for long runs;
- ``dev``: a handful of cases per test, for iterating on a test.

A test sets its share of the budget with
``@settings(max_examples=scaled(n))`` (see ``tests/hostile.py``), which
multiplies that share for the nightly profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}

settings.register_profile("ci", derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("nightly", derandomize=False, print_blob=True, **_COMMON)
settings.register_profile("dev", max_examples=10, **_COMMON)

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)
