"""Running the command line inside the test's own process.

``run(*args, stdin=...)`` calls :func:`stawvs_ap.cli.cli.main` with standard
input, output and error put in memory, and answers what running
``python -m stawvs_ap ARGS`` would have: its exit status and the two texts. It
saves a Python start (a third of a second) per command, for the tests of what
a command says and writes. What only a process shows (signals, descriptors,
umask, limits, the installed entry point) is tested with ``cli_process``.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from stawvs_ap.cli.cli import main


class _Stream(io.TextIOWrapper):
    """A text stream in memory with a byte buffer below it, as a pipe has; it has
    no descriptor, as under a test runner's capture."""

    def __init__(self, data: bytes = b"") -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8", newline="")

    def text(self) -> str:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue().decode("utf-8")


def run(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``stawvs-ap ARGS`` here; ``stdin`` is text to feed it (none: empty)."""
    argv = [str(arg) for arg in args]
    given, out, err = _Stream((stdin or "").encode("utf-8")), _Stream(), _Stream()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = given, out, err
    try:
        status = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return subprocess.CompletedProcess(["stawvs-ap", *argv], status, out.text(), err.text())
