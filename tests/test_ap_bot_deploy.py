"""The Abstract Play bot checked before it serves and deployed as operators
deploy bots: every bad setting named in one message, settings from a file
and secrets from files, the stages Abstract Play publishes, credentials
tried before serving, ``--check``, a clean stop on SIGTERM during a search
and a restart that finishes the position, and the container recipe."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import cli_process
import pytest
from browser_support import require

require(browser=False)

from ap_bot_support import GAME, ap, new_game, webhook
from fake_abstract_play import CLIENT_SECRET, FakeAbstractPlay

from stawvs_ap import StawvsError
from stawvs_ap.apbot import BotSettings, Journal
from stawvs_ap.apbot.settings import STAGES, read_env_file

__all__ = ["ap"]  # fixtures

ROOT = Path(__file__).resolve().parent.parent


def test_every_missing_or_bad_setting_is_named_in_one_message(ap: FakeAbstractPlay) -> None:
    env = ap.environment()
    del env["BOT_CLIENT_ID"], env["BOT_OAUTH_SCOPE"]
    env["BOT_TOKEN_URL"] = "ftp://example.org/token"
    env["AP_BOT_PUBLIC_KEY"] = "ssh-rsa AAAA"
    with pytest.raises(StawvsError) as refused:
        BotSettings.from_environment(env)
    message = refused.value.message
    for named in ("BOT_CLIENT_ID", "BOT_OAUTH_SCOPE", "BOT_TOKEN_URL", "AP_BOT_PUBLIC_KEY"):
        assert named in message
    assert "\n" not in message and "BOT_QUERY_URL" not in message


def test_a_stage_fills_in_the_token_address_and_scope_each_overridable(
    ap: FakeAbstractPlay,
) -> None:
    env = ap.environment()
    del env["BOT_TOKEN_URL"], env["BOT_OAUTH_SCOPE"]
    prod = BotSettings.from_environment(env, stage="prod")
    assert prod.token_url == "https://botauth.abstractplay.com/oauth2/token"
    assert prod.scope == STAGES["prod"]["BOT_OAUTH_SCOPE"]
    dev = BotSettings.from_environment({**env, "BOT_OAUTH_SCOPE": "mine"}, stage="dev")
    assert dev.scope == "mine" and "bots-dev" in dev.token_url
    with pytest.raises(StawvsError, match="BOT_TOKEN_URL"):
        BotSettings.from_environment(env)


def test_the_secret_may_come_from_a_file_but_not_twice(
    ap: FakeAbstractPlay, tmp_path: Path
) -> None:
    secret = tmp_path / "secret"
    secret.write_text(CLIENT_SECRET + "\n")
    env = ap.environment()
    del env["BOT_CLIENT_SECRET"]
    settings = BotSettings.from_environment({**env, "BOT_CLIENT_SECRET_FILE": str(secret)})
    assert settings.client_secret.reveal() == CLIENT_SECRET
    with pytest.raises(StawvsError, match="not both"):
        BotSettings.from_environment(
            {**env, "BOT_CLIENT_SECRET_FILE": str(secret), "BOT_CLIENT_SECRET": "x"}
        )
    with pytest.raises(StawvsError, match="BOT_CLIENT_SECRET_FILE cannot be read"):
        BotSettings.from_environment({**env, "BOT_CLIENT_SECRET_FILE": str(tmp_path / "none")})


def test_a_settings_file_is_read_as_key_value_lines(tmp_path: Path) -> None:
    path = tmp_path / "bot.env"
    path.write_text('# the bot\n\nBOT_CLIENT_ID=abc\nexport BOT_OAUTH_SCOPE="a/b"\n')
    assert read_env_file(path) == {"BOT_CLIENT_ID": "abc", "BOT_OAUTH_SCOPE": "a/b"}
    path.write_text("BOT_CLIENT_ID=abc\nnot a setting\n")
    with pytest.raises(StawvsError, match="line 2: not KEY=VALUE"):
        read_env_file(path)


def run_bot(ap: FakeAbstractPlay, *args: str | Path, env: dict[str, str] | None = None) -> Any:
    return cli_process.run("ap-bot", *args, env={**cli_process.ENV, **(env or ap.environment())})


@pytest.mark.slow
def test_credentials_refused_stop_the_bot_at_start_in_one_line(
    ap: FakeAbstractPlay, tmp_path: Path
) -> None:
    ap.token_status = 401
    done = run_bot(ap, "--http", "127.0.0.1:0", "--journal", tmp_path / "j.sqlite3")
    line = cli_process.one_error(done)
    assert done.returncode == 2
    assert ap.url("/token") in line and "401" in line and CLIENT_SECRET not in line
    assert CLIENT_SECRET not in done.stderr and not (tmp_path / "j.sqlite3").exists()


@pytest.mark.slow
def test_the_environment_takes_precedence_over_the_settings_file(
    ap: FakeAbstractPlay, tmp_path: Path
) -> None:
    path = tmp_path / "bot.env"
    lines = [f"{k}={v}" for k, v in ap.environment().items()]
    path.write_text("\n".join(lines).replace(ap.url("/token"), "http://127.0.0.1:1/token"))
    env = {k: v for k, v in cli_process.ENV.items() if not k.startswith(("BOT_", "AP_"))}
    done = cli_process.run("ap-bot", "--check", "--env-file", path, env=env)
    assert done.returncode == 2 and "127.0.0.1:1/token" in done.stdout
    env["BOT_TOKEN_URL"] = ap.url("/token")
    done = cli_process.run("ap-bot", "--check", "--env-file", path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_check_says_one_line_per_check_and_exits_0_or_2(ap: FakeAbstractPlay) -> None:
    done = run_bot(ap, "--check")
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["ok", "ok", "ok"]
    ap.token_status = 400
    done = run_bot(ap, "--check")
    assert done.returncode == 2
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["ok", "failed", "ok"]
    assert CLIENT_SECRET not in done.stdout + done.stderr


def started(proc: Any) -> tuple[int, list[str]]:
    """The port the bot listens on, from its start line, and the events it
    logged up to that line (a move sent at start may come before it)."""
    assert proc.stderr is not None
    events = []
    for _ in range(10):
        event = json.loads(proc.stderr.readline())
        events.append(event["event"])
        if event["event"] == "bot.started":
            return int(event["url"].rsplit(":", 1)[1].strip("/")), events
    raise AssertionError("no bot.started")


def stopped(proc: Any) -> str:
    """What the bot wrote on standard error after its start line, once it has
    exited: read through the same buffered file as :func:`started`, whose
    reads may already hold the lines that followed the start line."""
    assert proc.stderr is not None
    proc.wait(timeout=20)
    return str(proc.stderr.read())


@pytest.mark.slow  # two processes, a search of three seconds: about fifteen seconds
def test_sigterm_during_a_search_exits_0_and_a_restart_sends_the_move_once(
    ap: FakeAbstractPlay, tmp_path: Path
) -> None:
    new_game(ap)
    journal = tmp_path / "j.sqlite3"
    args = ("ap-bot", "--http", "127.0.0.1:0", "--bot", "mcts:seconds=3", "--journal", journal)
    env = {**cli_process.ENV, **ap.environment()}
    proc = cli_process.start(*args, env=env)
    try:
        port, _ = started(proc)
        assert webhook(port, ap, ap.move_payload(GAME, clock=48))[0] == 202
        time.sleep(0.5)  # the search is under way
        stopped_at = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        err = stopped(proc)
    finally:
        proc.kill()
    assert proc.returncode == 0 and time.monotonic() - stopped_at < 15
    events = [json.loads(line)["event"] for line in err.splitlines()]
    assert events[-1] == "bot.stopped" and "move.chosen" in events
    assert ap.arrivals == []  # the move waits in the journal
    book = Journal(journal)
    assert book.pending_count() == 1
    book.close()
    proc = cli_process.start(*args, env=env)
    try:
        _, before = started(proc)
        ap.wait_moves(1, timeout=10)
        proc.send_signal(signal.SIGTERM)
        err = stopped(proc)
    finally:
        proc.kill()
    assert proc.returncode == 0 and len(ap.arrivals) == 1
    events = before + [json.loads(line)["event"] for line in err.splitlines()]
    assert "move.chosen" not in events and "move.submitted" in events  # no search again


def container_tool() -> str | None:
    for tool in ("docker", "podman"):
        path = shutil.which(tool)
        if (
            path
            and subprocess.run([path, "info"], capture_output=True, check=False).returncode == 0
        ):
            return path
    return None


@pytest.mark.slow  # builds an image: minutes, and needs the network
def test_the_container_recipe_builds_and_runs_as_no_root(tmp_path: Path) -> None:
    tool = container_tool()
    if tool is None:
        pytest.skip("no working docker or podman here")
    tag = "stawvs-ap-bot-test"
    build = subprocess.run(
        [tool, "build", "-t", tag, str(ROOT)], capture_output=True, text=True, check=False
    )
    offline = ("pull", "resolve", "network", "could not find a version", "connection")
    if build.returncode != 0 and any(word in build.stderr.lower() for word in offline):
        pytest.skip(f"the image needs the network: {build.stderr.strip()[-200:]}")
    assert build.returncode == 0, build.stderr[-2000:]
    who = subprocess.run(
        [tool, "run", "--rm", "--entrypoint", "id", tag, "-u"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert who.stdout.strip() not in {"", "0"}
    help_run = subprocess.run(
        [tool, "run", "--rm", tag, "--help"], capture_output=True, text=True, check=False
    )
    assert "--poll" in help_run.stdout and os.sep  # the bot's own command line
