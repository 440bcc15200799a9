"""Stawvs as an OpenSpiel game: ``import stawvs_ap.openspiel`` registers
``python_stawvs`` (the ``rl`` extra installs OpenSpiel).

Parameters: ``players`` (2–4, default 2), ``variants`` (``+``-joined variant
ids, ``""`` for none) and ``seed`` (``-1``, the default, for none). With a
seed the deal is :meth:`Position.initial <stawvs_ap.core.position.Position.initial>`'s
for that seed and the game is deterministic. Without one the deal is made at
explicit chance nodes with their true probabilities: in the ``random``
variant four gap nodes first (outcome = the square, each of the squares not
yet chosen equally likely; ``action_to_string`` writes the square, ``d5``),
then one node per square holding a pyramid, in reading order ``a8``, ``b8``
… ``h1`` (outcome = the pyramid kind 0–11, with probability the share of
that kind among the pyramids not yet dealt; written ``a8=GR3``). This is the
distribution ``Position.initial`` draws from.

Player actions are :mod:`stawvs_ap.encoding`'s numbers (33,409 of them),
``action_to_string`` the engine's move string. Returns are each player's
share of the win: 1/k to each of k winners, 0 to the others (constant sum 1).
The observation and information-state tensors are
:func:`~stawvs_ap.encoding.observation_planes`: the position decides
everything that follows, so the history adds nothing for play.

>>> import pyspiel
>>> game = pyspiel.load_game("python_stawvs(players=3,variants=hole+hey,seed=7)")
>>> state = game.new_initial_state()
>>> state.action_to_string(state.legal_actions()[0])
'a8'
>>> game.num_distinct_actions(), game.max_game_length()
(33409, 165)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pyspiel

from .bots.base import Bot
from .core.position import Position, is_seed
from .core.pyramids import COLOURED, EMPTY, PER_KIND, PYRAMIDS
from .core.squares import SQUARE_NAMES
from .core.variants import check_variants, expected_gaps, rules_for
from .encoding import (
    NUM_ACTIONS,
    action_number,
    decode,
    encode,
    legal_actions,
    observation_planes,
    observation_size,
    whole_number,
)
from .errors import ErrorCode, StawvsError, excerpt
from .host.game import SEED_RANGE

__all__ = ["EngineBot", "StawvsGame", "StawvsState", "max_game_length", "returns_of"]

_NO_SEED: Final = -1
_DEFAULTS: Final[dict[str, Any]] = {"players": 2, "variants": "", "seed": _NO_SEED}


def _game_type(chance: Any) -> Any:
    return pyspiel.GameType(
        short_name="python_stawvs",
        long_name="Python Stawvs",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE: Final = _game_type(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
_SEEDED_TYPE: Final = _game_type(pyspiel.GameType.ChanceMode.DETERMINISTIC)


def max_game_length(numplayers: int, caps_per_player: int) -> int:
    """A bound no game exceeds, in player moves: every cap placed, then at most
    ``60 - caps`` claims (the caps stand on pyramids no one can claim), with at
    most ``n - 1`` passes before each claim and ``n`` turns after the last (a
    round of passes by everyone ends the game)."""
    caps = numplayers * caps_per_player
    return caps + numplayers * (60 - caps + 1)


def returns_of(winners: list[int], numplayers: int) -> list[float]:
    """Each player's share of the win: ``1/k`` for each of ``k`` winners, else 0."""
    share = 1.0 / len(winners) if winners else 0.0
    return [share if p in winners else 0.0 for p in range(1, numplayers + 1)]


def _parameters(params: object) -> tuple[int, str, int]:
    """The players, variants and seed ``params`` give (defaults for those left
    out), checked: ``BAD_ARGUMENT`` naming the first that is wrong. Python's and
    numpy's whole numbers are taken for ``players`` and ``seed``."""
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"the parameters are a dict, not {excerpt(params)}"
        )
    unknown = sorted(str(name) for name in params if name not in _DEFAULTS)
    if unknown:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"unknown parameter {excerpt(unknown[0])} (known: {', '.join(_DEFAULTS)})",
        )
    chosen = {**_DEFAULTS, **params}
    players = whole_number(chosen["players"])
    if players is None or not 2 <= players <= 4:
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT,
            f"Stawvs is for 2 to 4 players, not {excerpt(chosen['players'])}",
        )
    variants = chosen["variants"]
    if not isinstance(variants, str):
        raise StawvsError(
            ErrorCode.BAD_VARIANT,
            f"variants are variant ids joined by '+' (hole+hey), not {excerpt(variants)}",
        )
    seed = whole_number(chosen["seed"])
    if seed is None or (seed != _NO_SEED and not is_seed(seed)):
        raise StawvsError(
            ErrorCode.BAD_ARGUMENT, f"{SEED_RANGE} or -1 for none, not {excerpt(chosen['seed'])}"
        )
    return players, variants, seed


class StawvsGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_stawvs`` with its parameters (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        players, text, self.seed = _parameters(params)
        try:
            self.variants = check_variants([v for v in text.split("+") if v])
        except ValueError as exc:
            raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None
        self.rules = rules_for(players, self.variants)
        seeded = self.seed != _NO_SEED
        chance_outcomes = 0 if seeded else (64 if "random" in self.variants else len(COLOURED))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=chance_outcomes,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(players, self.rules.caps_per_player),
        )
        chosen = {"players": players, "variants": text, "seed": self.seed}
        super().__init__(_SEEDED_TYPE if seeded else _GAME_TYPE, info, chosen)

    def new_initial_state(self) -> StawvsState:
        """The start: the dealt board when seeded, else the first chance node."""
        return StawvsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _PlanesObserver:
        """The observer of both tensors and strings (the game has no hidden information)."""
        if params:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"no observation parameters, not {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _PlanesObserver(self.num_players(), perfect_recall)


class StawvsState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal under way (chance nodes), then a :class:`Position`."""

    def __init__(self, game: StawvsGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._variants = game.variants
        self.position: Position | None = None
        fixed = expected_gaps(game.variants)
        self._gaps: list[int] = [] if fixed is None else [int(sq) for sq in fixed]
        self._dealt: list[int] = []  # pyramid kinds dealt so far, square by square
        self._left = [PER_KIND] * len(COLOURED)
        if game.seed != _NO_SEED:
            self.position = Position.initial(self._rules.numplayers, game.variants, game.seed)

    # -- the deal ----------------------------------------------------------------

    def _next_square(self) -> int:
        """The square the next pyramid goes to: the next one in reading order no gap is on."""
        squares = [sq for sq in range(64) if sq not in self._gaps]
        return squares[len(self._dealt)]

    def _dealing_gaps(self) -> bool:
        return len(self._gaps) < 4

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of this chance node with their probabilities."""
        if self._dealing_gaps():
            free = [sq for sq in range(64) if sq not in self._gaps]
            return [(sq, 1.0 / len(free)) for sq in free]
        total = sum(self._left)
        return [(kind, left / total) for kind, left in enumerate(self._left) if left]

    def _deal(self, outcome: int) -> None:
        if self._dealing_gaps():
            if not 0 <= outcome < 64 or outcome in self._gaps:
                raise StawvsError(ErrorCode.BAD_ARGUMENT, f"no gap can be dealt as {outcome}")
            self._gaps.append(outcome)
            return
        if not 0 <= outcome < len(COLOURED) or not self._left[outcome]:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"no pyramid can be dealt as {outcome}")
        self._left[outcome] -= 1
        self._dealt.append(outcome)
        if len(self._dealt) == 60:
            dealt = iter(self._dealt)
            board = [EMPTY if sq in self._gaps else next(dealt) for sq in range(64)]
            self.position = Position.build(self._rules, board)

    # -- OpenSpiel's calls -----------------------------------------------------------

    def current_player(self) -> int:
        position = self.position
        if position is None:
            return int(pyspiel.PlayerId.CHANCE)
        if position.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return position.currplayer - 1

    def _legal_actions(self, player: int) -> list[int]:
        assert self.position is not None
        return legal_actions(self.position)

    def apply_action(self, action: int) -> None:
        """Play ``action`` (a Python or numpy whole number), or deal it at a chance
        node; ``BAD_ARGUMENT`` for anything else, before OpenSpiel reads it, and
        ``BAD_MOVE`` for an illegal move. Nothing changes when it is refused."""
        super().apply_action(self._number(action))

    def child(self, action: int) -> StawvsState:
        """The state after ``action``, this one unchanged (refusals as :meth:`apply_action`)."""
        return super().child(self._number(action))  # type: ignore[no-any-return]

    def action_to_string(self, *player_and_action: Any) -> str:
        """The action (``action`` or ``player, action``, a whole number as
        :meth:`apply_action` takes it) in words: a move string, or a deal."""
        *player, action = player_and_action
        return str(super().action_to_string(*player, action_number(action)))

    def _number(self, action: object) -> int:
        """``action`` as a number of this node's outcomes (``BAD_ARGUMENT`` otherwise)."""
        return action_number(action, NUM_ACTIONS if self.position is not None else 64)

    def _apply_action(self, action: int) -> None:
        position = self.position
        if position is None:
            self._deal(int(action))
            return
        move = decode(int(action))
        if not position.is_legal(move):
            raise StawvsError(ErrorCode.BAD_MOVE, f"{move} is not a legal move here")
        self.position, _ = position.play(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._dealing_gaps():
                return SQUARE_NAMES[action_number(action, 64)]
            kind = PYRAMIDS[action_number(action, len(COLOURED))]
            return f"{SQUARE_NAMES[self._next_square()]}={kind.code}"
        return str(decode(action))

    def is_terminal(self) -> bool:
        return self.position is not None and self.position.is_over

    def returns(self) -> list[float]:
        """Each player's share of the win at the end; zeros before."""
        position = self.position
        n = self._rules.numplayers
        if position is None or not position.is_over:
            return [0.0] * n
        return returns_of(position.winners(), n)

    def __str__(self) -> str:
        if self.position is None:
            dealt = iter(self._dealt)
            squares = [sq for sq in range(64) if sq not in self._gaps][: len(self._dealt)]
            deal = " ".join(f"{SQUARE_NAMES[sq]}={PYRAMIDS[next(dealt)].code}" for sq in squares)
            gaps = " ".join(SQUARE_NAMES[sq] for sq in self._gaps)
            return f"dealing: gaps {gaps or '-'}; {deal or 'no pyramid yet'}"
        return str(self.position)


class _PlanesObserver:
    """OpenSpiel's Python observer: the planes of :mod:`stawvs_ap.encoding`."""

    def __init__(self, numplayers: int, perfect_recall: bool) -> None:
        self._perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(numplayers), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StawvsState, player: int) -> None:
        if state.position is None:
            self.tensor.fill(0.0)
        else:
            observation_planes(state.position, self.tensor)

    def string_from(self, state: StawvsState, player: int) -> str:
        if self._perfect_recall:
            return str(state.history_str())
        return str(state)


class EngineBot(pyspiel.Bot):  # type: ignore[misc]
    """One of the package's bots (:mod:`stawvs_ap.bots`) as an OpenSpiel bot, for
    ``evaluate_bots``: it plays the move ``bot.choose`` gives, within ``iterations``."""

    def __init__(self, bot: Bot, iterations: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self._bot = bot
        self._iterations = iterations

    def step(self, state: StawvsState) -> int:
        """The action of the bot's move in ``state``."""
        if state.position is None:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, "the deal is not over: no move to choose")
        return encode(self._bot.choose(state.position, iterations=self._iterations))

    def restart_at(self, state: StawvsState) -> None:
        """Nothing to forget: the bot reads the position it is given."""

    def inform_action(self, state: StawvsState, player_id: int, action: int) -> None:
        """Nothing to follow, likewise."""


pyspiel.register_game(_GAME_TYPE, StawvsGame)
