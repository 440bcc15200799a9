"""How the arena's games are run and kept: local worker processes that lose only
a dead worker's game, tasks drawn lazily, matches interleaved, the run directory
(records and results as games finish, ``--resume``), and the ``arena`` command's
limits and interrupts. The cluster runner is tested on a real cluster in
``tests/test_cluster.py``."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_process import ENV, one_error, run, start, wait_for

from stawvs_ap import from_record
from stawvs_ap.bots.arena import (
    BotSpec,
    GameResult,
    GameTask,
    Match,
    match_report,
    play_game,
    play_match,
)
from stawvs_ap.bots.journal import JOURNAL, MAX_LINE, Journal, record_name
from stawvs_ap.bots.runners import MAX_ATTEMPTS, Done, InProcess, LocalProcesses, Play, Stopped, T
from stawvs_ap.errors import StawvsError

CHEAP = (BotSpec.parse("greedy:iterations=5"), BotSpec.parse("random"))


def played(result: GameResult) -> tuple[Any, ...]:
    """What a result says of the game itself: everything but times and attempts."""
    return (result.index, result.seats, result.scores, result.winners, result.plies, result.moves)


class Recording(InProcess):
    """Plays here, and notes the games it was given, in order."""

    def __init__(self) -> None:
        self.given: list[tuple[Match, int]] = []

    def run(self, tasks: Iterable[T], play: Play[T, Any]) -> Iterator[Done[T, Any]]:  # type: ignore[override]
        for task in tasks:
            assert isinstance(task, GameTask)
            self.given.append((task.match, task.index))
            yield Done(task, play(task, None))


# -- the runners ----------------------------------------------------------------------


def square(task: int, should_stop: Any) -> int:
    return task * task


def die_once(task: tuple[int, str], should_stop: Any) -> int:
    number, marker = task
    if number == 3 and not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def always_die(task: int, should_stop: Any) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return task


def fail(task: int, should_stop: Any) -> int:
    raise ValueError(f"no game {task}")


def test_local_processes_play_every_task_once_drawing_tasks_only_as_places_free() -> None:
    drawn = 0

    def tasks() -> Iterator[int]:
        nonlocal drawn
        for n in range(10):
            drawn += 1
            yield n

    results = []
    for done in LocalProcesses(2).run(tasks(), square):
        assert drawn <= len(results) + 3  # the one just finished, two in play
        results.append((done.task, done.result, done.attempts))
    assert sorted(results) == [(n, n * n, 1) for n in range(10)]
    assert not multiprocessing.active_children()


def test_a_worker_that_dies_loses_only_its_game_which_is_played_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    done = list(LocalProcesses(2).run([(n, marker) for n in range(6)], die_once))
    assert sorted(d.result for d in done) == list(range(6))  # each once
    assert {d.result: d.attempts for d in done} == {0: 1, 1: 1, 2: 1, 3: 2, 4: 1, 5: 1}


def test_a_game_that_keeps_killing_its_worker_is_given_up() -> None:
    with pytest.raises(StawvsError, match=f"killed its worker {MAX_ATTEMPTS} times") as caught:
        list(LocalProcesses(2).run([1, 2], always_die))
    assert caught.value.code == "ARENA_FAILED"
    assert not multiprocessing.active_children()


def test_an_error_in_a_game_is_raised_here_and_the_workers_stop() -> None:
    with pytest.raises(ValueError, match="no game"):
        list(LocalProcesses(2).run(range(4), fail))
    assert not multiprocessing.active_children()


def test_leaving_a_run_early_stops_its_workers() -> None:
    games = LocalProcesses(2).run(range(100), square)
    next(games)
    games.close()
    assert not multiprocessing.active_children()


def test_a_game_asked_to_stop_stops_at_its_next_move() -> None:
    asked: list[int] = []

    def after_three_moves() -> bool:
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Stopped):
        play_game(CHEAP, [], 1, 0, should_stop=after_three_moves)
    assert len(asked) == 4


# -- matches -------------------------------------------------------------------------


def test_matches_are_interleaved_game_by_game_and_results_come_in_game_order() -> None:
    first, second = Match(CHEAP, seed=1), Match(CHEAP, ("hey",), seed=2)
    runner = Recording()
    from stawvs_ap.bots.arena import play_matches

    results = play_matches([first, second], [3, 2], runner=runner)
    assert runner.given == [(first, 0), (second, 0), (first, 1), (second, 1), (first, 2)]
    assert [[r.index for r in found] for found in results] == [[0, 1, 2], [0, 1]]
    alone = play_match(CHEAP, 3, seed=1)
    assert [played(r) for r in results[0]] == [played(r) for r in alone]


def test_local_processes_give_the_games_of_one_process() -> None:
    here = play_match(CHEAP, 4, seed=8, variants=["hole"])
    there = play_match(CHEAP, 4, seed=8, variants=["hole"], jobs=2)
    assert [played(r) for r in there] == [played(r) for r in here]


# -- the run directory ------------------------------------------------------------------


def test_a_resumed_run_plays_only_the_games_it_lacks(tmp_path: Path) -> None:
    match = Match(CHEAP, seed=4)
    with Journal(tmp_path, match) as journal:
        play_match(CHEAP, 2, seed=4, keeper=journal)
    runner = Recording()
    with Journal(tmp_path, match, resume=True) as journal:
        resumed = play_match(CHEAP, 4, seed=4, keeper=journal, runner=runner)
    assert [index for _, index in runner.given] == [2, 3]
    assert [played(r) for r in resumed] == [played(r) for r in play_match(CHEAP, 4, seed=4)]
    lines = (tmp_path / JOURNAL).read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["lineup"] == [str(s) for s in CHEAP]


def test_the_records_replay_and_the_report_names_them(tmp_path: Path) -> None:
    match = Match(CHEAP, ("pieces-2",), seed=6)
    with Journal(tmp_path, match) as journal:
        results = play_match(CHEAP, 2, variants=["pieces-2"], seed=6, keeper=journal)
        report = match_report(
            CHEAP, results, variants=["pieces-2"], seed=6, record_path=journal.record_path
        )
    for game, result in zip(report["results"], results, strict=True):
        assert game["record"] == str(tmp_path / record_name(result.index))
        replayed = from_record(json.loads(Path(game["record"]).read_text()))
        assert replayed.position.scores() == list(result.seat_scores)
        assert game["ending"] == "normal" and game["attempts"] == 1
    assert report["retries"] == 0


def test_a_directory_holding_a_run_is_continued_only_when_asked_and_only_as_the_same_match(
    tmp_path: Path,
) -> None:
    Journal(tmp_path, Match(CHEAP, seed=4)).close()
    with pytest.raises(StawvsError, match="holds a run already: add --resume"):
        Journal(tmp_path, Match(CHEAP, seed=4))
    with pytest.raises(StawvsError, match="its seed is 4, not 5"):
        Journal(tmp_path, Match(CHEAP, seed=5), resume=True)
    with pytest.raises(StawvsError, match="its variants is"):
        Journal(tmp_path, Match(CHEAP, ("hole",), seed=4), resume=True)


def test_a_line_cut_short_by_a_crash_is_marked_and_its_game_played_again(tmp_path: Path) -> None:
    match = Match(CHEAP, seed=5)
    with Journal(tmp_path, match) as journal:
        play_match(CHEAP, 2, seed=5, keeper=journal)
    path = tmp_path / JOURNAL
    text = path.read_text()
    cut = text.splitlines()[-1][:40]
    path.write_text(text + cut)  # a crash in the middle of a line
    with Journal(tmp_path, match, resume=True) as journal:
        assert sorted(journal.played()) == [0, 1]
        play_match(CHEAP, 3, seed=5, keeper=journal)
    after = path.read_text()
    assert after.startswith(text + cut + '\n{"arena_cut":4}\n')  # appended, nothing rewritten
    assert len(after.splitlines()) == 6
    with Journal(tmp_path, match, resume=True) as journal:
        assert sorted(journal.played()) == [0, 1, 2]


def test_a_damaged_journal_is_refused_naming_its_line(tmp_path: Path) -> None:
    match = Match(CHEAP, seed=5)
    with Journal(tmp_path, match) as journal:
        play_match(CHEAP, 1, seed=5, keeper=journal)
    path = tmp_path / JOURNAL
    good = path.read_text()
    for damage in [
        '{"game": 1}\n',
        "not json\n",
        good.splitlines()[1].replace('"seats":[', '"seats":[7,') + "\n",
    ]:
        path.write_text(good + damage)
        with pytest.raises(StawvsError, match="damaged line 3") as caught:
            Journal(tmp_path, match, resume=True)
        assert caught.value.code == "BAD_ARGUMENT"
    path.write_text(good + "x" * (MAX_LINE + 10) + "\n")
    with pytest.raises(StawvsError, match="a line over"):
        Journal(tmp_path, match, resume=True)


# -- the command ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--games", "0"], "--games must be from 1 to 100,000, not 0"),
        (["--games", "99999999999999999999"], "not 99999999999999999999"),
        (["--games", "100001"], "not 100001"),
        (["--jobs", "0"], "--jobs must be from 1 to"),
        (["--jobs", "200"], "(the cores of this machine), not 200"),
        (["--players", "5"], "2 to 4 players"),
        (["--resume"], "--resume continues the run kept with --records DIR"),
        (["--jobs", "2", "--cluster", "tcp://127.0.0.1:1"], "give --jobs or --cluster"),
    ],
)
@pytest.mark.slow
def test_the_arenas_arguments_have_limits(args: list[str], complaint: str) -> None:
    assert complaint in one_error(run("arena", "--quiet", *args))


@pytest.mark.slow
def test_arguments_refused_make_no_run_directory(tmp_path: Path) -> None:
    one_error(run("arena", "--quiet", "--jobs", "200", "--records", tmp_path / "run"))
    assert not (tmp_path / "run").exists()


@pytest.mark.slow  # whole arena runs in processes
def test_the_arena_keeps_its_games_and_resume_finishes_the_run(tmp_path: Path) -> None:
    spec = ["--bot", str(CHEAP[0]), "--bot", str(CHEAP[1]), "--seed", "3", "--quiet"]
    first = run("arena", *spec, "--games", "2", "--records", tmp_path / "run")
    assert first.returncode == 0 and "kept in" in first.stdout, first.stderr
    again = run("arena", *spec, "--games", "2", "--records", tmp_path / "run")
    assert "--resume" in one_error(again)
    done = run("arena", *spec, "--games", "3", "--records", tmp_path / "run", "--resume", "--json")
    report = json.loads(done.stdout)
    assert report["games"] == 3 and report["retries"] == 0
    fresh = json.loads(run("arena", *spec, "--games", "3", "--json").stdout)
    assert report["results"] == [
        {**game, "record": str(tmp_path / "run" / record_name(game["game"]))}
        for game in fresh["results"]
    ]
    shown = run("replay", report["results"][2]["record"])
    assert shown.returncode == 0 and "Game over." in shown.stdout


@pytest.mark.slow  # whole arena runs in processes
def test_an_interrupted_arena_with_jobs_says_one_line_and_its_workers_nothing(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "run" / JOURNAL
    process = start(
        "arena",
        "--bot",
        "mcts:iterations=100",
        "--games",
        "20",
        "--jobs",
        "2",
        "--quiet",
        "--records",
        tmp_path / "run",
        group=True,
    )
    wait_for(lambda: journal.exists() and len(journal.read_text().splitlines()) >= 2, "a game", 120)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signal.SIGINT
    assert (out, err) == ("", "stawvs-ap: interrupted\n")
    with pytest.raises(ProcessLookupError):  # the workers are gone with it
        os.killpg(process.pid, 0)
    kept = len(journal.read_text().splitlines()) - 1
    assert 1 <= kept < 20


@pytest.mark.slow
def test_the_arena_works_without_dask_and_says_what_cluster_needs() -> None:
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "from stawvs_ap.cli.cli import main\n"
        "sys.exit(main(['arena', '--quiet', '--games', '1', '--bot', 'random', "
        "'--cluster', 'tcp://127.0.0.1:1']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == (
        "stawvs-ap: error: --cluster needs Dask distributed: pip install 'stawvs-ap[cluster]'\n"
    )
    plain = subprocess.run(
        [sys.executable, "-c", code.replace(", '--cluster', 'tcp://127.0.0.1:1'", "")],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert plain.returncode == 0 and "| random" in plain.stdout
