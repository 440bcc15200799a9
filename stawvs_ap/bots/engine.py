"""External engines: a program in any language plays as a bot (``--bot exec:COMMAND``).

The program reads JSON-RPC 2.0 requests on its standard input and answers on
its standard output, one JSON object per line (docs/bots.md has the whole
protocol)::

    > {"jsonrpc":"2.0","id":1,"method":"choose","params":{"state":"...","seconds":1.0,...}}
    < {"jsonrpc":"2.0","id":1,"result":{"move":"c3-f6,f2"}}
    > {"jsonrpc":"2.0","method":"quit"}

:class:`ExecBot` starts the program at its first question and keeps it for
the questions after, so an engine may keep what it learns during a game. Its
time is enforced: an engine that answers late, answers an illegal move or
anything but a JSON-RPC answer, says nothing, or exits raises
:class:`~stawvs_ap.bots.base.BotFailure` (``kind`` ``"timeout"`` or
``"forfeit"``) and is stopped. Every read is bounded (an answer line of at
most :data:`MAX_LINE_BYTES`), nothing waits without a deadline, and the
program (with its whole process group and, on Linux, the processes descended
from it; docs/bots.md says what a double fork escapes) is killed
when the bot is closed, when a question fails, when the caller is
interrupted, and at the latest when the interpreter exits. POSIX only.
"""

from __future__ import annotations

import itertools
import shlex
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ..core.moves import Move
from ..core.position import Position
from ..core.variants import VARIANTS, Rules, rules_for
from ..errors import ErrorCode, StawvsError, excerpt
from ..host.game import StawvsGame
from .base import Bot, BotFailure, Budget, Candidate, GameLike
from .options import (
    ITERATIONS,
    SECONDS,
    Option,
    Settings,
    options_of,
    setting,
    with_changes,
)
from .pipes import MAX_LINE_BYTES, EngineProcess

__all__ = ["MAX_LINE_BYTES", "ExecBot", "ExecSettings", "split_command"]

#: How long a stopping engine may take to exit after ``quit`` before it is killed.
_QUIT_GRACE: Final = 0.5
#: The JSON-RPC code an engine answers a method it does not have with.
_METHOD_NOT_FOUND: Final = -32601


def split_command(command: str | Sequence[str]) -> list[str]:
    """The program and arguments of ``command``, split as a POSIX shell splits
    words (no shell runs it); ``BAD_ARGUMENT`` when it is empty or the program
    cannot be found.

    >>> split_command("node 'my engine.mjs' --fast")
    ['node', 'my engine.mjs', '--fast']
    """
    try:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    except ValueError as exc:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, f"exec: cannot read the command: {exc}") from None
    if not argv:
        raise StawvsError(ErrorCode.BAD_ARGUMENT, "exec: the command is empty")
    if shutil.which(argv[0]) is None:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"exec: there is no program {excerpt(argv[0])} to run"
        )
    return argv


@dataclass(frozen=True, slots=True)
class ExecSettings(Settings):
    """The options of :class:`ExecBot` but its ``command``, each declared once here."""

    margin: float = setting(
        0.1, "seconds beyond its budget for the pipes and the process", low=0, high=60
    )
    startup: float = setting(
        5.0, "seconds more for its first answer, while it starts", low=0, high=60
    )


class ExecBot(Bot):
    """A bot played by an external program (see the module's description).

    ``command`` is the program and its arguments (a list, or text split as a
    shell splits words). ``seconds`` is the time it is given for a move
    (default 1; it is sent with each request), and it must answer within
    ``seconds`` + 10% + ``margin`` seconds; its first answer may take
    ``startup`` seconds more, for the program to start. An iteration budget
    means nothing to an engine: it thinks for ``seconds``.
    """

    name = "exec"
    options = (
        Option(
            "command",
            str,
            None,
            "the engine: its program and arguments, split as a shell splits words",
            high=400,
        ),
        replace(SECONDS, help="the time the engine is given for a move (1 when not given)"),
        replace(ITERATIONS, help="accepted and ignored: an engine thinks for its seconds"),
        *options_of(ExecSettings),
    )

    def __init__(
        self,
        *,
        command: str | Sequence[str] | None = None,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        settings: ExecSettings | None = None,
        **changes: Any,
    ) -> None:
        super().__init__(seed=seed, seconds=1.0 if seconds is None else seconds)
        if not isinstance(command, str | list | tuple):
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "exec: give the engine's command")
        if isinstance(command, str):
            self.option("command").check(command)
        self.argv = split_command(command)
        self.settings = with_changes(settings or ExecSettings(), changes, self.name)
        self._engine: EngineProcess | None = None
        self._fresh = True  # the engine has answered nothing yet
        self._requests = 0
        self._asked: StawvsGame | None = None

    # -- questions -------------------------------------------------------------------

    def _position_of(self, game: GameLike) -> Position:
        # The game asked about is sent as it is (its history with it) when it is
        # the position's own game: see _game_of.
        self._asked = game if isinstance(game, StawvsGame) else None
        return super()._position_of(game)

    def _choose(self, position: Position, budget: Budget) -> Move:
        game = self._game_of(position)
        result = self._ask("choose", game, budget)
        return self._move(game, result.get("move") if isinstance(result, dict) else None)

    def _analyse(self, position: Position, budget: Budget) -> list[Candidate]:
        """The engine's ``analyse`` answer, or, from an engine that has none, its
        choice as the only candidate (no visits, worth an even share: nothing known)."""
        game = self._game_of(position)
        even = 1.0 / position.rules.numplayers
        try:
            result = self._ask("analyse", game, budget)
        except _NoSuchMethod:
            return [Candidate(self._choose(position, budget), 0, even)]
        listed = result.get("candidates") if isinstance(result, dict) else None
        if not isinstance(listed, list) or not listed:
            raise self._forfeit("its analysis lists no candidates")
        candidates = []
        for entry in listed[:1000]:
            if not isinstance(entry, dict):
                raise self._forfeit(f"its analysis lists {excerpt(str(entry), 60)}")
            value, visits = entry.get("value", even), entry.get("visits", 0)
            if not (isinstance(value, int | float) and not isinstance(value, bool)) or not (
                0 <= value <= 1
            ):
                raise self._forfeit(f"its analysis gives the value {excerpt(str(value), 60)}")
            if not isinstance(visits, int) or isinstance(visits, bool) or visits < 0:
                visits = 0
            candidates.append(Candidate(self._move(game, entry.get("move")), visits, float(value)))
        return candidates

    def _game_of(self, position: Position) -> StawvsGame:
        """The game to send: the one asked about, or one started at ``position``."""
        asked = self._asked
        # After load(i) a game shows an earlier entry than its state ends at.
        if asked is not None and asked.clone().load(-1).position is position:
            return asked
        return StawvsGame.from_position(position.notation(), _variants_of(position.rules))

    def _move(self, game: StawvsGame, text: object) -> Move:
        if not isinstance(text, str):
            raise self._forfeit(f"its answer has no move text: {excerpt(str(text), 60)}")
        verdict = game.validate_move(text)
        if not verdict.valid or verdict.complete != 1:
            why = verdict.message if not verdict.valid else "it is not a complete move"
            raise self._forfeit(f"it answered the illegal move {excerpt(text, 60)}: {why}")
        return Move.parse(text)

    def _ask(self, method: str, game: StawvsGame, budget: Budget) -> Any:
        seconds = budget.seconds if budget.seconds is not None else self.default_budget.seconds
        assert seconds is not None
        allowed = (
            seconds * 1.1 + self.settings.margin + (self.settings.startup if self._fresh else 0.0)
        )
        self._requests += 1
        request = {
            "jsonrpc": "2.0",
            "id": self._requests,
            "method": method,
            "params": {
                "state": game.serialize(),
                "seconds": seconds,
                "player": game.currplayer,
                "position": game.position.notation(),
                "moves": game.moves(),
                "seed": None if self.seed is None else str(self.seed),
            },
        }
        started = time.monotonic()
        try:
            if self._engine is None:
                self._engine = EngineProcess(self.argv)
                self._fresh = True
            answer = self._engine.exchange(request, started + allowed)
        except BotFailure as failure:
            if failure.kind == "timeout":
                failure = BotFailure(
                    "timeout", f"no answer within {allowed:.3g} s (its budget: {seconds:g} s)"
                )
            raise self._fail(failure) from None
        except BaseException:  # an interrupt or an error of ours: the engine goes too
            self._stop(grace=0)
            raise
        self._fresh = False
        if "error" in answer:
            error = answer["error"]
            if isinstance(error, dict) and error.get("code") == _METHOD_NOT_FOUND:
                raise _NoSuchMethod
            said = error.get("message") if isinstance(error, dict) else error
            raise self._forfeit(f"it answered an error: {excerpt(str(said), 60)}")
        if "result" not in answer:
            raise self._forfeit("its answer has neither result nor error")
        return answer["result"]

    # -- the process -----------------------------------------------------------------

    def _forfeit(self, reason: str) -> BotFailure:
        """:meth:`_fail` with a forfeit for ``reason``."""
        return self._fail(BotFailure("forfeit", reason))

    def _fail(self, failure: BotFailure) -> BotFailure:
        """Stop the engine, whose state is no longer known, and name it in ``failure``."""
        self._stop(grace=0)
        return BotFailure(failure.kind, failure.reason, self.label)

    @property
    def label(self) -> str:
        """The engine as a person would name it: the command."""
        return "exec:" + shlex.join(self.argv)

    def _stop(self, *, grace: float) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            if grace > 0:
                engine.notify("quit")
            engine.stop(grace=grace)

    def close(self) -> None:
        """Send ``quit``, give the engine half a second to exit, then kill what is left."""
        self._stop(grace=_QUIT_GRACE)

    def __repr__(self) -> str:
        return f"<ExecBot {self.label} seed={self.seed!r}>"


def _variants_of(rules: Rules) -> list[str]:
    """Variants that give ``rules`` (those that change a position's rules, not its setup)."""
    for count in range(len(_RULE_VARIANTS) + 1):
        for chosen in itertools.combinations(_RULE_VARIANTS, count):
            if rules_for(rules.numplayers, chosen) == rules:
                return list(chosen)
    raise AssertionError(f"no variants give {rules}")  # pragma: no cover


_RULE_VARIANTS: Final = tuple(v for v in VARIANTS if v not in ("hole", "random"))


class _NoSuchMethod(Exception):
    """The engine has no such method (JSON-RPC -32601)."""
