"""A Python client of ``stawvs-ap serve``: :class:`Client`.

It starts the server as a child process and speaks JSON-RPC 2.0 with it over
pipes, one request at a time. It has a method per method of the protocol,
made from the method's declaration (:mod:`stawvs_ap.service.protocol`): the
same parameters by name, the required ones first, the optional ones
defaulting to None (not sent), returning the result object::

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
import inspect
import itertools
import json
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Final

from stawvs_ap.bots.base import BotErrorCode
from stawvs_ap.errors import ErrorCode, StawvsError, excerpt
from stawvs_ap.service.jsonrpc import MAX_RESPONSE_BYTES, PROTOCOL_CODES, ServiceErrorCode
from stawvs_ap.service.methods import METHODS
from stawvs_ap.service.protocol import Method

__all__ = ["Client", "ConnectionFailure", "RemoteError"]

#: Every code a server's refusal can carry in ``error.data.code``, by name.
ENGINE_CODES: Final[dict[str, StrEnum]] = {
    code.value: code for family in (ErrorCode, BotErrorCode, ServiceErrorCode) for code in family
}

#: The types the declarations' kinds name in the methods' signatures (``Kind.annotation``).
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
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"cannot send {excerpt(method, 80)}: {reason}"
        ) from None
    except (TypeError, RecursionError) as exc:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"cannot send {excerpt(method, 80)}: {str(exc)[:200]}"
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
                f"cannot start the server {excerpt(argv[0], 200)}: {exc.strerror or exc}"
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
                f"the server answered what is not JSON: {excerpt(line, 200)}"
            ) from None
        if not isinstance(response, dict):
            raise ConnectionFailure(
                f"the server answered what is not a response: {excerpt(response, 200)}"
            )
        error = response.get("error")
        # An id of null answers a request the server could not read (a parse error).
        if response.get("id") != rid and not (response.get("id") is None and error):
            raise ConnectionFailure(f"the server answered out of turn: {excerpt(response, 200)}")
        if error is not None:
            if not isinstance(error, dict):
                raise ConnectionFailure(
                    f"the server answered a broken error: {excerpt(error, 200)}"
                )
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

    if TYPE_CHECKING:  # the methods below are made from the declarations

        def __getattr__(self, name: str) -> Callable[..., Result]: ...


def _client_method(declared: Method) -> Callable[..., Result]:
    """The client's method for ``declared``: its parameters by name, the required
    ones first, then the optional ones defaulting to None (those left None are
    not sent), typed as the declaration's kinds say; it returns the result."""
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for names, default in ((declared.required, inspect.Parameter.empty), (declared.optional, None)):
        for name, kind in names.items():
            annotation = (
                kind.annotation
                if default is inspect.Parameter.empty
                else f"{kind.annotation} | None"
            )
            parameters.append(
                inspect.Parameter(
                    name,
                    inspect.Parameter.POSITIONAL_OR_KEYWORD,
                    default=default,
                    annotation=annotation,
                )
            )
    signature = inspect.Signature(parameters, return_annotation="Result")

    def call(self: Client, *args: Any, **kwargs: Any) -> Result:
        given = signature.bind(self, *args, **kwargs).arguments
        params = {k: v for k, v in given.items() if k != "self" and v is not None}
        result: Result = self.call(declared.name, params)
        return result

    call.__name__ = call.__qualname__ = declared.name
    call.__doc__ = declared.summary
    call.__signature__ = signature  # type: ignore[attr-defined]
    return call


# One method per protocol method (stawvs_ap.service.protocol), made from its declaration.
for _declared in METHODS.values():
    setattr(Client, _declared.name, _client_method(_declared))
