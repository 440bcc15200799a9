"""The arena on a real Dask cluster, started here on the loopback interface alone
(issue 28): the same games and report as in one process, a worker killed in the
middle of a run, a lost scheduler, an interrupt.

Each test module process starts its own cluster (``cluster_support``)
and stops it, and only it, at the end. Without Dask these tests are skipped,
unless ``STAWVS_REQUIRE_CLUSTER=1`` (set by ``.ci/run``) says they must run.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("STAWVS_REQUIRE_CLUSTER") == "1":
    import distributed  # must be there: an ImportError fails the run
else:
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")

import cli_process
import psutil
from cluster_support import LOOPBACK, LoopbackCluster

from stawvs_ap import from_record
from stawvs_ap.bots.arena import BotSpec, GameResult, match_report, play_match
from stawvs_ap.bots.cluster import Cluster

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
# Iteration budgets, so that the games are the same wherever they are played; cheap
# ones, so that the tests take seconds.
LINEUP = ["mcts:iterations=10", "greedy:iterations=5"]


def warm_up(cluster: LoopbackCluster, *addresses: str) -> None:
    """Have workers import the package now: a new worker spends its first seconds
    on it, and then starts a game as soon as it is given one."""
    client = cluster.client()
    try:
        workers = addresses or list(client.scheduler_info()["workers"])
        imports = [
            client.submit(importlib.import_module, "stawvs_ap.bots.arena", workers=[w], pure=False)
            for w in workers
        ]
        client.gather(imports)
    finally:
        client.close()


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    with LoopbackCluster(2, env=ENV) as started:
        warm_up(started)
        yield started
        assert started.scheduler is not None and started.scheduler.poll() is None


def arena(*args: str, group: bool = False) -> subprocess.Popen[str]:
    return cli_process.start("arena", "--quiet", *args, env=ENV, group=group)


def run_arena(*args: str) -> tuple[int, str, str]:
    process = arena(*args)
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def without_times(report: dict[str, Any]) -> dict[str, Any]:
    """A report less what is measured rather than played: seconds, record paths."""
    report = json.loads(json.dumps(report))
    for bot in report["bots"]:
        del bot["seconds_per_move"]
    for game in report["results"]:
        game.pop("record", None)
    return report


def played(result: GameResult) -> tuple[Any, ...]:
    """What a game's result says of its moves and end: everything but times and attempts."""
    return (result.index, result.seats, result.scores, result.winners, result.plies, result.moves)


def moves(record_file: str) -> list[Any]:
    return json.loads(Path(record_file).read_text())["moves"]  # type: ignore[no-any-return]


@pytest.mark.slow  # a cluster run (the long battery runs it)
def test_a_match_on_the_cluster_gives_the_same_games_and_report_as_here(
    cluster: LoopbackCluster, tmp_path: Path
) -> None:
    common = ["--bot", LINEUP[0], "--bot", LINEUP[1], "--games", "6", "--seed", "7", "--json"]
    reports = {}
    for where, extra in [
        ("here", []),
        ("jobs", ["--jobs", "2"]),
        ("cluster", ["--cluster", cluster.address]),
    ]:
        status, out, err = run_arena(*common, *extra, "--records", str(tmp_path / where))
        assert status == 0 and err == "", err
        reports[where] = json.loads(out)
    assert without_times(reports["cluster"]) == without_times(reports["here"])
    assert without_times(reports["jobs"]) == without_times(reports["here"])
    assert reports["cluster"]["retries"] == 0
    for game in reports["cluster"]["results"]:
        record = game["record"]
        assert Path(record).parent == tmp_path / "cluster"
        assert moves(record) == moves(str(tmp_path / "here" / Path(record).name))
        replayed = from_record(json.loads(Path(record).read_text()))
        assert replayed.position.scores() == game["scores"]


@pytest.mark.slow
def test_the_cluster_listens_and_connects_on_loopback_only(cluster: LoopbackCluster) -> None:
    with Cluster(cluster.address) as runner:  # a run, so that the workers have talked
        play_match([BotSpec.parse("greedy:iterations=5")] * 2, 2, runner=runner)
    sockets = [c for pid in cluster.pids() for c in psutil.Process(pid).net_connections("inet")]
    listening = {c.laddr for c in sockets if c.status == psutil.CONN_LISTEN}
    assert len(listening) >= 3  # the scheduler's and each worker's ports
    assert {address.ip for address in listening} == {LOOPBACK}
    peers = {c.raddr.ip for c in sockets if c.raddr}
    assert peers <= {LOOPBACK}


@pytest.mark.slow
def test_a_worker_killed_mid_run_takes_only_its_games_which_are_played_again(
    cluster: LoopbackCluster,
) -> None:
    lineup = [BotSpec.parse("mcts:iterations=20"), BotSpec.parse(LINEUP[1])]
    doomed = cluster.add_worker()
    client = cluster.client()
    name = {w["name"]: a for a, w in client.scheduler_info()["workers"].items()}
    address = name[f"worker-{len(cluster.workers)}"]
    warm_up(cluster, address)
    killed: list[bool] = []

    def kill_when_busy() -> None:
        deadline = time.monotonic() + 60
        while not client.processing(workers=[address])[address]:
            if time.monotonic() > deadline:
                return  # the assertion below says so
            time.sleep(0.05)
        time.sleep(0.5)  # well into its game
        cluster.kill(doomed)
        killed.append(True)

    killer = threading.Thread(target=kill_when_busy)
    try:
        with Cluster(cluster.address) as runner:
            killer.start()
            results = play_match(lineup, 8, seed=3, runner=runner)
    finally:
        killer.join()
        client.close()
    assert killed, "the extra worker was never given a game"
    report = match_report(lineup, results, variants=[], seed=3)
    assert report["retries"] >= 1
    assert [r.index for r in results] == list(range(8))  # each game once
    here = play_match(lineup, 8, seed=3)
    assert [played(r) for r in results] == [played(r) for r in here]


@pytest.mark.slow
def test_a_lost_cluster_ends_the_run_in_one_line_and_resume_finishes_it(tmp_path: Path) -> None:
    run = tmp_path / "run"
    common = ["--bot", LINEUP[0], "--bot", LINEUP[1], "--games", "6", "--seed", "2"]
    with LoopbackCluster(1, env=ENV) as doomed:
        process = arena(*common, "--cluster", doomed.address, "--records", str(run))
        journal = run / "arena.jsonl"
        deadline = time.monotonic() + 120
        while not journal.exists() or len(journal.read_text().splitlines()) < 2:
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        assert doomed.scheduler is not None
        doomed.kill(doomed.scheduler)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 2 and out == ""
    assert len(err.splitlines()) == 1, err
    assert "lost the cluster" in err and "--resume" in err
    kept = len(journal.read_text().splitlines()) - 1
    assert 1 <= kept < 6
    status, resumed, err = run_arena(*common, "--records", str(run), "--resume", "--json")
    assert status == 0, err
    status, fresh, err = run_arena(*common, "--json")
    assert without_times(json.loads(resumed)) == without_times(json.loads(fresh))


@pytest.mark.slow
def test_an_interrupt_stops_the_runs_games_on_the_cluster(cluster: LoopbackCluster) -> None:
    client = cluster.client()
    try:
        workers = list(client.scheduler_info()["workers"])
        # Games of many short moves: far longer than stopping should take.
        process = arena(
            "--bot",
            "mcts:iterations=100",
            "--games",
            "8",
            "--cluster",
            cluster.address,
            group=True,
        )
        deadline = time.monotonic() + 60
        while not all(client.processing(workers=workers).values()):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 128 + signal.SIGINT
        assert err == "stawvs-ap: interrupted\n" and out == ""
        # Each worker's one thread is free again within a few seconds: its game stopped.
        started = time.monotonic()
        probes = [client.submit(time.monotonic, workers=[w], pure=False) for w in workers]
        client.gather(probes)
        assert time.monotonic() - started < 5
    finally:
        client.close()


@pytest.mark.slow  # a cluster run
def test_a_review_on_the_cluster_is_the_review_made_here(cluster: LoopbackCluster) -> None:
    from stawvs_ap import review

    golden = ROOT / "fixtures" / "golden" / "2p-default-seed-1.json"
    record = json.loads(golden.read_text())["record"]
    spec = "mcts:iterations=10,plies=2"  # playouts: the seed matters
    here = review(record, bot=spec, seed=2)
    there = review(record, bot=spec, seed=2, cluster=cluster.address)
    assert here.same_judgements(there)
