"""A Python client of ``stawvs-ap serve``: :class:`Client`.

It starts the server as a child process and speaks JSON-RPC 2.0 with it over
pipes, one request at a time::

    with Client() as server:
        state = server.new(players=2, seed=7)["state"]
        state = server.move(state, move=server.moves(state)["moves"][0])["state"]

Every refusal of the engine is raised as :class:`RemoteError`, a
:class:`~stawvs_ap.errors.StawvsError` with the engine's own code (``BAD_MOVE``,
``BAD_STATE``, …); protocol errors are raised the same way with codes such as
``INVALID_PARAMS``. A server that is gone raises :class:`ConnectionError`.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import IO, Any, Final

from stawvs_ap.errors import ErrorCode, StawvsError
from stawvs_ap.service.jsonrpc import MAX_RESPONSE_BYTES

__all__ = ["Client", "RemoteError"]

#: Our names for the JSON-RPC error codes, used as the ``code`` of a RemoteError.
RPC_CODES: Final = {
    -32700: "PARSE_ERROR",
    -32600: "INVALID_REQUEST",
    -32601: "METHOD_NOT_FOUND",
    -32602: "INVALID_PARAMS",
    -32603: "INTERNAL_ERROR",
}

State = str | Mapping[str, Any]
Result = dict[str, Any]


class RemoteError(StawvsError):
    """An error response. ``code`` is the engine's code for application errors
    (``rpc_code`` 1000) and a name from :data:`RPC_CODES` for protocol errors;
    ``data`` is the response's ``error.data`` (or None)."""

    def __init__(self, rpc_code: int, message: str, data: Any = None) -> None:
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str):
            code = RPC_CODES.get(rpc_code, "INTERNAL_ERROR")
        if code not in ErrorCode.__members__:  # a newer server's code
            code = "INTERNAL_ERROR"
        super().__init__(ErrorCode(code), message)
        self.rpc_code = rpc_code
        self.data = data


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
        return json.dumps(request, separators=(",", ":"), allow_nan=False).encode("ascii")
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
        self._process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=dict(env) if env is not None else None,
        )
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
            raise ConnectionError("the server no longer reads its input") from None

    def read_raw(self) -> bytes:
        """The next line the server writes, newline included (at most
        :data:`~stawvs_ap.service.jsonrpc.MAX_RESPONSE_BYTES` and the newline)."""
        line = self._pipe(self._process.stdout).readline(MAX_RESPONSE_BYTES + 2)
        if not line:
            raise ConnectionError(f"the server closed its output (status {self._process.poll()})")
        if not line.endswith(b"\n") and len(line) > MAX_RESPONSE_BYTES:
            raise ConnectionError(
                f"the server answered a line longer than {MAX_RESPONSE_BYTES:,} bytes"
            )
        return line

    @staticmethod
    def _pipe(pipe: IO[bytes] | None) -> IO[bytes]:
        if pipe is None or pipe.closed:
            raise ConnectionError("the client is closed")
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
            raise ConnectionError(f"the server answered what is not JSON: {line!r:.200}") from None
        if not isinstance(response, dict):
            raise ConnectionError(f"the server answered what is not a response: {response!r:.200}")
        error = response.get("error")
        # An id of null answers a request the server could not read (a parse error).
        if response.get("id") != rid and not (response.get("id") is None and error):
            raise ConnectionError(f"the server answered out of turn: {response!r:.200}")
        if error is not None:
            if not isinstance(error, dict):
                raise ConnectionError(f"the server answered a broken error: {error!r:.200}")
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

    def _with_state(self, method: str, state: State, **params: Any) -> Result:
        given = {k: v for k, v in params.items() if v is not None}
        sent = state if isinstance(state, str) else dict(state)
        result: Result = self.call(method, {"state": sent, **given})
        return result

    # One method per protocol method; each returns the result object. Those that
    # return words for people take ``locale``, a language tag such as "de".

    def version(self) -> Result:
        result: Result = self.call("version")
        return result

    def info(self, *, locale: str | None = None) -> Result:
        result: Result = self.call("info", {} if locale is None else {"locale": locale})
        return result

    def variants(self, state: State | None = None, *, locale: str | None = None) -> Result:
        params = {k: v for k, v in (("state", state), ("locale", locale)) if v is not None}
        result: Result = self.call("variants", params)
        return result

    def new(
        self, players: int, variants: Sequence[str] | None = None, seed: int | None = None
    ) -> Result:
        params: dict[str, Any] = {"players": players}
        if variants is not None:
            params["variants"] = list(variants)
        if seed is not None:
            params["seed"] = seed
        result: Result = self.call("new", params)
        return result

    def moves(self, state: State) -> Result:
        return self._with_state("moves", state)

    def validate(self, state: State, move: str, *, locale: str | None = None) -> Result:
        return self._with_state("validate", state, move=move, locale=locale)

    def move(
        self,
        state: State,
        move: str | None = None,
        *,
        moves: Sequence[str] | None = None,
        locale: str | None = None,
    ) -> Result:
        return self._with_state(
            "move", state, move=move, moves=None if moves is None else list(moves), locale=locale
        )

    def preview(self, state: State, move: str, *, locale: str | None = None) -> Result:
        return self._with_state("preview", state, move=move, locale=locale)

    def click(
        self, state: State, move: str, row: int, col: int, *, locale: str | None = None
    ) -> Result:
        return self._with_state("click", state, move=move, row=row, col=col, locale=locale)

    def render(self, state: State, ply: int | None = None, *, locale: str | None = None) -> Result:
        return self._with_state("render", state, ply=ply, locale=locale)

    def scores(self, state: State, *, locale: str | None = None) -> Result:
        return self._with_state("scores", state, locale=locale)

    def chat_log(
        self, state: State, names: Sequence[str] | None = None, *, locale: str | None = None
    ) -> Result:
        names = None if names is None else list(names)
        return self._with_state("chat_log", state, names=names, locale=locale)

    def move_history(self, state: State) -> Result:
        return self._with_state("move_history", state)

    def same_move(self, a: str, b: str) -> Result:
        result: Result = self.call("same_move", {"a": a, "b": b})
        return result

    def resign(self, state: State, player: int, *, locale: str | None = None) -> Result:
        return self._with_state("resign", state, player=player, locale=locale)

    def timeout(self, state: State, player: int, *, locale: str | None = None) -> Result:
        return self._with_state("timeout", state, player=player, locale=locale)

    def draw(self, state: State, *, locale: str | None = None) -> Result:
        return self._with_state("draw", state, locale=locale)

    def abandoned(self, state: State, *, locale: str | None = None) -> Result:
        return self._with_state("abandoned", state, locale=locale)

    def record(
        self, state: State, uid: str | None = None, players: Sequence[Any] | None = None
    ) -> Result:
        return self._with_state(
            "record", state, uid=uid, players=None if players is None else list(players)
        )

    def replay(self, record: Mapping[str, Any], initial: State | None = None) -> Result:
        params: dict[str, Any] = {"record": dict(record)}
        if initial is not None:
            params["initial"] = initial
        result: Result = self.call("replay", params)
        return result

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
        return self._with_state(
            "bot_move",
            state,
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
    ) -> Result:
        return self._with_state(
            "hint",
            state,
            bot=bot,
            top=top,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            locale=locale,
        )

    def svg(
        self, state: State, ply: int | None = None, *, locale: str | None = None, **drawing: Any
    ) -> Result:
        """The picture; ``drawing`` takes the other parameters of the ``svg`` method
        (``move``, ``hints``, ``size``, ``names``, ``marks``, ``click``)."""
        return self._with_state("svg", state, ply=ply, locale=locale, **drawing)

    def summary(self, state: State, ply: int | None = None) -> Result:
        return self._with_state("summary", state, ply=ply)

    def undo(self, state: State, plies: int | None = None, *, locale: str | None = None) -> Result:
        return self._with_state("undo", state, plies=plies, locale=locale)
