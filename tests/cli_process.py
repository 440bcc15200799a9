"""Running ``python -m stawvs_ap`` as a separate process, for the CLI's file tests."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from stawvs_ap import StawvsGame
from stawvs_ap.cli.safe_io import TEMP_PREFIX

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "stawvs_ap", *map(str, args)]


def _child_setup(
    umask: int | None, limits: Mapping[int, int], group: bool = False
) -> Callable[[], None]:
    def setup() -> None:
        import resource

        if group:  # a process group of its own, as a terminal gives a command
            os.setpgrp()
        # A runner started in the background or under nohup hands down ignored
        # stop signals, which the command rightly keeps ignoring.
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        if umask is not None:
            os.umask(umask)
        for kind, value in limits.items():
            resource.setrlimit(kind, (value, value))

    return setup


def start(
    *args: str | Path,
    stdin: int | IO[Any] | None = subprocess.DEVNULL,
    stdout: int | IO[Any] | None = subprocess.PIPE,
    env: Mapping[str, str] | None = None,
    umask: int | None = None,
    limits: Mapping[int, int] | None = None,
    group: bool = False,
) -> subprocess.Popen[str]:
    """Start the command; with ``group`` in a process group of its own (its id is
    the command's pid), so that ``os.killpg`` reaches it and its children as
    Ctrl-C would."""
    return subprocess.Popen(
        command(*args),
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(env or ENV),
        preexec_fn=_child_setup(umask, limits or {}, group),
    )


def run(
    *args: str | Path, stdin: str | None = None, **options: Any
) -> subprocess.CompletedProcess[str]:
    """Run the command to its end; ``stdin`` is text to feed it."""
    proc = start(
        *args, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL, **options
    )
    try:
        out, err = proc.communicate(stdin, timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out or "", err)


def one_error(done: subprocess.CompletedProcess[str], status: int = 2) -> str:
    """The single error line of a refused command (exit 2, nothing on standard output)."""
    assert done.returncode == status, (done.returncode, done.stdout[:200], done.stderr)
    assert not done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("stawvs-ap: "), done.stderr
    assert "Traceback" not in done.stderr and TEMP_PREFIX not in done.stderr
    return lines[0]


def temporaries(*folders: Path) -> list[Path]:
    return [p for folder in folders for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX)]


#: Seconds after which a test gives up on a process that hangs: a last resort, not a
#: guess of how long a step takes (the tests wait for events, however busy the machine).
HANG = 600


def wait_for(
    predicate: Callable[[], bool],
    what: str,
    timeout: float = HANG,
    proc: subprocess.Popen[str] | None = None,
) -> None:
    """Wait until ``predicate`` holds; fail at once if the process ``proc`` ends first."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the command ended before {what}: {proc.communicate()[1]}")
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def new_state(seed: int = 3) -> str:
    return StawvsGame(2, seed=seed).serialize()


def plies(path: Path) -> list[str]:
    """Every move in the game saved at ``path``, in order."""
    game = StawvsGame(path.read_text(encoding="utf-8"))
    return [move for round_ in game.move_history() for move in round_]


def record_file(folder: Path, seed: int = 7) -> Path:
    """A finished three-player game's record, as ``stawvs-ap record`` writes it."""
    game = StawvsGame(3, seed=seed)
    rng = random.Random(seed)
    while game.moves():
        game.move(rng.choice(game.moves()))
    players = [{"name": n, "uid": n} for n in ("Ann", "Bob", "Cy")]
    path = folder / "record.json"
    path.write_text(json.dumps(game.gen_record(uid="g", players=players)), encoding="utf-8")
    return path
