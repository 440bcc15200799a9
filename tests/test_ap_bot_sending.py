"""The Abstract Play bot sending its moves, against a fake Abstract Play: the
token's cache, expiry and 401 retry, retries with backoff and positions put
off, refusals, slow answers, and exactly one move a position across
duplicate webhooks and restarts (the journal)."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

import pytest
from browser_support import require

require(browser=False)

from ap_bot_support import GAME, ap, bot_on, journal, new_game, play_bot_moves, webhook
from fake_abstract_play import FakeAbstractPlay
from http_support import running

from stawvs_ap import StawvsGame
from stawvs_ap.apbot import ApBot, BotSettings, Journal, create_app
from stawvs_ap.apbot.journal import position_key

__all__ = ["ap", "journal"]  # fixtures


# -- the token ----------------------------------------------------------------------


def test_the_token_is_kept_between_moves(ap: FakeAbstractPlay, journal: Path) -> None:
    new_game(ap)
    with bot_on(ap, journal) as (port, _):
        play_bot_moves(port, ap, 3)
    assert len(ap.tokens) == 1


def test_a_token_within_a_minute_of_its_expiry_is_replaced(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    ap.expires_in = 60
    new_game(ap)
    with bot_on(ap, journal) as (port, _):
        play_bot_moves(port, ap, 2)
    assert len(ap.tokens) == 2


def test_a_401_gets_a_new_token_and_one_more_try(ap: FakeAbstractPlay, journal: Path) -> None:
    new_game(ap)
    with bot_on(ap, journal) as (port, _):
        play_bot_moves(port, ap, 1)
        ap.revoked.add(ap.tokens[0])
        play_bot_moves(port, ap, 1)
    assert len(ap.tokens) == 2
    assert [a["auth"] for a in ap.arrivals[1:]] == [f"Bearer {t}" for t in ap.tokens]


def test_a_second_401_is_final(ap: FakeAbstractPlay, journal: Path) -> None:
    new_game(ap)
    ap.script = [401, 401, 401]
    with bot_on(ap, journal) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 2 and len(ap.tokens) == 2
    assert ap.moves == []


def test_failures_are_retried_with_backoff_then_the_move_arrives(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    ap.script = [503, 429, 502]
    with bot_on(ap, journal) as (port, _):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(1)
    assert len(ap.arrivals) == 4


@pytest.mark.slow
def test_a_move_that_finds_no_platform_is_put_off_and_tried_again_until_it_arrives(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    ap.script = [503] * 12  # more than two series of five tries
    key = position_key(GAME, ap.games[GAME].move_history())
    with caplog.at_level(logging.INFO, "stawvs_ap.apbot"), bot_on(ap, journal) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(1)
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 13 and len(ap.moves) == 1
    events = [json.loads(r.message)["event"] for r in caplog.records]
    assert events.count("move.unreachable") == 2 and events.count("move.postponed") == 2
    assert Journal(journal).status(key) == "submitted"


def test_a_refusal_other_than_401_is_not_retried(ap: FakeAbstractPlay, journal: Path) -> None:
    new_game(ap)
    ap.script = [400]
    with bot_on(ap, journal) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 1


@pytest.mark.slow
def test_a_bot_query_that_answers_too_late_is_tried_again(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    ap.script = ["stall"]
    ap.stall_seconds = 1.0
    with bot_on(ap, journal, timeout=0.3) as (port, _):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(1)
    assert len(ap.arrivals) == 2 and len(ap.moves) == 1


@pytest.mark.slow  # waits out a slow bot-query on purpose
def test_a_slow_bot_query_holds_up_no_webhook(ap: FakeAbstractPlay, journal: Path) -> None:
    ap.query_delay = 0.6
    ap.games["a"] = StawvsGame.new(2, seed=1)
    ap.games["b"] = StawvsGame.new(2, seed=2)
    with bot_on(ap, journal) as (port, _):
        assert webhook(port, ap, ap.move_payload("a"))[0] == 202
        time.sleep(0.1)  # the first move is on its way, slowly
        started = time.perf_counter()
        assert webhook(port, ap, ap.move_payload("b"))[0] == 202
        assert time.perf_counter() - started < 0.5
        ap.wait_moves(2)


# -- exactly once -------------------------------------------------------------------


def test_a_duplicate_webhook_is_answered_202_and_sends_nothing_more(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    payload = ap.move_payload(GAME)
    with bot_on(ap, journal) as (port, bot):
        assert webhook(port, ap, payload) == (202, {"queued": True, "duplicate": False})
        ap.wait_moves(1)
        assert webhook(port, ap, payload) == (202, {"queued": True, "duplicate": True})
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 1


def test_a_duplicate_of_a_position_in_progress_sends_nothing_more(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    release = threading.Event()

    def slow(game: StawvsGame, seconds: float) -> str:
        release.wait(5)
        return game.moves()[0]

    payload = ap.move_payload(GAME)
    with bot_on(ap, journal, chooser=slow) as (port, bot):
        assert webhook(port, ap, payload)[0] == 202
        assert webhook(port, ap, payload) == (202, {"queued": True, "duplicate": True})
        release.set()
        ap.wait_moves(1)
        assert bot.wait_idle(5)
    assert len(ap.arrivals) == 1


@pytest.mark.slow
def test_a_position_accepted_before_a_restart_is_finished_after_it(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    stuck = threading.Event()

    def never(game: StawvsGame, seconds: float) -> str:
        stuck.wait(5)
        return game.moves()[0]

    settings = BotSettings.from_environment(ap.environment())
    crashed = ApBot(settings, "greedy", Journal(journal), chooser=never)
    with running(lambda hosts: create_app(crashed)) as port:
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
    crashed.close(wait=0.1)  # gone mid-search, as a killed process is
    with bot_on(ap, journal) as (_, bot):
        ap.wait_moves(1)
        stuck.set()  # the old search ends now, and must send nothing
        assert bot.wait_idle(5)
        time.sleep(0.2)
    assert len(ap.arrivals) == 1


def test_a_move_chosen_before_a_restart_is_sent_without_searching_again(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    game = ap.games[GAME]
    book = Journal(journal)
    book.accept("k", GAME, 0, 24.0, game.serialize(), seat=1, now=time.time())
    book.choose("k", "d7")
    book.close()

    def forbidden(game: StawvsGame, seconds: float) -> str:
        raise AssertionError("searched again")

    with bot_on(ap, journal, chooser=forbidden) as (_, bot):
        (move,) = ap.wait_moves(1)
        assert bot.wait_idle(5)
    assert move["move"] == "d7"
    assert Journal(journal).status("k") == "submitted"


@pytest.mark.slow  # two real searches of a second each
def test_the_202_arrives_within_half_a_second_while_searches_run(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    for seed, name in enumerate("abc", start=1):
        ap.games[name] = StawvsGame.new(2, seed=seed)
    with bot_on(ap, journal, chooser=None, spec="mcts:seconds=1") as (port, _):
        for name in "ab":  # both search slots busy
            assert webhook(port, ap, ap.move_payload(name, clock=48))[0] == 202
        time.sleep(0.2)
        started = time.perf_counter()
        assert webhook(port, ap, ap.move_payload("c", clock=48))[0] == 202
        assert time.perf_counter() - started < 0.5
        ap.wait_moves(3, timeout=15)


@pytest.mark.slow
def test_a_duplicate_webhook_of_a_position_put_off_tries_it_at_once(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    ap.script = [503] * 5
    payload = ap.move_payload(GAME)
    with bot_on(ap, journal, retry=(3600, 3600)) as (port, bot):
        assert webhook(port, ap, payload)[0] == 202
        assert bot.wait_idle(5)
        assert ap.moves == []  # put off for an hour
        assert webhook(port, ap, payload) == (202, {"queued": True, "duplicate": True})
        ap.wait_moves(1)
    assert len(ap.arrivals) == 6
