"""A Python client of ``stawvs-ap serve``: :class:`Client`.

It starts the server as a child process and speaks JSON-RPC 2.0 with it over
pipes, one request at a time::

    with Client() as server:
        state = server.new(players=2, seed=7)["state"]
        state = server.move(state, move=server.moves(state)["moves"][0])["state"]

Every refusal of the engine is raised as :class:`RemoteError`, a
:class:`~stawvs_ap.errors.StawvsError` with the engine's own code (``BAD_MOVE``,
``BAD_STATE``, …); protocol errors are raised the same way with codes such as
``INVALID_PARAMS``. A server that is gone, or that answers what is no
response to the request, raises :class:`ConnectionFailure`
(``CONNECTION_FAILED``), a :class:`~stawvs_ap.errors.StawvsError` too.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from enum import StrEnum
from types import TracebackType
from typing import IO, Any, Final

from stawvs_ap.bots.base import BotErrorCode
from stawvs_ap.errors import ErrorCode, StawvsError
from stawvs_ap.service.jsonrpc import MAX_RESPONSE_BYTES, PROTOCOL_CODES, ServiceErrorCode

__all__ = ["Client", "ConnectionFailure", "RemoteError"]

#: Every code a server's refusal can carry in ``error.data.code``, by name.
ENGINE_CODES: Final[dict[str, StrEnum]] = {
    code.value: code for family in (ErrorCode, BotErrorCode, ServiceErrorCode) for code in family
}

State = str | Mapping[str, Any]
Result = dict[str, Any]


class RemoteError(StawvsError):
    """An error response. ``code`` is the engine's code for application errors
    (``rpc_code`` 1000) and the name of a protocol error
    (:data:`~stawvs_ap.service.jsonrpc.PROTOCOL_CODES`) otherwise; ``data`` is
    the response's ``error.data`` (or None)."""

    def __init__(self, rpc_code: int, message: str, data: Any = None) -> None:
        named = data.get("code") if isinstance(data, dict) else None
        code: StrEnum = PROTOCOL_CODES.get(rpc_code, ServiceErrorCode.INTERNAL_ERROR)
        if isinstance(named, str):
            # a newer server's code, unknown here, is an internal error
            code = ENGINE_CODES.get(named, ServiceErrorCode.INTERNAL_ERROR)
        super().__init__(code, message)
        self.rpc_code = rpc_code
        self.data = data


class ConnectionFailure(StawvsError):
    """The server cannot be talked to (code ``CONNECTION_FAILED``): it stopped
    reading or closed its output, the client was closed, or the server answered
    what is no response to the request. The message says which."""

    def __init__(self, message: str) -> None:
        super().__init__(ServiceErrorCode.CONNECTION_FAILED, message)


def _json_value(value: object) -> object:
    """What JSON carries of a mapping or sequence that is not a dict, list or
    tuple (a ``Mapping`` state, a ``Sequence`` of moves); a TypeError for the rest."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _request_line(method: str, params: Mapping[str, Any] | None, rid: int | None) -> bytes:
    """A request (a notification without ``rid``) as a line of JSON; ``BAD_ARGUMENT``,
    nothing sent, for parameters JSON cannot carry (NaN, infinities, objects that
    are not numbers, texts, lists, dicts, booleans or None)."""
    request: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        request["id"] = rid
    if params is not None:
        request["params"] = dict(params)
    try:
        return json.dumps(
            request, separators=(",", ":"), allow_nan=False, default=_json_value
        ).encode("ascii")
    except ValueError as exc:
        reason = "NaN and infinities are not JSON numbers" if "float" in str(exc) else exc
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"cannot send {method!r:.80}: {reason}") from None
    except (TypeError, RecursionError) as exc:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"cannot send {method!r:.80}: {str(exc)[:200]}"
        ) from None


class Client:
    """A running ``stawvs-ap serve`` and the calls to make of it.

    ``command`` is the server's command line (default: this Python running
    ``-m stawvs_ap serve``); ``env`` its environment (default: ours). The
    server's standard error is ours. Use it as a context manager, or call
    :meth:`close`.
    """

    def __init__(
        self, command: Sequence[str] | None = None, *, env: Mapping[str, str] | None = None
    ) -> None:
        argv = (
            list(command) if command is not None else [sys.executable, "-m", "stawvs_ap", "serve"]
        )
        if not argv:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "the server's command is empty")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=dict(env) if env is not None else None,
            )
        except OSError as exc:  # no such program, not allowed to run it
            raise ConnectionFailure(
                f"cannot start the server {argv[0]!r:.200}: {exc.strerror or exc}"
            ) from None
        self._ids = itertools.count(1)

    # -- the connection ------------------------------------------------------

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self, timeout: float = 10.0) -> int:
        """End the server by closing its input; return its exit status.

        A server that has not ended within ``timeout`` seconds is killed.
        """
        process = self._process
        if process.stdin is not None and not process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):  # it had already stopped reading
                process.stdin.close()
        try:
            status = process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            status = process.wait()
        if process.stdout is not None:
            process.stdout.close()
        return status

    @property
    def process(self) -> subprocess.Popen[bytes]:
        """The server's process."""
        return self._process

    def send_raw(self, line: bytes) -> None:
        """Write ``line`` to the server as it is (a newline is added if missing).

        For tests and diagnostics; :meth:`call` is the ordinary way in.
        """
        pipe = self._pipe(self._process.stdin)
        try:
            pipe.write(line if line.endswith(b"\n") else line + b"\n")
            pipe.flush()
        except BrokenPipeError:
            raise ConnectionFailure("the server no longer reads its input") from None

    def read_raw(self) -> bytes:
        """The next line the server writes, newline included (at most
        :data:`~stawvs_ap.service.jsonrpc.MAX_RESPONSE_BYTES` and the newline)."""
        line = self._pipe(self._process.stdout).readline(MAX_RESPONSE_BYTES + 2)
        if not line:
            raise ConnectionFailure(f"the server closed its output (status {self._process.poll()})")
        if not line.endswith(b"\n") and len(line) > MAX_RESPONSE_BYTES:
            raise ConnectionFailure(
                f"the server answered a line longer than {MAX_RESPONSE_BYTES:,} bytes"
            )
        return line

    @staticmethod
    def _pipe(pipe: IO[bytes] | None) -> IO[bytes]:
        if pipe is None or pipe.closed:
            raise ConnectionFailure("the client is closed")
        return pipe

    # -- calls -----------------------------------------------------------------

    def call(self, method: str, params: Mapping[str, Any] | None = None) -> Any:
        """Call ``method`` with ``params`` (by name); return its result or raise
        :class:`RemoteError` for an error response."""
        rid = next(self._ids)
        self.send_raw(_request_line(method, params, rid))
        line = self.read_raw()
        try:
            response = json.loads(line)
        except ValueError:
            raise ConnectionFailure(
                f"the server answered what is not JSON: {line!r:.200}"
            ) from None
        if not isinstance(response, dict):
            raise ConnectionFailure(
                f"the server answered what is not a response: {response!r:.200}"
            )
        error = response.get("error")
        # An id of null answers a request the server could not read (a parse error).
        if response.get("id") != rid and not (response.get("id") is None and error):
            raise ConnectionFailure(f"the server answered out of turn: {response!r:.200}")
        if error is not None:
            if not isinstance(error, dict):
                raise ConnectionFailure(f"the server answered a broken error: {error!r:.200}")
            code = error.get("code")
            raise RemoteError(
                code if isinstance(code, int) else -32603,
                str(error.get("message", "")),
                error.get("data"),
            )
        return response.get("result")

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send ``method`` as a notification: the server answers nothing."""
        self.send_raw(_request_line(method, params, None))

    def _call(self, method: str, **params: Any) -> Result:
        """Call ``method`` with the ``params`` given (those left None are not sent)."""
        result: Result = self.call(method, {k: v for k, v in params.items() if v is not None})
        return result

    # One method per protocol method, with the parameters its declaration gives
    # (stawvs_ap.service.protocol; tests/test_service_declarations.py holds them
    # together):
    # the required ones first, in order, then the optional ones, None when not
    # given. Each returns the result object. Those that return words for people
    # take ``locale``, a language tag such as "de".

    def version(self) -> Result:
        return self._call("version")

    def info(self, *, locale: str | None = None) -> Result:
        return self._call("info", locale=locale)

    def variants(self, state: State | None = None, *, locale: str | None = None) -> Result:
        return self._call("variants", state=state, locale=locale)

    def new(
        self, players: int, variants: Sequence[str] | None = None, seed: int | None = None
    ) -> Result:
        return self._call("new", players=players, variants=variants, seed=seed)

    def moves(self, state: State) -> Result:
        return self._call("moves", state=state)

    def validate(self, state: State, move: str, *, locale: str | None = None) -> Result:
        return self._call("validate", state=state, move=move, locale=locale)

    def move(
        self,
        state: State,
        move: str | None = None,
        *,
        moves: Sequence[str] | None = None,
        locale: str | None = None,
    ) -> Result:
        return self._call("move", state=state, move=move, moves=moves, locale=locale)

    def preview(self, state: State, move: str, *, locale: str | None = None) -> Result:
        return self._call("preview", state=state, move=move, locale=locale)

    def click(
        self, state: State, move: str, row: int, col: int, *, locale: str | None = None
    ) -> Result:
        return self._call("click", state=state, move=move, row=row, col=col, locale=locale)

    def render(self, state: State, ply: int | None = None, *, locale: str | None = None) -> Result:
        return self._call("render", state=state, ply=ply, locale=locale)

    def scores(self, state: State, *, locale: str | None = None) -> Result:
        return self._call("scores", state=state, locale=locale)

    def chat_log(
        self, state: State, names: Sequence[str] | None = None, *, locale: str | None = None
    ) -> Result:
        return self._call("chat_log", state=state, names=names, locale=locale)

    def move_history(self, state: State) -> Result:
        return self._call("move_history", state=state)

    def same_move(self, a: str, b: str) -> Result:
        return self._call("same_move", a=a, b=b)

    def resign(self, state: State, player: int, *, locale: str | None = None) -> Result:
        return self._call("resign", state=state, player=player, locale=locale)

    def timeout(self, state: State, player: int, *, locale: str | None = None) -> Result:
        return self._call("timeout", state=state, player=player, locale=locale)

    def draw(self, state: State, *, locale: str | None = None) -> Result:
        return self._call("draw", state=state, locale=locale)

    def abandoned(self, state: State, *, locale: str | None = None) -> Result:
        return self._call("abandoned", state=state, locale=locale)

    def record(
        self,
        state: State,
        uid: str | None = None,
        players: Sequence[str | Mapping[str, Any]] | None = None,
    ) -> Result:
        return self._call("record", state=state, uid=uid, players=players)

    def replay(
        self,
        record: Mapping[str, Any],
        initial: State | None = None,
        unfinished: bool | None = None,
    ) -> Result:
        return self._call("replay", record=record, initial=initial, unfinished=unfinished)

    def bot_move(
        self,
        state: State,
        bot: str,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        locale: str | None = None,
    ) -> Result:
        return self._call(
            "bot_move",
            state=state,
            bot=bot,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            locale=locale,
        )

    def hint(
        self,
        state: State,
        bot: str | None = None,
        top: int | None = None,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        locale: str | None = None,
        ply: int | None = None,
    ) -> Result:
        return self._call(
            "hint",
            state=state,
            bot=bot,
            top=top,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            locale=locale,
            ply=ply,
        )

    def solve(
        self,
        state: State,
        *,
        seconds: float | None = None,
        nodes: int | None = None,
        locale: str | None = None,
        ply: int | None = None,
    ) -> Result:
        return self._call(
            "solve", state=state, seconds=seconds, nodes=nodes, locale=locale, ply=ply
        )

    def analyse(
        self,
        state: State,
        lines: int | None = None,
        progress: bool | None = None,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        locale: str | None = None,
        ply: int | None = None,
    ) -> Result:
        return self._call(
            "analyse",
            state=state,
            lines=lines,
            progress=progress,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            locale=locale,
            ply=ply,
        )

    def retry(
        self,
        state: State,
        move: str,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        locale: str | None = None,
        ply: int | None = None,
    ) -> Result:
        return self._call(
            "retry",
            state=state,
            move=move,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            locale=locale,
            ply=ply,
        )

    def review(
        self,
        state: State | None = None,
        record: Mapping[str, Any] | None = None,
        bot: str | None = None,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        count: int | None = None,
        appraised: Sequence[Mapping[str, Any]] | None = None,
        names: Sequence[str] | None = None,
        locale: str | None = None,
        initial: State | None = None,
    ) -> Result:
        """The review of the game ``state`` or ``record`` (from the state
        ``initial`` when the record has no starting board): the next ``count``
        positions after those ``appraised`` (see the protocol's ``review``)."""
        params = {
            "state": state,
            "record": record,
            "bot": bot,
            "seconds": seconds,
            "iterations": iterations,
            "seed": seed,
            "count": count,
            "appraised": appraised,
            "names": names,
            "locale": locale,
            "initial": initial,
        }
        result: Result = self.call("review", {k: v for k, v in params.items() if v is not None})
        return result

    def svg(
        self,
        state: State,
        ply: int | None = None,
        *,
        move: str | None = None,
        hints: Sequence[Mapping[str, str]] | None = None,
        size: int | None = None,
        names: Sequence[str] | None = None,
        marks: bool | None = None,
        click: Mapping[str, int] | None = None,
        play: bool | None = None,
        locale: str | None = None,
        claims: Mapping[str, Sequence[float]] | None = None,
    ) -> Result:
        return self._call(
            "svg",
            state=state,
            ply=ply,
            move=move,
            hints=hints,
            size=size,
            names=names,
            marks=marks,
            click=click,
            play=play,
            locale=locale,
            claims=claims,
        )

    def summary(
        self,
        state: State,
        ply: int | None = None,
        names: Sequence[str] | None = None,
        *,
        locale: str | None = None,
    ) -> Result:
        return self._call("summary", state=state, ply=ply, names=names, locale=locale)

    def undo(self, state: State, plies: int | None = None, *, locale: str | None = None) -> Result:
        return self._call("undo", state=state, plies=plies, locale=locale)
