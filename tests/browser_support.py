"""What the browser tests need: Debian's chromium driven by Playwright for Python.

Without them the browser tests are skipped, unless ``STAWVS_REQUIRE_BROWSER=1``
(set by ``.ci/run``) says they must run: then their absence fails the run.
The browser is never downloaded: Playwright starts ``/usr/bin/chromium`` (or
``STAWVS_CHROMIUM``) with the flags this machine's closed network needs.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("STAWVS_CHROMIUM", "/usr/bin/chromium"))
REQUIRED = os.environ.get("STAWVS_REQUIRE_BROWSER") == "1"
#: Headless, as root, and no connection to anything but the page's own server.
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


#: axe-core, the accessibility checker the browser tests inject: the npm
#: package at this exact version, installed by ``.ci/run`` into ``.axe/``
#: (``npm install --no-save --prefix .axe axe-core@VERSION``), not kept in
#: the repository: the tests only need it, the package never ships it.
AXE_VERSION = "4.14.1"
AXE = Path(__file__).resolve().parent.parent / ".axe" / "node_modules" / "axe-core" / "axe.min.js"


def require_axe() -> Path:
    """The pinned axe-core script; the calling test is skipped without it (failed
    when ``STAWVS_REQUIRE_BROWSER=1``), or failed if it is another version."""
    if not AXE.exists():
        reason = (
            f"no axe-core at {AXE} (npm install --no-save --prefix .axe axe-core@{AXE_VERSION})"
        )
        if REQUIRED:
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    head = AXE.read_text(encoding="utf-8")[:40]
    assert f"axe v{AXE_VERSION}" in head, f"{AXE} is not axe-core {AXE_VERSION}: {head!r}"
    return AXE


def missing(*, browser: bool = True) -> str | None:
    """Why the browser tests (with ``browser=False``, the HTTP tests) cannot run
    here, or None when they can."""
    for module in ("starlette", "uvicorn", *(("playwright",) if browser else ())):
        if importlib.util.find_spec(module) is None:
            return (
                f"{module} is not installed: needs the browser extra (pip install -e '.[browser]')"
            )
    if browser and not CHROMIUM.exists():
        return f"no chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def require(*, browser: bool = True) -> None:
    """Skip the calling test module when what it needs is missing (the browser,
    or with ``browser=False`` only the web extra); fail instead when
    ``STAWVS_REQUIRE_BROWSER=1``."""
    reason = missing(browser=browser)
    if reason is None:
        return
    if REQUIRED:
        pytest.fail(f"STAWVS_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)
