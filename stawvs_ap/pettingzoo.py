"""Stawvs as a PettingZoo AEC environment (the ``rl`` extra installs PettingZoo).

Agents are ``player_1`` … ``player_n``, all present until the game ends (a
player who has passed stays, and may only pass again). Each observation is a
dict: ``observation``, the planes of :func:`~stawvs_ap.encoding.observation_planes`
(a ``Box`` of ``float32`` in 0–1), and ``action_mask``, 1 for the legal
actions among :mod:`stawvs_ap.encoding`'s numbers. An illegal action raises
:class:`~stawvs_ap.errors.StawvsError` (``BAD_MOVE``), and one that is no action
number at all (out of range, not a whole number: ``-1``, ``1.0``, ``"5"``,
``None``, ``True``) ``BAD_ARGUMENT``; neither changes anything. Actions and
seeds are Python's whole numbers or numpy's. :func:`env` and :class:`raw_env`
are the same environment: it checks the order of its calls itself
(``BAD_ARGUMENT`` for a step before ``reset``, ``GAMEOVER`` for a step once
every agent is done), so PettingZoo's wrappers, which would assert first, are
not put around it.
Rewards come once, at the end: each player's share of the win, as the
OpenSpiel game's returns. ``reset(seed=s)`` deals
``Position.initial(n, variants, s)``; ``reset(options={"state": TEXT})``
starts from a state the engine loads (its own or Abstract Play's JSON, as text,
UTF-8 bytes or a parsed dict) or a position notation.

>>> environment = env(players=2, variants=("hole",))
>>> environment.reset(seed=1)
>>> agent = environment.agent_selection
>>> observation, reward, terminated, truncated, info = environment.last()
>>> agent, int(observation["action_mask"].sum()), reward
('player_1', 60, 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from .core.position import Position
from .encoding import (
    NUM_ACTIONS,
    decode,
    legal_actions,
    observation_planes,
    observation_size,
    whole_number,
)
from .errors import ErrorCode, StawvsError, excerpt
from .host.game import StawvsGame

__all__ = ["env", "raw_env"]

_SQUARE_PIXELS = 16


def env(players: int = 2, variants: Sequence[str] = (), render_mode: str | None = None) -> raw_env:
    """The environment. It checks its actions and the order of its calls itself,
    refusing with the package's errors, so it goes without PettingZoo's
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper`` (whose
    ``AssertionError`` would come first)."""
    return raw_env(players, variants, render_mode)


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "stawvs_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, players: int = 2, variants: Sequence[str] = (), render_mode: str | None = None
    ) -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT, f"Stawvs is for 2 to 4 players, not {excerpt(players)}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"no render mode {excerpt(render_mode)}")
        try:
            Position.initial(players, list(variants), seed=0)
        except ValueError as exc:
            raise StawvsError(ErrorCode.BAD_VARIANT, str(exc)) from None
        self.numplayers = players
        self.variants = list(variants)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(1, players + 1)]
        size = observation_size(players)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self.position = Position.initial(players, self.variants, seed=0)
        self._ended_winners: list[int] | None = None
        self._has_reset = False
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- the game ------------------------------------------------------------------

    def _load(self, state: object) -> tuple[Position, list[int] | None]:
        if isinstance(state, bytes | bytearray):  # a state's JSON: a position is text
            try:
                state = bytes(state).decode("utf-8")
            except UnicodeDecodeError:
                raise StawvsError(
                    ErrorCode.BAD_STATE,
                    "the state's bytes are not UTF-8 text, as a state's JSON is",
                ) from None
            game = StawvsGame.from_state(state)
        elif isinstance(state, dict) or (isinstance(state, str) and state.lstrip().startswith("{")):
            game = StawvsGame.from_state(state)
        elif isinstance(state, str):
            game = StawvsGame.from_position(state, self.variants)
        else:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                "the option 'state' is a state (JSON text or bytes, or a parsed dict) "
                f"or a position notation, not {excerpt(state)}",
            )
        position = game.position
        if position.rules.numplayers != self.numplayers:
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"the state has {position.rules.numplayers} players,"
                f" the environment {self.numplayers}",
            )
        return position, (list(game.winner) if game.gameover else None)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (the same for the same seed: a Python or numpy whole number),
        or the state in ``options["state"]``; nothing changes when either is refused."""
        if options is not None and not isinstance(options, Mapping):
            raise StawvsError(
                ErrorCode.BAD_ARGUMENT,
                f"options are a dict such as {{'state': ...}}, not {excerpt(options)}",
            )
        state = (options or {}).get("state")
        if state is not None:
            self.position, self._ended_winners = self._load(state)
        else:
            number = None if seed is None else whole_number(seed)  # numpy's too
            self.position, self._ended_winners = (
                Position.initial(
                    self.numplayers, self.variants, seed if number is None else number
                ),
                None,
            )
        self._has_reset = True
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move()

    def _winners(self) -> list[int] | None:
        if self._ended_winners is not None:
            return self._ended_winners
        return self.position.winners() if self.position.is_over else None

    def _after_move(self) -> None:
        winners = self._winners()
        if winners is None:
            self.agent_selection = self.possible_agents[self.position.currplayer - 1]
            return
        share = 1.0 / len(winners) if winners else 0.0
        for p, agent in enumerate(self.possible_agents, start=1):
            self.rewards[agent] = share if p in winners else 0.0
            self.terminations[agent] = True
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[self.position.currplayer - 1]

    def _check_reset(self, call: str) -> None:
        if not self._has_reset:
            raise StawvsError(ErrorCode.BAD_ARGUMENT, f"reset() the environment before {call}()")

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        self._check_reset("observe")
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if self._winners() is None and agent == self.agent_selection:
            mask[legal_actions(self.position)] = 1
        return {"observation": observation_planes(self.position), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the action of the agent to move (``None`` once it is done)."""
        self._check_reset("step")
        if not self.agents:
            raise StawvsError(
                ErrorCode.GAMEOVER, "every agent is done: reset() the environment for another game"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise StawvsError(
                    ErrorCode.BAD_ARGUMENT,
                    f"{agent} is done: its step takes None, not {excerpt(action)}",
                )
            self._was_dead_step(action)
            return
        move = decode(action)  # BAD_ARGUMENT: no action number at all
        if not self.position.is_legal(move):
            raise StawvsError(
                ErrorCode.BAD_MOVE, f"action {excerpt(action)} is not a legal move here"
            )
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.position, _ = self.position.play(move)
        self._after_move()

    # -- pictures ------------------------------------------------------------------

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The text board (``ansi``) or a picture of it (``rgb_array``)."""
        self._check_reset("render")
        if self.render_mode == "ansi":
            return str(self.position)
        if self.render_mode == "rgb_array":
            return board_pixels(self.position)
        return None

    def close(self) -> None:
        """Nothing to free."""


_KIND_RGB = ((240, 98, 146), (30, 136, 229), (67, 160, 71), (251, 140, 0), (196, 196, 196))
_CAP_RGB = ((33, 33, 33), (255, 255, 255), (106, 27, 154), (255, 235, 59))


def board_pixels(position: Position) -> npt.NDArray[np.uint8]:
    """The board as an RGB picture, 16 pixels a square: a square of the pyramid's
    colour as wide as its size, and a dot of the player's colour for a cap."""
    unit = _SQUARE_PIXELS
    picture = np.full((8 * unit, 8 * unit, 3), (243, 234, 216), np.uint8)
    for sq in range(64):
        top, left = (sq // 8) * unit, (sq % 8) * unit
        if (sq // 8 + sq % 8) % 2:
            picture[top : top + unit, left : left + unit] = (226, 212, 183)
        pyramid = position.pyramid_at(sq)
        if pyramid is not None:
            margin = (3 - pyramid.size) * 2 + 1
            picture[top + margin : top + unit - margin, left + margin : left + unit - margin] = (
                _KIND_RGB[pyramid.colour]
            )
        player = position.cap_at(sq)
        if player is not None:
            picture[top + 6 : top + 10, left + 6 : left + 10] = _CAP_RGB[player - 1]
    return picture
