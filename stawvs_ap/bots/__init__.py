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
will do as well.
"""

from __future__ import annotations

from .base import Bot, Budget, Candidate
from .mcts import MCTSBot
from .simple import GreedyBot, RandomBot
from .uct import UCTBot

__all__ = ["BOTS", "Bot", "Budget", "Candidate", "GreedyBot", "MCTSBot", "RandomBot", "UCTBot"]

#: Every bot by the name the arena and the command line use.
BOTS: dict[str, type[Bot]] = {bot.name: bot for bot in (RandomBot, GreedyBot, MCTSBot, UCTBot)}
