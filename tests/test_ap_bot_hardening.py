"""What an attacker found against the Abstract Play bot, each one fixed: no
redirect followed with credentials, a total deadline on every request, a
journal fault never kills a worker and a locked journal gets 503, the key
forms Abstract Play's verifier reads, no secret in any log line, a journal
refused in one line when it is unusable or held by another bot, strangers'
requests logged within bounds, and the bodies in flight bounded."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import base64
import json
import logging
import os
import socket
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from browser_support import require

require(browser=False)

from ap_bot_support import GAME, ap, bot_on, journal, new_game, webhook
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fake_abstract_play import CLIENT_SECRET, FakeAbstractPlay
from http_support import post

from stawvs_ap import StawvsError
from stawvs_ap.apbot import BotSettings, Journal
from stawvs_ap.apbot.app import MAX_BODIES_IN_FLIGHT
from stawvs_ap.apbot.journal import position_key
from stawvs_ap.apbot.outbound import Failed, Outbound, QueryFailed
from stawvs_ap.apbot.protocol import MAX_BODY_BYTES

__all__ = ["ap", "journal"]  # fixtures


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "stawvs_ap.apbot"]


# -- redirects and deadlines ------------------------------------------------------


def test_a_redirect_is_not_followed_and_is_not_a_submission(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    ap.script = ["redirect"]
    key = position_key(GAME, ap.games[GAME].move_history())
    with caplog.at_level(logging.INFO, "stawvs_ap.apbot"), bot_on(ap, journal) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
        assert bot.journal.status(key) == "refused"
    assert ap.elsewhere == [] and ap.moves == [] and len(ap.arrivals) == 1
    refused = [json.loads(line) for line in lines(caplog) if "move.refused" in line]
    assert refused[0]["status"] == 307 and "redirect" in refused[0]["why"]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["query", "token"])
def test_a_trickling_answer_is_cut_off_at_the_total_deadline(
    ap: FakeAbstractPlay, where: str
) -> None:
    ap.trickle_seconds = 0.1  # each byte well within any per-read timeout
    outbound = Outbound(BotSettings.from_environment(ap.environment()), timeout=0.6)
    started = time.monotonic()
    if where == "query":
        ap.query_script = ["trickle"]
        with pytest.raises(QueryFailed, match=r"did not answer within 0\.6 s"):
            outbound.get_game(GAME)
    else:
        ap.token_script = ["trickle"]
        with pytest.raises(Failed, match=r"did not answer within 0\.6 s"):
            outbound.token()
    assert time.monotonic() - started < 2.0


# -- the journal's faults -------------------------------------------------------------


@pytest.mark.slow
def test_a_locked_journal_gets_the_webhook_a_503_and_then_works(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    book = Journal(journal, busy_seconds=0.2)
    with caplog.at_level(logging.INFO, "stawvs_ap.apbot"), bot_on(ap, book) as (port, bot):
        other = sqlite3.connect(journal, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program writing, and slow
        status, answer = webhook(port, ap, ap.move_payload(GAME))
        assert (status, answer) == (503, {"message": "the journal is busy: try again"})
        other.execute("ROLLBACK")
        other.close()
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(1)
        assert bot.wait_idle(5)
    assert all("Traceback" not in line for line in lines(caplog))


@pytest.mark.slow
def test_a_journal_write_that_fails_kills_no_worker_and_the_move_arrives_later(
    ap: FakeAbstractPlay, journal: Path
) -> None:
    new_game(ap)
    book = Journal(journal, busy_seconds=0.1)
    other = sqlite3.connect(journal, isolation_level=None, check_same_thread=False)

    searches = []

    def locking(game: Any, seconds: float) -> str:
        if not searches:
            other.execute("BEGIN IMMEDIATE")  # held while the bot records the move chosen
        searches.append(1)
        return str(game.moves()[0])

    with bot_on(ap, book, chooser=locking, searches=1) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        time.sleep(0.5)
        assert ap.moves == []
        other.execute("ROLLBACK")  # the journal answers again: the position is tried again
        ap.wait_moves(1)
        assert bot.wait_idle(5)
        assert all(worker.is_alive() for worker in bot._workers)
    other.close()


def test_a_reader_holding_the_journal_stops_no_write(ap: FakeAbstractPlay, journal: Path) -> None:
    new_game(ap)
    with bot_on(ap, journal) as (port, bot):
        backup = sqlite3.connect(journal, isolation_level=None)
        backup.execute("BEGIN")
        backup.execute("SELECT COUNT(*) FROM positions").fetchone()  # a read transaction held
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        ap.wait_moves(1)
        assert bot.wait_idle(5)
        backup.execute("ROLLBACK")
        backup.close()


@pytest.mark.parametrize("kind", ["directory", "text", "devnull", "unwritable", "dangling"])
def test_an_unusable_journal_is_refused_in_one_line(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "journal.sqlite3"
    if kind == "directory":
        path.mkdir()
    elif kind == "text":
        path.write_text("a shopping list\n" * 100)
    elif kind == "devnull":
        path = Path("/dev/null")
    elif kind == "unwritable":
        if os.geteuid() == 0:
            pytest.skip("root writes in any folder")
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o500)
        path = folder / "journal.sqlite3"
    else:
        path.symlink_to(tmp_path / "elsewhere.sqlite3")
    try:
        with pytest.raises(StawvsError) as refused:
            Journal(path)
    finally:
        (tmp_path / "locked").exists() and (tmp_path / "locked").chmod(0o700)
    assert "\n" not in refused.value.message and str(path) in refused.value.message
    assert not (tmp_path / "elsewhere.sqlite3").exists()
    if kind == "text":
        assert path.read_text().startswith("a shopping list")


def test_a_second_bot_on_one_journal_refuses_to_start(journal: Path) -> None:
    first = Journal(journal)
    with pytest.raises(StawvsError, match="in use by another running bot"):
        Journal(journal)
    first.close()
    Journal(journal).close()  # free again once the first let go


def test_a_journal_of_an_earlier_version_tries_its_lost_positions_again(journal: Path) -> None:
    book = Journal(journal)
    book.accept("k", GAME, 0, 1.0, "{}", seat=1, now=time.time())
    book.choose("k", "d7")
    book.close()
    old = sqlite3.connect(journal, isolation_level=None)
    old.execute("UPDATE positions SET status = 'lost'")
    old.close()
    book = Journal(journal)
    assert book.status("k") == "chosen" and book.unfinished() == ["k"]
    book.close()


# -- keys -------------------------------------------------------------------------------


def key_forms(ap: FakeAbstractPlay, tmp_path: Path) -> dict[str, str]:
    public = ap.key.public_key()
    line = ap.public_line
    blob = line.split()[1]
    wrapped = "\n".join(blob[i : i + 70] for i in range(0, len(blob), 70))
    ssh2 = (
        "---- BEGIN SSH2 PUBLIC KEY ----\n"
        'Comment: "256-bit ED25519, converted by a test from OpenSSH"\n'
        f"{wrapped}\n---- END SSH2 PUBLIC KEY ----\n"
    )
    pem = public.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo).decode()
    forms = {
        "openssh": line,
        "ssh2": ssh2,
        "ssh2-crlf": ssh2.replace("\n", "\r\n"),
        "base64-of-line": base64.b64encode(line.encode()).decode(),
        "base64-of-ssh2": base64.b64encode(ssh2.encode()).decode(),
        "blob": blob,
        "quoted": f'"{line}"',
        "pem": pem,
    }
    source = tmp_path / "key.pub"
    source.write_text(line + "\n")
    done = subprocess.run(
        ["ssh-keygen", "-e", "-f", str(source)], capture_output=True, text=True, check=False
    )
    if done.returncode == 0:
        forms["ssh-keygen -e"] = done.stdout
    return forms


def test_every_key_form_abstract_plays_verifier_reads_is_accepted(
    ap: FakeAbstractPlay, tmp_path: Path
) -> None:
    expected = BotSettings.from_environment(ap.environment()).public_key
    raw = expected.public_bytes(Encoding.Raw, PublicFormat.Raw)
    for name, form in key_forms(ap, tmp_path).items():
        for given in (form, str(tmp_path / "given.key")):
            (tmp_path / "given.key").write_text(form)
            settings = BotSettings.from_environment(
                {**ap.environment(), "AP_BOT_PUBLIC_KEY": given}
            )
            assert settings.public_key.public_bytes(Encoding.Raw, PublicFormat.Raw) == raw, name


@pytest.mark.parametrize(
    ("key", "said"),
    [
        ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ", "Ed25519"),
        ("---- BEGIN SSH2 PUBLIC KEY ----\n%%%\n---- END SSH2 PUBLIC KEY ----", "base64"),
        ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", "PEM"),
        ("hello world", "not a key"),
        (base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x05short").decode(), "32"),
    ],
)
def test_anything_else_is_refused_in_one_line(ap: FakeAbstractPlay, key: str, said: str) -> None:
    with pytest.raises(StawvsError) as refused:
        BotSettings.from_environment({**ap.environment(), "AP_BOT_PUBLIC_KEY": key})
    assert said in refused.value.message and "\n" not in refused.value.message


# -- secrets ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_token_with_a_line_break_is_refused_and_never_logged(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    ap.token_value = "tok-en-secret-part\nInjected: header"
    with caplog.at_level(logging.DEBUG), bot_on(ap, journal) as (port, bot):
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "tok-en-secret-part" not in text and "Injected" not in text
    assert ap.arrivals == [] and "token.failed" in text


def test_a_user_and_password_in_an_address_are_refused_unnamed(ap: FakeAbstractPlay) -> None:
    env = {**ap.environment(), "BOT_QUERY_URL": "http://bot:pa55word@127.0.0.1:1/botQuery"}
    with pytest.raises(StawvsError) as refused:
        BotSettings.from_environment(env)
    assert "user name or password" in refused.value.message
    assert "pa55word" not in refused.value.message


def test_no_log_line_ever_holds_the_secret_even_when_the_platform_echoes_it(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    new_game(ap)
    ap.script = [400]
    with caplog.at_level(logging.DEBUG), bot_on(ap, journal) as (port, bot):
        original = ap.bot_query
        ap.bot_query = lambda auth, body: (400, {"echo": auth, "secret": CLIENT_SECRET})  # type: ignore[method-assign]
        ap.script = []
        assert webhook(port, ap, ap.move_payload(GAME))[0] == 202
        assert bot.wait_idle(5)
        ap.bot_query = original  # type: ignore[method-assign]
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "move.refused" in text and CLIENT_SECRET not in text
    assert not any(token in text for token in ap.tokens)


# -- what strangers can make the bot do -----------------------------------------------


@pytest.mark.slow
def test_a_strangers_unsigned_requests_write_few_log_lines(
    ap: FakeAbstractPlay, journal: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, "stawvs_ap.apbot"), bot_on(ap, journal) as (port, _):
        for n in range(100):
            assert post(port, b"{}", path="/")[0] == 401
            headers = {
                "X-Signature": "x",
                "X-Signature-Timestamp": "1",
                "X-Signature-Nonce": f"{n}",
            }
            assert post(port, b"{}", headers=headers, path="/")[0] == 401
    refused = [line for line in lines(caplog) if "request.refused" in line]
    assert len(refused) == 2  # one line per kind a minute


@pytest.mark.slow
def test_the_bodies_in_flight_are_bounded_altogether(ap: FakeAbstractPlay, journal: Path) -> None:
    headers = (
        "POST / HTTP/1.1\r\nHost: x\r\nX-Signature: a\r\nX-Signature-Timestamp: 1\r\n"
        f"X-Signature-Nonce: n\r\nContent-Length: {MAX_BODY_BYTES}\r\n\r\n"
    ).encode()
    stalled = []
    with bot_on(ap, journal) as (port, _):
        try:
            for _ in range(MAX_BODIES_IN_FLIGHT // MAX_BODY_BYTES):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(headers + b"x")  # a body that never comes
                stalled.append(s)
            time.sleep(0.3)
            late = socket.create_connection(("127.0.0.1", port), timeout=5)
            late.sendall(headers)
            assert late.recv(100).startswith(b"HTTP/1.1 503")
            late.close()
        finally:
            for s in stalled:
                s.close()
