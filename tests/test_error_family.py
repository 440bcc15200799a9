"""One error family (CONTRACT §3.2): every error the package raises is a
:class:`~stawvs_ap.errors.StawvsError` with a stable code of its floor's enum.

The first test reads every module of the package and looks at each ``raise``
of a new exception, ``raise X(...)`` or ``raise X``: when ``X`` is a class it
must be a StawvsError; when it is a function that makes the error (such as
``_bad(message)``), its declared return type must be one. Raising again what
was caught (``raise``, ``raise exc``) is not looked at. Other raises pass only

- when they are no error: a process's exit or a signal (``SystemExit``,
  ``Interrupted``: a ``BaseException`` outside ``Exception``);
- when the class is private to its module (``_Name``) and the module catches
  it by name: a signal between two of its functions that never leaves it;
- when :data:`ALLOWED` lists them, each with its reason: programmers' errors,
  and exceptions that a library or the module itself turns into a StawvsError
  before any caller sees them.

The other tests show each public function that once raised something else
raising a StawvsError, with its code and a message that names what is wrong.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import importlib
import inspect
import pickle
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stawvs_ap import ErrorCode, IllegalMoveError, InvalidStateError, Position, StawvsError
from stawvs_ap.bots.base import BotErrorCode, BotFailure
from stawvs_ap.bots.simple import GreedyBot
from stawvs_ap.cli.safe_io import CliErrorCode
from stawvs_ap.core.playout import random_move, random_playout
from stawvs_ap.host.metadata import (
    GAMEINFO,
    variant_display_names,
    variant_ids_from_display_names,
)
from stawvs_ap.service.jsonrpc import (
    PARSE_ERROR,
    RpcError,
    ServiceErrorCode,
    answer_line,
    loads_bounded,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "stawvs_ap"

#: Raises of other exceptions that reach no caller as they are, by module and
#: exception: the functions (qualified names) that may raise it, and why.
ALLOWED: dict[tuple[str, str], tuple[frozenset[str], str]] = {
    ("stawvs_ap", "AttributeError"): (
        frozenset({"__getattr__"}),
        "a name the package does not have: what Python's attribute lookup must raise (PEP 562)",
    ),
    ("stawvs_ap.errors", "TypeError"): (
        frozenset({"StawvsError.__init__"}),
        "an error made with a code that is no StrEnum member: a bug in the raising code",
    ),
    ("stawvs_ap.bots.options", "TypeError"): (
        frozenset({"_option"}),
        "a settings field named apart from the option it shares: a bug in the bot's declaration",
    ),
    ("stawvs_ap.i18n", "ValueError"): (
        frozenset({"_register"}),
        "two messages declared with one id: a bug, found when the package is imported",
    ),
    ("stawvs_ap.i18n", "TypeError"): (
        frozenset({"_number"}),
        "a plural's count that is no whole number: a bug in the code that made the phrase",
    ),
    ("stawvs_ap.service.protocol", "ValueError"): (
        frozenset({"table"}),
        "a service method declared twice: a bug, found when the package is imported",
    ),
    ("stawvs_ap.bots.engine", "AssertionError"): (
        frozenset({"_variants_of"}),
        "unreachable: every rules value comes from some variants",
    ),
    ("stawvs_ap.bots.journal", "ValueError"): (
        frozenset({"_ints", "_result", "Journal._check_header"}),
        "a damaged line of a journal: Journal._parsed words it as the journal's StawvsError",
    ),
    ("stawvs_ap.bots.pipes", "ValueError"): (
        frozenset({"_refuse_constant"}),
        "raised inside json.loads: _message makes the engine's forfeit (BotFailure) of it",
    ),
    ("stawvs_ap.bots.cluster", "OSError"): (
        frozenset({"_read_exactly"}),
        "a peer that hung up: its caller makes it ARENA_FAILED with the other socket errors",
    ),
    ("stawvs_ap.service.jsonrpc", "ValueError"): (
        frozenset({"_no_constants", "_whole_number"}),
        "raised inside json.loads: loads_bounded makes it a PARSE_ERROR",
    ),
    ("stawvs_ap.service.client", "TypeError"): (
        frozenset({"_json_value"}),
        "json.dumps's default hook: _request_line makes it BAD_ARGUMENT",
    ),
    ("stawvs_ap.cli.safe_io", "ValueError"): (
        frozenset({"Transaction._read_stdin"}),
        "no standard input: Transaction.read makes it a FileError",
    ),
    ("stawvs_ap.cli.botargs", "ArgumentTypeError"): (
        frozenset({"whole", "declared.read", "spec_argument"}),
        "argparse's way to refuse an argument: it makes it a usage error (exit status 2)",
    ),
    ("stawvs_ap.cli.webcli", "ArgumentTypeError"): (
        frozenset({"parse_address", "_port"}),
        "argparse's way to refuse an argument: it makes it a usage error (exit status 2)",
    ),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(_module_name(path) for path in PACKAGE.rglob("*.py"))


def _imported(name: str) -> Any:
    """The module, or a skip when an extra it needs is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("stawvs_ap"):
            pytest.skip(
                f"{name} needs {exc.name}, which is not installed (an extra of the package)"
            )
        raise


class _Raises(ast.NodeVisitor):
    """Every ``raise`` of a module, with the classes and functions around it."""

    def __init__(self) -> None:
        self.scopes: list[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.found: list[tuple[ast.Raise, list[Any]]] = []

    def _scope(self, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append(node)
        self.generic_visit(node)
        self.scopes.pop()

    visit_ClassDef = visit_FunctionDef = visit_AsyncFunctionDef = _scope

    def visit_Raise(self, node: ast.Raise) -> None:
        self.found.append((node, list(self.scopes)))


def _caught_by_name(tree: ast.Module, name: str) -> bool:
    return any(
        isinstance(node, ast.ExceptHandler)
        and node.type is not None
        and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.type))
        for node in ast.walk(tree)
    )


def _returned(function: Any) -> Any:
    """The class a function declares it returns."""
    function = inspect.unwrap(function)
    annotation = inspect.get_annotations(function).get("return")
    if isinstance(annotation, str):
        return eval(annotation, function.__globals__)  # the package's own annotation
    return annotation


def _def_returned(node: ast.FunctionDef | ast.AsyncFunctionDef, module: Any) -> Any:
    if node.returns is None:
        return None
    return eval(ast.unparse(node.returns), vars(module))  # the package's own annotation


def _local_def(name: str, scopes: list[Any]) -> Any:
    """The function named ``name`` defined in an enclosing function, if any."""
    for scope in reversed(scopes):
        if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(scope):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                    return node
    return None


def _method(scopes: list[Any], module: Any, name: str) -> Any:
    """``self.name`` or ``cls.name`` in the innermost class around the raise."""
    classes = [s for s in scopes if isinstance(s, ast.ClassDef)]
    if not classes:
        return None
    for node in classes[-1].body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return _def_returned(node, module)
    owner: Any = module
    for scope in scopes[: scopes.index(classes[-1]) + 1]:
        owner = getattr(owner, scope.name, None)
    return _returned(getattr(owner, name)) if owner is not None else None


def _raised_class(target: ast.expr, scopes: list[Any], module: Any) -> Any:
    """The exception class ``target`` raises (a class, or a function that makes
    one); ``...`` when it names a value raised again; None when it cannot be told."""
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
    ):
        return _method(scopes, module, target.attr)
    if isinstance(target, ast.Name):
        local = _local_def(target.id, scopes)
        if local is not None:
            return _def_returned(local, module)
        if target.id in vars(module):
            value = vars(module)[target.id]
        elif hasattr(builtins, target.id):
            value = getattr(builtins, target.id)
        else:
            return ...  # a local value: an error caught and raised again
    elif isinstance(target, ast.Attribute):
        try:
            value = eval(ast.unparse(target), vars(module))  # a dotted name of the package
        except NameError:
            return ...
    else:
        return ...  # such as failure[0]: a value raised again
    if isinstance(value, type):
        return value
    if isinstance(value, BaseException):
        return ...
    return _returned(value) if callable(value) else None


def _qualified(scopes: list[Any]) -> str:
    return ".".join(scope.name for scope in scopes)


def _problems(name: str) -> tuple[list[str], set[tuple[str, str, str]]]:
    """What is wrong with the raises of module ``name``, and the allowances used."""
    module = _imported(name)
    path = Path(module.__file__)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    raises = _Raises()
    raises.visit(tree)
    problems: list[str] = []
    used: set[tuple[str, str, str]] = set()
    for node, scopes in raises.found:
        if node.exc is None:
            continue
        target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        where = f"{path.relative_to(ROOT)}:{node.lineno}: raise {ast.unparse(target)}"
        raised = _raised_class(target, scopes, module)
        if raised is ...:
            continue
        if not isinstance(raised, type) or not issubclass(raised, BaseException):
            problems.append(
                f"{where}: cannot tell what it raises (a class, or a function "
                "that declares the error it returns)"
            )
            continue
        if issubclass(raised, StawvsError) or not issubclass(raised, Exception):
            continue
        if (
            raised.__name__.startswith("_")
            and raised.__module__ == name
            and _caught_by_name(tree, raised.__name__)
        ):
            continue
        function = _qualified(scopes)
        functions, _reason = ALLOWED.get((name, raised.__name__), (frozenset(), ""))
        if function in functions:
            used.add((name, raised.__name__, function))
            continue
        problems.append(
            f"{where} in {function or 'the module'}: {raised.__name__} is not a StawvsError"
        )
    return problems, used


@pytest.mark.parametrize("name", MODULES)
def test_every_error_a_module_raises_is_a_stawvs_error(name: str) -> None:
    problems, _ = _problems(name)
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_every_allowance_is_used_and_says_why() -> None:
    used: set[tuple[str, str, str]] = set()
    for name in MODULES:
        try:
            used |= _problems(name)[1]
        except pytest.skip.Exception:
            if any(module == name for module, _ in ALLOWED):
                raise
    for (module, exception), (functions, reason) in ALLOWED.items():
        assert reason and len(reason.splitlines()) == 1
        for function in functions:
            assert (module, exception, function) in used, f"{module}.{function}: {exception}"


def test_the_walk_finds_a_planted_value_error(tmp_path: Path) -> None:
    """The walk itself: a module that raises a plain ValueError fails it, one
    that raises a StawvsError or a caught private signal passes."""
    planted = tmp_path / "planted_errors.py"
    planted.write_text(
        "from stawvs_ap.errors import ErrorCode, StawvsError\n"
        "class _Signal(Exception):\n    pass\n"
        "def bad(x):\n    raise ValueError(x)\n"
        "def good(x):\n    raise StawvsError(ErrorCode.BAD_ARGUMENT, x)\n"
        "def made(x) -> StawvsError:\n    return StawvsError(ErrorCode.BAD_ARGUMENT, x)\n"
        "def uses_made(x):\n    raise made(x)\n"
        "def signal():\n    try:\n        raise _Signal\n    except _Signal:\n        pass\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("planted_errors")
        tree = ast.parse(planted.read_text(encoding="utf-8"))
        raises = _Raises()
        raises.visit(tree)
        verdicts = {}
        for node, scopes in raises.found:
            assert node.exc is not None
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            verdicts[scopes[-1].name] = _raised_class(target, scopes, module)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("planted_errors", None)
    assert verdicts == {
        "bad": ValueError,
        "good": StawvsError,
        "uses_made": StawvsError,
        "signal": module._Signal,
    }
    assert _caught_by_name(tree, "_Signal")


# -- the errors, where they once were other exceptions --------------------------------


def test_an_error_crosses_processes_with_its_code_message_and_fields() -> None:
    from stawvs_ap.bots.runners import Stopped

    for error in (
        StawvsError(ErrorCode.BAD_MOVE, "no"),
        InvalidStateError("bad", code=ErrorCode.BAD_POSITION),
        BotFailure("timeout", "late", "mcts"),
        RpcError(PARSE_ERROR, "not JSON", {"limit": 3}),
        Stopped("game 3 stopped"),
    ):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)
        assert vars(copy) == vars(error) and copy.code == error.code


def _finished() -> Position:
    return random_playout(Position.initial(2, seed=1), random.Random(1))


def test_a_random_move_of_a_finished_game_is_gameover() -> None:
    with pytest.raises(IllegalMoveError) as over:
        random_move(_finished(), random.Random(1))
    assert over.value.code == ErrorCode.GAMEOVER
    assert over.value.message == (
        "every player has passed: the game is over, there is no move to choose"
    )


def test_an_unknown_variant_has_no_display_name() -> None:
    with pytest.raises(StawvsError) as unknown:
        variant_display_names(["hey", "nosuch"])
    assert unknown.value.code == ErrorCode.BAD_VARIANT
    assert unknown.value.message.startswith("unknown variant 'nosuch' (known: hole, ")
    with pytest.raises(StawvsError) as named:
        variant_ids_from_display_names(["No such variant"])
    assert named.value.code == ErrorCode.BAD_VARIANT
    assert named.value.message == "'No such variant' is not a variant of Stawvs"
    with pytest.raises(StawvsError) as metadata:
        GAMEINFO.variant("nosuch")
    assert metadata.value.code == ErrorCode.BAD_VARIANT
    assert metadata.value.message.startswith("Stawvs has no variant 'nosuch' (its variants: ")


def test_a_bot_has_no_option_of_another_name() -> None:
    assert GreedyBot.option("seconds").name == "seconds"
    with pytest.raises(StawvsError) as unknown:
        GreedyBot.option("depth")
    assert unknown.value.code == ErrorCode.BAD_ARGUMENT
    assert unknown.value.message == (
        "bot greedy takes the options seconds, iterations, not 'depth'"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'{"a": ', "not JSON: Expecting value: line 1 column 7 (char 6)"),
        (b"[NaN]", "not JSON: NaN is not JSON"),
        (b"[" + b"1" * 1001 + b"]", "not JSON: a number of more than 1,000 digits"),
        (
            b"\xff",
            "not JSON: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte",
        ),
        (b"[" * 50_000 + b"]" * 50_000, "the JSON is nested too deeply"),
        (b"[" + b"0," * 100_000 + b"0]", "not JSON: more than 100,000 JSON values"),
    ],
)
def test_text_that_is_not_json_is_a_parse_error(text: bytes, message: str) -> None:
    with pytest.raises(RpcError) as refused:
        loads_bounded(text)
    assert (refused.value.code, refused.value.rpc_code) == (
        ServiceErrorCode.PARSE_ERROR,
        PARSE_ERROR,
    )
    assert refused.value.message == message
    # the service answers it with the same words, as before
    answer = answer_line(text, lambda method, params: None)
    assert answer is not None and f'"code":{PARSE_ERROR},"message":' in answer


def test_a_client_whose_server_is_gone_raises_connection_failed() -> None:
    from stawvs_ap.service.client import Client, ConnectionFailure

    with pytest.raises(ConnectionFailure) as missing:
        Client(["/no/such/stawvs-server"])
    assert missing.value.code == ServiceErrorCode.CONNECTION_FAILED
    assert missing.value.message.startswith("cannot start the server '/no/such/stawvs-server': ")
    gone = Client([sys.executable, "-c", "pass"])  # a server that ends at once
    try:
        with pytest.raises(ConnectionFailure) as silent:
            gone.version()
        assert silent.value.code == ServiceErrorCode.CONNECTION_FAILED
        assert silent.value.message.startswith(
            ("the server closed its output", "the server no longer reads its input")
        )
    finally:
        gone.close()
    with pytest.raises(ConnectionFailure) as closed:
        gone.version()
    assert closed.value.message == "the client is closed"


def _messages(*messages: dict[str, Any]) -> Any:
    queued: Iterator[dict[str, Any]] = iter(messages)

    async def receive() -> dict[str, Any]:
        return next(queued)

    return receive


def test_a_body_too_large_and_a_client_gone_are_service_errors() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from stawvs_ap.service.webserver import BodyTooLarge, ClientGone, read_body

    chunk = {"type": "http.request", "body": b"x" * 600, "more_body": True}
    with pytest.raises(BodyTooLarge) as large:
        asyncio.run(read_body(_messages(chunk, chunk), 1000))
    assert (large.value.code, large.value.limit) == (ServiceErrorCode.INVALID_REQUEST, 1000)
    assert large.value.message == "the request body is longer than 1,000 bytes"
    with pytest.raises(ClientGone) as gone:
        asyncio.run(read_body(_messages(chunk, {"type": "http.disconnect"}), 1000))
    assert gone.value.code == ServiceErrorCode.CONNECTION_FAILED


def test_a_local_cluster_that_does_not_start_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    from stawvs_ap.cli import localcluster

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(localcluster.ClusterFailure) as failed:
            localcluster.start(1, port)
        assert failed.value.code == CliErrorCode.CLUSTER_FAILED
        assert failed.value.message.startswith("the local cluster did not start: ")
        assert localcluster.main(["--workers", "1", "--port", str(port)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("localcluster: error: the local cluster did not start: ")


def test_a_game_asked_to_stop_raises_game_stopped() -> None:
    from stawvs_ap.bots.arena import play_game
    from stawvs_ap.bots.runners import Stopped
    from stawvs_ap.bots.spec import BotSpec

    with pytest.raises(Stopped) as stopped:
        play_game([BotSpec.parse("random")] * 2, [], 1, 0, should_stop=lambda: True)
    assert stopped.value.code == BotErrorCode.GAME_STOPPED
    assert stopped.value.message == "game 0 stopped: its run no longer wants it"


def test_an_action_number_out_of_range_is_bad_argument() -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    from stawvs_ap import Move
    from stawvs_ap.encoding import NUM_ACTIONS, decode, encode
    from stawvs_ap.pettingzoo import raw_env

    environment = raw_env(2)
    environment.reset(seed=1)
    before = environment.position
    for action, shown in (
        (10**9, "1000000000"),
        (-1, "-1"),
        ("c3", "'c3'"),
        (1.7, "1.7"),
        ("1", "'1'"),
    ):
        with pytest.raises(StawvsError) as refused:
            environment.step(action)  # type: ignore[arg-type]
        assert refused.value.code == ErrorCode.BAD_ARGUMENT
        assert refused.value.message == (
            f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, not {shown}"
        )
    assert environment.position == before  # nothing changed
    with pytest.raises(StawvsError) as partial:
        encode(Move.parse("c3-f6"))
    assert partial.value.code == ErrorCode.BAD_ARGUMENT
    assert partial.value.message == "no action stands for 'c3-f6': it is not a complete move"
    with pytest.raises(StawvsError) as off:
        encode(Move.parse("a8-b6,a8"))
    assert off.value.message == "no action stands for 'a8-b6,a8': it does not move along lines"
    with pytest.raises(StawvsError) as huge:
        decode(10**5000)
    assert huge.value.message.endswith("not a number too long to show")


def test_an_openspiel_action_out_of_range_is_bad_argument() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")
    import stawvs_ap.openspiel  # noqa: F401 (registers the game)

    state = pyspiel.load_game("python_stawvs").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(StawvsError) as refused:
        state.apply_action(10**9)
    assert refused.value.code == ErrorCode.BAD_ARGUMENT
    assert refused.value.message == "an action is a whole number from 0 to 33408, not 1000000000"
