"""The Abstract Play bot never misses a turn: turns whose webhook never came
are found by polling get_game, games found over are polled no more, a webhook
and a poll of one position send one move, polling backs off when the
platform is busy, a hostile get_game answer is refused in one line with
nothing sent, and after a restart every accepted position is finished."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import require

require(browser=False)

from ap_bot_support import GAME, ap, bot_on, journal, new_game, webhook
from fake_abstract_play import FakeAbstractPlay

from stawvs_ap import StawvsGame
from stawvs_ap.apbot import ApBot, BotSettings, Journal
from stawvs_ap.apbot.outbound import Outbound
from stawvs_ap.apbot.poller import Keeper, poll_game

__all__ = ["ap", "journal"]  # fixtures


def events(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "stawvs_ap.apbot"]


def first_turn(ap: FakeAbstractPlay, port: int) -> None:
    """The bot (player 2) plays its first move by a webhook: the game is in its journal."""
    ap.games[GAME].move("b2")
    assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
    ap.wait_moves(1)


@pytest.mark.slow
def test_a_turn_whose_webhook_never_came_is_found_by_polling(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    with (
        caplog.at_level(logging.INFO, "stawvs_ap.apbot"),
        bot_on(ap, journal, poll=0.1) as (
            port,
            bot,
        ),
    ):
        first_turn(ap, port)
        game = ap.games[GAME]
        game.move(game.moves()[0])  # the platform's move: no webhook follows
        assert game.currplayer == 2
        ap.wait_moves(2)
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 2
    recovered = [e for e in events(caplog) if e["event"] == "turn.recovered"]
    assert [(e["gameid"], e["ply"]) for e in recovered] == [(GAME, 3)]


@pytest.mark.slow
def test_a_game_found_over_is_marked_and_polled_no_more(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    with bot_on(ap, journal, poll=0.05) as (port, bot):
        first_turn(ap, port)
        game = ap.games[GAME]
        with ap.changed:
            while not game.gameover:
                game.move(game.moves()[0])
        deadline = time.monotonic() + 5
        while not bot.journal.is_over(GAME):
            assert time.monotonic() < deadline, "the game was never found over"
            time.sleep(0.02)
        asked = len(ap.queries)
        time.sleep(0.3)
        assert len(ap.queries) == asked
        assert bot.journal.games_in_play() == []
    assert len(ap.arrivals) == 1


@pytest.mark.slow
def test_a_webhook_and_a_poll_of_one_position_send_one_move(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    release = threading.Event()
    calls = []

    def slow(game: StawvsGame, seconds: float) -> str:
        calls.append(len(game.stack))
        if len(calls) > 1:
            release.wait(5)
        return game.moves()[0]

    with bot_on(ap, journal, chooser=slow, poll=0.02) as (port, bot):
        first_turn(ap, port)
        game = ap.games[GAME]
        game.move(game.moves()[0])
        time.sleep(0.3)  # the poll finds the turn and searches it
        assert webhook(port, ap, ap.move_payload(GAME)) == (
            202,
            {"queued": True, "duplicate": True},
        )
        release.set()
        ap.wait_moves(2)
        assert bot.wait_idle(5)
        time.sleep(0.2)
    assert len(ap.arrivals) == 2 and len(calls) == 2


@pytest.mark.slow
def test_polling_backs_off_when_the_platform_answers_503(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    with bot_on(ap, journal) as (port, bot):
        first_turn(ap, port)
        ap.query_script = [503] * 50
        keeper = Keeper(bot, poll=0.01, tick=0.01, gap=0.0)
        keeper.start()
        time.sleep(1.0)
        assert len(ap.queries) == 1  # then a pause of 5 s at least
        assert keeper.rounds == 1


@pytest.mark.slow
def test_polling_asks_at_most_one_game_per_gap_and_plays_only_its_own_seat(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    settings = BotSettings.from_environment(ap.environment())
    bot = ApBot(settings, "greedy", journal, searches=1)
    try:
        for n in range(6):
            name = f"g{n}"
            ap.games[name] = StawvsGame.new(2, seed=n)
            ap.games[name].move("b2")
            bot.journal.accept(name, name, 0, 1.0, "{}", seat=1, now=time.time())
        started = time.monotonic()
        Keeper(bot, poll=0, gap=0.2).poll_round()
        assert time.monotonic() - started >= 5 * 0.2
        assert bot.wait_idle(5)
    finally:
        bot.close(wait=1)
    assert len(ap.queries) == 6
    assert ap.arrivals == []  # each game waits for the other seat: nothing to play


@pytest.mark.slow
def test_a_restart_finds_the_turns_that_came_while_the_bot_was_down(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    with bot_on(ap, journal) as (port, _):
        first_turn(ap, port)
    game = ap.games[GAME]
    game.move(game.moves()[0])  # its webhook reached no one: the bot was down
    with bot_on(ap, journal, poll=300) as (_, bot):
        ap.wait_moves(2)
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 2


@pytest.mark.slow
def test_a_position_put_off_is_tried_again_at_once_when_a_poll_finds_it(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    ap.games[GAME].move("b2")
    ap.script = [503] * 5
    with bot_on(ap, journal, retry=(3600, 3600)) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
        assert ap.moves == []  # put off for an hour
        Keeper(bot, poll=0.05, tick=0.05, gap=0).start()
        ap.wait_moves(1)
    assert len(ap.arrivals) == 6


def recorded(ap: FakeAbstractPlay, journal: Path) -> ApBot:
    """A bot (not serving) whose journal holds the game, the bot at seat 2."""
    new_game(ap)
    settings = BotSettings.from_environment(ap.environment())
    bot = ApBot(settings, "greedy", journal, outbound=Outbound(settings, timeout=2))
    bot.journal.accept("first", GAME, 1, 1.0, "{}", seat=2, now=time.time())
    return bot


def nested(depth: int) -> bytes:
    return b'{"game": {"id": "game-1", "state": ' + b"[" * depth + b"]" * depth + b"}}"


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ((200, {"game": {"id": "other", "metaGame": "stawvs", "state": "{}"}}), "another game"),
        ((200, {"game": {"id": GAME, "metaGame": "abande", "state": "{}"}}), "another game"),
        ((200, {"game": {"id": GAME}}), "no game state"),
        ((200, {"game": {"id": GAME, "state": "{}"}}), ""),
        ((200, b"not json"), "not JSON"),
        ((200, nested(100_000)), "JSON"),
        ((200, b"[" + b"1," * 600_000 + b"1]"), "JSON values"),
        ((404, {"message": "no"}), "answered 404"),
    ],
    ids=["other-id", "other-game", "no-state", "bad-state", "no-json", "deep", "huge", "404"],
)
def test_a_hostile_get_game_answer_is_refused_in_one_line_and_nothing_is_sent(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture, answer: Any, said: str
) -> None:
    bot = recorded(ap, journal)
    ap.get_game_answers[GAME] = answer
    try:
        with caplog.at_level(logging.INFO, "stawvs_ap.apbot"):
            assert poll_game(bot, GAME, 2) == "refused"
    finally:
        bot.close(wait=1)
    (refused,) = [e for e in events(caplog) if e["event"] == "poll.refused"]
    assert said in refused["why"]
    assert ap.arrivals == [] and Journal(journal).pending_count() == 1


def test_a_game_whose_moves_disagree_with_the_journal_is_refused(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot = recorded(ap, journal)
    ap.games[GAME].move("b2")  # one move: the journal's position after one move is "first"
    try:
        with caplog.at_level(logging.INFO, "stawvs_ap.apbot"):
            assert poll_game(bot, GAME, 2) == "refused"
    finally:
        bot.close(wait=1)
    assert [e["event"] for e in events(caplog)] == ["poll.refused"]
    assert ap.arrivals == []


def test_a_poll_that_finds_the_game_moved_on_settles_the_positions_behind(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    bot = recorded(ap, journal)
    game = ap.games[GAME]
    for _ in range(3):
        game.move(game.moves()[0])
    try:
        assert game.currplayer == 2
        assert poll_game(bot, GAME, 2) == "recovered"
        assert bot.journal.status("first") == "done"
        ap.wait_moves(1)
    finally:
        bot.close(wait=2)


@pytest.mark.slow
def test_a_burst_of_webhooks_moves_every_game_exactly_once() -> None:
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "apbot.py"
    spec = importlib.util.spec_from_file_location("apbot_benchmark", path)
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    figures = benchmark.burst(10)  # the benchmark's 50, smaller; its timing is not judged here
    assert figures["all_202"] and figures["exactly_once"] and figures["moves_sent"] == 10
