"""``play`` and ``hint`` under hostile input: bounded lines, failing outputs, bad
specs and budgets are one line and status 2, and hint keeps the spec's budget."""

from __future__ import annotations

import json
import os
import resource
import subprocess
from pathlib import Path

import pytest
from cli_process import ENV, command, one_error, run, start
from hostile import thinned_cases

from stawvs_ap import StawvsGame
from stawvs_ap.cli.console import EXCERPT, MAX_LINE, MAX_SKIP
from stawvs_ap.i18n import printable

GUARD = {resource.RLIMIT_AS: 2 << 30}
PLAY = ("play", "--bot", "random", "--seed", "1")


@pytest.fixture(scope="module")
def state_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = StawvsGame.new(2, seed=3)
    for move in ["b7", "c7", "d7", "e7", "f7", "g7"]:
        game.move(move)
    path = tmp_path_factory.mktemp("hint") / "game.json"
    path.write_text(game.serialize(), encoding="utf-8")
    return path


# -- play: input ---------------------------------------------------------------------


def _play_from(path: str) -> tuple[int, str, str, int]:
    """Play with standard input from ``path``: status, error, output, peak KiB."""
    with open(path, "rb") as source:
        proc = start(*PLAY, stdin=source, limits=GUARD)
        _pid, status, usage = os.wait4(proc.pid, 0)
    assert proc.stderr is not None and proc.stdout is not None
    err, out = proc.stderr.read(), proc.stdout.read()
    proc.stderr.close()
    proc.stdout.close()
    return os.waitstatus_to_exitcode(status), err, out, usage.ru_maxrss


@pytest.mark.slow
def test_play_on_an_endless_line_gives_up_in_bounded_memory() -> None:
    status, err, out, peak = _play_from("/dev/zero")
    assert status == 2
    assert err == (
        f"stawvs-ap: error: cannot read standard input: a line is longer than {MAX_SKIP:,} bytes\n"
    )
    assert "Your move:" in out
    baseline = _play_from(os.devnull)[3]  # the interpreter and the game, no input
    assert peak - baseline < 16 * 1024, (peak, baseline)  # KiB


@pytest.mark.slow
def test_a_long_line_is_refused_skipped_and_echoed_short() -> None:
    typed = "x" * (MAX_LINE * 5) + "\nd5\nquit\n"
    done = run(*PLAY, stdin=typed)
    assert done.returncode == 0, done.stderr
    assert f"That line is too long ({MAX_LINE} characters at most): it is ignored." in done.stdout
    assert max(len(line) for line in done.stdout.splitlines()) < 200
    assert "x" * 61 not in done.stdout
    assert "Bye." in done.stdout


@pytest.mark.slow
def test_invalid_utf8_bytes_read_as_replacement_characters() -> None:
    proc = subprocess.Popen(
        [*command(), *PLAY],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    out, err = proc.communicate(b"\xff\xfe\x00\nquit\n", timeout=60)
    assert proc.returncode == 0, err
    text = out.decode("utf-8")
    assert "That is not a move" in text and "Bye." in text
    assert not err


def test_echoes_and_messages_show_a_short_printable_excerpt() -> None:
    assert printable("d5", EXCERPT) == "d5"
    assert printable("a\x00b\x1b[2J", EXCERPT) == "a\ufffdb\ufffd[2J"
    assert printable("y" * 500, EXCERPT) == "y" * 60 + "…"


# -- play: output ----------------------------------------------------------------------


@pytest.mark.slow
def test_play_with_standard_output_closed_is_one_line() -> None:
    proc = start(*PLAY, stdin=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdin is not None
    proc.stdout.close()
    _, err = proc.communicate("d5\nquit\n", timeout=60)
    assert proc.returncode == 2
    assert err == "stawvs-ap: error: cannot write to standard output: Broken pipe\n"


@pytest.mark.slow
def test_play_into_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        proc = start(*PLAY, stdin=subprocess.DEVNULL, stdout=full)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err == "stawvs-ap: error: cannot write to standard output: No space left on device\n"


@pytest.mark.slow
def test_play_with_standard_input_closed_says_bye() -> None:
    done = subprocess.run(
        [*command(), *PLAY],
        stdin=None,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=ENV,
        preexec_fn=lambda: os.close(0),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Bye.") and not done.stderr


# -- hint and bad arguments -----------------------------------------------------------


@pytest.mark.slow
def test_hint_searches_with_the_specs_budget(state_file: Path) -> None:
    def visits(*args: str) -> int:
        done = run("hint", state_file, "--json", "--top", "10000", "--seed", "1", *args)
        assert done.returncode == 0, done.stderr
        return sum(c["visits"] for c in json.loads(done.stdout)["candidates"])

    assert 0 < visits("--bot", "mcts:iterations=50") <= 50  # not a second's: thousands
    assert 50 < visits("--bot", "mcts:iterations=50", "--iterations", "80") <= 80


@pytest.mark.parametrize(
    ("args", "words"),
    thinned_cases(
        [
            (["--top", "0"], "--top must be a whole number of at least 1, not '0'"),
            (["--top", "many"], "--top must be a whole number"),
            (["--seconds", "0"], "--seconds must be a number above 0 and at most 600"),
            (["--seconds", "1e306"], "--seconds must be a number above 0 and at most 600"),
            (["--iterations", "1.5"], "--iterations must be a whole number from 1 to 1,000,000"),
            (["--bot", "mcts:temperature=0"], "option temperature must be a number above 0"),
            (["--bot", "mcts:widening=-1"], "option widening must be a number from 0 to 100"),
            (["--bot", "uct:iterations=1.5"], "option iterations must be a whole number"),
            (["--seed", "\udcff"], "a seed is a whole number from 0 to 2^63-1"),
            (["--seed", "1.5"], "a seed is a whole number from 0 to 2^63-1"),
        ],
        3,
    ),
)
@pytest.mark.slow
def test_bad_hint_arguments_are_one_line(state_file: Path, args: list[str], words: str) -> None:
    assert words in one_error(run("hint", state_file, *args))


@pytest.mark.parametrize(
    "spec", ["mcts:seconds=1e300", "mcts:iterations=100000000000000", "mcts:samples=2000"]
)
@pytest.mark.slow
def test_play_refuses_specs_beyond_their_ranges(spec: str) -> None:
    assert "must be" in one_error(run("play", "--bot", spec))


@pytest.mark.slow  # a process per bot command
def test_every_bot_command_lists_the_options_in_its_help() -> None:
    for name in ("hint", "arena", "play"):
        done = run(name, "--help")
        assert done.returncode == 0
        assert "temperature: a number above 0 and at most 1,000, default 4" in done.stdout
        assert "memory: a whole number from 1 to 4,096, default 200" in done.stdout
