"""Shared test configuration: hypothesis profiles and the ``slow`` marker.

Two runs (README, "Development"):

- the **default run**, ``python -m pytest -n auto``: every test not marked
  ``slow``, with the ``fast`` hypothesis profile;
- the **long battery**, ``HYPOTHESIS_PROFILE=ci python -m pytest -m "slow or not
  slow" -n auto``: every test, with the ``ci`` profile.

``HYPOTHESIS_PROFILE`` (or hypothesis's own ``--hypothesis-profile``) chooses
the profile:

- ``fast`` (the default): derandomized, a tenth of the ``ci`` cases, for the
  development loop;
- ``ci``: derandomized, so every run replays the same cases (together more
  than 10,000 generated cases);
- ``nightly``: random and about twenty times as many cases as ``ci``;
- ``dev``: a handful of cases per test, for iterating on a test.

A test sets its share of the budget with ``@settings(max_examples=scaled(n))``
(see ``tests/hostile.py``): ``n`` is its number of cases under ``ci``, scaled
for the profile in force. Repetition that is not a hypothesis test (rounds of a
stress test, say) takes its count from ``scaled(n)`` too. A test that is long
by nature is marked ``@pytest.mark.slow`` (registered in ``pyproject.toml``):
the default run deselects it (``addopts``), the long battery runs it.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# The browser tests' shared helpers and fixtures: their asserts report values too,
# which works only when registered before the first test module imports them.
pytest.register_assert_rewrite("page_support")
# They import Playwright and Dask, which only the browser and cluster extras
# install: the modules that use them import them after checking the extra is
# there; doctest collection must not.
collect_ignore = ["page_support.py", "cluster_support.py"]

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}

# max_examples of a profile only counts for a test without its own settings;
# the tests here take theirs from hostile.scaled().
settings.register_profile("fast", derandomize=True, print_blob=True, max_examples=10, **_COMMON)
settings.register_profile("ci", derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("nightly", derandomize=False, print_blob=True, **_COMMON)
settings.register_profile("dev", max_examples=10, **_COMMON)

# The tests read the engine's English words, and the command line follows LANGUAGE
# (then LC_ALL, LC_MESSAGES, LANG): the machine's language must not choose them.
# Tests of other languages say so with --lang, locale= or an environment of their own.
os.environ["LANGUAGE"] = "en"

DEFAULT_PROFILE = "fast"
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", DEFAULT_PROFILE)
settings.load_profile(PROFILE)
