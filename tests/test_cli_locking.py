"""A command that reads a game file and writes it back holds an exclusive lock
on it from reading to replacing: concurrent moves take turns, or the later one
is refused as illegal; an update is never silently lost."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
from pathlib import Path

import pytest
from cli_process import HANG, new_state, one_error, plies, start, temporaries, wait_for
from hostile import scaled

from stawvs_ap import StawvsGame

#: 20 rounds under the ci profile (4 in the default run); always even.
ROUNDS = 2 * max(2, scaled(10))


def waiting_for_lock(path: Path) -> bool:
    """Whether some process waits for a lock on the file ``path`` names now."""
    inode = f":{path.stat().st_ino} "
    with open("/proc/locks", encoding="ascii") as locks:
        return any("->" in line and inode in line for line in locks)


def finish(proc: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    try:
        out, err = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.slow  # many command-line processes racing
def test_concurrent_moves_on_one_file_are_never_lost(tmp_path: Path) -> None:
    """Odd rounds play the same square twice: the second must then be refused."""
    path = tmp_path / "game.json"
    outcomes = {"both": 0, "refused": 0}
    for number in range(ROUNDS):
        path.write_text(new_state(seed=number), encoding="utf-8")
        squares = StawvsGame(path.read_text(encoding="utf-8")).moves()
        ours = [squares[0], squares[0] if number % 2 else squares[-1]]
        procs = [start("move", path, move, "-o", path) for move in ours]
        done = [finish(proc) for proc in procs]
        statuses = sorted(d.returncode for d in done)
        played = plies(path)
        if statuses == [0, 0]:
            assert sorted(played) == sorted(ours), f"round {number}: a move was lost"
            outcomes["both"] += 1
        else:
            assert statuses == [0, 2], [(d.returncode, d.stderr) for d in done]
            loser = next(d for d in done if d.returncode == 2)
            assert "illegal move" in one_error(loser)
            assert played == [next(m for m, d in zip(ours, done, strict=True) if d.returncode == 0)]
            outcomes["refused"] += 1
        assert temporaries(tmp_path) == []
    # Different squares are both legal in either order; the same square twice never is.
    assert outcomes == {"both": ROUNDS // 2, "refused": ROUNDS // 2}


@pytest.mark.slow
def test_a_waiter_whose_file_was_replaced_reads_the_new_one(tmp_path: Path) -> None:
    """The lock belongs to the old file once an update renames a new one over it."""
    path = tmp_path / "game.json"
    path.write_text(new_state(), encoding="utf-8")
    with open(path, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as an update in progress would
        proc = start("move", path, "c6", "-o", path)
        try:
            wait_for(lambda: waiting_for_lock(path), "waiting for the lock", proc=proc)
            newer = tmp_path / "newer.json"
            newer.write_text(StawvsGame(new_state()).move("b7").serialize(), encoding="utf-8")
            os.replace(newer, path)
        except BaseException:
            proc.kill()
            raise
    done = finish(proc)  # the lock on the old file is gone with `held`
    assert done.returncode == 0, done.stderr
    assert plies(path) == ["b7", "c6"]


@pytest.mark.slow
def test_an_interrupt_while_waiting_for_the_lock_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    before = new_state()
    path.write_text(before, encoding="utf-8")
    with open(path, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        proc = start("move", path, "b7", "-o", path)
        try:
            wait_for(lambda: waiting_for_lock(path), "waiting for the lock", proc=proc)
            proc.send_signal(signal.SIGINT)
        finally:
            done = finish(proc)
    assert one_error(done, status=130) == "stawvs-ap: interrupted"
    assert path.read_text(encoding="utf-8") == before
    assert temporaries(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("spelling", ["same", "dot-slash", "symlink", "stdin"])
def test_the_lock_is_taken_whatever_the_spelling_of_the_path(tmp_path: Path, spelling: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(new_state(), encoding="utf-8")
    given = {
        "same": path,
        "dot-slash": tmp_path / "." / "game.json",
        "symlink": tmp_path / "link.json",
        "stdin": "-",
    }[spelling]
    if spelling == "symlink":
        Path(given).symlink_to(path.name)
    with open(path, "rb") as held, open(path, "rb") as feed:
        fcntl.flock(held, fcntl.LOCK_EX)
        proc = start("move", given, "b7", "-o", path, stdin=feed)
        try:
            wait_for(lambda: waiting_for_lock(path), "waiting for the lock", proc=proc)
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
            done = finish(proc)
    assert done.returncode == 0, done.stderr
    assert plies(path) == ["b7"]


@pytest.mark.slow
def test_standard_input_replaced_while_waiting_is_refused(tmp_path: Path) -> None:
    """Read from standard input, the old file cannot be opened again: no move is made."""
    path = tmp_path / "game.json"
    path.write_text(new_state(), encoding="utf-8")
    newer = StawvsGame(new_state()).move("b7").serialize()
    with open(path, "rb") as held, open(path, "rb") as feed:
        fcntl.flock(held, fcntl.LOCK_EX)
        proc = start("move", "-", "c6", "-o", path, stdin=feed)
        try:
            wait_for(lambda: waiting_for_lock(path), "waiting for the lock", proc=proc)
            (tmp_path / "newer.json").write_text(newer, encoding="utf-8")
            os.replace(tmp_path / "newer.json", path)
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
            done = finish(proc)
    assert "another command replaced it" in one_error(done)
    assert path.read_text(encoding="utf-8") == newer
    assert temporaries(tmp_path) == []
