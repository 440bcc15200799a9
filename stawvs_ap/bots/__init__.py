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
will do as well. A bot spec (``mcts:seconds=0.5``, :class:`BotSpec`) names a
bot and its options, each declared with a type and a range
(:class:`Option`); :func:`make_bot` makes the bot and its budget from one.
"""

from __future__ import annotations

from .base import Bot, Budget, Candidate
from .mcts import MCTSBot
from .options import MAX_ITERATIONS, MAX_SECONDS, Option
from .simple import GreedyBot, RandomBot
from .spec import BOTS, BotSpec, make_bot
from .uct import UCTBot

__all__ = [
    "BOTS",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "Bot",
    "BotSpec",
    "Budget",
    "Candidate",
    "GreedyBot",
    "MCTSBot",
    "Option",
    "RandomBot",
    "UCTBot",
    "make_bot",
]
