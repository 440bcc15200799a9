"""The command line reads at most the size limit plus one byte of any input,
then refuses it in one line: no MemoryError, no traceback, bounded memory."""

from __future__ import annotations

import os
import resource
import subprocess
from pathlib import Path

import pytest
from cli_process import new_state, one_error, run, start

from stawvs_ap.state.format import MAX_STATE_BYTES

# A child that tried to read all of /dev/zero would take the machine's memory.
GUARD = {resource.RLIMIT_AS: 2 << 30}


def peak_memory_kib(*args: str | Path, stdin: Path | None = None) -> tuple[str, int]:
    """Run a refused command; return its error line and its peak resident memory."""
    with open(stdin or os.devnull, "rb") as feed:
        proc = start(*args, stdin=feed, limits=GUARD)
        _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.stdout is not None and proc.stderr is not None
    done = subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.read(), proc.stderr.read()
    )
    proc.stdout.close()
    proc.stderr.close()
    return one_error(done), usage.ru_maxrss


@pytest.fixture(scope="module")
def baseline_kib(tmp_path_factory: pytest.TempPathFactory) -> int:
    """Peak memory of refusing a tiny state: the interpreter and the package."""
    path = tmp_path_factory.mktemp("small") / "small.json"
    path.write_text("{}", encoding="utf-8")
    return peak_memory_kib("moves", path)[1]


@pytest.fixture(scope="module")
def huge_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """50 MB of zero bytes (sparse: it costs no disk)."""
    path = tmp_path_factory.mktemp("huge") / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(50_000_000)
    return path


@pytest.mark.slow
def test_dev_zero_is_refused_after_the_limit(baseline_kib: int) -> None:
    line, peak = peak_memory_kib("moves", "/dev/zero")
    assert line == (
        f"stawvs-ap: error: cannot read state '/dev/zero': "
        f"it is larger than {MAX_STATE_BYTES:,} bytes"
    )
    assert peak - baseline_kib < 4 * MAX_STATE_BYTES // 1024, (peak, baseline_kib)


@pytest.mark.slow
def test_endless_standard_input_is_refused_after_the_limit(baseline_kib: int) -> None:
    line, peak = peak_memory_kib("show", "-", stdin=Path("/dev/zero"))
    assert "cannot read state standard input: it is larger than" in line
    assert peak - baseline_kib < 4 * MAX_STATE_BYTES // 1024, (peak, baseline_kib)


@pytest.mark.slow
def test_a_50_mb_file_costs_no_more_memory_than_the_limit(
    huge_file: Path, baseline_kib: int
) -> None:
    line, peak = peak_memory_kib("move", huge_file, "d5")
    assert f"cannot read state {str(huge_file)!r}: it is larger than" in line
    assert peak - baseline_kib < 4 * MAX_STATE_BYTES // 1024, (peak, baseline_kib)


@pytest.mark.slow
def test_records_and_initial_states_have_the_same_limit(huge_file: Path, tmp_path: Path) -> None:
    assert "cannot read record" in one_error(run("replay", huge_file))
    state = tmp_path / "state.json"
    state.write_text(new_state(), encoding="utf-8")
    record = tmp_path / "record.json"
    record.write_text('{"header": {}, "moves": []}', encoding="utf-8")
    assert "cannot read initial state" in one_error(run("replay", record, "--initial", "/dev/zero"))


@pytest.mark.slow
def test_a_state_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    """The limit is the loader's own: one byte past it is what gets refused."""
    state = new_state()
    exact, over = tmp_path / "exact.json", tmp_path / "over.json"
    exact.write_text(state + " " * (MAX_STATE_BYTES - len(state)), encoding="utf-8")
    over.write_text(state + " " * (MAX_STATE_BYTES + 1 - len(state)), encoding="utf-8")
    done = run("moves", exact)
    assert done.returncode == 0, done.stderr
    assert "larger than" in one_error(run("moves", over))


@pytest.mark.slow
def test_a_record_nested_too_deeply_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    assert "is nested too deeply" in one_error(run("replay", deep))


@pytest.mark.slow
def test_a_record_with_a_number_too_long_for_python_is_one_line(tmp_path: Path) -> None:
    long = tmp_path / "long.json"
    long.write_text('{"header": {}, "moves": ' + "1" * 5000 + "}", encoding="utf-8")
    assert "holds a number too long to read" in one_error(run("replay", long))
