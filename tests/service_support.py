"""Helpers for the tests of ``stawvs-ap serve``: starting servers, raw exchanges, clocks.

The server always runs as a child process (``python -m stawvs_ap serve``) with
this checkout first on ``PYTHONPATH``, as a host would run it.
"""

from __future__ import annotations

import json
import os
import random
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource

from stawvs_ap import StawvsGame, __version__, schemas
from stawvs_ap.service.client import Client

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}


def start_server() -> Client:
    """A new server running this checkout's package."""
    return Client(env=ENV)


def request(method: str, params: object = None, rid: object = 1) -> bytes:
    """A request line (``params`` left out when None)."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode("ascii")


def exchange(server: Client, line: bytes) -> Any:
    """Send one raw line; return the parsed response line."""
    server.send_raw(line)
    return json.loads(server.read_raw())


def assert_still_answers(server: Client) -> None:
    """The server answers an ordinary request (after whatever came before)."""
    assert exchange(server, request("version", rid="ping")) == {
        "jsonrpc": "2.0",
        "id": "ping",
        "result": {"version": "20251113", "package": __version__},
    }


def error_of(response: Any) -> tuple[int, str | None]:
    """The JSON-RPC code of an error response and its engine code (``data.code``)."""
    error = response["error"]
    return error["code"], (error.get("data") or {}).get("code")


class Clock:
    """A game clock that gives back the timestamps the server used, in order,
    so that an in-process game writes the same states byte for byte."""

    def __init__(self, *stamps: str) -> None:
        self.stamps = list(stamps)

    def __call__(self) -> str:
        return self.stamps.pop(0) if len(self.stamps) > 1 else self.stamps[0]


def stamps(state: str, last: int = 1) -> list[str]:
    """The timestamps of the last ``last`` stack entries of a state."""
    return [e["_timestamp"] for e in json.loads(state)["stack"][-last:]]


def finished_state(players: int = 3, seed: int = 5) -> str:
    """The state of a finished game of random moves."""
    game, rng = StawvsGame(players, seed=seed), random.Random(seed)
    while not game.gameover:
        game.move(rng.choice(game.moves()))
    return game.serialize()


def state_after(plies: int, players: int = 2, seed: int = 3) -> str:
    """The state after ``plies`` random moves of a new game (fewer if it ends)."""
    game, rng = StawvsGame(players, seed=seed), random.Random(seed)
    for _ in range(plies):
        if game.gameover:
            break
        game.move(rng.choice(game.moves()))
    return game.serialize()


# -- the protocol schema -----------------------------------------------------------


@cache
def registry() -> Registry:
    resources = []
    for name in schemas.names():
        schema = schemas.load(name)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def schema_errors(definition: str, document: object) -> list[str]:
    """Errors of ``document`` against ``$defs/<definition>`` of the protocol schema."""
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"urn:stawvs-ap:schema:protocol#/$defs/{definition}"}, registry=registry()
    )
    return [f"{e.json_path}: {e.message[:200]}" for e in validator.iter_errors(document)]


@cache
def example_params() -> dict[str, dict[str, Any]]:
    """Valid parameters for every method (copy before changing them)."""
    new = StawvsGame(2, seed=1).serialize()
    mid = state_after(12)
    done = finished_state(2, seed=4)
    record = StawvsGame(done).gen_record(uid="x", players=[{"name": "A"}, {"name": "B"}])
    return {
        "version": {},
        "info": {},
        "variants": {"state": mid},
        "new": {"players": 3, "variants": ["hole"], "seed": 9},
        "moves": {"state": json.loads(new)},
        "validate": {"state": mid, "move": "a1-b2,c3"},
        "move": {"state": mid, "moves": StawvsGame(mid).moves()[:1]},
        "preview": {"state": mid, "move": StawvsGame(mid).moves()[0][:5]},
        "click": {"state": new, "move": "", "row": 3, "col": 3},
        "render": {"state": mid, "ply": -2},
        "scores": {"state": done},
        "chat_log": {"state": mid, "names": ["A", "B"]},
        "move_history": {"state": mid},
        "same_move": {"a": "pass", "b": "PASS"},
        "resign": {"state": mid, "player": 1},
        "timeout": {"state": mid, "player": 2},
        "draw": {"state": mid},
        "abandoned": {"state": mid},
        "record": {"state": done, "players": ["A", {"name": "B", "uid": "b", "is_ai": True}]},
        "replay": {"record": record},
        "bot_move": {"state": mid, "bot": "uct", "iterations": 20, "seed": 1},
        "hint": {"state": mid, "bot": "mcts", "iterations": 30, "top": 2, "seed": 5},
        "solve": {"state": mid, "seconds": 0.5, "nodes": 50},
        "review": {"state": mid, "bot": "mcts", "iterations": 20, "count": 2},
        "svg": {"state": mid, "ply": 3, "names": ["A", "B"], "marks": False},
        "summary": {"state": done, "ply": -1},
        "undo": {"state": mid, "plies": 2},
        "analyse": {"state": mid, "iterations": 30, "lines": 2, "seed": 5, "ply": -1},
        "retry": {"state": mid, "move": "d5", "iterations": 30, "seed": 5, "ply": 0},
    }
