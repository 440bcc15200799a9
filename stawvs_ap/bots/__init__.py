"""Computer players for Stawvs, and an arena to measure them.

>>> from stawvs_ap import StawvsGame
>>> from stawvs_ap.bots import GreedyBot
>>> game = StawvsGame.new(2, seed=1)
>>> move = GreedyBot(seed=1).choose(game)
>>> game.is_legal(move)
True

Every bot takes ``seed=`` and answers ``choose(game, seconds=..., iterations=...)``
with a legal :class:`~stawvs_ap.core.moves.Move`, leaving ``game`` unchanged;
``analyse(game, ...)`` lists the candidates it weighed, best first. The bots
read ``game.position`` only, so a :class:`~stawvs_ap.core.position.Position`
will do as well. :func:`bot_class` finds a bot by name, built in or a plug-in
of another package; :class:`ExecBot` plays an external program. docs/bots.md
says what every bot promises.
"""

from __future__ import annotations

from .base import Bot, BotFailure, Budget, Candidate
from .engine import ExecBot
from .mcts import MCTSBot
from .registry import BOTS, ENTRY_POINT_GROUP, bot_class, bot_names
from .simple import GreedyBot, RandomBot
from .uct import UCTBot

__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "Bot",
    "BotFailure",
    "Budget",
    "Candidate",
    "ExecBot",
    "GreedyBot",
    "MCTSBot",
    "RandomBot",
    "UCTBot",
    "bot_class",
    "bot_names",
]
