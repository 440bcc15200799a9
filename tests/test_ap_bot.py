"""The bot for Abstract Play's bot framework, end to end on loopback against a
fake Abstract Play (tests/fake_abstract_play.py): pings, challenges, signed
move webhooks answered 202 and moves sent back with an OAuth token, each
signature failure, the token's cache, expiry and 401 retry, retries with
backoff, duplicate webhooks and restarts (the journal), the get_game way
for payloads without a context, and the logs."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import json
import logging
import signal
import socket
import time
from pathlib import Path
from typing import Any

import cli_process
import pytest
from browser_support import require

require(browser=False)

from ap_bot_support import (
    GAME,
    Shared,
    ap,
    bot_on,
    journal,
    new_game,
    play_bot_moves,
    served,
    shared,
    webhook,
)
from fake_abstract_play import CLIENT_SECRET, FakeAbstractPlay
from http_support import post, request

from stawvs_ap import ErrorCode, StawvsError
from stawvs_ap.apbot import BotSettings, create_app
from stawvs_ap.apbot.player import Refusal

__all__ = ["ap", "journal", "shared"]  # fixtures

# -- ping and challenges ---------------------------------------------------------


def test_a_ping_answers_operational_and_nothing_more(shared: Shared) -> None:
    with served(shared) as (port, _):
        status, _, body = request(port, "GET", "/")
    assert (status, json.loads(body)) == (200, {"operational": True})


def test_a_host_may_mount_the_bot_in_its_own_application(shared: Shared) -> None:
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.testclient import TestClient

    host = Starlette(routes=[Mount("/stawvs-bot", app=create_app(shared.bot))])
    body = json.dumps(CHALLENGE).encode()
    with TestClient(host) as client:
        assert client.get("/stawvs-bot/").json() == {"operational": True}
        answer = client.post("/stawvs-bot/", content=body, headers=shared.ap.sign(body))
    assert answer.status_code == 200


CHALLENGE = {
    "verb": "challenge",
    "metaGame": "stawvs",
    "variants": ["hole", "hey"],
    "clockStart": 72,
    "clockInc": 24,
    "clockMax": 168,
    "challengers": ["human-player-uuid"],
}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"metaGame": "abande"}, "this bot plays stawvs"),
        ({"variants": ["size-5"]}, "size-5"),
        ({"variants": ["hole", "random"]}, "hole"),
        ({"clockStart": 0}, "clock"),
        ({"clockMax": 10}, "clock"),
        ({"clockInc": "24"}, "clock"),
        ({"challengers": ["a", "b", "c", "d"]}, "challengers"),
    ],
)
def test_a_challenge_is_declined_with_a_reason(
    shared: Shared, change: dict[str, Any], said: str
) -> None:
    ap = shared.ap
    with served(shared) as (port, _):
        assert webhook(port, ap, CHALLENGE)[0] == 200
        status, answer = webhook(port, ap, {**CHALLENGE, **change})
    assert status == 400
    assert said in answer["message"] and "\n" not in answer["message"]


def test_an_unknown_verb_and_a_body_that_is_no_json_are_refused(shared: Shared) -> None:
    ap = shared.ap
    with served(shared) as (port, _):
        assert webhook(port, ap, {"verb": "resign"})[0] == 400
        body = b"{not json"
        status, _, _ = post(port, body, headers=ap.sign(body), path="/")
    assert status == 400


# -- signatures and sizes -----------------------------------------------------------


def signed_challenge(ap: FakeAbstractPlay, **signing: Any) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(CHALLENGE).encode()
    return body, ap.sign(body, **signing)


def other_key_headers(body: bytes) -> dict[str, str]:
    stranger = FakeAbstractPlay()  # never started: only its key signs
    stranger.__exit__()
    return stranger.sign(body)


@pytest.mark.parametrize(
    "spoil",
    [
        "no headers",
        "no signature",
        "no nonce",
        "another key",
        "body changed",
        "nonce changed",
        "not base64",
        "stale timestamp",
        "future timestamp",
        "timestamp not a number",
    ],
)
def test_a_request_without_a_good_signature_gets_401(shared: Shared, spoil: str) -> None:
    ap = shared.ap
    now = int(time.time())
    body, headers = signed_challenge(
        ap,
        timestamp={"stale timestamp": now - 310, "future timestamp": now + 310}.get(spoil),
    )
    if spoil == "no headers":
        headers = {}
    elif spoil == "no signature":
        del headers["X-Signature"]
    elif spoil == "no nonce":
        del headers["X-Signature-Nonce"]
    elif spoil == "another key":
        headers = other_key_headers(body)
    elif spoil == "body changed":
        body = body.replace(b"72", b"73")
    elif spoil == "nonce changed":
        headers["X-Signature-Nonce"] += "0"
    elif spoil == "not base64":
        headers["X-Signature"] = "not*base64"
    elif spoil == "timestamp not a number":
        headers["X-Signature-Timestamp"] = "soon"
    with served(shared) as (port, _):
        status, _, answer = post(port, body, headers=headers, path="/")
    assert status == 401, answer
    assert json.loads(answer)["message"]


def test_a_timestamp_just_inside_the_window_is_accepted(shared: Shared) -> None:
    ap = shared.ap
    body, headers = signed_challenge(ap, timestamp=int(time.time()) - 290)
    with served(shared) as (port, _):
        assert post(port, body, headers=headers, path="/")[0] == 200


@pytest.mark.slow
def test_a_replayed_request_gets_401_also_after_a_restart(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    body, headers = signed_challenge(ap)
    with bot_on(ap, journal) as (port, _):
        assert post(port, body, headers=headers, path="/")[0] == 200
        status, _, answer = post(port, body, headers=headers, path="/")
        assert status == 401 and b"nonce" in answer
    with bot_on(ap, journal) as (port, _):
        assert post(port, body, headers=headers, path="/")[0] == 401


def test_a_body_over_a_mebibyte_is_refused_413_before_it_is_read(shared: Shared) -> None:
    ap = shared.ap
    with served(shared) as (port, _), socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(5)
        headers = ap.sign(b"")
        lines = [
            "POST / HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Content-Type: application/json",
            f"Content-Length: {(1 << 20) + 1}",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())  # and no body at all
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")


def test_a_chunked_body_is_refused_413_once_it_grows_past_a_mebibyte(shared: Shared) -> None:
    ap, port = shared.ap, shared.port
    size = (1 << 20) + 1  # one byte too many, in one chunk: all of it is read
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(10)
        lines = [
            "POST / HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Content-Type: application/json",
            "Transfer-Encoding: chunked",
            *(f"{k}: {v}" for k, v in ap.sign(b"").items()),
        ]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        s.sendall(f"{size:x}\r\n".encode() + b" " * size + b"\r\n")
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")


def test_the_bot_refuses_to_start_without_a_public_key(ap: FakeAbstractPlay) -> None:
    env = ap.environment()
    del env["AP_BOT_PUBLIC_KEY"]
    with pytest.raises(Exception, match="AP_BOT_PUBLIC_KEY"):
        BotSettings.from_environment(env)


def test_the_public_key_may_be_given_as_a_file(ap: FakeAbstractPlay, tmp_path: Path) -> None:
    path = tmp_path / "ap-public-key.txt"
    path.write_text(ap.public_line + "\n")
    settings = BotSettings.from_environment({**ap.environment(), "AP_BOT_PUBLIC_KEY": str(path)})
    assert settings.public_key == BotSettings.from_environment(ap.environment()).public_key


@pytest.mark.parametrize(
    "key",
    [
        "ssh-ed25519 AAAA",
        "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEpL",
        "/no/such/key/file",
    ],
)
def test_a_public_key_that_is_no_ssh_ed25519_key_is_refused(ap: FakeAbstractPlay, key: str) -> None:
    with pytest.raises(Exception, match="AP_BOT_PUBLIC_KEY"):
        BotSettings.from_environment({**ap.environment(), "AP_BOT_PUBLIC_KEY": key})


# -- moves ----------------------------------------------------------------------


def test_a_move_webhook_is_answered_202_and_the_move_arrives_with_a_token(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    ap.games[GAME].move("b2")  # the bot is player 2
    with bot_on(ap, journal, chooser=None, spec="greedy") as (port, _):
        status, answer = webhook(port, ap, ap.move_payload(GAME))
        assert (status, answer) == (202, {"queued": True, "duplicate": False})
        (move,) = ap.wait_moves(1)
    assert move["gameid"] == GAME and move["metaGame"] == "stawvs" and move["verb"] == "move"
    assert ap.games[GAME].move_history()[0][1] == move["move"]
    assert ap.arrivals[0]["auth"] == f"Bearer {ap.tokens[0]}"
    assert ap.token_forms[0]["client_secret"] == [CLIENT_SECRET]


def test_without_a_context_the_bot_rebuilds_the_game_with_get_game(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap, 3, ["hey"])
    for move in ("b2", "c2"):
        ap.games[GAME].move(move)
    with bot_on(ap, journal) as (port, _):
        assert webhook(port, ap, ap.move_payload(GAME, context=False))[0] == 202
        ap.wait_moves(1)
    assert ap.queries == [
        {"query": "get_game", "pars": {"metaGame": "stawvs", "id": GAME, "cbit": 0}}
    ]


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ((500, {"message": "not found"}), "get_game answered 500"),
        ((200, {"game": {}}), "no game state"),
        ((200, {"game": {"state": "{}"}}), "does not load"),
        ((200, b'{"game": {"state": ' + b"[" * 50_000 + b"]" * 50_000 + b"}}"), "nested"),
        ((200, {"game": {"id": "another", "state": "{}"}}), "another game"),
    ],
)
def test_no_context_and_no_usable_get_game_answer_is_refused(
    shared: Shared, answer: tuple[int, Any], said: str
) -> None:
    ap = shared.ap
    new_game(ap)
    ap.get_game_answers[GAME] = answer
    with served(shared) as (port, _):
        status, refusal = webhook(port, ap, ap.move_payload(GAME, context=False))
    assert status == 400 and said in refusal["message"]
    assert ap.arrivals == []


def test_a_get_game_state_with_other_moves_than_the_webhook_is_refused(shared: Shared) -> None:
    ap = shared.ap
    new_game(ap)
    payload = ap.move_payload(GAME, context=False)
    ap.games[GAME].move("b2")  # the platform moved on since
    with served(shared) as (port, _):
        status, refusal = webhook(port, ap, payload)
    assert status == 400 and "differ from move 1" in refusal["message"]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"moves": [["b2", "b2"]]}, "round 1, move 2"),
        ({"moves": [["b2", "c2"], ["zz"]]}, "round 2, move 1"),
        ({"numPlayers": 5}, "numPlayers"),
        ({"variants": ["size-5"]}, "size-5"),
        ({"metaGame": "abande"}, "stawvs"),
        ({"gameid": ""}, "gameid"),
        ({"clockCurr": -1}, "clockCurr"),
        ({"context": {"board": [["a1", [["RD", 1]]]]}}, "context"),
    ],
)
def test_a_bad_move_payload_gets_400_naming_the_problem_and_nothing_is_sent(
    shared: Shared, change: dict[str, Any], said: str
) -> None:
    ap = shared.ap
    new_game(ap)
    with served(shared) as (port, bot):
        status, refusal = webhook(port, ap, {**ap.move_payload(GAME), **change})
        assert bot.wait_idle(5)
    assert status == 400 and said in refusal["message"], refusal
    assert ap.arrivals == []


def test_a_finished_game_is_refused(shared: Shared) -> None:
    ap = shared.ap
    new_game(ap)
    game = ap.games[GAME]
    while not game.gameover:
        game.move(game.moves()[0])
    with served(shared) as (port, _):
        status, refusal = webhook(port, ap, ap.move_payload(GAME))
    assert status == 400 and "over" in refusal["message"]


def test_a_refusal_is_a_stawvs_error_with_the_code_of_what_is_wrong(shared: Shared) -> None:
    ap = shared.ap
    new_game(ap)
    with pytest.raises(Refusal) as unnamed:
        shared.bot.accept({**ap.move_payload(GAME), "gameid": ""})
    assert isinstance(unnamed.value, StawvsError)
    assert (unnamed.value.status, unnamed.value.code) == (400, ErrorCode.BAD_ARGUMENT)
    assert unnamed.value.reason == unnamed.value.message == "gameid is not a game id: ''"
    game = ap.games[GAME]
    while not game.gameover:
        game.move(game.moves()[0])
    with pytest.raises(Refusal) as over:
        shared.bot.accept(ap.move_payload(GAME))
    assert (over.value.status, over.value.code) == (400, ErrorCode.GAMEOVER)
    assert over.value.message == "the game is over: there is no move to make"


# -- logs -------------------------------------------------------------------------


@pytest.mark.slow
def test_every_log_line_is_one_line_of_json_and_none_holds_the_secret(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    with caplog.at_level(logging.DEBUG), bot_on(ap, journal) as (port, bot):
        ap.token_status = 401
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
        ap.token_status = 200
        play_bot_moves(port, ap, 1)
        webhook(port, ap, {"verb": "move", "moves": CLIENT_SECRET})
        request(port, "GET", "/")
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("stawvs_ap.apbot")]
    events = [json.loads(line)["event"] for line in lines]
    assert {"ping", "move.accepted", "move.sent", "move.submitted", "token.failed"} <= set(events)
    for record in caplog.records:
        text = record.getMessage() + (record.exc_text or "")
        assert CLIENT_SECRET not in text and "\n" not in text
        assert not any(token in text for token in ap.tokens)


# -- whole games ------------------------------------------------------------------


def play_whole_game(port: int, ap: FakeAbstractPlay, seat: int, *, context: bool) -> None:
    """The fake plays every seat but ``seat`` at random, the bot ``seat``, to the end."""
    game = ap.games[GAME]
    turns = 0
    while not game.gameover:
        if game.currplayer != seat:
            game.move(game.random_move())
            continue
        turns += 1
        assert webhook(port, ap, ap.move_payload(GAME, context=context))[0] == 202
        ap.wait_moves(turns)
    assert turns == len(ap.moves) == len(ap.arrivals)


def test_the_bot_plays_its_moves_of_a_game_end_to_end(ap: FakeAbstractPlay, journal: Path) -> None:
    new_game(ap, 2)
    game = ap.games[GAME]
    with bot_on(ap, journal, chooser=None, spec="greedy") as (port, _):
        for turn in range(1, 4):
            game.move(game.random_move())  # the fake's seat, then the bot's
            assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
            assert len(ap.wait_moves(turn)) == turn
    assert len(game.move_history()) == 3 and game.move_history()[2][1] == ap.moves[2]["move"]


@pytest.mark.slow  # whole games over HTTP, a few seconds each
@pytest.mark.parametrize("context", [True, False], ids=["context", "get_game"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bot_plays_whole_games_in_every_player_count(
    ap: FakeAbstractPlay, journal: Path, players: int, context: bool
) -> None:
    new_game(ap, players, ["hey"] if players == 3 else [])
    seat = players  # the last seat: every earlier move comes from the fake
    with bot_on(ap, journal, chooser=None, spec="greedy") as (port, _):
        play_whole_game(port, ap, seat, context=context)
    assert ap.games[GAME].gameover
    assert bool(ap.queries) is not context


# -- the command ------------------------------------------------------------------


@pytest.mark.slow
def test_the_command_refuses_to_start_without_a_public_key_in_one_line(
    ap: FakeAbstractPlay, tmp_path: Path
) -> None:
    env = {**cli_process.ENV, **ap.environment()}
    del env["AP_BOT_PUBLIC_KEY"]
    done = cli_process.run(
        "ap-bot", "--http", "127.0.0.1:0", "--journal", tmp_path / "j.sqlite3", env=env
    )
    assert "AP_BOT_PUBLIC_KEY" in cli_process.one_error(done)


def started_port(proc: Any) -> int:
    """The port of the bot.started event on standard error."""
    assert proc.stderr is not None
    for _ in range(10):
        started = json.loads(proc.stderr.readline())
        if started["event"] == "bot.started":
            break
    assert started["event"] == "bot.started", started
    return int(started["url"].split("http://127.0.0.1:", 1)[1].split("/", 1)[0])


@pytest.mark.slow  # a process of its own, started and stopped: a few seconds
def test_the_command_serves_the_bot_until_interrupted(ap: FakeAbstractPlay, tmp_path: Path) -> None:
    env = {**cli_process.ENV, **ap.environment()}
    journal = tmp_path / "j.sqlite3"
    proc = cli_process.start(
        "ap-bot", "--http", "127.0.0.1:0", "--bot", "greedy", "--journal", journal, env=env
    )
    try:
        port = started_port(proc)
        new_game(ap)
        assert request(port, "GET", "/")[0] == 200
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(1)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    events = [json.loads(line)["event"] for line in err.splitlines()]
    assert {"ping", "move.accepted", "move.submitted", "bot.stopped"} <= set(events)
    assert proc.returncode == 0
    assert CLIENT_SECRET not in err
    assert journal.exists()
