"""What every bot shares: the interface, budgets, and what an analysis returns.

A bot is asked about a :class:`~stawvs_ap.host.game.StawvsGame` (or a bare
:class:`~stawvs_ap.core.position.Position`) and only ever reads its position,
an immutable value, so asking never changes the game. Budgets are a number
of seconds, a number of iterations, or both (whichever runs out first),
within the maxima of :mod:`stawvs_ap.bots.options`; a search never runs past
:data:`~stawvs_ap.bots.options.MAX_SECONDS` of wall time, whatever its budget.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final, Literal

from ..core.moves import Move
from ..core.position import Position
from ..errors import ErrorCode, IllegalMoveError, StawvsError
from ..host.game import StawvsGame, check_seed
from .options import ITERATIONS, MAX_SECONDS, SECONDS, Option, unknown_option

__all__ = [
    "TOP",
    "Bot",
    "BotErrorCode",
    "BotFailure",
    "Budget",
    "Candidate",
    "GameLike",
    "play_turn",
    "position_of",
]

#: How many candidates :meth:`Bot.analyse` lists at most (not set: all of them).
TOP: Final = Option("top", int, None, "candidates listed", low=1)

#: What a bot can be asked about.
GameLike = StawvsGame | Position


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move of an analysis: how often the search tried it and what it is worth.

    ``value`` is, for every bot, the share of the win the player to move can
    expect after the move, from 0 (lost) to 1 (won alone; a win shared by k
    players is 1/k): for :class:`MCTSBot` a calibrated share (exact when
    proven, see :mod:`stawvs_ap.bots.calibration`), for :class:`UCTBot` the
    mean reward of the move's simulations, for :class:`GreedyBot` the share
    its evaluation makes (:func:`~stawvs_ap.bots.simulate.lead_share`), for a
    bot that knows nothing (:class:`RandomBot`) an even share.
    """

    move: Move
    visits: int
    value: float

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form: ``{"move": "c3-f6,f2", "visits": 120, "value": 0.61}``."""
        return {"move": str(self.move), "visits": self.visits, "value": round(self.value, 4)}


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may run: ``seconds`` of wall time and/or ``iterations``,
    each within the range of :data:`~stawvs_ap.bots.options.SECONDS` and
    :data:`~stawvs_ap.bots.options.ITERATIONS` (``BAD_ARGUMENT`` otherwise).

    :meth:`deadline` and :meth:`limit` make the checks cheap enough to run
    after every iteration.
    """

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None:
            object.__setattr__(self, "seconds", SECONDS.check(self.seconds))
        if self.iterations is not None:
            object.__setattr__(self, "iterations", ITERATIONS.check(self.iterations))

    def deadline(self, start: float) -> float:
        """The ``time.perf_counter()`` reading at which to stop: ``seconds`` after
        ``start``, or :data:`~stawvs_ap.bots.options.MAX_SECONDS` after it without
        seconds."""
        return start + (self.seconds if self.seconds is not None else MAX_SECONDS)

    def limit(self) -> int:
        """The most iterations allowed (a very large number without a count)."""
        return self.iterations if self.iterations is not None else 1 << 62


class BotErrorCode(StrEnum):
    """The codes of the bots' floor (the others are :class:`~stawvs_ap.errors.ErrorCode`)."""

    #: A bot that gave no move: an external engine late, silent, crashed or wrong.
    BOT_FAILED = "BOT_FAILED"
    #: The arena's runs: a worker or a cluster that failed.
    ARENA_FAILED = "ARENA_FAILED"
    #: A game of the arena stopped before its end: its run no longer wants it.
    GAME_STOPPED = "GAME_STOPPED"


class BotFailure(StawvsError):
    """A bot gave no move it may play (code ``BOT_FAILED``): an external engine that
    answered late, answered an illegal move or something else, or went away.

    ``kind`` is ``"timeout"`` when the time ran out and ``"forfeit"`` otherwise;
    ``reason`` says what happened, and ``bot`` names the bot (the message says
    both). A game loop ends the game on it, the bot's player losing
    (:meth:`~stawvs_ap.host.game.StawvsGame.timeout` or
    :meth:`~stawvs_ap.host.game.StawvsGame.resign`).
    """

    def __init__(self, kind: Literal["timeout", "forfeit"], reason: str, bot: str = "") -> None:
        super().__init__(BotErrorCode.BOT_FAILED, f"{bot}: {reason}" if bot else reason)
        self.kind: Literal["timeout", "forfeit"] = kind
        self.reason = reason
        self.bot = bot


def play_turn(game: StawvsGame, bot: Bot) -> BotFailure | None:
    """Let ``bot`` move for the player to move in ``game``. When it fails, the game
    ends as that player's loss (a timeout, or a resignation for a forfeit) and the
    failure is returned; None when the bot moved."""
    player = game.currplayer
    try:
        move = bot.choose(game)
    except BotFailure as failure:
        (game.timeout if failure.kind == "timeout" else game.resign)(player)
        return failure
    game.move(move)  # validated: a bot's illegal move raises here
    return None


def position_of(game: GameLike) -> Position:
    """The position to think about; ``GAMEOVER`` when ``game`` has ended,
    ``BAD_ARGUMENT`` when it is neither a game nor a position."""
    if not isinstance(game, StawvsGame | Position):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"a bot is asked about a StawvsGame or a Position, not {type(game).__name__}",
        )
    over = game.gameover if isinstance(game, StawvsGame) else game.is_over
    if over:
        raise IllegalMoveError(ErrorCode.GAMEOVER, "The game is over: there is no move to choose.")
    return game.position if isinstance(game, StawvsGame) else game


def only_move(position: Position) -> Move | None:
    """The single legal move when there is exactly one (such as a forced ``pass``), else None."""
    moves = position.legal_moves()
    first = next(moves, None)
    if first is None or next(moves, None) is not None:
        return None
    return first


class Bot(ABC):
    """A computer player. ``seed`` makes it reproducible: the same seed, the same
    iteration budget and the same sequence of questions give the same answers.

    ``seconds`` and ``iterations`` given to the constructor are the default
    budget of :meth:`choose` and :meth:`analyse`; given to those calls, they
    replace it for that call. Every option is checked against its declaration
    in :attr:`options` (``BAD_ARGUMENT`` naming it and its range).
    """

    #: The name the arena and the command line know the bot by.
    name: str = "bot"
    #: Every keyword argument of the constructor but ``seed``, declared: a spec
    #: (:mod:`stawvs_ap.bots.spec`) takes exactly these, checked the same way.
    options: ClassVar[tuple[Option[Any], ...]] = (SECONDS, ITERATIONS)

    def __init__(
        self,
        *,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
    ) -> None:
        self.seed = check_seed(seed)
        self.rng = random.Random(seed)
        self.default_budget = Budget(seconds, iterations)

    def budget(self, seconds: float | None, iterations: int | None) -> Budget:
        """The budget of one call: the call's own, else the bot's default."""
        if seconds is None and iterations is None:
            return self.default_budget
        return Budget(seconds, iterations)

    @classmethod
    def option(cls, name: str) -> Option[Any]:
        """The declaration of the option ``name``; ``BAD_ARGUMENT`` naming the bot's
        options when it has none of that name."""
        for declared in cls.options:
            if declared.name == name:
                return declared
        raise unknown_option(cls.name, cls.options, name)

    def choose(
        self, game: GameLike, *, seconds: float | None = None, iterations: int | None = None
    ) -> Move:
        """A legal move for the player to move in ``game``, which is left unchanged.

        Raises :class:`~stawvs_ap.errors.IllegalMoveError` (``GAMEOVER``) when
        the game is over. A forced move (such as the only ``pass``) is answered
        at once.
        """
        position = self._position_of(game)
        forced = only_move(position)
        if forced is not None:
            self.forget()
            return forced
        return self._choose(position, self.budget(seconds, iterations))

    def analyse(
        self,
        game: GameLike,
        *,
        seconds: float | None = None,
        iterations: int | None = None,
        top: int | None = None,
    ) -> list[Candidate]:
        """The candidate moves the bot considered, best first (the first is what
        :meth:`choose` would play), at most ``top`` of them (a whole number of at
        least 1). ``game`` is left unchanged."""
        if top is not None:
            TOP.check(top)
        position = self._position_of(game)
        found = self._analyse(position, self.budget(seconds, iterations))
        return found if top is None else found[:top]

    def _position_of(self, game: GameLike) -> Position:
        """The position a question is about (:func:`position_of`); a bot that
        needs the game itself keeps it here."""
        return position_of(game)

    def forget(self) -> None:  # noqa: B027 - optional hook, most bots keep nothing
        """Drop anything kept from earlier questions (a search tree)."""

    def close(self) -> None:  # noqa: B027 - optional hook, most bots hold nothing
        """Release what the bot holds outside Python (an engine's process). Whoever
        made the bot calls it when the bot's last game is over; it may be called
        more than once. A closed bot may be asked again (it starts afresh)."""

    def __enter__(self) -> Bot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @abstractmethod
    def _choose(self, position: Position, budget: Budget) -> Move:
        """A legal move of ``position`` (not over, more than one legal move)."""

    @abstractmethod
    def _analyse(self, position: Position, budget: Budget) -> list[Candidate]:
        """The candidates of ``position`` (not over), best first."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed!r}>"


def now() -> float:
    """The clock budgets are measured with."""
    return time.perf_counter()
