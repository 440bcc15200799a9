"""Computer players for Stawvs, and an arena to measure them.

>>> from stawvs_ap import StawvsGame
>>> from stawvs_ap.bots import BOTS, GreedyBot, MCTSBot
>>> sorted(BOTS)  # the names of bot specs: "mcts:seconds=0.25"
['greedy', 'mcts', 'random', 'uct']
>>> game = StawvsGame.new(2, seed=1)
>>> before = game.serialize()
>>> move = GreedyBot(seed=1).choose(game)
>>> game.is_legal(move), game.serialize() == before  # a legal move; the game untouched
(True, True)
>>> move = MCTSBot(seed=1).choose(game, iterations=200)  # an iteration budget: reproducible
>>> move == MCTSBot(seed=1).choose(game, iterations=200)
True
>>> candidates = MCTSBot(seed=1).analyse(game, iterations=200, top=3)
>>> len(candidates), candidates[0].move == move, 0 <= candidates[0].value <= 1
(3, True, True)

Every bot takes ``seed=`` and answers ``choose(game, seconds=..., iterations=...)``
with a legal :class:`~stawvs_ap.core.moves.Move`, leaving ``game`` unchanged;
``analyse(game, ...)`` lists the candidates it weighed, best first. The bots
read ``game.position`` only, so a :class:`~stawvs_ap.core.position.Position`
will do as well. A bot spec (``mcts:seconds=0.5``, :class:`BotSpec`) names a
bot and its options, each declared with a type and a range
(:class:`Option`; a bot's own options are the fields of its settings dataclass,
such as :class:`MCTSSettings`, made with :func:`setting` on :class:`Settings`);
:func:`make_bot` makes the bot and its budget from one.
:func:`bot_class` finds a bot by name, built in or a plug-in of another
package; :class:`ExecBot` plays an external program. docs/bots.md says what
every bot promises.
"""

from __future__ import annotations

from .base import Bot, BotFailure, Budget, Candidate
from .engine import ExecBot, ExecSettings
from .mcts import MCTSBot, MCTSSettings
from .options import MAX_ITERATIONS, MAX_SECONDS, Option, Settings, setting
from .registry import BOTS, ENTRY_POINT_GROUP, bot_class, bot_names
from .simple import GreedyBot, RandomBot
from .spec import BotSpec, make_bot
from .uct import UCTBot, UCTSettings

__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "Bot",
    "BotFailure",
    "BotSpec",
    "Budget",
    "Candidate",
    "ExecBot",
    "ExecSettings",
    "GreedyBot",
    "MCTSBot",
    "MCTSSettings",
    "Option",
    "RandomBot",
    "Settings",
    "UCTBot",
    "UCTSettings",
    "bot_class",
    "bot_names",
    "make_bot",
    "setting",
]
