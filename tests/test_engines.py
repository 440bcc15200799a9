"""External engines (``--bot exec:COMMAND``): the protocol of docs/bots.md, its time
budget, and what becomes of an engine that breaks it. Whatever the engine does, the
game ends (a timeout or a forfeit, with the reason), nothing hangs, and no process
of the engine is left behind."""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cli_process
import pytest
from hostile import thinned, thinned_cases

from stawvs_ap import StawvsGame, from_record
from stawvs_ap.bots import BotFailure, ExecBot
from stawvs_ap.bots.arena import BotSpec, match_report, play_game
from stawvs_ap.bots.base import BotErrorCode
from stawvs_ap.core.playout import random_move
from stawvs_ap.errors import ErrorCode, StawvsError

ROOT = Path(__file__).resolve().parent.parent
FAKE = Path(__file__).resolve().parent / "fake_engine.py"
NODE_ENGINE = ROOT / "examples" / "node" / "engine.mjs"


class Engines:
    """Commands of fake engines that note their process ids, and a check that
    every one of them is gone."""

    def __init__(self, folder: Path) -> None:
        self.pidfile = folder / "pids"
        self.pidfile.touch()

    def command(self, behaviour: str) -> str:
        return shlex.join([sys.executable, str(FAKE), behaviour, str(self.pidfile)])

    def spec(self, behaviour: str, options: str = "seconds=0.2,startup=2") -> BotSpec:
        return BotSpec.parse(f"exec:{options}:{self.command(behaviour)}", allow_exec=True)

    def pids(self) -> list[int]:
        return [int(line) for line in self.pidfile.read_text().split()]

    def alive(self, within: float = 10.0) -> list[int]:
        """The engine processes still running after ``within`` seconds (a SIGKILL
        takes a moment to land, longer on a busy machine; a zombie has ended)."""
        deadline = time.monotonic() + within
        while (left := self._running()) and time.monotonic() < deadline:
            time.sleep(0.02)
        return left

    def _running(self) -> list[int]:
        left = []
        for pid in self.pids():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except FileNotFoundError:
                continue
            if stat.rsplit(")", 1)[1].split()[0] != "Z":
                left.append(pid)
        return left

    def asked(self) -> int:
        """How many requests the engines have read."""
        asked = self.pidfile.with_name(self.pidfile.name + ".asked")
        return len(asked.read_text().split()) if asked.exists() else 0

    def wait_for(
        self, count: int, by: subprocess.Popen[str] | None = None, *, asked: int = 0
    ) -> None:
        """Wait until ``count`` engines have started and they have read ``asked``
        requests; fail as soon as the process ``by`` that starts them has ended."""
        while len(self.pids()) < count or self.asked() < asked:
            assert by is None or by.poll() is None, f"it ended first: {by.communicate()[1]}"
            time.sleep(0.02)


@pytest.fixture
def engines(tmp_path: Path) -> Iterator[Engines]:
    found = Engines(tmp_path)
    yield found
    left = found.alive()
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"engine processes left running: {left}"


# -- a well-behaved engine ------------------------------------------------------------


def test_a_well_behaved_engine_plays_a_whole_game_and_is_stopped_after_it(
    engines: Engines,
) -> None:
    result = play_game([engines.spec("good"), BotSpec.parse("random")], [], "engines", 0)
    assert result.ending == "normal" and result.failed is None
    assert result.plies > 40 and result.moves[0] > 15
    assert len(engines.pids()) == 1  # one process for the whole game
    assert not engines.alive()


def test_log_notifications_and_blank_lines_are_allowed_before_an_answer(
    engines: Engines,
) -> None:
    result = play_game([engines.spec("chatty"), BotSpec.parse("random")], [], "engines", 1)
    assert result.ending == "normal"


def test_the_engine_receives_the_state_its_budget_and_the_legal_moves(tmp_path: Path) -> None:
    log = tmp_path / "requests"
    script = tmp_path / "logger.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    request = json.loads(line)\n"
        "    if 'id' in request:\n"
        "        move = request['params']['moves'][0]\n"
        "        print(json.dumps({'jsonrpc': '2.0', 'id': request['id'], "
        "'result': {'move': move}}), flush=True)\n"
    )
    game = StawvsGame.new(2, seed=3)
    game.move(game.moves()[0])
    with ExecBot(command=[sys.executable, str(script)], seconds=0.3, seed=5) as bot:
        move = bot.choose(game)
    assert str(move) == game.moves()[0]
    first, last = (json.loads(line) for line in log.read_text().splitlines())
    assert first["jsonrpc"] == "2.0" and first["id"] == 1 and first["method"] == "choose"
    params = first["params"]
    assert params["state"] == game.serialize()
    assert params["seconds"] == 0.3
    assert params["player"] == 2 and params["moves"] == game.moves()
    assert params["position"] == game.position.notation() and params["seed"] == "5"
    assert last == {"jsonrpc": "2.0", "method": "quit"}


def test_asked_about_a_bare_position_the_engine_gets_a_state_with_its_rules(
    engines: Engines,
) -> None:
    game = StawvsGame.new(3, ["hey", "pieces-2", "hole"], seed=4)
    for _ in range(7):
        game.move(game.moves()[0])
    with ExecBot(command=engines.command("good"), seconds=0.2) as bot:
        assert str(bot.choose(game.position)) == game.moves()[0]
    game.load(3)  # shown: an earlier entry than the state ends at
    with ExecBot(command=engines.command("good"), seconds=0.2) as bot:
        assert str(bot.choose(game)) == game.moves()[0]


def test_a_forced_pass_is_answered_without_asking_the_engine(engines: Engines) -> None:
    game = StawvsGame.new(2, seed=1)
    rng = random.Random(1)
    while not game.position.must_pass():
        game.move(random_move(game.position, rng))
    with ExecBot(command=engines.command("silent"), seconds=0.2) as bot:
        assert str(bot.choose(game)) == "pass"
    assert engines.pids() == []  # never even started


def test_the_node_example_engine_plays_by_the_protocol(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    spec = BotSpec.parse(f"exec:node {NODE_ENGINE}", allow_exec=True)
    result = play_game([spec, BotSpec.parse("random")], ["hey"], "node", 0)
    assert result.ending == "normal" and result.moves[0] > 15


# -- engines that break the protocol ---------------------------------------------------


@pytest.mark.parametrize(
    ("behaviour", "kind", "reason"),
    thinned_cases(
        [
            ("late", "timeout", "no answer within"),
            ("silent", "timeout", "no answer within"),
            ("deaf", "timeout", "no answer within"),
            ("illegal", "forfeit", "illegal move 'a1-a1,a1'"),
            ("flood", "timeout", "no answer within"),
            ("garbage", "forfeit", "'thinking... e5 looks good', which is no JSON-RPC 2.0 answer"),
            ("notjsonrpc", "forfeit", "which is no JSON-RPC 2.0 answer"),
            ("wrongid", "forfeit", "it answered request '1001', not request 1"),
            ("error", "forfeit", "it answered an error: 'no idea'"),
            ("crash", "forfeit", "it exited (3): 'ValueError: boom'"),
            ("huge", "forfeit", "a line longer than 1048576 bytes"),
        ],
        3,
    ),
)
@pytest.mark.slow
def test_an_engine_that_breaks_the_protocol_loses_the_game(
    engines: Engines, behaviour: str, kind: str, reason: str
) -> None:
    started = time.monotonic()
    result = play_game([engines.spec(behaviour), BotSpec.parse("random")], [], "engines", 0)
    assert time.monotonic() - started < 15
    assert result.ending == kind and result.failed == 0, result
    assert reason in result.reason
    assert result.winners == (1,)  # the other player wins
    report = match_report(
        [engines.spec(behaviour), BotSpec.parse("random")], [result], variants=[], seed=0
    )["results"][0]
    assert report["ending"] == kind and report["loser"] == 1 and reason in report["reason"]


@pytest.mark.slow  # waits out an engine's timeouts
def test_a_late_engine_loses_when_its_time_runs_out_not_before(engines: Engines) -> None:
    # Budget 0.2 s: it may answer within 0.2 × 1.1 + 0.1 s (the margin); it takes 0.6.
    bot = engines.spec("late", "seconds=0.2,startup=2,margin=0.1").make(1)
    game = StawvsGame.new(2, seed=1)
    bot.choose(game)  # the first answer may use the start-up allowance
    started = time.monotonic()
    with pytest.raises(BotFailure) as failure:
        bot.choose(game)
    took = time.monotonic() - started
    assert failure.value.kind == "timeout" and failure.value.code == BotErrorCode.BOT_FAILED
    assert 0.3 <= took < 1.5
    assert "no answer within 0.32 s (its budget: 0.2 s)" in failure.value.message
    bot.close()


@pytest.mark.slow
def test_an_engine_that_turns_late_mid_game_loses_then(engines: Engines) -> None:
    result = play_game([engines.spec("later"), BotSpec.parse("random")], [], "engines", 0)
    assert result.ending == "timeout" and result.moves[0] == 1


@pytest.mark.slow
def test_an_engine_that_ignores_quit_and_sigterm_is_killed(engines: Engines) -> None:
    started = time.monotonic()
    result = play_game([engines.spec("stubborn"), BotSpec.parse("random")], [], "engines", 0)
    assert result.ending == "normal"
    assert time.monotonic() - started < 20
    assert not engines.alive()


def test_the_processes_an_engine_starts_go_with_it(engines: Engines) -> None:
    result = play_game([engines.spec("spawner"), BotSpec.parse("random")], [], "engines", 0)
    assert result.ending == "normal"
    assert len(engines.pids()) == 2 and not engines.alive()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="descendants are found in /proc")
def test_a_child_that_left_the_engines_session_goes_with_it(engines: Engines) -> None:
    result = play_game([engines.spec("escaper"), BotSpec.parse("random")], [], "engines", 0)
    assert result.ending == "normal"
    assert len(engines.pids()) == 2 and not engines.alive()


@pytest.mark.slow
def test_an_error_in_the_caller_stops_the_engine(engines: Engines) -> None:
    bot = engines.spec("good").make(1)
    game = StawvsGame.new(2, seed=1)
    bot.choose(game)
    engines.wait_for(1)
    del bot  # dropped without close(): the engine still goes
    import gc

    gc.collect()
    assert not engines.alive()


def test_a_program_that_cannot_start_is_refused_when_the_spec_is_read() -> None:
    with pytest.raises(StawvsError) as refused:
        BotSpec.parse("exec:no-such-engine-anywhere --fast", allow_exec=True)
    assert refused.value.code == ErrorCode.BAD_ARGUMENT
    assert "no program 'no-such-engine-anywhere'" in refused.value.message


def test_exec_specs_are_refused_unless_allowed() -> None:
    with pytest.raises(StawvsError, match="not allowed"):
        BotSpec.parse(f"exec:{sys.executable}")


def test_exec_specs_read_options_before_the_command() -> None:
    python = shlex.quote(sys.executable)
    spec = BotSpec.parse(f"exec:seconds=0.5,margin=0.2:{python} -c 'print(1)'", allow_exec=True)
    assert dict(spec.options)["command"] == f"{python} -c 'print(1)'"
    assert dict(spec.options)["seconds"] == 0.5
    assert str(spec) == f"exec:seconds=0.5,margin=0.2:{python} -c 'print(1)'"
    plain = BotSpec.parse(f"exec:{python} -c 'a=1'", allow_exec=True)
    assert dict(plain.options) == {"command": f"{python} -c 'a=1'"}
    with pytest.raises(StawvsError, match="depth"):
        BotSpec.parse(f"exec:depth=3:{python}", allow_exec=True)


# -- through the command line ------------------------------------------------------------


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stawvs_ap", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=timeout,
        check=False,
    )


@pytest.mark.slow  # a whole arena against failing engines
def test_the_arena_reports_the_engines_failures(engines: Engines) -> None:
    done = run_cli(
        "arena",
        "--bot",
        f"exec:seconds=0.2,startup=2:{engines.command('crash')}",
        "--bot",
        "random",
        "--games",
        "2",
        "--json",
        "--quiet",
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [r["ending"] for r in report["results"]] == ["forfeit", "forfeit"]
    assert [r["loser"] for r in report["results"]] == [1, 2]
    assert report["bots"][1]["wins"] == 2
    table = run_cli(
        "arena",
        "--bot",
        f"exec:seconds=0.2,startup=2:{engines.command('illegal')}",
        "--games",
        "1",
        "--quiet",
    )
    assert table.returncode == 0, table.stderr
    assert "(seat 1) lost by forfeit: it answered the illegal move 'a1-a1,a1'" in table.stdout


@pytest.mark.parametrize(
    ("behaviour", "ending"), thinned_cases([("crash", "forfeit"), ("silent", "timeout")], 2)
)
@pytest.mark.slow
def test_a_lost_engines_games_are_kept_as_records_that_replay(
    engines: Engines, tmp_path: Path, behaviour: str, ending: str
) -> None:
    folder = tmp_path / "run"
    engine = f"exec:seconds=0.2,startup=2:{engines.command(behaviour)}"
    done = run_cli(
        "arena", "--bot", engine, "--bot", "random", "--games", "2", "--seed", "1",
        "--records", str(folder), "--json", "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [game["ending"] for game in report["results"]] == [ending, ending]
    for game in report["results"]:
        path = Path(game["record"])
        assert path.parent == folder and path.name == f"game-{game['game']:06d}.json"
        replayed = from_record(json.loads(path.read_text(encoding="utf-8")))
        assert replayed.gameover
        assert game["loser"] not in replayed.winner and replayed.winner == game["winners"]
    assert engines.alive() == []


@pytest.mark.slow  # waits out an engine's timeouts
def test_hint_from_a_failing_engine_is_one_line_and_status_2(
    engines: Engines, tmp_path: Path
) -> None:
    state = tmp_path / "game.json"
    state.write_text(StawvsGame.new(2, seed=1).serialize())
    done = run_cli("hint", str(state), "--bot", f"exec:startup=1:{engines.command('silent')}")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no answer within" in done.stderr


@pytest.mark.slow
def test_hint_from_an_engine_without_analyse_shows_its_choice(
    engines: Engines, tmp_path: Path
) -> None:
    state = tmp_path / "game.json"
    state.write_text(StawvsGame.new(2, seed=1).serialize())
    done = run_cli("hint", str(state), "--bot", f"exec:{engines.command('good')}", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["best"] == StawvsGame.new(2, seed=1).moves()[0]


@pytest.mark.slow
def test_hint_shows_the_analysis_of_an_engine_that_has_one(
    engines: Engines, tmp_path: Path
) -> None:
    state = tmp_path / "game.json"
    state.write_text(StawvsGame.new(2, seed=1).serialize())
    done = run_cli("hint", str(state), "--bot", f"exec:{engines.command('analyst')}", "--json")
    assert done.returncode == 0, done.stderr
    candidates = json.loads(done.stdout)["candidates"]
    assert [c["move"] for c in candidates] == StawvsGame.new(2, seed=1).moves()[:3]
    assert [c["visits"] for c in candidates] == [9, 8, 7]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", thinned(["2", "1"], 2))
def test_an_interrupted_arena_leaves_no_engine_behind(engines: Engines, jobs: str) -> None:
    # Ctrl-C in a terminal interrupts the arena's whole process group (its workers
    # too); the engines have groups of their own, and go because the arena stops them.
    arena = cli_process.start(
        "arena",
        *("--bot", f"exec:seconds=30:{engines.command('stubborn')}"),
        *("--bot", f"exec:seconds=30:{engines.command('silent')}"),
        *("--games", "2", "--jobs", jobs, "--quiet"),
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        group=True,
    )
    # Game 1 seats the silent engine first: it has the first request.
    engines.wait_for(2 if jobs == "1" else 3, arena, asked=1)
    os.killpg(arena.pid, signal.SIGINT)
    _, err = arena.communicate(timeout=cli_process.HANG)
    assert arena.returncode == 128 + signal.SIGINT
    assert err.strip().splitlines()[-1] == "stawvs-ap: interrupted"
    assert not engines.alive()


def test_exec_specs_from_python_values_are_refused_unless_allowed() -> None:
    from stawvs_ap.bots import make_bot

    with pytest.raises(StawvsError, match="not allowed"):
        BotSpec.of("exec", {"command": sys.executable})
    with pytest.raises(StawvsError, match="not allowed"):
        make_bot(f"exec:{sys.executable}")
    spec = BotSpec.of("exec", {"command": sys.executable, "startup": 1}, allow_exec=True)
    assert dict(spec.options) == {"command": sys.executable, "startup": 1.0}
    with pytest.raises(StawvsError, match="option startup must be a number from 0 to 60"):
        BotSpec.parse(f"exec:startup=99:{sys.executable}", allow_exec=True)
