"""The service over HTTP (``POST /rpc``) and the playground's files: the same
answers as the standard input transport, and a door as hostile-proof as the
others: bodies over the limit refused before they are read, only POST of
application/json reaching the methods, files only from the package's assets,
Host headers checked against DNS rebinding, no traceback in any answer, and
searches that never hold up the other requests.

Most tests run a real uvicorn server on a free loopback port, in a thread of
this process; the fuzz tests use Starlette's in-process test client."""

# ruff: noqa: E402  (the imports after require() need what it checks for)
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import cli_process
import pytest
from browser_support import require

require(browser=False)

from hostile import scaled
from http_support import post, request, rpc, running
from hypothesis import given, settings
from hypothesis import strategies as st
from service_support import ENV, state_after
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from stawvs_ap.playground import app as playground
from stawvs_ap.service import SEARCHES, SERVER_BUSY
from stawvs_ap.service import http as service_http
from stawvs_ap.service.http import (
    create_app,
    loopback_hosts,
)
from stawvs_ap.service.methods import MAX_SEARCHES_PER_REQUEST, METHODS, Method, answer_line


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with running(lambda hosts: playground.create_app(hosts=hosts)) as number:
        yield number


@pytest.fixture(scope="module")
def small() -> Iterator[int]:
    """A server whose body limit is 1,000 bytes."""
    with running(lambda hosts: create_app(hosts=hosts, max_body_bytes=1000)) as number:
        yield number


# -- the same answers ----------------------------------------------------------------


def test_a_body_gets_the_answer_its_line_gets_on_standard_input(port: int) -> None:
    state = state_after(20)
    bodies = [
        {"jsonrpc": "2.0", "id": 1, "method": "version"},
        {"jsonrpc": "2.0", "id": "m", "method": "moves", "params": {"state": state}},
        [
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "validate",
                "params": {"state": state, "move": "a1"},
            },
            {"jsonrpc": "2.0", "method": "version"},
            {"jsonrpc": "2.0", "id": 3, "method": "nope"},
        ],
        {"jsonrpc": "2.0", "id": 4, "method": "moves", "params": {"state": "{}"}},
    ]
    for body in bodies:
        text = json.dumps(body).encode("ascii")
        status, headers, answer = post(port, text)
        assert (status, headers["content-type"]) == (200, "application/json")
        assert answer.decode("ascii") == answer_line(text)
    assert b"not JSON" in post(port, b"{nope")[2]


def test_notifications_alone_get_204_and_no_body(port: int) -> None:
    status, _, body = post(port, b'{"jsonrpc": "2.0", "method": "version"}')
    assert (status, body) == (204, b"")


def test_a_game_played_over_http_moves_as_the_methods_say(port: int) -> None:
    state = rpc(port, "new", {"players": 2, "seed": 4})["result"]["state"]
    for ply in range(12):
        moves = rpc(port, "moves", {"state": state})["result"]["moves"]
        state = rpc(port, "move", {"state": state, "move": moves[ply % len(moves)]})["result"][
            "state"
        ]
    after = rpc(port, "bot_move", {"state": state, "bot": "greedy", "seed": 1})["result"]
    assert len(rpc(port, "summary", {"state": after["state"]})["result"]["history"]) == 13


def test_the_app_mounts_under_a_prefix_in_a_hosts_own_application() -> None:
    host_app = Starlette(routes=[Mount("/games/stawvs", app=create_app())])
    with TestClient(host_app) as client:
        answer = client.post(
            "/games/stawvs/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "version"}
        )
        assert answer.status_code == 200
        assert answer.json()["result"]["version"] == "20251113"


# -- what reaches the methods --------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_post_reaches_the_methods(port: int, method: str) -> None:
    status, headers, body = request(
        port, method, "/rpc", b"{}", {"content-type": "application/json"}
    )
    assert (status, headers.get("allow")) == (405, "POST")
    assert json.loads(body)["error"]["code"] == -32600


@pytest.mark.parametrize(
    "kind", ["text/plain", "", "application/x-www-form-urlencoded", "application/jsonx", "json"]
)
def test_only_application_json_reaches_the_methods(port: int, kind: str) -> None:
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "version"}'
    status, _, body = post(port, message, headers={"content-type": kind})
    assert status == 415
    assert json.loads(body)["error"]["code"] == -32700


def test_application_json_with_a_charset_is_json(port: int) -> None:
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "version"}'
    kind = "Application/JSON; charset=utf-8"
    assert post(port, message, headers={"content-type": kind})[0] == 200


def _raw(port: int, head: bytes, body: bytes = b"") -> bytes:
    """Send ``head`` (and ``body``) on a new connection; what comes back first."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def test_a_body_over_the_limit_is_refused_by_its_length_before_it_is_sent(small: int) -> None:
    head = (
        f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{small}\r\nContent-Type: application/json\r\n"
        "Content-Length: 50000000\r\n\r\n"
    ).encode("ascii")
    started = time.perf_counter()
    answer = _raw(small, head)  # no byte of the body is ever sent
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert time.perf_counter() - started < 5


def test_a_chunked_body_is_refused_once_it_grows_past_the_limit(small: int) -> None:
    head = (
        f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{small}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode("ascii")
    chunk = b"400\r\n" + b" " * 1024 + b"\r\n"
    assert _raw(small, head, chunk * 2).startswith(b"HTTP/1.1 413")


def test_a_body_at_the_limit_is_read(small: int) -> None:
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "version"}'
    assert post(small, message.ljust(1000))[0] == 200
    assert post(small, message.ljust(1001))[0] == 413


@pytest.mark.parametrize("length", ["-1", "12x", "1e9", "99999999999999999999999"])
def test_a_length_that_is_not_a_number_is_refused(small: int, length: str) -> None:
    head = (
        f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{small}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode("ascii")
    assert _raw(small, head).split(b" ")[1] in (b"400", b"413")


# -- the Host header -----------------------------------------------------------------


def test_a_loopback_server_answers_only_its_own_host_names(port: int) -> None:
    message = b'{"jsonrpc": "2.0", "id": 1, "method": "version"}'
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert post(port, message, headers={"host": host})[0] == 200, host
    for host in (
        f"evil.example:{port}",
        f"127.0.0.1.evil.example:{port}",
        f"localhost.evil.example:{port}",
        "127.0.0.1",
        f"127.0.0.1:{port + 1}",
        f"[::1]:{port}",
        "",
    ):
        status, _, body = post(port, message, headers={"host": host})
        assert status == 403, host
        assert json.loads(body)["error"]["code"] == -32600
    assert request(port, "GET", "/", headers={"host": f"evil.example:{port}"})[0] == 403


def test_the_host_names_of_a_bound_address() -> None:
    assert loopback_hosts("127.0.0.1", 80) == ["127.0.0.1:80", "localhost:80"]
    assert loopback_hosts("::1", 8765) == ["[::1]:8765", "localhost:8765"]
    assert loopback_hosts("[::1]", 8765) == ["[::1]:8765", "localhost:8765"]
    assert loopback_hosts("localhost", 1) == ["localhost:1", "localhost:1"]
    assert loopback_hosts("0.0.0.0", 8765) is None
    assert loopback_hosts("192.168.1.4", 8765) is None


# -- the page's files ------------------------------------------------------------------


def test_the_page_and_every_asset_are_served_from_the_package(port: int) -> None:
    status, headers, body = request(port, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in headers["content-security-policy"]
    for name, kind in playground.ASSETS.items():
        status, headers, body = request(port, "GET", f"/assets/{name}")
        assert (status, headers["content-type"]) == (200, kind), name
        assert body == playground._asset(name)


@pytest.mark.parametrize(
    "path",
    [
        "/assets/../app.py",
        "/assets/%2e%2e/app.py",
        "/assets/..%2fapp.py",
        "/assets/..%5capp.py",
        "/assets/messages/en.json",
        "/assets/index.html/",
        "/assets/%2fetc%2fpasswd",
        "/assets/app.py",
        "/assets/",
        "/assets/playground.js%00.py",
        "/../../etc/passwd",
        "/stawvs_ap/playground/app.py",
    ],
)
def test_no_path_reaches_a_file_outside_the_assets(port: int, path: str) -> None:
    status, _, body = request(port, "GET", path)
    assert status in (404, 405), (path, status)
    assert b"import" not in body and b"root:" not in body


@settings(max_examples=scaled(150), deadline=None)
@given(st.text(alphabet="./%25abcdefghijklmnopqrstuvwxyz_-\\0123456789", max_size=40))
def test_random_asset_paths_serve_only_listed_files(path: str) -> None:
    with TestClient(playground.create_app()) as client:
        answer = client.get(f"/assets/{path}")
    if answer.status_code == 200:
        assert answer.content in {playground._asset(name) for name in playground.ASSETS}
    else:
        assert answer.status_code in (404, 405)


def test_the_pages_words_come_in_the_language_asked_for_and_english_for_any_other(
    port: int,
) -> None:
    # tests/test_playground_words.py says what the tables hold.
    for lang in ("en", "de-AT", "pt-BR", "xx", "%2e%2e", "ru,de"):
        status, headers, body = request(port, "GET", f"/messages/{lang}")
        assert status == 200 and json.loads(body) == playground.messages(lang), lang
        assert headers["x-content-type-options"] == "nosniff"


# -- no traceback, ever ----------------------------------------------------------------


def test_a_fault_in_a_method_is_answered_without_its_traceback(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(params: object) -> dict[str, Any]:
        raise ZeroDivisionError("planted fault")

    monkeypatch.setitem(METHODS, "version", Method("version", broken, {}))
    status, _, body = post(port, b'{"jsonrpc": "2.0", "id": 1, "method": "version"}')
    assert status == 200
    assert json.loads(body)["error"] == {
        "code": -32603,
        "message": "internal error (ZeroDivisionError)",
    }
    assert b"Traceback" not in body and b"planted" not in body


def test_a_fault_outside_the_methods_is_a_bare_500(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(body: bytes) -> str:
        raise RuntimeError("planted fault")

    monkeypatch.setattr(service_http, "answer_line", broken)
    with TestClient(create_app(), raise_server_exceptions=False) as client:
        answer = client.post("/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "version"})
    assert answer.status_code == 500
    assert "Traceback" not in answer.text and "planted" not in answer.text


@settings(max_examples=scaled(300), deadline=None)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=20),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(["jsonrpc", "id", "method", "params", "state", "bot", "move"]),
                    inner,
                    max_size=5,
                )
            ),
            max_leaves=12,
        ).map(lambda doc: json.dumps(doc).encode("ascii")),
    ),
    st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain"]),
)
@pytest.mark.slow
def test_any_body_gets_a_json_answer_or_nothing_and_never_a_traceback(
    body: bytes, kind: str
) -> None:
    with TestClient(create_app()) as client:
        answer = client.post("/rpc", content=body, headers={"content-type": kind})
    assert answer.status_code in (200, 204, 415)
    assert b"Traceback" not in answer.content
    if answer.status_code == 200 and not body.isspace() and body:
        assert answer.text == answer_line(body)
        json.loads(answer.content)
    elif answer.status_code == 200:
        assert answer.json()["error"]["code"] == -32700


@pytest.mark.parametrize("body", [b"", b" \r\n"])
def test_an_empty_body_is_a_parse_error(body: bytes) -> None:
    with TestClient(create_app()) as client:
        answer = client.post("/rpc", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 200
    assert answer.json()["error"]["code"] == -32700
    assert answer.json()["id"] is None


# -- searches --------------------------------------------------------------------------


@pytest.mark.slow  # searches of a second over HTTP
def test_a_search_never_holds_up_the_other_requests(port: int) -> None:
    state = state_after(8)
    finished: list[float] = []

    def search() -> None:
        rpc(port, "bot_move", {"state": state, "bot": "mcts", "seconds": 2.0})
        finished.append(time.perf_counter())

    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.2)
    answered = []
    for _ in range(10):
        assert "result" in rpc(port, "validate", {"state": state, "move": "a1"})
        answered.append(time.perf_counter())
    worker.join()
    assert answered[-1] < finished[0]  # all ten were answered while the bot thought


@pytest.mark.slow  # searches of a second over HTTP
def test_more_searches_than_slots_are_told_busy_over_http(port: int) -> None:
    state = state_after(8)
    limit = SEARCHES.limit
    SEARCHES.set_limit(1)
    try:
        worker = threading.Thread(target=rpc, args=(port, "hint", {"state": state, "seconds": 1.0}))
        worker.start()
        time.sleep(0.3)
        busy = rpc(port, "bot_move", {"state": state, "bot": "mcts", "seconds": 0.1})
        assert busy["error"]["code"] == SERVER_BUSY
        worker.join()
    finally:
        SEARCHES.set_limit(limit)


def test_one_body_runs_at_most_its_share_of_searches(port: int) -> None:
    state = state_after(8)
    batch = [
        {
            "jsonrpc": "2.0",
            "id": i,
            "method": "bot_move",
            "params": {"state": state, "bot": "random"},
        }
        for i in range(MAX_SEARCHES_PER_REQUEST + 2)
    ]
    answers = json.loads(post(port, json.dumps(batch))[2])
    assert ["result" in a for a in answers] == [True] * MAX_SEARCHES_PER_REQUEST + [False] * 2
    assert answers[-1]["error"]["code"] == -32600


# -- the command line --------------------------------------------------------------------


def _started(*args: str) -> tuple[subprocess.Popen[str], str]:
    process = cli_process.start(*args, env=ENV)
    assert process.stdout is not None
    return process, process.stdout.readline()


@pytest.mark.parametrize(
    ("args", "path"),
    [(["serve", "--http", "127.0.0.1:0"], "/rpc"), (["playground", "--port", "0"], "/")],
)
@pytest.mark.slow
def test_the_commands_serve_on_loopback_until_interrupted(args: list[str], path: str) -> None:
    process, line = _started(*args)
    try:
        url = line.split()[line.split().index("on") + 1]
        assert url.startswith("http://127.0.0.1:") and url.endswith(path), line
        port = int(url.split(":")[2].split("/")[0])
        assert rpc(port, "version")["result"]["version"] == "20251113"
    finally:
        process.send_signal(2)
        _, errors = process.communicate(timeout=20)
    assert process.returncode == 130
    assert errors.strip().splitlines() == ["stawvs-ap: interrupted"]


def _run(*args: str, given: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` to its end: its status and what it printed."""
    return subprocess.run(
        [sys.executable, *args],
        input=given,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_a_port_in_use_is_one_line_and_status_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        number = taken.getsockname()[1]
        done = _run("-m", "stawvs_ap", "serve", "--http", f"127.0.0.1:{number}")
    assert done.returncode == 2
    assert done.stderr.startswith(f"stawvs-ap: error: cannot listen on 127.0.0.1:{number}")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("address", ["8765", "localhost", "127.0.0.1:http", "127.0.0.1:70000"])
def test_a_bad_address_is_a_usage_error(address: str) -> None:
    from stawvs_ap.cli.cli import main

    assert main(["serve", "--http", address]) == 2


WITHOUT_WEB = """
import sys
for name in ("starlette", "uvicorn", "anyio"):
    sys.modules[name] = None
from stawvs_ap.cli.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("args", [["serve", "--http", "127.0.0.1:0"], ["playground"]])
def test_without_the_web_extra_the_web_commands_say_what_to_install(args: list[str]) -> None:
    done = _run("-c", WITHOUT_WEB, *args)
    assert done.returncode == 2
    assert done.stderr == (
        'stawvs-ap: error: this command needs Starlette and uvicorn: pip install "stawvs-ap[web]"\n'
    )


@pytest.mark.slow
def test_without_the_web_extra_everything_else_works() -> None:
    state = state_after(4)
    line = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "bot_move",
            "params": {"state": state, "bot": "greedy"},
        }
    )
    done = _run("-c", WITHOUT_WEB, "serve", given=line + "\n")
    assert done.returncode == 0, done.stderr
    assert "result" in json.loads(done.stdout)
