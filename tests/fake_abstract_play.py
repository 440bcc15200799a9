"""A fake Abstract Play on loopback, for the bot's tests: Abstract Play's side
of the bot protocol as node-backend's docs/bots/ give it.

It signs webhooks with a test Ed25519 key (``<timestamp>.<nonce>.<raw body>``,
base64 in ``X-Signature``), and serves on one free loopback port:

- ``/token``: OAuth client credentials (a form), answering a new token;
- ``/botQuery``: the bot's moves, with ``Authorization: Bearer``; a move is
  applied to the fake's game, validated, and recorded;
- ``/query``: the public ``get_game`` query, answering the game's state.

Tests script its answers and read what arrived: :attr:`FakeAbstractPlay.script`
holds statuses to answer the next bot-query requests with (``"stall"`` for
one that answers late and applies nothing, ``"redirect"`` for a 307 to
``/elsewhere``, ``"trickle"`` for an answer sent one byte at a time),
:attr:`query_script` the same for ``get_game`` and :attr:`token_script` for
the token address. ``/elsewhere`` records every request that reaches it.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from stawvs_ap import StawvsGame

CLIENT_ID = "bot-client-id"
CLIENT_SECRET = "s3cr3t-never-logged"
SCOPE = "default-m2m-resource-server-dev/communicate"


class FakeAbstractPlay:
    """The fake platform; use it as ``with FakeAbstractPlay() as ap: ...``."""

    def __init__(self) -> None:
        self.key = Ed25519PrivateKey.generate()
        self.public_line = (
            self.key.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()
            + " ap-test-key"
        )
        self.expires_in = 3600
        self.tokens: list[str] = []
        self.revoked: set[str] = set()
        self.token_status = 200
        self.token_value: str | None = None  # the next token answered, when set
        self.script: list[int | str] = []
        self.query_script: list[int | str] = []
        self.token_script: list[int | str] = []
        self.trickle_seconds = 1.0
        self.elsewhere: list[dict[str, str]] = []  # requests that followed a redirect
        self.query_delay = 0.0
        self.stall_seconds = 1.0
        self.games: dict[str, StawvsGame] = {}
        self.get_game_answers: dict[str, tuple[int, Any]] = {}
        self.arrivals: list[dict[str, Any]] = []  # every bot-query request
        self.moves: list[dict[str, Any]] = []  # the moves applied
        self.queries: list[dict[str, Any]] = []
        self.token_forms: list[dict[str, list[str]]] = []
        self.changed = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> FakeAbstractPlay:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()

    # -- what the bot is told ------------------------------------------------

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def environment(self, *, query: bool = True) -> dict[str, str]:
        env = {
            "AP_BOT_PUBLIC_KEY": self.public_line,
            "BOT_CLIENT_ID": CLIENT_ID,
            "BOT_CLIENT_SECRET": CLIENT_SECRET,
            "BOT_OAUTH_SCOPE": SCOPE,
            "BOT_TOKEN_URL": self.url("/token"),
            "BOT_QUERY_URL": self.url("/botQuery"),
        }
        if query:
            env["AP_QUERY_URL"] = self.url("/query")
        return env

    def sign(
        self, body: bytes, *, timestamp: int | None = None, nonce: str | None = None
    ) -> dict[str, str]:
        """The three signature headers of ``body``, as Abstract Play signs it."""
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        once = secrets.token_hex(16) if nonce is None else nonce
        signature = self.key.sign(f"{stamp}.{once}.".encode() + body)
        return {
            "X-Signature-Timestamp": stamp,
            "X-Signature-Nonce": once,
            "X-Signature": base64.b64encode(signature).decode(),
        }

    def move_payload(
        self, gameid: str, *, context: bool = True, clock: float = 0
    ) -> dict[str, Any]:
        """The webhook of the game's position, as ``buildOutMovePayload`` makes it
        (the context only when the game gives one: ``context`` False plays
        Abstract Play as it is today)."""
        game = self.games[gameid]
        payload: dict[str, Any] = {
            "verb": "move",
            "metaGame": "stawvs",
            "variants": game.variants,
            "gameid": gameid,
            "clockCurr": clock,
            "numPlayers": game.numplayers,
            "moves": game.move_history(),
        }
        if context:
            payload["context"] = game.bot_context()
        return payload

    # -- waiting -------------------------------------------------------------

    def wait_moves(self, count: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The moves applied, once there are ``count`` (fails after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while len(self.moves) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{len(self.moves)} moves arrived, not {count}: {self.arrivals}"
                self.changed.wait(left)
            return list(self.moves)

    # -- the handlers ----------------------------------------------------------

    def token(self, form: dict[str, list[str]]) -> tuple[int, Any]:
        self.token_forms.append(form)
        if self.token_status != 200:
            return self.token_status, {"error": "invalid_client"}
        good = form == {
            "grant_type": ["client_credentials"],
            "client_id": [CLIENT_ID],
            "client_secret": [CLIENT_SECRET],
            "scope": [SCOPE],
        }
        if not good:
            return 400, {"error": "invalid_request"}
        token = self.token_value or f"token-{len(self.tokens) + 1}-{secrets.token_hex(4)}"
        self.tokens.append(token)
        return 200, {"access_token": token, "expires_in": self.expires_in, "token_type": "Bearer"}

    def bot_query(self, auth: str, body: dict[str, Any]) -> tuple[int, Any]:
        with self.changed:
            self.arrivals.append({"auth": auth, **body})
            scripted = self.script.pop(0) if self.script else None
        if scripted == "stall":
            time.sleep(self.stall_seconds)
            return 504, {"message": "gateway timeout"}
        if isinstance(scripted, int):
            return scripted, {"message": f"scripted {scripted}"}
        time.sleep(self.query_delay)
        token = auth.removeprefix("Bearer ")
        if token not in self.tokens or token in self.revoked:
            return 401, {"message": "Unauthorized"}
        if set(body) != {"verb", "gameid", "metaGame", "move"} or body["verb"] != "move":
            return 400, {"message": "bad body"}
        game = self.games.get(body["gameid"])
        if game is None or body["metaGame"] != "stawvs":
            return 400, {"message": "no such game"}
        with self.changed:
            if not game.is_legal(body["move"]):
                return 400, {"message": f"illegal move {body['move']}"}
            game.move(body["move"])
            self.moves.append(body)
            self.changed.notify_all()
        return 200, {"game": json.loads(game.serialize())}

    def query(self, body: dict[str, Any]) -> tuple[int, Any]:
        self.queries.append(body)
        if body.get("query") != "get_game":
            return 400, {"message": "unknown query"}
        pars = body.get("pars", {})
        gameid = pars.get("id")
        if gameid in self.get_game_answers:
            return self.get_game_answers[gameid]
        game = self.games.get(gameid)
        if game is None or pars.get("metaGame") != "stawvs" or pars.get("cbit") != 0:
            return 500, {"message": "not found"}
        record = {"id": gameid, "metaGame": "stawvs", "state": game.serialize()}
        return 200, {"game": record, "comments": [], "watchCount": 0}


def _handler(ap: FakeAbstractPlay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self.do_POST()

        def trickle(self) -> None:
            """An answer that never ends: a byte every ``trickle_seconds``."""
            try:
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", "100000")
                self.end_headers()
                for _ in range(10_000):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(ap.trickle_seconds)
            except OSError:
                pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(min(length, 1 << 22))
            scripts = {"/token": ap.token_script, "/botQuery": ap.script, "/query": ap.query_script}
            script = scripts.get(self.path)
            if script and script[0] in {"trickle", "redirect"}:
                scripted = script.pop(0)
                if self.path == "/botQuery":
                    ap.arrivals.append({"auth": self.headers.get("authorization", "")})
                if scripted == "trickle":
                    self.trickle()
                    return
                self.send_response(307)
                self.send_header("location", ap.url("/elsewhere"))
                self.send_header("content-length", "0")
                self.end_headers()
                return
            if self.path in {"/token", "/query"} and script and isinstance(script[0], int):
                status, answer = script.pop(0), {"message": "scripted"}
                if self.path == "/query":
                    ap.queries.append(json.loads(raw))
            elif self.path == "/elsewhere":
                ap.elsewhere.append(dict(self.headers.items()))
                status, answer = 200, {"message": "elsewhere"}
            elif self.path == "/token":
                form = urllib.parse.parse_qs(raw.decode("ascii"))
                status, answer = ap.token(form)
            elif self.path == "/botQuery":
                status, answer = ap.bot_query(
                    self.headers.get("authorization", ""), json.loads(raw)
                )
            elif self.path == "/query":
                status, answer = ap.query(json.loads(raw))
            else:
                status, answer = 404, {"message": "no such path"}
            data = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the bot stopped waiting

    return Handler


@contextmanager
def abstract_play() -> Iterator[FakeAbstractPlay]:
    with FakeAbstractPlay() as ap:
        yield ap
