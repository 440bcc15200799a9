"""The Abstract Play bot's test helpers: the bot served on loopback against a
fake Abstract Play (tests/fake_abstract_play.py), signed webhooks, and the
fixtures the bot's test files share."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fake_abstract_play import FakeAbstractPlay, abstract_play
from http_support import post, running

from stawvs_ap import StawvsGame
from stawvs_ap.apbot import ApBot, BotSettings, Journal, Outbound, create_app
from stawvs_ap.apbot.player import Chooser

GAME = "game-1"


def random_chooser(game: StawvsGame, seconds: float) -> str:
    return game.moves()[0]


@contextmanager
def bot_on(
    ap: FakeAbstractPlay,
    journal: Path | Journal,
    *,
    chooser: Chooser | None = random_chooser,
    spec: str = "greedy",
    timeout: float = 5.0,
    searches: int = 2,
    retry: tuple[float, float] = (0.05, 0.2),
    poll: float = 0,
) -> Iterator[tuple[int, ApBot]]:
    """The bot served by uvicorn on a free loopback port, talking to ``ap``;
    with ``poll``, its keeper polling every ``poll`` seconds (retries are
    queued every 0.05 s either way)."""
    from stawvs_ap.apbot.poller import Keeper

    settings = BotSettings.from_environment(ap.environment())
    outbound = Outbound(settings, backoff=0.01, timeout=timeout)
    bot = ApBot(
        settings,
        spec,
        journal,
        outbound=outbound,
        chooser=chooser,
        searches=searches,
        retry=retry,
    )
    Keeper(bot, poll=poll, tick=0.05, gap=0.0).start()
    try:
        with running(lambda hosts: create_app(bot)) as port:
            yield port, bot
    finally:
        bot.close()


def webhook(
    port: int, ap: FakeAbstractPlay, payload: Any, **signing: Any
) -> tuple[int, dict[str, Any]]:
    body = json.dumps(payload).encode()
    status, _, answer = post(port, body, headers=ap.sign(body, **signing), path="/")
    return status, json.loads(answer)


def new_game(ap: FakeAbstractPlay, players: int = 2, variants: list[str] | None = None) -> None:
    ap.games[GAME] = StawvsGame.new(players, variants or [], seed=11)
    ap.get_game_answers.clear()


class Shared:
    """One fake Abstract Play and one bot for the tests that change neither."""

    def __init__(self, ap: FakeAbstractPlay, port: int, bot: ApBot) -> None:
        self.ap, self.port, self.bot = ap, port, bot


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shared]:
    journal = tmp_path_factory.mktemp("shared") / "journal.sqlite3"
    with abstract_play() as ap, bot_on(ap, journal) as (port, bot):
        yield Shared(ap, port, bot)
    assert ap.arrivals == []  # none of them sent a move


@contextmanager
def served(shared: Shared) -> Iterator[tuple[int, ApBot]]:
    yield shared.port, shared.bot


@pytest.fixture
def ap() -> Iterator[FakeAbstractPlay]:
    with abstract_play() as fake:
        yield fake


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "state" / "journal.sqlite3"


def play_bot_moves(port: int, ap: FakeAbstractPlay, count: int) -> None:
    """``count`` turns of the bot, each after a move of the fake's own."""
    game = ap.games[GAME]
    for turn in range(count):
        game.move(game.moves()[-1])
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(turn + 1)
